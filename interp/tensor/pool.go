package tensor

import (
	"fmt"
	"math"
)

// Pooling types accepted by Pool2D.
const (
	PoolMax = "max"
	PoolAvg = "avg"
)

// PoolParams holds the attributes of Paddle's pool2d. Note that Paddle's
// default for Exclusive is true while the Go zero value is false; callers
// translating IR attributes should pass the attribute explicitly.
type PoolParams struct {
	// KernelSize is [k_h, k_w]; it is the output size when Adaptive is set
	// and is replaced by the input's spatial size when GlobalPooling is set.
	KernelSize []int
	// Strides is [stride_h, stride_w]; nil means [1, 1].
	Strides []int
	// Paddings is [pad_h, pad_w] or [top, bottom, left, right]. As in
	// Paddle's CPU/GPU kernels, bottom and right only enlarge the output
	// shape; windows are positioned using top and left.
	Paddings []int
	// CeilMode rounds the output size up instead of down.
	CeilMode bool
	// Exclusive makes average pooling divide by the number of in-bounds
	// elements instead of the full window (which may include padding and,
	// with CeilMode, positions past the input).
	Exclusive bool
	// GlobalPooling pools over the whole spatial extent (output 1×1).
	GlobalPooling bool
	// Adaptive makes KernelSize the output size, with window i covering
	// [floor(i*in/out), ceil((i+1)*in/out)). Only supported for "avg":
	// Paddle's pool2d kernel ignores Adaptive for "max" (adaptive max
	// pooling is a different op, max_pool2d_with_index), so that
	// combination is rejected.
	Adaptive bool
	// PaddingAlgorithm is "EXPLICIT" (or empty), "SAME" or "VALID".
	PaddingAlgorithm string
	// PoolingType is "max" or "avg".
	PoolingType string
	// DataFormat is "NCHW" (or empty, "AnyLayout") or "NHWC".
	DataFormat string
}

type poolGeom struct {
	n, c, h, w int
	kh, kw     int
	sh, sw     int
	pads       [4]int
	oh, ow     int
	nhwc       bool
}

// resolvePool computes the pooling geometry; negative input dimensions are
// unknown and produce -1 outputs.
func resolvePool(input []int, p PoolParams) (*poolGeom, error) {
	const op = "pool2d"
	if len(input) != 4 {
		return nil, fmt.Errorf("tensor: %s: input must be 4-D, got %v", op, input)
	}
	if p.PoolingType != PoolMax && p.PoolingType != PoolAvg {
		return nil, fmt.Errorf("tensor: %s: pooling_type must be \"max\" or \"avg\", got %q", op, p.PoolingType)
	}
	if p.Adaptive && p.PoolingType == PoolMax {
		return nil, fmt.Errorf("tensor: %s: adaptive max pooling is not supported by pool2d (Paddle ignores adaptive for max; use max_pool2d_with_index semantics elsewhere)", op)
	}
	nhwc, err := parseDataFormat(op, p.DataFormat)
	if err != nil {
		return nil, err
	}
	algo, err := parseAlgo(op, p.PaddingAlgorithm)
	if err != nil {
		return nil, err
	}
	pads, err := parsePaddings(op, p.Paddings)
	if err != nil {
		return nil, err
	}
	g := &poolGeom{nhwc: nhwc}
	g.n, g.c, g.h, g.w = input[0], input[1], input[2], input[3]
	if nhwc {
		g.c, g.h, g.w = input[3], input[1], input[2]
	}
	if len(p.KernelSize) != 2 {
		return nil, fmt.Errorf("tensor: %s: kernel_size must have 2 values, got %v", op, p.KernelSize)
	}
	g.kh, g.kw = p.KernelSize[0], p.KernelSize[1]
	if g.sh, g.sw, err = pair(op, "strides", p.Strides, 1); err != nil {
		return nil, err
	}
	if p.GlobalPooling {
		g.kh, g.kw = g.h, g.w
	} else if g.kh <= 0 || g.kw <= 0 || g.kh > maxAttr || g.kw > maxAttr {
		return nil, fmt.Errorf("tensor: %s: kernel_size must be in [1, %d], got %v", op, maxAttr, p.KernelSize)
	}
	switch algo {
	case PaddingSame:
		if g.h >= 0 {
			pads[0], pads[1] = samePadding(g.h, g.sh, g.kh)
		}
		if g.w >= 0 {
			pads[2], pads[3] = samePadding(g.w, g.sw, g.kw)
		}
	case PaddingValid:
		pads = [4]int{}
	}
	if p.GlobalPooling || p.Adaptive {
		pads = [4]int{}
	}
	g.pads = pads
	outSize := func(in, k, pb, pa, s int) (int, error) {
		if in < 0 {
			return -1, nil
		}
		var o int
		if p.CeilMode {
			o = (in-k+pb+pa+s-1)/s + 1
		} else {
			o = (in-k+pb+pa)/s + 1
		}
		if o <= 0 {
			return 0, fmt.Errorf("tensor: %s: non-positive output size %d (input %d, kernel %d, paddings %d+%d, stride %d)", op, o, in, k, pb, pa, s)
		}
		return o, nil
	}
	if p.Adaptive {
		g.oh, g.ow = g.kh, g.kw
	} else {
		if g.oh, err = outSize(g.h, g.kh, pads[0], pads[1], g.sh); err != nil {
			return nil, err
		}
		if g.ow, err = outSize(g.w, g.kw, pads[2], pads[3], g.sw); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// Pool2DOutputShape infers the output shape of pool2d following Paddle's
// PoolInferMeta; negative (unknown) input dimensions give -1 outputs.
func Pool2DOutputShape(input []int, p PoolParams) ([]int, error) {
	g, err := resolvePool(input, p)
	if err != nil {
		return nil, err
	}
	n, c := g.n, g.c
	if n < 0 {
		n = -1
	}
	if c < 0 {
		c = -1
	}
	if g.nhwc {
		return []int{n, g.oh, g.ow, c}, nil
	}
	return []int{n, c, g.oh, g.ow}, nil
}

// Pool2D computes Paddle's pool2d (max or average pooling) on an NCHW or
// NHWC input. Max pooling ignores padded positions; average pooling divides
// by the in-bounds element count when Exclusive (or Adaptive) is set and by
// the window size clipped at row h+pad_top and column w+pad_left otherwise
// (Paddle's kernels only see the top/left paddings). A window with no
// element inside the input (possible with CeilMode or large paddings)
// yields -MaxFloat32 for max (Paddle's initial value) and, for average,
// Paddle's 0 divided by its window count (which can be 0, giving NaN).
func Pool2D[T Float](x *Tensor[T], p PoolParams) (*Tensor[T], error) {
	const op = "pool2d"
	if err := x.validate(op); err != nil {
		return nil, err
	}
	for _, d := range x.Shape {
		if d <= 0 {
			return nil, fmt.Errorf("tensor: %s: input dimensions must be positive, got %v", op, x.Shape)
		}
	}
	g, err := resolvePool(x.Shape, p)
	if err != nil {
		return nil, err
	}
	if err := checkAlloc(op, []int{g.n, g.c, g.oh, g.ow}); err != nil {
		return nil, err
	}
	in := toNCHW(x, g.nhwc)
	out := newUnchecked[T]([]int{g.n, g.c, g.oh, g.ow})
	isMax := p.PoolingType == PoolMax
	pt, pl := g.pads[0], g.pads[2]
	hw, ohw := g.h*g.w, g.oh*g.ow
	for nc := range g.n * g.c {
		plane := in.Data[nc*hw : (nc+1)*hw]
		dst := out.Data[nc*ohw : (nc+1)*ohw]
		for oy := range g.oh {
			var hs, he int
			if p.Adaptive {
				hs, he = oy*g.h/g.oh, ((oy+1)*g.h+g.oh-1)/g.oh
			} else {
				hs = oy*g.sh - pt
				he = min(hs+g.kh, g.h+pt)
			}
			for ox := range g.ow {
				var ws, we, size int
				if p.Adaptive {
					ws, we = ox*g.w/g.ow, ((ox+1)*g.w+g.ow-1)/g.ow
				} else {
					ws = ox*g.sw - pl
					we = min(ws+g.kw, g.w+pl)
				}
				// Divisors follow Paddle's arithmetic exactly, including
				// its unclamped differences for degenerate windows.
				size = (he - hs) * (we - ws)
				y0, y1 := max(hs, 0), min(he, g.h)
				x0, x1 := max(ws, 0), min(we, g.w)
				if p.Exclusive || p.Adaptive {
					size = (y1 - y0) * (x1 - x0)
				}
				if x1 < x0 { // no column of the window is inside the input
					y1 = y0
				}
				if isMax {
					m := T(-math.MaxFloat32)
					for iy := y0; iy < y1; iy++ {
						for _, v := range plane[iy*g.w+x0 : iy*g.w+x1] {
							if !(m > v) { // Paddle: y = y > x ? y : x
								m = v
							}
						}
					}
					dst[oy*g.ow+ox] = m
					continue
				}
				s := 0.0
				for iy := y0; iy < y1; iy++ {
					for _, v := range plane[iy*g.w+x0 : iy*g.w+x1] {
						s += float64(v)
					}
				}
				dst[oy*g.ow+ox] = T(s / float64(size))
			}
		}
	}
	if g.nhwc {
		return permute(out, []int{0, 2, 3, 1}), nil
	}
	return out, nil
}
