package tensor

import (
	"fmt"
	"slices"
)

// Concat joins tensors along axis (negative values count from the end). All
// inputs must have the same rank (at least 1) and equal extents on every
// other axis.
func Concat[T Float](axis int, xs ...*Tensor[T]) (*Tensor[T], error) {
	if len(xs) == 0 {
		return nil, fmt.Errorf("tensor: concat: no inputs")
	}
	for i, x := range xs {
		if err := x.validate(fmt.Sprintf("concat input %d", i)); err != nil {
			return nil, err
		}
	}
	r := len(xs[0].Shape)
	if r == 0 {
		return nil, fmt.Errorf("tensor: concat: 0-D inputs cannot be concatenated")
	}
	ax, err := normAxis("concat", axis, r)
	if err != nil {
		return nil, err
	}
	outShape := slices.Clone(xs[0].Shape)
	outShape[ax] = 0
	for i, x := range xs {
		if len(x.Shape) != r {
			return nil, fmt.Errorf("tensor: concat: input %d has rank %d, input 0 has rank %d", i, len(x.Shape), r)
		}
		for d := range r {
			if d != ax && x.Shape[d] != xs[0].Shape[d] {
				return nil, fmt.Errorf("tensor: concat: input %d shape %v incompatible with %v on axis %d", i, x.Shape, xs[0].Shape, d)
			}
		}
		outShape[ax] += x.Shape[ax]
	}
	out := newUnchecked[T](outShape)
	outer := 1
	for _, d := range outShape[:ax] {
		outer *= d
	}
	inner := 1
	for _, d := range outShape[ax+1:] {
		inner *= d
	}
	rowOut := outShape[ax] * inner
	off := 0
	for _, x := range xs {
		chunk := x.Shape[ax] * inner
		for o := range outer {
			copy(out.Data[o*rowOut+off:o*rowOut+off+chunk], x.Data[o*chunk:(o+1)*chunk])
		}
		off += chunk
	}
	return out, nil
}

// Split cuts x along axis into pieces of the given section sizes. At most one
// section may be -1, meaning "whatever remains"; otherwise the sections must
// add up to the axis extent.
func Split[T Float](x *Tensor[T], sections []int, axis int) ([]*Tensor[T], error) {
	if err := x.validate("split"); err != nil {
		return nil, err
	}
	if len(x.Shape) == 0 {
		return nil, fmt.Errorf("tensor: split: cannot split a 0-D tensor")
	}
	ax, err := normAxis("split", axis, len(x.Shape))
	if err != nil {
		return nil, err
	}
	if len(sections) == 0 {
		return nil, fmt.Errorf("tensor: split: no sections")
	}
	dim := x.Shape[ax]
	secs := slices.Clone(sections)
	unknown, sum := -1, 0
	for i, s := range secs {
		switch {
		case s == -1:
			if unknown >= 0 {
				return nil, fmt.Errorf("tensor: split: sections %v have more than one -1", sections)
			}
			unknown = i
		case s < 0:
			return nil, fmt.Errorf("tensor: split: invalid section %d in %v", s, sections)
		default:
			sum += s
		}
	}
	if unknown >= 0 {
		if sum > dim {
			return nil, fmt.Errorf("tensor: split: sections %v exceed axis extent %d", sections, dim)
		}
		secs[unknown] = dim - sum
	} else if sum != dim {
		return nil, fmt.Errorf("tensor: split: sections %v add up to %d, axis %d has extent %d", sections, sum, ax, dim)
	}
	return splitSections(x, secs, ax), nil
}

// SplitNum cuts x along axis into num equal pieces; the axis extent must be
// divisible by num.
func SplitNum[T Float](x *Tensor[T], num, axis int) ([]*Tensor[T], error) {
	if err := x.validate("split"); err != nil {
		return nil, err
	}
	if len(x.Shape) == 0 {
		return nil, fmt.Errorf("tensor: split: cannot split a 0-D tensor")
	}
	ax, err := normAxis("split", axis, len(x.Shape))
	if err != nil {
		return nil, err
	}
	if num <= 0 || num > maxAttr {
		return nil, fmt.Errorf("tensor: split: num must be in [1, %d], got %d", maxAttr, num)
	}
	if x.Shape[ax]%num != 0 {
		return nil, fmt.Errorf("tensor: split: axis extent %d not divisible by num %d", x.Shape[ax], num)
	}
	secs := make([]int, num)
	for i := range secs {
		secs[i] = x.Shape[ax] / num
	}
	return splitSections(x, secs, ax), nil
}

func splitSections[T Float](x *Tensor[T], secs []int, ax int) []*Tensor[T] {
	outer := 1
	for _, d := range x.Shape[:ax] {
		outer *= d
	}
	inner := 1
	for _, d := range x.Shape[ax+1:] {
		inner *= d
	}
	row := x.Shape[ax] * inner
	outs := make([]*Tensor[T], len(secs))
	off := 0
	for i, s := range secs {
		shape := slices.Clone(x.Shape)
		shape[ax] = s
		o := newUnchecked[T](shape)
		chunk := s * inner
		for k := range outer {
			copy(o.Data[k*chunk:(k+1)*chunk], x.Data[k*row+off:k*row+off+chunk])
		}
		off += chunk
		outs[i] = o
	}
	return outs
}
