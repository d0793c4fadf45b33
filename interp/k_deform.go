package interp

import (
	"fmt"
	"math"

	"github.com/pirdrr/drr/interp/tensor"
)

// kDeformableConv is Paddle's deformable_conv (DCN v1; v2 with the mask operand): for output position (y, x) and
// kernel tap (i, j), channel group g of deformable_groups samples the input at
// (y·stride − pad + i·dilation + Δy, x·stride − pad + j·dilation + Δx), Δ read from offset
// [N, 2·dg·kh·kw, Hout, Wout] (Δy at channel g·2·kh·kw + 2·(i·kw + j), Δx next to it), bilinearly with zeros
// outside, times mask [N, dg·kh·kw, Hout, Wout] when given; the samples (an im2col matrix) are multiplied by the
// filter [Cout, C/groups, kh, kw] per group.
func kDeformableConv[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	offset, filter, err := c.inPair(1, 2)
	if err != nil {
		return nil, err
	}
	mask, err := c.optIn(3)
	if err != nil {
		return nil, err
	}
	if len(x.Shape) != 4 || len(filter.Shape) != 4 || len(offset.Shape) != 4 {
		return nil, fmt.Errorf("deformable_conv needs 4-D x, offset and filter, has %v, %v, %v", x.Shape, offset.Shape, filter.Shape)
	}
	strides, _ := c.attrInts("strides")
	pads, _ := c.attrInts("paddings")
	dils, _ := c.attrInts("dilations")
	if len(strides) != 2 || len(pads) != 2 || len(dils) != 2 {
		return nil, fmt.Errorf("strides %v, paddings %v and dilations %v must hold 2 values", strides, pads, dils)
	}
	dg, groups := max(c.attrInt("deformable_groups", 1), 1), max(c.attrInt("groups", 1), 1)
	n, cin, h, w := x.Shape[0], x.Shape[1], x.Shape[2], x.Shape[3]
	cout, cinG, kh, kw := filter.Shape[0], filter.Shape[1], filter.Shape[2], filter.Shape[3]
	if cin != cinG*groups || cout%groups != 0 || cin%dg != 0 {
		return nil, fmt.Errorf("channels: x has %d, filter %v, groups %d, deformable_groups %d", cin, filter.Shape, groups, dg)
	}
	oh := (h+2*pads[0]-(dils[0]*(kh-1)+1))/strides[0] + 1
	ow := (w+2*pads[1]-(dils[1]*(kw-1)+1))/strides[1] + 1
	if oh <= 0 || ow <= 0 {
		return nil, fmt.Errorf("output size %dx%d is not positive", oh, ow)
	}
	taps := kh * kw
	if !sameInts(offset.Shape, []int{n, 2 * dg * taps, oh, ow}) {
		return nil, fmt.Errorf("offset %v must be %v", offset.Shape, []int{n, 2 * dg * taps, oh, ow})
	}
	if mask != nil && !sameInts(mask.Shape, []int{n, dg * taps, oh, ow}) {
		return nil, fmt.Errorf("mask %v must be %v", mask.Shape, []int{n, dg * taps, oh, ow})
	}
	if err := c.work(int64(n) * int64(cout) * int64(oh*ow) * int64(cinG*taps)); err != nil {
		return nil, err
	}
	ohw := oh * ow
	cpg := cin / dg // channels per deformable group
	out := make([]T, n*cout*ohw)
	coutG := cout / groups
	tensor.ParallelFor(n, cin*taps*ohw*8, func(lo, hi int) {
		col := make([]T, cin*taps*ohw) // rows (channel, tap), columns output positions
		for b := lo; b < hi; b++ {
			for ch := range cin {
				g := ch / cpg
				plane := x.Data[(b*cin+ch)*h*w : (b*cin+ch+1)*h*w]
				for t := range taps {
					i, j := t/kw, t%kw
					row := col[(ch*taps+t)*ohw : (ch*taps+t+1)*ohw]
					oy0 := (b*2*dg*taps + g*2*taps + 2*t) * ohw
					ox0 := oy0 + ohw
					for p := range ohw {
						y, xx := p/ow, p%ow
						py := float64(y*strides[0]-pads[0]+i*dils[0]) + float64(offset.Data[oy0+p])
						px := float64(xx*strides[1]-pads[1]+j*dils[1]) + float64(offset.Data[ox0+p])
						v := 0.0
						if py > -1 && px > -1 && py < float64(h) && px < float64(w) {
							v = bilinearZero(plane, h, w, py, px)
						}
						if mask != nil {
							v *= float64(mask.Data[((b*dg+g)*taps+t)*ohw+p])
						}
						row[p] = T(v)
					}
				}
			}
			for gr := range groups {
				fw := &tensor.Tensor[T]{Shape: []int{coutG, cinG * taps}, Data: filter.Data[gr*coutG*cinG*taps : (gr+1)*coutG*cinG*taps]}
				cm := &tensor.Tensor[T]{Shape: []int{cinG * taps, ohw}, Data: col[gr*cinG*taps*ohw : (gr+1)*cinG*taps*ohw]}
				res, err := tensor.Matmul(fw, cm, false, false)
				if err != nil {
					panic(err) // shapes are checked above
				}
				copy(out[(b*cout+gr*coutG)*ohw:(b*cout+(gr+1)*coutG)*ohw], res.Data)
			}
		}
	})
	return c.one(&tensor.Tensor[T]{Shape: []int{n, cout, oh, ow}, Data: out}, nil)
}

// bilinearZero samples a plane at (y, x) bilinearly, neighbours outside the plane reading 0.
func bilinearZero[T tensor.Float](plane []T, h, w int, y, x float64) float64 {
	y0, x0 := math.Floor(y), math.Floor(x)
	yl, xl := int(y0), int(x0)
	ly, lx := y-y0, x-x0
	at := func(yy, xx int) float64 {
		if yy < 0 || xx < 0 || yy >= h || xx >= w {
			return 0
		}
		return float64(plane[yy*w+xx])
	}
	return (1-ly)*(1-lx)*at(yl, xl) + (1-ly)*lx*at(yl, xl+1) + ly*(1-lx)*at(yl+1, xl) + ly*lx*at(yl+1, xl+1)
}
