package tensor

import "fmt"

// Transpose permutes the dimensions of x: output dimension i is input
// dimension perm[i]. Negative entries count from the end, as in Paddle.
func Transpose[T Float](x *Tensor[T], perm []int) (*Tensor[T], error) {
	if err := x.validate("transpose"); err != nil {
		return nil, err
	}
	r := len(x.Shape)
	if len(perm) != r {
		return nil, fmt.Errorf("tensor: transpose: perm %v has length %d, input %v has rank %d", perm, len(perm), x.Shape, r)
	}
	p := make([]int, r)
	seen := make([]bool, r)
	for i, a := range perm {
		na, err := normAxis("transpose", a, r)
		if err != nil {
			return nil, err
		}
		if seen[na] {
			return nil, fmt.Errorf("tensor: transpose: perm %v repeats axis %d", perm, na)
		}
		seen[na] = true
		p[i] = na
	}
	return permute(x, p), nil
}

// permute is Transpose without validation; perm must be a permutation.
func permute[T Float](x *Tensor[T], perm []int) *Tensor[T] {
	r := len(x.Shape)
	outShape := make([]int, r)
	inStrides := stridesOf(x.Shape)
	st := make([]int, r) // input stride of each output dimension
	for i, a := range perm {
		outShape[i] = x.Shape[a]
		st[i] = inStrides[a]
	}
	out := newUnchecked[T](outShape)
	n := len(out.Data)
	if n == 0 {
		return out
	}
	if r == 0 {
		out.Data[0] = x.Data[0]
		return out
	}
	// Odometer over the output; the innermost dimension is a strided copy.
	last := r - 1
	inner, innerStride := outShape[last], st[last]
	idx := make([]int, r)
	src := 0
	for o := 0; o < n; o += inner {
		dst := out.Data[o : o+inner]
		s := src
		for j := range dst {
			dst[j] = x.Data[s]
			s += innerStride
		}
		for d := last - 1; d >= 0; d-- {
			idx[d]++
			src += st[d]
			if idx[d] < outShape[d] {
				break
			}
			src -= st[d] * outShape[d]
			idx[d] = 0
		}
	}
	return out
}
