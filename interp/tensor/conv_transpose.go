package tensor

import (
	"fmt"
	"runtime"
)

// convTGeom is a fully resolved 2-D transposed convolution (NCHW view).
type convTGeom struct {
	n, cin, h, w   int
	cout, kh, kw   int
	groups         int
	sh, sw, dh, dw int
	pt, pl         int
	oh, ow         int
	nhwc           bool
	cinG, coutG    int
}

// ConvTransposeOutputShape infers the output shape of conv2d_transpose from
// the input shape (NCHW or NHWC per p.DataFormat) and the filter shape
// [C_in, C_out/groups, K_h, K_w], following Paddle's ConvTransposeInferMeta:
// out = (in-1)*stride - pad_before - pad_after + dilation*(k-1) + 1, plus
// OutputPadding, or replaced by OutputSize. Negative (unknown) input spatial
// dimensions give -1.
func ConvTransposeOutputShape(input, filter []int, p ConvTransposeParams) ([]int, error) {
	const op = "conv2d_transpose"
	a, err := parseConvAttrs(op, p.Strides, p.Paddings, p.PaddingAlgorithm, p.Dilations, p.Groups, p.DataFormat)
	if err != nil {
		return nil, err
	}
	if len(input) != 4 || len(filter) != 4 {
		return nil, fmt.Errorf("tensor: %s: input %v and filter %v must both be 4-D", op, input, filter)
	}
	if len(p.OutputPadding) != 0 && len(p.OutputPadding) != 2 {
		return nil, fmt.Errorf("tensor: %s: output_padding must have 2 values, got %v", op, p.OutputPadding)
	}
	if len(p.OutputSize) != 0 && len(p.OutputSize) != 2 {
		return nil, fmt.Errorf("tensor: %s: output_size must have 2 values, got %v", op, p.OutputSize)
	}
	n, cin, h, w := input[0], input[1], input[2], input[3]
	if a.nhwc {
		cin, h, w = input[3], input[1], input[2]
	}
	fcin, coutG, kh, kw := filter[0], filter[1], filter[2], filter[3]
	if cin >= 0 && fcin >= 0 && cin != fcin {
		return nil, fmt.Errorf("tensor: %s: input channels %d != filter dimension 0 (%d) (input %v, filter %v, data_format %q)",
			op, cin, fcin, input, filter, p.DataFormat)
	}
	if cin >= 0 && cin%a.groups != 0 {
		return nil, fmt.Errorf("tensor: %s: input channels %d not divisible by groups %d", op, cin, a.groups)
	}
	a.updatePadding(h, w, kh, kw, true)
	dims := [2]struct{ in, k, s, d, pb, pa int }{
		{h, kh, a.sh, a.dh, a.pads[0], a.pads[1]},
		{w, kw, a.sw, a.dw, a.pads[2], a.pads[3]},
	}
	var sp [2]int
	for i, d := range dims {
		if d.in < 0 || d.k < 0 {
			sp[i] = -1
			continue
		}
		if d.k == 0 {
			return nil, fmt.Errorf("tensor: %s: filter spatial size must be positive, got %v", op, filter)
		}
		infer := (d.in-1)*d.s - d.pb - d.pa + d.d*(d.k-1) + 1
		o := infer
		switch {
		case len(p.OutputSize) == 2:
			o = p.OutputSize[i]
			if o < infer || o >= infer+d.s {
				return nil, fmt.Errorf("tensor: %s: output_size %v: dimension %d must be in [%d, %d)", op, p.OutputSize, i, infer, infer+d.s)
			}
		case len(p.OutputPadding) == 2:
			op2 := p.OutputPadding[i]
			if op2 < 0 || op2 >= max(d.s, d.d) {
				return nil, fmt.Errorf("tensor: %s: output_padding %v: dimension %d must be in [0, max(stride %d, dilation %d))", op, p.OutputPadding, i, d.s, d.d)
			}
			o += op2
		}
		if o <= 0 {
			return nil, fmt.Errorf("tensor: %s: non-positive output size %d on spatial axis %d", op, o, i)
		}
		sp[i] = o
	}
	cout := -1
	if coutG >= 0 {
		cout = coutG * a.groups
	}
	if n < 0 {
		n = -1
	}
	if a.nhwc {
		return []int{n, sp[0], sp[1], cout}, nil
	}
	return []int{n, cout, sp[0], sp[1]}, nil
}

// Conv2DTranspose computes Paddle's conv2d_transpose (the gradient of conv2d
// with respect to its input): every input element scatters
// input * filter[c_in, c_out_in_group, ki, kj] to output position
// (iy*stride - pad_top + ki*dilation, ix*stride - pad_left + kj*dilation),
// dropping positions outside the output. The filter is [C_in,
// C_out/groups, K_h, K_w]; input and output use p.DataFormat.
func Conv2DTranspose[T Float](input, filter *Tensor[T], p ConvTransposeParams) (*Tensor[T], error) {
	const op = "conv2d_transpose"
	if err := input.validate(op + " input"); err != nil {
		return nil, err
	}
	if err := filter.validate(op + " filter"); err != nil {
		return nil, err
	}
	for _, s := range [][]int{input.Shape, filter.Shape} {
		for _, d := range s {
			if d <= 0 {
				return nil, fmt.Errorf("tensor: %s: dimensions must be positive, got input %v filter %v", op, input.Shape, filter.Shape)
			}
		}
	}
	outShape, err := ConvTransposeOutputShape(input.Shape, filter.Shape, p)
	if err != nil {
		return nil, err
	}
	a, _ := parseConvAttrs(op, p.Strides, p.Paddings, p.PaddingAlgorithm, p.Dilations, p.Groups, p.DataFormat)
	g := &convTGeom{nhwc: a.nhwc, groups: a.groups}
	g.n, g.cin, g.h, g.w = input.Shape[0], input.Shape[1], input.Shape[2], input.Shape[3]
	if a.nhwc {
		g.cin, g.h, g.w = input.Shape[3], input.Shape[1], input.Shape[2]
	}
	g.coutG, g.kh, g.kw = filter.Shape[1], filter.Shape[2], filter.Shape[3]
	g.cout = g.coutG * g.groups
	a.updatePadding(g.h, g.w, g.kh, g.kw, true)
	g.sh, g.sw, g.dh, g.dw = a.sh, a.sw, a.dh, a.dw
	g.pt, g.pl = a.pads[0], a.pads[2]
	if a.nhwc {
		g.oh, g.ow = outShape[1], outShape[2]
	} else {
		g.oh, g.ow = outShape[2], outShape[3]
	}
	g.cinG = g.cin / g.groups
	if err := checkAlloc(op, []int{g.n, g.cout, g.oh, g.ow}, []int{g.coutG, g.kh, g.kw, g.h, g.w}); err != nil {
		return nil, err
	}
	x := toNCHW(input, g.nhwc)
	out := newUnchecked[T]([]int{g.n, g.cout, g.oh, g.ow})
	hw, ohw := g.h*g.w, g.oh*g.ow
	rows := g.coutG * g.kh * g.kw
	jobs := g.n * g.groups
	inner := jobs < runtime.GOMAXPROCS(0)
	run := func(lo, hi int) {
		col := make([]T, rows*hw)
		for j := lo; j < hi; j++ {
			b, gr := j/g.groups, j%g.groups
			// col[r, pix] = sum_c filter[gr*cinG+c, r] * x[b, gr*cinG+c, pix]
			am := matView[T]{data: filter.Data[gr*g.cinG*rows : (gr+1)*g.cinG*rows], rs: 1, cs: rows}
			bm := matView[T]{data: x.Data[(b*g.cin+gr*g.cinG)*hw : (b*g.cin+(gr+1)*g.cinG)*hw], rs: hw, cs: 1}
			gemm(rows, hw, g.cinG, am, bm, col, hw, inner)
			dst := out.Data[(b*g.cout+gr*g.coutG)*ohw : (b*g.cout+(gr+1)*g.coutG)*ohw]
			col2im(dst, col, g)
		}
	}
	if inner {
		run(0, jobs)
	} else {
		ParallelFor(jobs, 2*rows*hw*g.cinG, run)
	}
	if g.nhwc {
		return permute(out, []int{0, 2, 3, 1}), nil
	}
	return out, nil
}

// col2im scatter-adds col ([coutG*kh*kw, h*w]) into dst ([coutG, oh, ow]).
func col2im[T Float](dst, col []T, g *convTGeom) {
	hw, ohw := g.h*g.w, g.oh*g.ow
	r := 0
	for oc := range g.coutG {
		plane := dst[oc*ohw : (oc+1)*ohw]
		for ki := range g.kh {
			for kj := range g.kw {
				src := col[r*hw : (r+1)*hw]
				r++
				for iy := range g.h {
					oy := iy*g.sh - g.pt + ki*g.dh
					if oy < 0 || oy >= g.oh {
						continue
					}
					orow := plane[oy*g.ow : (oy+1)*g.ow]
					srow := src[iy*g.w : (iy+1)*g.w]
					ox := kj*g.dw - g.pl
					for _, v := range srow {
						if ox >= 0 && ox < g.ow {
							orow[ox] += v
						}
						ox += g.sw
					}
				}
			}
		}
	}
}
