package interp

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/pirdrr/drr/interp/tensor"
)

// Ops outside the corpus that inference programs and rewrites commonly produce: log_softmax, amax/amin,
// NaN-aware and IEEE predicates, channel rearrangements (pixel_shuffle, channel_shuffle, temporal_shift), unbind
// and unstack, diagonals, small products (dot, mv, kron), scans with indices (cummax, cummin), logcumsumexp,
// argsort, closeness tests, label_smooth, maxout, sequence_mask and eye. Each follows the Paddle CPU kernel of
// the same name.

func registerExtra[T tensor.Float](r registry[T]) {
	b := func(ok bool) float64 {
		if ok {
			return 1
		}
		return 0
	}
	r["pd_op.log_softmax"] = kLogSoftmax[T]
	r["pd_op.amax"] = extremum[T](math.Inf(-1), math.Max)
	r["pd_op.amin"] = extremum[T](math.Inf(1), math.Min)
	for name, f := range map[string]func(float64) float64{
		"isinf":    func(x float64) float64 { return b(math.IsInf(x, 0)) },
		"isfinite": func(x float64) float64 { return b(!math.IsInf(x, 0) && !math.IsNaN(x)) },
	} {
		r["pd_op."+name] = func(c *call[T]) ([]*value[T], error) {
			x, err := c.in(0)
			if err != nil {
				return nil, err
			}
			return c.one(mapUnary(x, f), nil)
		}
	}
	// fmax/fmin ignore a NaN operand (the other is the result); maximum/minimum propagate it.
	r["pd_op.fmax"] = binaryFunc[T](func(x, y float64) float64 {
		if math.IsNaN(x) || y > x {
			return y
		}
		return x
	})
	r["pd_op.fmin"] = binaryFunc[T](func(x, y float64) float64 {
		if math.IsNaN(x) || y < x {
			return y
		}
		return x
	})
	r["pd_op.atan2"] = binaryFunc[T](math.Atan2)
	r["pd_op.heaviside"] = binaryFunc[T](func(x, y float64) float64 {
		switch {
		case x == 0:
			return y
		case x > 0:
			return 1
		case x < 0:
			return 0
		}
		return x // NaN
	})
	r["pd_op.reverse"] = kFlip[T]
	r["pd_op.pixel_shuffle"] = kPixelShuffle[T](false)
	r["pd_op.pixel_unshuffle"] = kPixelShuffle[T](true)
	r["pd_op.channel_shuffle"] = kChannelShuffle[T]
	r["pd_op.shuffle_channel"] = kChannelShuffle[T]
	r["pd_op.temporal_shift"] = kTemporalShift[T]
	r["pd_op.unbind"] = kUnbind[T]
	r["pd_op.unstack"] = kUnbind[T]
	r["pd_op.diagonal"] = kDiagonal[T](false)
	r["pd_op.trace"] = kDiagonal[T](true)
	r["pd_op.dot"] = kDot[T]
	r["pd_op.mv"] = kMv[T]
	r["pd_op.kron"] = kKron[T]
	r["pd_op.cummax"] = kCumExtremum[T](true)
	r["pd_op.cummin"] = kCumExtremum[T](false)
	r["pd_op.logcumsumexp"] = kLogCumSumExp[T]
	r["pd_op.argsort"] = kArgsort[T]
	r["pd_op.isclose"] = kIsClose[T](false)
	r["pd_op.allclose"] = kIsClose[T](true)
	r["pd_op.equal_all"] = kEqualAll[T]
	r["pd_op.label_smooth"] = kLabelSmooth[T]
	r["pd_op.maxout"] = kMaxout[T]
	r["pd_op.sequence_mask"] = kSequenceMask[T]
	r["pd_op.eye"] = kEye[T]
	r["pd_op.squared_l2_norm"] = kSquaredL2Norm[T]
	r["pd_op.frobenius_norm"] = kFrobeniusNorm[T]
}

// lines splits shape around axis: the count of lines along it (outer·inner), its length n and the stride inner.
func lines(shape []int, axis int) (outer, n, inner int) {
	outer, n, inner = 1, shape[axis], 1
	for _, d := range shape[:axis] {
		outer *= d
	}
	for _, d := range shape[axis+1:] {
		inner *= d
	}
	return outer, n, inner
}

// kLogSoftmax is x − max − log Σ exp(x − max) along axis, computed in float64 per line.
func kLogSoftmax[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	if len(x.Shape) == 0 {
		return c.one(mapUnary(x, func(float64) float64 { return 0 }), nil)
	}
	axis, err := normAxis(c.attrInt("axis", -1), len(x.Shape))
	if err != nil {
		return nil, err
	}
	outer, n, inner := lines(x.Shape, axis)
	out := make([]T, len(x.Data))
	tensor.ParallelFor(outer*inner, 4*n, func(lo, hi int) {
		for line := lo; line < hi; line++ {
			base := (line/inner)*n*inner + line%inner
			m := math.Inf(-1)
			for k := range n {
				m = math.Max(m, float64(x.Data[base+k*inner]))
			}
			s := 0.0
			for k := range n {
				s += math.Exp(float64(x.Data[base+k*inner]) - m)
			}
			ls := math.Log(s)
			for k := range n {
				out[base+k*inner] = T(float64(x.Data[base+k*inner]) - m - ls)
			}
		}
	})
	return c.one(&tensor.Tensor[T]{Shape: slices.Clone(x.Shape), Data: out}, nil)
}

// layoutChannelAxis returns the channel axis of a 4-D layout.
func layoutChannelAxis(format string) (int, error) {
	switch format {
	case "NCHW", "":
		return 1, nil
	case "NHWC":
		return 3, nil
	}
	return 0, unsupported("data_format %q", format)
}

// kPixelShuffle moves r×r blocks of channels into space (pixel_shuffle: [N, C·r², H, W] → [N, C, H·r, W·r],
// out[n, c, h·r+i, w·r+j] = x[n, c·r²+i·r+j, h, w]) or back (pixel_unshuffle).
func kPixelShuffle[T tensor.Float](unshuffle bool) kernel[T] {
	return func(c *call[T]) ([]*value[T], error) {
		x, err := c.in(0)
		if err != nil {
			return nil, err
		}
		if len(x.Shape) != 4 {
			return nil, fmt.Errorf("input of rank %d, want 4", len(x.Shape))
		}
		r := c.attrInt("upscale_factor", 1)
		if unshuffle {
			r = c.attrInt("downscale_factor", 1)
		}
		if r <= 0 {
			return nil, fmt.Errorf("factor %d, want a positive one", r)
		}
		nhwc := c.attrString("data_format", "NCHW") == "NHWC"
		if f := c.attrString("data_format", "NCHW"); f != "NCHW" && f != "NHWC" {
			return nil, unsupported("data_format %q", f)
		}
		n, ch, h, w := x.Shape[0], x.Shape[1], x.Shape[2], x.Shape[3]
		if nhwc {
			h, w, ch = x.Shape[1], x.Shape[2], x.Shape[3]
		}
		// Small channel-first geometry: coarse (co, ho, wo) and fine (ci, hi, wi) sizes.
		var oc, oh, ow int
		if unshuffle {
			if h%r != 0 || w%r != 0 {
				return nil, fmt.Errorf("height %d and width %d must be multiples of %d", h, w, r)
			}
			oc, oh, ow = ch*r*r, h/r, w/r
		} else {
			if ch%(r*r) != 0 {
				return nil, fmt.Errorf("%d channels are not a multiple of %d", ch, r*r)
			}
			oc, oh, ow = ch/(r*r), h*r, w*r
		}
		at := func(shape [4]int, b, cc, y, xx int) int { // offset of (b, cc, y, xx) in the tensor's layout
			if nhwc {
				return ((b*shape[2]+y)*shape[3]+xx)*shape[1] + cc
			}
			return ((b*shape[1]+cc)*shape[2]+y)*shape[3] + xx
		}
		in := [4]int{n, ch, h, w}
		outShape := [4]int{n, oc, oh, ow}
		out := make([]T, len(x.Data))
		for b := range n {
			for cc := range oc {
				for y := range oh {
					for xx := range ow {
						var src int
						if unshuffle {
							// out channel cc = c·r² + i·r + j reads x[c, y·r+i, xx·r+j]
							cin, rem := cc/(r*r), cc%(r*r)
							src = at(in, b, cin, y*r+rem/r, xx*r+rem%r)
						} else {
							src = at(in, b, cc*r*r+(y%r)*r+xx%r, y/r, xx/r)
						}
						out[at(outShape, b, cc, y, xx)] = x.Data[src]
					}
				}
			}
		}
		shape := []int{n, oc, oh, ow}
		if nhwc {
			shape = []int{n, oh, ow, oc}
		}
		return c.one(&tensor.Tensor[T]{Shape: shape, Data: out}, nil)
	}
}

// kChannelShuffle splits the channels into groups and interleaves them: channel i·(C/g)+j moves to j·g+i
// (channel_shuffle's groups, shuffle_channel's group).
func kChannelShuffle[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	if len(x.Shape) != 4 {
		return nil, fmt.Errorf("input of rank %d, want 4", len(x.Shape))
	}
	g := c.attrInt("groups", 0)
	if c.op.Name() == "pd_op.shuffle_channel" {
		g = c.attrInt("group", 1)
	}
	axis, err := layoutChannelAxis(c.attrString("data_format", "NCHW"))
	if err != nil {
		return nil, err
	}
	outer, ch, inner := lines(x.Shape, axis)
	if g <= 0 || ch%g != 0 {
		return nil, fmt.Errorf("%d channels do not split into %d groups", ch, g)
	}
	per := ch / g
	out := make([]T, len(x.Data))
	for o := range outer {
		for i := range g {
			for j := range per {
				src := (o*ch + i*per + j) * inner
				dst := (o*ch + j*g + i) * inner
				copy(out[dst:dst+inner], x.Data[src:src+inner])
			}
		}
	}
	return c.one(&tensor.Tensor[T]{Shape: slices.Clone(x.Shape), Data: out}, nil)
}

// kTemporalShift shifts the first shift_ratio of the channels one segment back in time, the next shift_ratio one
// segment forward, and keeps the rest; positions shifted from outside the clip are zero. x is [N·T, C, H, W] (or
// NHWC) with T = seg_num.
func kTemporalShift[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	if len(x.Shape) != 4 {
		return nil, fmt.Errorf("input of rank %d, want 4", len(x.Shape))
	}
	t := c.attrInt("seg_num", 0)
	if t <= 0 || x.Shape[0]%t != 0 {
		return nil, fmt.Errorf("batch %d is not a multiple of seg_num %d", x.Shape[0], t)
	}
	axis, err := layoutChannelAxis(c.attrString("data_format", "NCHW"))
	if err != nil {
		return nil, err
	}
	ratio := c.attrFloat("shift_ratio", 0.25)
	ch := x.Shape[axis]
	c1, c2 := int(float64(ch)*ratio), int(float64(ch)*2*ratio)
	frame := len(x.Data) / x.Shape[0] // elements of one [C, H, W] frame
	out := make([]T, len(x.Data))
	for i := range x.Data {
		it := i / frame % t
		var ic int
		if axis == 1 {
			ic = i % frame / (frame / ch)
		} else {
			ic = i % ch
		}
		src := it
		switch {
		case ic < c1:
			src = it - 1
		case ic < c2:
			src = it + 1
		}
		if src >= 0 && src < t {
			out[i] = x.Data[i+(src-it)*frame]
		}
	}
	return c.one(&tensor.Tensor[T]{Shape: slices.Clone(x.Shape), Data: out}, nil)
}

// kUnbind splits x along axis into its slices, each without that axis (unbind; unstack, whose num must match).
func kUnbind[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	if len(x.Shape) == 0 {
		return nil, fmt.Errorf("cannot unbind a 0-D tensor")
	}
	axis, err := normAxis(c.attrInt("axis", 0), len(x.Shape))
	if err != nil {
		return nil, err
	}
	outer, n, inner := lines(x.Shape, axis)
	if num := c.attrInt("num", 0); c.op.Name() == "pd_op.unstack" && num > 0 && num != n {
		return nil, fmt.Errorf("num %d, but the axis has %d elements", num, n)
	}
	shape := slices.Delete(slices.Clone(x.Shape), axis, axis+1)
	parts := make([]*tensor.Tensor[T], n)
	for k := range n {
		d := make([]T, outer*inner)
		for o := range outer {
			copy(d[o*inner:(o+1)*inner], x.Data[(o*n+k)*inner:(o*n+k+1)*inner])
		}
		parts[k] = &tensor.Tensor[T]{Shape: slices.Clone(shape), Data: d}
	}
	return []*value[T]{c.vecOut(parts, 0)}, nil
}

// kDiagonal takes the diagonal with offset of the planes (axis1, axis2): diagonal appends it as the last axis,
// trace sums it.
func kDiagonal[T tensor.Float](sum bool) kernel[T] {
	return func(c *call[T]) ([]*value[T], error) {
		x, err := c.in(0)
		if err != nil {
			return nil, err
		}
		r := len(x.Shape)
		if r < 2 {
			return nil, fmt.Errorf("input of rank %d, want at least 2", r)
		}
		a1, err := normAxis(c.attrInt("axis1", 0), r)
		if err != nil {
			return nil, err
		}
		a2, err := normAxis(c.attrInt("axis2", 1), r)
		if err != nil {
			return nil, err
		}
		if a1 == a2 {
			return nil, fmt.Errorf("axis1 and axis2 are both %d", a1)
		}
		off := c.attrInt("offset", 0)
		// The diagonal runs over (i, i+off) of (a1, a2) for off ≥ 0, (i−off, i) otherwise.
		i0, j0 := 0, off
		if off < 0 {
			i0, j0 = -off, 0
		}
		m := max(0, min(x.Shape[a1]-i0, x.Shape[a2]-j0))
		strides := make([]int, r)
		s := 1
		for d := r - 1; d >= 0; d-- {
			strides[d] = s
			s *= x.Shape[d]
		}
		var rest []int
		for d := range r {
			if d != a1 && d != a2 {
				rest = append(rest, d)
			}
		}
		restShape := make([]int, len(rest))
		nRest := 1
		for k, d := range rest {
			restShape[k] = x.Shape[d]
			nRest *= x.Shape[d]
		}
		out := make([]T, nRest*m)
		idx := make([]int, len(rest))
		for q := range nRest {
			base := 0
			for k, d := range rest {
				base += idx[k] * strides[d]
			}
			for i := range m {
				out[q*m+i] = x.Data[base+(i0+i)*strides[a1]+(j0+i)*strides[a2]]
			}
			for k := len(idx) - 1; k >= 0; k-- {
				if idx[k]++; idx[k] < restShape[k] {
					break
				}
				idx[k] = 0
			}
		}
		if !sum {
			return c.one(&tensor.Tensor[T]{Shape: append(restShape, m), Data: out}, nil)
		}
		tr := make([]T, nRest)
		for q := range nRest {
			acc := 0.0
			for i := range m {
				acc += float64(out[q*m+i])
			}
			tr[q] = T(acc)
		}
		return c.one(c.declaredScalar(&tensor.Tensor[T]{Shape: restShape, Data: tr}, 0), nil)
	}
}

// kDot is the inner product of 1-D x and y (a 0-D result), or of the rows of 2-D x and y (a [N] result).
func kDot[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, y, err := c.inPair(0, 1)
	if err != nil {
		return nil, err
	}
	if !slices.Equal(x.Shape, y.Shape) || len(x.Shape) < 1 || len(x.Shape) > 2 {
		return nil, fmt.Errorf("dot of shapes %v and %v (want equal 1-D or 2-D shapes)", x.Shape, y.Shape)
	}
	d := x.Shape[len(x.Shape)-1]
	rows := 1
	shape := []int{}
	if len(x.Shape) == 2 {
		rows = x.Shape[0]
		shape = []int{rows}
	}
	out := make([]T, rows)
	for i := range rows {
		acc := T(0)
		for k := range d {
			acc += x.Data[i*d+k] * y.Data[i*d+k]
		}
		out[i] = acc
	}
	return c.one(c.declaredScalar(&tensor.Tensor[T]{Shape: shape, Data: out}, 0), nil)
}

// kMv is the product of an [M, N] matrix and an [N] vector.
func kMv[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, v, err := c.inPair(0, 1)
	if err != nil {
		return nil, err
	}
	if len(x.Shape) != 2 || len(v.Shape) != 1 || x.Shape[1] != v.Shape[0] {
		return nil, fmt.Errorf("mv of shapes %v and %v (want [M, N] and [N])", x.Shape, v.Shape)
	}
	m, n := x.Shape[0], x.Shape[1]
	out := make([]T, m)
	for i := range m {
		acc := T(0)
		for k := range n {
			acc += x.Data[i*n+k] * v.Data[k]
		}
		out[i] = acc
	}
	return c.one(&tensor.Tensor[T]{Shape: []int{m}, Data: out}, nil)
}

// kKron is the Kronecker product: the shapes are aligned on the right (padded with leading 1s) and
// out[i·ny + j] = x[i]·y[j] along every axis.
func kKron[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, y, err := c.inPair(0, 1)
	if err != nil {
		return nil, err
	}
	r := max(len(x.Shape), len(y.Shape))
	pad := func(s []int) []int {
		out := make([]int, r)
		for i := range out {
			out[i] = 1
		}
		copy(out[r-len(s):], s)
		return out
	}
	xs, ys := pad(x.Shape), pad(y.Shape)
	shape := make([]int, r)
	for i := range shape {
		shape[i] = xs[i] * ys[i]
	}
	n, err := numel(shape)
	if err != nil {
		return nil, err
	}
	out := make([]T, n)
	idx := make([]int, r)
	for k := range n {
		xo, yo := 0, 0
		for d := range r {
			xo = xo*xs[d] + idx[d]/ys[d]
			yo = yo*ys[d] + idx[d]%ys[d]
		}
		out[k] = x.Data[xo] * y.Data[yo]
		for d := r - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return c.one(&tensor.Tensor[T]{Shape: shape, Data: out}, nil)
}

// kCumExtremum is cummax/cummin along axis: the running extreme and the index where it was last reached (a
// later equal element takes over, as Paddle's greater_equal / less_equal comparison does); a NaN becomes the
// extreme and stays.
func kCumExtremum[T tensor.Float](largest bool) kernel[T] {
	return func(c *call[T]) ([]*value[T], error) {
		x, err := c.in(0)
		if err != nil {
			return nil, err
		}
		shape := x.Shape
		if len(shape) == 0 {
			shape = []int{1}
		}
		axis, err := normAxis(c.attrInt("axis", -1), len(shape))
		if err != nil {
			return nil, err
		}
		outer, n, inner := lines(shape, axis)
		vals, idxs := make([]T, len(x.Data)), make([]T, len(x.Data))
		for line := range outer * inner {
			base := (line/inner)*n*inner + line%inner
			if n == 0 {
				continue
			}
			best, at := float64(x.Data[base]), 0
			for k := range n {
				v := float64(x.Data[base+k*inner])
				if math.IsNaN(v) || !math.IsNaN(best) && (largest && v >= best || !largest && v <= best) {
					best, at = v, k
				}
				vals[base+k*inner], idxs[base+k*inner] = T(best), T(at)
			}
		}
		return []*value[T]{c.out(&tensor.Tensor[T]{Shape: slices.Clone(x.Shape), Data: vals}, 0),
			c.out(&tensor.Tensor[T]{Shape: slices.Clone(x.Shape), Data: idxs}, 1)}, nil
	}
}

// kLogCumSumExp is log Σ exp over a running prefix along axis (the flattened tensor with flatten), with cumsum's
// exclusive and reverse; the empty prefix of an exclusive scan is −∞.
func kLogCumSumExp[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	shape, axis := x.Shape, c.attrInt("axis", -1)
	if c.attrBool("flatten", false) || len(shape) == 0 {
		shape, axis = []int{len(x.Data)}, 0
	}
	if axis, err = normAxis(axis, len(shape)); err != nil {
		return nil, err
	}
	outer, n, inner := lines(shape, axis)
	excl, rev := c.attrBool("exclusive", false), c.attrBool("reverse", false)
	out := make([]T, len(x.Data))
	logAdd := func(a, b float64) float64 {
		if math.IsInf(a, -1) {
			return b
		}
		if math.IsInf(b, -1) {
			return a
		}
		m := math.Max(a, b)
		return m + math.Log(math.Exp(a-m)+math.Exp(b-m))
	}
	for line := range outer * inner {
		base := (line/inner)*n*inner + line%inner
		acc := math.Inf(-1)
		for k := range n {
			i := k
			if rev {
				i = n - 1 - k
			}
			at := base + i*inner
			if excl {
				out[at] = T(acc)
			}
			acc = logAdd(acc, float64(x.Data[at]))
			if !excl {
				out[at] = T(acc)
			}
		}
	}
	oshape := slices.Clone(x.Shape)
	if c.attrBool("flatten", false) {
		oshape = []int{len(x.Data)}
	}
	return c.one(&tensor.Tensor[T]{Shape: oshape, Data: out}, nil)
}

// kArgsort sorts along axis (stably, so that equal elements keep their order whatever stable says) and returns
// the sorted values and their indices; NaN sorts last ascending and first descending, as in Paddle's comparators.
func kArgsort[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	shape := x.Shape
	if len(shape) == 0 {
		shape = []int{1}
	}
	axis, err := normAxis(c.attrInt("axis", -1), len(shape))
	if err != nil {
		return nil, err
	}
	desc := c.attrBool("descending", false)
	outer, n, inner := lines(shape, axis)
	vals, idxs := make([]T, len(x.Data)), make([]T, len(x.Data))
	tensor.ParallelFor(outer*inner, n*8, func(lo, hi int) {
		order := make([]int, n)
		for line := lo; line < hi; line++ {
			base := (line/inner)*n*inner + line%inner
			for i := range order {
				order[i] = i
			}
			sort.SliceStable(order, func(i, j int) bool {
				a, b := float64(x.Data[base+order[i]*inner]), float64(x.Data[base+order[j]*inner])
				an, bn := math.IsNaN(a), math.IsNaN(b)
				if desc {
					return an && !bn || !an && !bn && a > b
				}
				return bn && !an || !an && !bn && a < b
			})
			for k, o := range order {
				vals[base+k*inner] = x.Data[base+o*inner]
				idxs[base+k*inner] = T(o)
			}
		}
	})
	return []*value[T]{c.out(&tensor.Tensor[T]{Shape: slices.Clone(x.Shape), Data: vals}, 0),
		c.out(&tensor.Tensor[T]{Shape: slices.Clone(x.Shape), Data: idxs}, 1)}, nil
}

// kIsClose is |x − y| ≤ atol + rtol·|y| (within 1e-15) element-wise (isclose), or whether it holds everywhere (allclose, a 0-D
// boolean); equal values (infinities included) are close, NaNs only with equal_nan.
func kIsClose[T tensor.Float](all bool) kernel[T] {
	return func(c *call[T]) ([]*value[T], error) {
		x, y, err := c.inPair(0, 1)
		if err != nil {
			return nil, err
		}
		rtol, err := c.requireScalar("rtol", 2)
		if err != nil {
			return nil, err
		}
		atol, err := c.requireScalar("atol", 3)
		if err != nil {
			return nil, err
		}
		eqNaN := c.attrBool("equal_nan", false)
		near := func(a, b float64) float64 {
			switch {
			case a == b:
				return 1
			case math.IsNaN(a) || math.IsNaN(b):
				if eqNaN && math.IsNaN(a) && math.IsNaN(b) {
					return 1
				}
				return 0
			}
			// Paddle also accepts a difference within 1e-15 of the bound.
			d, bound := math.Abs(a-b), atol+rtol*math.Abs(b)
			if d <= bound || math.Abs(d-bound) <= 1e-15 {
				return 1
			}
			return 0
		}
		out, err := mapBinary(x, y, near)
		if err != nil || !all {
			return c.one(out, err)
		}
		ok := 1.0
		for _, v := range out.Data {
			ok = min(ok, float64(v))
		}
		return c.one(c.declaredScalar(&tensor.Tensor[T]{Shape: []int{}, Data: []T{T(ok)}}, 0), nil)
	}
}

// kEqualAll is whether x and y have the same shape and elements (a 0-D boolean).
func kEqualAll[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, y, err := c.inPair(0, 1)
	if err != nil {
		return nil, err
	}
	ok := T(0)
	if slices.Equal(x.Shape, y.Shape) && slices.Equal(x.Data, y.Data) {
		ok = 1
	}
	return c.one(c.declaredScalar(&tensor.Tensor[T]{Shape: []int{}, Data: []T{ok}}, 0), nil)
}

// kLabelSmooth is (1 − ε)·label + ε·prior_dist, or + ε/C (C the last dim) without a prior.
func kLabelSmooth[T tensor.Float](c *call[T]) ([]*value[T], error) {
	label, err := c.in(0)
	if err != nil {
		return nil, err
	}
	prior, err := c.optIn(1)
	if err != nil {
		return nil, err
	}
	eps := c.attrFloat("epsilon", 0)
	if prior != nil {
		return c.one(mapBinary(label, prior, func(l, p float64) float64 { return (1-eps)*l + eps*p }))
	}
	if len(label.Shape) == 0 || label.Shape[len(label.Shape)-1] == 0 {
		return nil, fmt.Errorf("label of shape %v has no classes", label.Shape)
	}
	k := float64(label.Shape[len(label.Shape)-1])
	return c.one(mapUnary(label, func(l float64) float64 { return (1-eps)*l + eps/k }), nil)
}

// kMaxout is the maximum over groups of consecutive channels: out[n, c, …] = max_g x[n, c·groups+g, …] (channel
// axis 1; Paddle's kernel indexes the channel-last form differently, which is not implemented).
func kMaxout[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	if len(x.Shape) != 4 {
		return nil, fmt.Errorf("input of rank %d, want 4", len(x.Shape))
	}
	if a := c.attrInt("axis", 1); a != 1 {
		return nil, unsupported("maxout along axis %d", a)
	}
	g := c.attrInt("groups", 0)
	ch := x.Shape[1]
	if g <= 0 || ch%g != 0 {
		return nil, fmt.Errorf("%d channels do not split into groups of %d", ch, g)
	}
	fea := x.Shape[2] * x.Shape[3]
	oc := ch / g
	out := make([]T, x.Shape[0]*oc*fea)
	for b := range x.Shape[0] {
		for co := range oc {
			for f := range fea {
				m := math.Inf(-1)
				for k := range g {
					m = math.Max(m, float64(x.Data[(b*ch+co*g+k)*fea+f]))
				}
				out[(b*oc+co)*fea+f] = T(m)
			}
		}
	}
	return c.one(&tensor.Tensor[T]{Shape: []int{x.Shape[0], oc, x.Shape[2], x.Shape[3]}, Data: out}, nil)
}

// kSequenceMask is y[…, j] = j < x[…] for j < max_len (max(x) when max_len is negative): x's shape plus one axis.
func kSequenceMask[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	ml, ok, err := c.scalarArg("max_len", 1, "maxlen", "max_len")
	if err != nil {
		return nil, err
	}
	maxLen := -1
	if ok {
		maxLen = int(ml)
	}
	if maxLen < 0 {
		maxLen = 0
		for _, v := range x.Data {
			maxLen = max(maxLen, int(v))
		}
	}
	if err := c.m.opts.checkSize("sequence_mask result", append(slices.Clone(x.Shape), maxLen)); err != nil {
		return nil, err
	}
	out := make([]T, len(x.Data)*maxLen)
	for i, v := range x.Data {
		for j := range maxLen {
			if float64(j) < float64(v) {
				out[i*maxLen+j] = 1
			}
		}
	}
	return c.one(&tensor.Tensor[T]{Shape: append(slices.Clone(x.Shape), maxLen), Data: out}, nil)
}

// kEye is the num_rows × num_columns identity (num_columns −1 means square).
func kEye[T tensor.Float](c *call[T]) ([]*value[T], error) {
	rows, err := c.requireScalar("num_rows", 0)
	if err != nil {
		return nil, err
	}
	cols, err := c.requireScalar("num_columns", 1)
	if err != nil {
		return nil, err
	}
	if cols < 0 {
		cols = rows
	}
	r, k := int(rows), int(cols)
	if r < 0 {
		return nil, fmt.Errorf("num_rows %d", r)
	}
	if err := c.m.opts.checkSize("eye result", []int{r, k}); err != nil {
		return nil, err
	}
	out := make([]T, r*k)
	for i := range min(r, k) {
		out[i*k+i] = 1
	}
	return c.one(&tensor.Tensor[T]{Shape: []int{r, k}, Data: out}, nil)
}

// kSquaredL2Norm is Σx² over every element, of shape [1].
func kSquaredL2Norm[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	s := 0.0
	for _, v := range x.Data {
		s += float64(v) * float64(v)
	}
	return c.one(c.declaredScalar(&tensor.Tensor[T]{Shape: []int{1}, Data: []T{T(s)}}, 0), nil)
}

// kFrobeniusNorm is √Σx² over the axis operand (every axis with reduce_all), with keep_dim.
func kFrobeniusNorm[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	axes, err := c.ints(1)
	if err != nil {
		return nil, err
	}
	if c.attrBool("reduce_all", false) {
		axes = nil
	}
	out, err := reduceAxes(x, axes, c.attrBool("keep_dim", false), func(run []T) float64 {
		s := 0.0
		for _, v := range run {
			s += float64(v) * float64(v)
		}
		return math.Sqrt(s)
	})
	if err != nil {
		return nil, err
	}
	return c.one(c.declaredScalar(out, 0), nil)
}
