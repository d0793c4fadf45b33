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
	if h*w > math.MaxInt32 {
		return nil, fmt.Errorf("input planes of %dx%d elements are too large (at most 2^31-1)", h, w)
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
	col := make([]T, cin*taps*ohw) // rows (channel, tap), columns output positions
	smp := make([]deformSample, ohw)
	for b := range n {
		for g := range dg {
			for t := range taps {
				var m []T
				if mask != nil {
					m = mask.Data[((b*dg+g)*taps+t)*ohw : ((b*dg+g)*taps+t+1)*ohw]
				}
				oy0 := (b*2*dg*taps + g*2*taps + 2*t) * ohw
				deformSamples(smp, offset.Data[oy0:oy0+ohw], offset.Data[oy0+ohw:oy0+2*ohw], m,
					h, w, ow, strides[0], strides[1], t/kw*dils[0]-pads[0], t%kw*dils[1]-pads[1])
				// The positions and weights depend on the group, the tap and the output position only: every
				// channel of the group reads them (the sampling cost cpg times as much computed per channel).
				// Blocks of positions, all the group's channels per block: the block's samples stay in the L1 cache.
				blocks := (ohw + deformBlock - 1) / deformBlock
				tensor.ParallelFor(blocks, cpg*deformBlock*8, func(lo, hi int) {
					p0, p1 := lo*deformBlock, min(hi*deformBlock, ohw)
					for ch := g * cpg; ch < (g+1)*cpg; ch++ {
						plane := x.Data[(b*cin+ch)*h*w : (b*cin+ch+1)*h*w]
						deformRow(col[(ch*taps+t)*ohw+p0:(ch*taps+t)*ohw+p1], smp[p0:p1], plane, m != nil)
					}
				})
			}
		}
		for gr := range groups {
			fw := &tensor.Tensor[T]{Shape: []int{coutG, cinG * taps}, Data: filter.Data[gr*coutG*cinG*taps : (gr+1)*coutG*cinG*taps]}
			cm := &tensor.Tensor[T]{Shape: []int{cinG * taps, ohw}, Data: col[gr*cinG*taps*ohw : (gr+1)*cinG*taps*ohw]}
			res, err := tensor.Matmul(fw, cm, false, false)
			if err != nil {
				return nil, err // shapes are checked above
			}
			copy(out[(b*cout+gr*coutG)*ohw:(b*cout+(gr+1)*coutG)*ohw], res.Data)
		}
	}
	return c.one(&tensor.Tensor[T]{Shape: []int{n, cout, oh, ow}, Data: out}, nil)
}

// deformBlock is the number of output positions deformable_conv samples all channels of a group for at a time.
const deformBlock = 256

// deformSample is where one output position of one (deformable group, tap) samples its channels: the offsets of
// the four bilinear neighbours in the plane (-1 outside it), their weights, the mask factor, and whether the
// point lies in the plane's open border (-1, h) × (-1, w) at all; outside it the sample is 0.
type deformSample struct {
	at     [4]int32
	wt     [4]float64
	mask   float64
	inside bool
}

// deformSamples computes the samples of one (deformable group, tap) for every output position p (row p/ow, column
// p%ow): the point (row·sy + ty + dy[p], column·sx + tx + dx[p]) of an h×w plane, mask factor m[p] when m is not nil.
func deformSamples[T tensor.Float](smp []deformSample, dy, dx, m []T, h, w, ow, sy, sx, ty, tx int) {
	for p := range smp {
		s := &smp[p]
		py := float64(p/ow*sy+ty) + float64(dy[p])
		px := float64(p%ow*sx+tx) + float64(dx[p])
		s.mask = 1
		if m != nil {
			s.mask = float64(m[p])
		}
		s.inside = py > -1 && px > -1 && py < float64(h) && px < float64(w)
		if !s.inside {
			continue
		}
		y0, x0 := math.Floor(py), math.Floor(px)
		yl, xl := int(y0), int(x0)
		ly, lx := py-y0, px-x0
		s.wt = [4]float64{(1 - ly) * (1 - lx), (1 - ly) * lx, ly * (1 - lx), ly * lx}
		for k, d := range [4][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}} {
			yy, xx := yl+d[0], xl+d[1]
			s.at[k] = -1
			if yy >= 0 && xx >= 0 && yy < h && xx < w {
				s.at[k] = int32(yy*w + xx)
			}
		}
	}
}

// deformRow writes one im2col row: the samples smp of a plane, bilinearly with neighbours outside the plane
// reading 0, times the mask factor when masked.
func deformRow[T tensor.Float](row []T, smp []deformSample, plane []T, masked bool) {
	for p := range row {
		s := &smp[p]
		v := 0.0
		if s.inside {
			// Written out: a loop over the neighbours kept them in memory on the stack.
			var a0, a1, a2, a3 float64
			if i := s.at[0]; i >= 0 {
				a0 = float64(plane[i])
			}
			if i := s.at[1]; i >= 0 {
				a1 = float64(plane[i])
			}
			if i := s.at[2]; i >= 0 {
				a2 = float64(plane[i])
			}
			if i := s.at[3]; i >= 0 {
				a3 = float64(plane[i])
			}
			v = s.wt[0]*a0 + s.wt[1]*a1 + s.wt[2]*a2 + s.wt[3]*a3
		}
		if masked {
			v *= s.mask
		}
		row[p] = T(v)
	}
}
