package interp

import (
	"fmt"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// Resizing. Only nearest_interp on 4-D inputs is evaluated; bilinear, bicubic, linear and trilinear
// interpolation are refused (no kernel).

func registerInterp[T tensor.Float](r registry[T]) {
	r["pd_op.nearest_interp"] = kNearestInterp[T]
}

// kNearestInterp follows Paddle's 2-D nearest interpolation: the output size is out_h/out_w, replaced by
// size_tensor when given, otherwise by input·scale (scale_tensor, else the scale attribute) when the scale is
// positive and then by out_size when given. Source index k maps to int(ratio·k) (align_corners: int(ratio·k + 0.5))
// with ratio = 1/scale when a scale is set, in/out otherwise ((in−1)/(out−1) with align_corners), in float32 as
// Paddle computes it.
func kNearestInterp[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	if m := c.attrString("interp_method", "nearest"); m != "nearest" {
		return nil, unsupported("interp_method %q", m)
	}
	if len(x.Shape) != 4 {
		return nil, unsupported("input of rank %d (only 4-D is evaluated)", len(x.Shape))
	}
	nhwc := false
	switch f := c.attrString("data_format", "NCHW"); f {
	case "NCHW", "AnyLayout":
	case "NHWC":
		nhwc = true
	default:
		return nil, unsupported("data_format %q", f)
	}
	n, ch, ih, iw := x.Shape[0], x.Shape[1], x.Shape[2], x.Shape[3]
	if nhwc {
		ch, ih, iw = x.Shape[3], x.Shape[1], x.Shape[2]
	}
	oh, ow := c.attrInt("out_h", 0), c.attrInt("out_w", 0)
	scaleH, scaleW := float32(-1), float32(-1)
	if len(c.args) > 2 && c.args[2] != nil {
		sz, err := c.ints(2)
		if err != nil {
			return nil, err
		}
		if len(sz) != 2 {
			return nil, fmt.Errorf("size_tensor must hold 2 sizes, holds %v", sz)
		}
		oh, ow = sz[0], sz[1]
	} else {
		var scales []float64
		if len(c.args) > 3 && c.args[3] != nil {
			v, err := c.arg(3)
			if err != nil {
				return nil, err
			}
			for _, s := range v.buf.data {
				scales = append(scales, float64(s))
			}
		} else if a, ok := c.floatsAttr("scale"); ok {
			scales = a
		}
		switch len(scales) {
		case 0:
		case 1:
			scaleH, scaleW = float32(scales[0]), float32(scales[0])
		case 2:
			scaleH, scaleW = float32(scales[0]), float32(scales[1])
		default:
			return nil, unsupported("scale %v", scales)
		}
		if scaleH > 0 && scaleW > 0 {
			oh, ow = int(float32(ih)*scaleH), int(float32(iw)*scaleW)
		}
		if len(c.args) > 1 && c.args[1] != nil {
			sz, err := c.ints(1)
			if err != nil {
				return nil, err
			}
			if len(sz) != 2 {
				return nil, fmt.Errorf("out_size must hold 2 sizes, holds %v", sz)
			}
			oh, ow = sz[0], sz[1]
		}
	}
	if oh <= 0 || ow <= 0 {
		return nil, fmt.Errorf("output size %dx%d is not positive", oh, ow)
	}
	align := c.attrBool("align_corners", false)
	ratio := func(in, out int, scale float32) float32 {
		if out <= 1 {
			return 0
		}
		if align {
			return float32(in-1) / float32(out-1)
		}
		if scale > 0 {
			return 1 / scale
		}
		return float32(in) / float32(out)
	}
	rh, rw := ratio(ih, oh, scaleH), ratio(iw, ow, scaleW)
	src := func(k int, r float32, in int) int {
		var s int
		if align {
			s = int(r*float32(k) + 0.5)
		} else {
			s = int(r * float32(k))
		}
		return min(s, in-1)
	}
	shape := []int{n, ch, oh, ow}
	if nhwc {
		shape = []int{n, oh, ow, ch}
	}
	total, err := numel(shape)
	if err != nil {
		return nil, err
	}
	out := &tensor.Tensor[T]{Shape: shape, Data: make([]T, total)}
	i := 0
	at := func(b, cc, y, xx int) T {
		if nhwc {
			return x.Data[((b*ih+y)*iw+xx)*ch+cc]
		}
		return x.Data[((b*ch+cc)*ih+y)*iw+xx]
	}
	for b := range n {
		if nhwc {
			for y := range oh {
				sy := src(y, rh, ih)
				for xx := range ow {
					sx := src(xx, rw, iw)
					for cc := range ch {
						out.Data[i] = at(b, cc, sy, sx)
						i++
					}
				}
			}
			continue
		}
		for cc := range ch {
			for y := range oh {
				sy := src(y, rh, ih)
				for xx := range ow {
					out.Data[i] = at(b, cc, sy, src(xx, rw, iw))
					i++
				}
			}
		}
	}
	return c.one(out, nil)
}

// floatsAttr returns a list-of-numbers attribute.
func (c *call[T]) floatsAttr(name string) ([]float64, bool) {
	a := c.attr(name)
	if a == nil {
		return nil, false
	}
	return ir.AsFloats(a)
}
