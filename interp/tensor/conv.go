package tensor

import (
	"fmt"
	"runtime"
	"slices"
)

// Conv2D computes Paddle's conv2d: input is NCHW or NHWC (p.DataFormat),
// filter is OIHW [C_out, C_in/groups, K_h, K_w], and the output has the
// input's layout with shape given by ConvOutputShape. Padding positions read
// as zero. The computation is im2col followed by a cache-blocked GEMM per
// (batch, group); NHWC is handled by transposing to NCHW and back, as
// Paddle's CPU kernel does.
func Conv2D[T Float](input, filter *Tensor[T], p ConvParams) (*Tensor[T], error) {
	const op = "conv2d"
	if err := input.validate(op + " input"); err != nil {
		return nil, err
	}
	if err := filter.validate(op + " filter"); err != nil {
		return nil, err
	}
	g, err := resolveConv(op, input.Shape, filter.Shape, p)
	if err != nil {
		return nil, err
	}
	return conv2dNCHW(toNCHW(input, g.nhwc), filter, g), nil
}

// conv2dNCHW runs a resolved convolution on an NCHW input and returns the
// output in the layout g.nhwc asks for.
func conv2dNCHW[T Float](x, filter *Tensor[T], g *convGeom) *Tensor[T] {
	out := newUnchecked[T]([]int{g.n, g.cout, g.oh, g.ow})
	mk := kernelFor[T](kernels)
	if g.coutG < gemmFewRows {
		conv2dFewRows(mk, x, filter, g, out)
	} else {
		conv2dGemm(mk, x, filter, g, out)
	}
	if g.nhwc {
		return permute(out, []int{0, 2, 3, 1})
	}
	return out
}

// conv2dGemm computes out = filter ⊛ x as products per (image, group): the group's filter, [coutG, cinG·kh·kw],
// packed once, times the image's im2col matrix, whose panels are packed from the image itself (the image for a
// 1×1 convolution with unit strides and no padding, its phase planes (conv_shift.go) when they throw away little,
// else the image read with bounds: convB).
func conv2dGemm[T Float](mk *microKernel[T], x, filter *Tensor[T], g *convGeom, out *Tensor[T]) {
	ohw, hw := g.oh*g.ow, g.h*g.w
	direct := g.kh == 1 && g.kw == 1 && g.sh == 1 && g.sw == 1 &&
		g.pt == 0 && g.pb == 0 && g.pl == 0 && g.pr == 0
	var shift *convShift
	if !direct && convForce != "bounds" {
		if s := newConvShift(g); s.waste(g) <= convShiftMaxWaste || convForce == "shift" {
			shift = s
		}
	}
	packs := make([]*packedA[T], g.groups)
	ParallelFor(g.groups, g.coutG*g.kK, func(lo, hi int) {
		for gr := lo; gr < hi; gr++ {
			packs[gr] = packAll(mk, matView[T]{data: filter.Data[gr*g.coutG*g.kK : (gr+1)*g.coutG*g.kK], rs: g.kK, cs: 1}, g.coutG, g.kK)
		}
	})
	// (image, group) pairs are independent: split them across goroutines, or, when there are fewer pairs than
	// processors, split each matrix product instead.
	jobs := g.n * g.groups
	inner := jobs < runtime.GOMAXPROCS(0)
	run := func(lo, hi int) {
		var xs, tmp []T
		var band int
		if shift != nil {
			xs = make([]T, shift.size)
			band = max(1, min(g.oh, convShiftBudget/max(1, g.coutG*shift.ws)))
			tmp = make([]T, g.coutG*band*shift.ws)
		}
		for j := lo; j < hi; j++ {
			b, gr := j/g.groups, j%g.groups
			src := x.Data[(b*g.cin+gr*g.cinG)*hw : (b*g.cin+(gr+1)*g.cinG)*hw]
			dst := out.Data[(b*g.cout+gr*g.coutG)*ohw : (b*g.cout+(gr+1)*g.coutG)*ohw]
			switch {
			case direct:
				gemmPacked(mk, g.coutG, ohw, g.kK, packs[gr], matView[T]{data: src, rs: hw, cs: 1}, dst, ohw, inner)
			case shift == nil:
				gemmPacked(mk, g.coutG, ohw, g.kK, packs[gr], convB[T]{src: src, g: g}, dst, ohw, inner)
			default:
				fillShift(shift, g, xs, src)
				ws := shift.ws
				for oy0 := 0; oy0 < g.oh; oy0 += band {
					oy1 := min(oy0+band, g.oh)
					n := (oy1 - oy0) * ws
					gemmPacked(mk, g.coutG, n, g.kK, packs[gr], shiftB[T]{xs: xs, offs: shift.offs, q0: oy0 * ws}, tmp, n, inner)
					for oc := range g.coutG {
						for oy := oy0; oy < oy1; oy++ {
							copy(dst[oc*ohw+oy*g.ow:oc*ohw+(oy+1)*g.ow], tmp[oc*n+(oy-oy0)*ws:])
						}
					}
				}
			}
		}
	}
	if inner {
		run(0, jobs)
	} else {
		ParallelFor(jobs, 2*g.coutG*ohw*g.kK, run)
	}
}

// convShiftMaxWaste is the largest fraction of thrown-away output columns for which a convolution runs on phase
// planes.
const convShiftMaxWaste = 0.25

// convShiftBudget bounds the values of the output band computed at a time on phase planes (16 MiB of float32); a
// variable so that tests can force bands of one row.
var convShiftBudget = 1 << 22

// convForce makes tests take one way of packing a convolution's im2col matrix: "shift" (phase planes whatever
// they throw away) or "bounds" (convB); "" chooses by geometry.
var convForce string

// conv2dFewRows computes a convolution whose groups have fewer than gemmFewRows output channels (depthwise
// convolutions) with row AXPYs: one per filter tap, over a shifted run of the input's phase planes (the im2col row
// read in place, conv_shift.go), or over a band of an im2col matrix built first when the planes would throw much
// away. Both sum every output element over the taps in the same order: the same bits.
func conv2dFewRows[T Float](mk *microKernel[T], x, filter *Tensor[T], g *convGeom, out *Tensor[T]) {
	if convForce != "bounds" {
		if s := newConvShift(g); s.waste(g) <= convShiftMaxWaste || convForce == "shift" {
			conv2dFewRowsShift(mk, x, filter, g, out, s)
			return
		}
	}
	ohw := g.oh * g.ow
	hw := g.h * g.w
	jobs := g.n * g.groups
	inner := jobs < runtime.GOMAXPROCS(0)
	// The im2col matrix of a large kernel at a large resolution would be gigabytes (a 9×9 kernel over 256 channels
	// at 160×160 is 530 million values), so it is built for a band of output rows at a time. Every output value
	// is still accumulated over the whole depth in the same order: the result does not depend on the bands.
	band := max(1, min(g.oh, convColBudget/max(1, g.kK*g.ow)))
	run := func(lo, hi int) {
		col := make([]T, g.kK*band*g.ow)
		for j := lo; j < hi; j++ {
			b, gr := j/g.groups, j%g.groups
			src := x.Data[(b*g.cin+gr*g.cinG)*hw : (b*g.cin+(gr+1)*g.cinG)*hw]
			am := matView[T]{data: filter.Data[gr*g.coutG*g.kK : (gr+1)*g.coutG*g.kK], rs: g.kK, cs: 1}
			dst := out.Data[(b*g.cout+gr*g.coutG)*ohw : (b*g.cout+(gr+1)*g.coutG)*ohw]
			for oy0 := 0; oy0 < g.oh; oy0 += band {
				oy1 := min(oy0+band, g.oh)
				n := (oy1 - oy0) * g.ow
				im2col(col[:g.kK*n], src, g, oy0, oy1)
				gemmOn(mk, g.coutG, n, g.kK, am, matView[T]{data: col, rs: n, cs: 1}, dst[oy0*g.ow:], ohw, inner)
			}
		}
	}
	if inner {
		run(0, jobs)
	} else {
		ParallelFor(jobs, 2*g.coutG*ohw*g.kK, run)
	}
}

// conv2dFewRowsShift is conv2dFewRows on the phase planes s.
func conv2dFewRowsShift[T Float](mk *microKernel[T], x, filter *Tensor[T], g *convGeom, out *Tensor[T], s *convShift) {
	ohw, hw := g.oh*g.ow, g.h*g.w
	jobs := g.n * g.groups
	inner := jobs < runtime.GOMAXPROCS(0)
	band := max(1, min(g.oh, convShiftBudget/max(1, g.coutG*s.ws)))
	run := func(lo, hi int) {
		xs := make([]T, s.size)
		tmp := make([]T, g.coutG*band*s.ws)
		for j := lo; j < hi; j++ {
			b, gr := j/g.groups, j%g.groups
			fillShift(s, g, xs, x.Data[(b*g.cin+gr*g.cinG)*hw:(b*g.cin+(gr+1)*g.cinG)*hw])
			w := filter.Data[gr*g.coutG*g.kK : (gr+1)*g.coutG*g.kK]
			dst := out.Data[(b*g.cout+gr*g.coutG)*ohw : (b*g.cout+(gr+1)*g.coutG)*ohw]
			for oy0 := 0; oy0 < g.oh; oy0 += band {
				oy1 := min(oy0+band, g.oh)
				n, q0 := (oy1-oy0)*s.ws, oy0*s.ws
				cols := func(c0, c1 int) {
					for i := range g.coutG {
						row := tmp[i*n+c0 : i*n+c1]
						clear(row)
						for p, off := range s.offs {
							mk.axpy(w[i*g.kK+p], xs[off+q0+c0:off+q0+c1], row)
						}
					}
				}
				if inner {
					ParallelFor(n, 2*g.coutG*g.kK, cols)
				} else {
					cols(0, n)
				}
				for oc := range g.coutG {
					for oy := oy0; oy < oy1; oy++ {
						copy(dst[oc*ohw+oy*g.ow:oc*ohw+(oy+1)*g.ow], tmp[oc*n+(oy-oy0)*s.ws:])
					}
				}
			}
		}
	}
	if inner {
		run(0, jobs)
	} else {
		ParallelFor(jobs, 2*g.coutG*ohw*g.kK, run)
	}
}

// convColBudget bounds the values of one im2col band (16 MiB of float32).
var convColBudget = 1 << 22 // a variable so that tests can force bands of one row

// im2col expands output rows [oy0, oy1) of one group of one image (cinG
// channels of h×w) into col, a [cinG*kh*kw, (oy1-oy0)*ow] row-major matrix
// whose row (c, ki, kj) holds the input value each output position reads
// through kernel tap (ki, kj) of channel c, or zero where the tap falls into
// padding.
func im2col[T Float](col, src []T, g *convGeom, oy0, oy1 int) {
	ohw := (oy1 - oy0) * g.ow
	hw := g.h * g.w
	row := 0
	for c := range g.cinG {
		plane := src[c*hw : (c+1)*hw]
		for ki := range g.kh {
			for kj := range g.kw {
				dst := col[row*ohw : (row+1)*ohw]
				row++
				ix0 := kj*g.dw - g.pl
				// Output columns whose input column is inside [0, w).
				lo := 0
				if ix0 < 0 {
					lo = min((-ix0+g.sw-1)/g.sw, g.ow)
				}
				hi := lo
				if g.w-ix0 > 0 {
					hi = max(min((g.w-ix0+g.sw-1)/g.sw, g.ow), lo)
				}
				for oy := oy0; oy < oy1; oy++ {
					d := dst[(oy-oy0)*g.ow : (oy-oy0+1)*g.ow]
					iy := oy*g.sh - g.pt + ki*g.dh
					if iy < 0 || iy >= g.h {
						clear(d)
						continue
					}
					srow := plane[iy*g.w : (iy+1)*g.w]
					clear(d[:lo])
					switch {
					case hi <= lo: // every tap of this row falls into padding
					case g.sw == 1:
						copy(d[lo:hi], srow[lo+ix0:hi+ix0])
					default:
						ix := lo*g.sw + ix0
						for ox := lo; ox < hi; ox++ {
							d[ox] = srow[ix]
							ix += g.sw
						}
					}
					clear(d[hi:])
				}
			}
		}
	}
}

// toNCHW returns x itself for NCHW data, or an NCHW copy of NHWC data.
func toNCHW[T Float](x *Tensor[T], nhwc bool) *Tensor[T] {
	if !nhwc {
		return x
	}
	return permute(x, []int{0, 3, 1, 2})
}

// FusedConv2DAddAct computes Paddle's fused_conv2d_add_act:
// act(conv2d(input, filter) + bias + residual). bias, when non-nil, must be
// 1-D of length C_out and is broadcast along the channel axis of the output
// layout; residual, when non-nil, must have exactly the output's shape.
// activation is one of identity, relu, relu6, sigmoid, swish, tanh,
// leaky_relu (negative slope fuseAlpha) or hardswish; anything else is an
// error.
func FusedConv2DAddAct[T Float](input, filter, bias, residual *Tensor[T], p ConvParams, activation string, fuseAlpha float64) (*Tensor[T], error) {
	const op = "fused_conv2d_add_act"
	act, err := activationFunc(activation, fuseAlpha)
	if err != nil {
		return nil, fmt.Errorf("tensor: %s: %w", op, err)
	}
	if err := input.validate(op + " input"); err != nil {
		return nil, err
	}
	if err := filter.validate(op + " filter"); err != nil {
		return nil, err
	}
	g, err := resolveConv(op, input.Shape, filter.Shape, p)
	if err != nil {
		return nil, err
	}
	if bias != nil {
		if err := bias.validate(op + " bias"); err != nil {
			return nil, err
		}
		if len(bias.Shape) != 1 || bias.Shape[0] != g.cout {
			return nil, fmt.Errorf("tensor: %s: bias shape %v must be [%d] (output channels)", op, bias.Shape, g.cout)
		}
	}
	out := conv2dNCHW(toNCHW(input, g.nhwc), filter, g)
	if residual != nil {
		if err := residual.validate(op + " residual"); err != nil {
			return nil, err
		}
		if !slices.Equal(residual.Shape, out.Shape) {
			return nil, fmt.Errorf("tensor: %s: residual shape %v must equal output shape %v", op, residual.Shape, out.Shape)
		}
	}
	// The epilogue, by runs of one channel (a plane in NCHW, one element in NHWC), split across goroutines.
	run := g.oh * g.ow
	if g.nhwc {
		run = 1
	}
	runs := len(out.Data) / max(run, 1)
	isRelu := activation == ActRelu // the common activation, without the call: relu's max in line
	ParallelFor(runs, 4*run, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			b := 0.0
			if bias != nil {
				b = float64(bias.Data[r%g.cout])
			}
			for i := r * run; i < (r+1)*run; i++ {
				v := float64(out.Data[i])
				if bias != nil {
					v += b
				}
				if residual != nil {
					v += float64(residual.Data[i])
				}
				if isRelu {
					v = max(v, 0)
				} else if act != nil {
					v = act(v)
				}
				out.Data[i] = T(v)
			}
		}
	})
	return out, nil
}
