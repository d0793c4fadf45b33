package interp

import (
	"fmt"
	"slices"

	"github.com/pirdrr/drr/interp/tensor"
)

// Rearrangements of elements: reverse, pixel_shuffle and pixel_unshuffle, channel_shuffle (shuffle_channel),
// temporal_shift, unbind and unstack, diagonal and trace.
func registerRearrange[T tensor.Float](r registry[T]) {
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
