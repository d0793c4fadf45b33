package interp

import (
	"fmt"
	"math"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// Resizing: linear_interp (1 spatial dim), bilinear/nearest/bicubic_interp (2) and trilinear/nearest (3), as
// Paddle's interpolate kernels compute them. The op's interp_method attribute chooses the method (Paddle's kernels
// dispatch on it too) and the input's rank the number of spatial dims.
//
// Output size: size_tensor (one scalar per spatial dim) wins; otherwise scale_tensor (one value for every dim, or
// one per dim), else the scale attribute (for 2-D and 3-D only with one value per dim; 1-D takes its first),
// sets out = int(in·scale); out_size, when given, overrides that; else the out_d/out_h/out_w attributes. An output
// the input's size is a copy. Per dim the source ratio is (in−1)/(out−1) with align_corners, else 1/scale when a
// scale is set, else in/out, in float32.
//
// Linear (bi-, tri-): source index int(ratio·(k+0.5)−0.5) clamped at 0 with weight from that fractional position
// when align_mode is 0 and not align_corners, else int(ratio·k); the upper neighbour is min(index+1, in−1); weights
// in float32 as Paddle stores them. Nearest: int(ratio·k), or int(ratio·k + 0.5) with align_corners. Bicubic: Keys'
// cubic convolution (A = −0.75) over 4×4 neighbours clamped to the edges, source position ratio·k with
// align_corners, else ratio·(k+0.5)−0.5. Sums run over the first spatial dim outermost, up to rounding Paddle's
// order.

func registerInterp[T tensor.Float](r registry[T]) {
	for _, name := range []string{"linear_interp", "bilinear_interp", "nearest_interp", "bicubic_interp", "trilinear_interp"} {
		r["pd_op."+name] = kInterp[T]
	}
	r["pd_op.grid_sample"] = kGridSample[T]
}

// taps are, per output coordinate along one dim, the source indices and their weights.
type taps struct {
	idx [][]int
	w   [][]float64
}

func linearTaps(in, out int, ratio float32, alignFlag bool) taps {
	t := taps{idx: make([][]int, out), w: make([][]float64, out)}
	for k := range out {
		var lo int
		var d float32
		if alignFlag {
			src := float64(ratio)*(float64(k)+0.5) - 0.5
			lo = max(int(src), 0)
			d = float32(max(src, 0)) - float32(lo)
		} else {
			p := ratio * float32(k)
			lo = max(int(p), 0)
			d = p - float32(lo)
		}
		hi := min(lo+1, in-1)
		t.idx[k] = []int{lo, hi}
		t.w[k] = []float64{float64(1 - d), float64(d)}
	}
	return t
}

func nearestTaps(in, out int, ratio float32, alignCorners bool) taps {
	t := taps{idx: make([][]int, out), w: make([][]float64, out)}
	for k := range out {
		var s int
		if alignCorners {
			s = int(ratio*float32(k) + 0.5)
		} else {
			s = int(ratio * float32(k))
		}
		t.idx[k] = []int{min(s, in-1)}
		t.w[k] = []float64{1}
	}
	return t
}

// cubicCoeffs are Keys' cubic convolution weights of the four neighbours at fractional position t.
func cubicCoeffs(t float64) []float64 {
	const a = -0.75
	c1 := func(x float64) float64 { return ((a+2)*x-(a+3))*x*x + 1 }
	c2 := func(x float64) float64 { return ((a*x-5*a)*x+8*a)*x - 4*a }
	return []float64{c2(t + 1), c1(t), c1(1 - t), c2(2 - t)}
}

func cubicTaps(in, out int, ratio float32, alignCorners bool) taps {
	t := taps{idx: make([][]int, out), w: make([][]float64, out)}
	for k := range out {
		var pos float64
		if alignCorners {
			pos = float64(ratio * float32(k))
		} else {
			pos = float64(ratio)*(float64(k)+0.5) - 0.5
		}
		base := int(math.Floor(pos))
		t.w[k] = cubicCoeffs(pos - float64(base))
		t.idx[k] = make([]int, 4)
		for i := range 4 {
			t.idx[k][i] = max(min(base-1+i, in-1), 0)
		}
	}
	return t
}

// interpSizes resolves the output spatial sizes and the per-dim scales (−1 when unset) of an interpolation.
func (c *call[T]) interpSizes(in []int) (out []int, scales []float32, err error) {
	d := len(in)
	out = make([]int, d)
	names := [][]string{{"out_w"}, {"out_h", "out_w"}, {"out_d", "out_h", "out_w"}}[d-1]
	for i, n := range names {
		out[i] = c.attrInt(n, 0)
	}
	scales = make([]float32, d)
	for i := range scales {
		scales[i] = -1
	}
	if st := c.named("size_tensor", 2); st != nil {
		sz, err := c.ints(c.argIndex("size_tensor", 2))
		if err != nil {
			return nil, nil, err
		}
		if len(sz) != d {
			return nil, nil, fmt.Errorf("size_tensor holds %d sizes for %d spatial dims", len(sz), d)
		}
		copy(out, sz)
	} else {
		var sc []float64
		if v := c.named("scale_tensor", 3); v != nil {
			for _, s := range v.buf.data {
				sc = append(sc, float64(s))
			}
			if len(sc) == 1 {
				for len(sc) < d {
					sc = append(sc, sc[0])
				}
			}
		} else if a, ok := c.floatsAttr("scale"); ok && (d == 1 && len(a) > 0 || len(a) > 1) {
			sc = a
		}
		if len(sc) > 0 {
			if len(sc) < d {
				return nil, nil, fmt.Errorf("scale %v for %d spatial dims", sc, d)
			}
			all := true
			for i := range d {
				scales[i] = float32(sc[i])
				all = all && scales[i] > 0
			}
			if !all {
				return nil, nil, fmt.Errorf("scale %v must be positive", sc)
			}
			for i := range d {
				out[i] = int(float32(in[i]) * scales[i])
			}
		}
		if v := c.named("out_size", 1); v != nil {
			sz, err := c.ints(c.argIndex("out_size", 1))
			if err != nil {
				return nil, nil, err
			}
			if len(sz) != d {
				return nil, nil, fmt.Errorf("out_size holds %d sizes for %d spatial dims", len(sz), d)
			}
			copy(out, sz)
		}
	}
	for _, o := range out {
		if o <= 0 {
			return nil, nil, fmt.Errorf("output size %v is not positive", out)
		}
	}
	return out, scales, nil
}

// kInterp resizes the spatial dims of x.
func kInterp[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	r := len(x.Shape)
	if r < 3 || r > 5 {
		return nil, unsupported("interpolation of a rank-%d input", r)
	}
	last := false
	switch f := c.attrString("data_format", "NCHW"); f {
	case "NCHW", "NCW", "NCDHW", "AnyLayout":
	case "NHWC", "NWC", "NDHWC":
		last = true
	default:
		return nil, unsupported("data_format %q", f)
	}
	method := c.attrString("interp_method", "")
	if method == "" {
		method = map[string]string{"pd_op.linear_interp": "linear", "pd_op.bilinear_interp": "bilinear",
			"pd_op.nearest_interp": "nearest", "pd_op.bicubic_interp": "bicubic", "pd_op.trilinear_interp": "trilinear"}[c.op.Name()]
	}
	d := r - 2
	want := map[string]int{"linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3}
	if n, ok := want[method]; ok && n != d || method != "nearest" && !ok {
		return nil, unsupported("interp_method %q on a rank-%d input", method, r)
	}
	// Channels first: [N, C, spatial…].
	cf := x
	if last {
		perm := []int{0, r - 1}
		for i := 1; i < r-1; i++ {
			perm = append(perm, i)
		}
		if cf, err = tensor.Transpose(x, perm); err != nil {
			return nil, err
		}
	}
	in := cf.Shape[2:]
	out, scales, err := c.interpSizes(in)
	if err != nil {
		return nil, err
	}
	align := c.attrBool("align_corners", false)
	alignFlag := c.attrInt("align_mode", 1) == 0 && !align
	ax := make([]taps, d)
	for i := range d {
		var ratio float32
		if out[i] > 1 {
			switch {
			case align:
				ratio = float32(in[i]-1) / float32(out[i]-1)
			case scales[i] > 0:
				ratio = float32(1 / float64(scales[i]))
			default:
				ratio = float32(in[i]) / float32(out[i])
			}
		}
		switch method {
		case "nearest":
			ax[i] = nearestTaps(in[i], out[i], ratio, align)
		case "bicubic":
			ax[i] = cubicTaps(in[i], out[i], ratio, align)
		default:
			ax[i] = linearTaps(in[i], out[i], ratio, alignFlag)
		}
	}
	oshape := append([]int{cf.Shape[0], cf.Shape[1]}, out...)
	res := &tensor.Tensor[T]{Shape: oshape, Data: make([]T, prod(oshape))}
	if sameInts(in, out) {
		copy(res.Data, cf.Data)
	} else if d == 2 {
		resample2D(cf.Data, res.Data, cf.Shape[0]*cf.Shape[1], in, out, ax)
	} else {
		planes := cf.Shape[0] * cf.Shape[1]
		inPlane, outPlane := prod(in), prod(out)
		tensor.ParallelFor(planes, outPlane*4, func(lo, hi int) {
			pos := make([]int, d)
			for p := lo; p < hi; p++ {
				src := cf.Data[p*inPlane : (p+1)*inPlane]
				dst := res.Data[p*outPlane : (p+1)*outPlane]
				for i := range pos {
					pos[i] = 0
				}
				for o := range dst {
					dst[o] = T(resample(src, in, ax, pos, 0, 0))
					for i := d - 1; i >= 0; i-- {
						pos[i]++
						if pos[i] < out[i] {
							break
						}
						pos[i] = 0
					}
				}
			}
		})
	}
	if last {
		perm := []int{0}
		for i := 2; i < r; i++ {
			perm = append(perm, i)
		}
		perm = append(perm, 1)
		if res, err = tensor.Transpose(res, perm); err != nil {
			return nil, err
		}
	}
	return c.one(res, nil)
}

// resample2D is resample over every output position of planes 2-D planes, without its recursion: the same sums
// in the same order (per output, over the row taps of the column taps' weighted sums).
func resample2D[T tensor.Float](src, dst []T, planes int, in, out []int, ax []taps) {
	inPlane, outPlane := in[0]*in[1], out[0]*out[1]
	ty, tx := ax[0], ax[1]
	tensor.ParallelFor(planes, outPlane*4, func(lo, hi int) {
		for p := lo; p < hi; p++ {
			plane := src[p*inPlane : (p+1)*inPlane]
			o := dst[p*outPlane : (p+1)*outPlane]
			for oy := range out[0] {
				rows, wy := ty.idx[oy], ty.w[oy]
				line := o[oy*out[1] : (oy+1)*out[1]]
				for ox := range line {
					cols, wx := tx.idx[ox], tx.w[ox]
					s := 0.0
					for k, iy := range rows {
						row := plane[iy*in[1] : (iy+1)*in[1]]
						r := 0.0
						for k2, ix := range cols {
							r += float64(row[ix]) * wx[k2]
						}
						s += wy[k] * r
					}
					line[ox] = T(s)
				}
			}
		}
	})
}

// resample is the weighted sum of the source taps of output position pos, dim by dim from dim.
func resample[T tensor.Float](src []T, in []int, ax []taps, pos []int, dim, off int) float64 {
	t := ax[dim]
	idx, w := t.idx[pos[dim]], t.w[pos[dim]]
	s := 0.0
	for k, i := range idx {
		o := off*in[dim] + i
		if dim == len(in)-1 {
			s += float64(src[o]) * w[k]
		} else {
			s += w[k] * resample(src, in, ax, pos, dim+1, o)
		}
	}
	return s
}

// kGridSample samples x [N, C, H, W] at the normalized positions of grid [N, Hg, Wg, 2] (x then y, −1…1):
// bilinear or nearest (round half to even), positions outside handled by padding_mode zeros, border or
// reflection; with align_corners −1 and 1 are the centres of the corner pixels, else their outer edges.
func kGridSample[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, grid, err := c.pair()
	if err != nil {
		return nil, err
	}
	if len(x.Shape) != 4 || len(grid.Shape) != 4 || grid.Shape[3] != 2 || grid.Shape[0] != x.Shape[0] {
		return nil, unsupported("grid_sample of x %v with grid %v (only 4-D inputs are evaluated)", x.Shape, grid.Shape)
	}
	mode, pad := c.attrString("mode", "bilinear"), c.attrString("padding_mode", "zeros")
	if mode != "bilinear" && mode != "nearest" {
		return nil, unsupported("grid_sample mode %q", mode)
	}
	if pad != "zeros" && pad != "border" && pad != "reflection" {
		return nil, unsupported("grid_sample padding_mode %q", pad)
	}
	align := c.attrBool("align_corners", true)
	n, ch, h, w := x.Shape[0], x.Shape[1], x.Shape[2], x.Shape[3]
	gh, gw := grid.Shape[1], grid.Shape[2]
	unnorm := func(v float64, size int) float64 {
		if align {
			return (v + 1) / 2 * float64(size-1)
		}
		return ((v+1)*float64(size) - 1) / 2
	}
	reflect := func(v, lo, hi float64) float64 { // reflect into [lo, hi] (doubled bounds)
		if lo == hi {
			return 0
		}
		mn, span := lo/2, (hi-lo)/2
		v = math.Abs(v - mn)
		extra := math.Mod(v, span)
		if int(math.Floor(v/span))%2 == 0 {
			return extra + mn
		}
		return span - extra + mn
	}
	source := func(v float64, size int) float64 {
		v = unnorm(v, size)
		switch pad {
		case "border":
			v = min(max(v, 0), float64(size-1))
		case "reflection":
			if align {
				v = reflect(v, 0, 2*float64(size-1))
			} else {
				v = reflect(v, -1, 2*float64(size)-1)
			}
			v = min(max(v, 0), float64(size-1))
		}
		return v
	}
	out := make([]T, n*ch*gh*gw)
	ghw := gh * gw
	smp := make([]gridSample, ghw)
	for b := range n {
		// The source position of every grid point, computed once for all channels.
		for i := range smp {
			gx := source(float64(grid.Data[(b*ghw+i)*2]), w)
			gy := source(float64(grid.Data[(b*ghw+i)*2+1]), h)
			smp[i] = newGridSample(gx, gy, h, w, mode == "nearest")
		}
		planes := x.Data[b*ch*h*w : (b+1)*ch*h*w]
		dst := out[b*ch*ghw : (b+1)*ch*ghw]
		// Blocks of grid points, every channel per block: the block's samples stay in the L1 cache.
		blocks := (ghw + gridBlock - 1) / gridBlock
		tensor.ParallelFor(blocks, ch*gridBlock*8, func(lo, hi int) {
			i0, i1 := lo*gridBlock, min(hi*gridBlock, ghw)
			for cc := range ch {
				gridSampleRow(dst[cc*ghw+i0:cc*ghw+i1], smp[i0:i1], planes[cc*h*w:(cc+1)*h*w])
			}
		})
	}
	return c.one(&tensor.Tensor[T]{Shape: []int{n, ch, gh, gw}, Data: out}, nil)
}

// gridBlock is the number of grid points grid_sample samples every channel for at a time.
const gridBlock = 256

// gridSample is where grid_sample reads one grid point in every channel: the offsets in the plane of the four
// bilinear neighbours (top left, top right, bottom left, bottom right; -1 outside the plane) and the fractions
// dx, dy; nearest sampling reads at[0] alone.
type gridSample struct {
	at      [4]int
	dx, dy  float64
	nearest bool
}

// newGridSample locates the source position (gx, gy) in an h×w plane.
func newGridSample(gx, gy float64, h, w int, nearest bool) gridSample {
	s := gridSample{at: [4]int{-1, -1, -1, -1}, nearest: nearest}
	idx := func(yy, xx int) int {
		if yy < 0 || yy >= h || xx < 0 || xx >= w {
			return -1
		}
		return yy*w + xx
	}
	if nearest {
		s.at[0] = idx(int(math.RoundToEven(gy)), int(math.RoundToEven(gx)))
		return s
	}
	x0, y0 := math.Floor(gx), math.Floor(gy)
	s.dx, s.dy = gx-x0, gy-y0
	xi, yi := int(x0), int(y0)
	s.at = [4]int{idx(yi, xi), idx(yi, xi+1), idx(yi+1, xi), idx(yi+1, xi+1)}
	return s
}

// gridSampleRow writes the samples smp of one channel's plane to dst: bilinear (neighbours outside the plane
// reading 0) with the products in the order the per-point formula had them, or nearest.
func gridSampleRow[T tensor.Float](dst []T, smp []gridSample, plane []T) {
	dst = dst[:len(smp)]
	for i := range smp {
		s := &smp[i]
		var a0, a1, a2, a3 float64
		if k := s.at[0]; k >= 0 {
			a0 = float64(plane[k])
		}
		if s.nearest {
			dst[i] = T(a0)
			continue
		}
		if k := s.at[1]; k >= 0 {
			a1 = float64(plane[k])
		}
		if k := s.at[2]; k >= 0 {
			a2 = float64(plane[k])
		}
		if k := s.at[3]; k >= 0 {
			a3 = float64(plane[k])
		}
		dx, dy := s.dx, s.dy
		dst[i] = T(a0*(1-dx)*(1-dy) + a1*dx*(1-dy) + a2*(1-dx)*dy + a3*dx*dy)
	}
}

// floatsAttr returns a list-of-numbers attribute.
func (c *call[T]) floatsAttr(name string) ([]float64, bool) {
	a := c.attr(name)
	if a == nil {
		return nil, false
	}
	return ir.AsFloats(a)
}
