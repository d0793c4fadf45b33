package tensor

import (
	"fmt"
	"math"
	"slices"
)

// RelDiffFloor is the smallest denominator MaxRelDiff divides by, so that
// comparing two (near-)zero elements yields a (near-)zero relative error
// instead of a division by zero.
const RelDiffFloor = 1e-30

// MaxAbsDiff returns the largest |a[i]-b[i]| over all elements together with
// the flat index i where it occurs (the first one on ties; -1 for empty
// tensors). The shapes must be equal. Two NaNs, or two infinities of the same
// sign, compare as equal (difference 0); a NaN against a number, or opposite
// infinities, give +Inf.
func MaxAbsDiff[T Float](a, b *Tensor[T]) (float64, int, error) {
	return maxDiff(a, b, false)
}

// MaxRelDiff returns the largest |a[i]-b[i]| / max(|a[i]|, |b[i]|,
// RelDiffFloor) over all elements together with the flat index where it
// occurs (the first one on ties; -1 for empty tensors). The shapes must be
// equal. NaNs and infinities are treated as in MaxAbsDiff.
func MaxRelDiff[T Float](a, b *Tensor[T]) (float64, int, error) {
	return maxDiff(a, b, true)
}

func maxDiff[T Float](a, b *Tensor[T], relative bool) (float64, int, error) {
	if err := a.validate("compare"); err != nil {
		return 0, -1, err
	}
	if err := b.validate("compare"); err != nil {
		return 0, -1, err
	}
	if !slices.Equal(a.Shape, b.Shape) {
		return 0, -1, fmt.Errorf("tensor: compare: shape mismatch %v vs %v", a.Shape, b.Shape)
	}
	best, at := 0.0, -1
	for i := range a.Data {
		d := elemDiff(float64(a.Data[i]), float64(b.Data[i]), relative)
		if at < 0 || d > best {
			best, at = d, i
		}
	}
	return best, at, nil
}

// ElemDiff returns |x−y|, with NaN equal to NaN and equal infinities equal; a NaN against a number, or opposite
// infinities, differ by +Inf.
func ElemDiff(x, y float64) float64 {
	xn, yn := math.IsNaN(x), math.IsNaN(y)
	switch {
	case xn && yn:
		return 0
	case xn || yn:
		return math.Inf(1)
	case math.IsInf(x, 0) || math.IsInf(y, 0):
		if x == y {
			return 0
		}
		return math.Inf(1)
	}
	return math.Abs(x - y)
}

// elemDiff is ElemDiff, relative to the larger magnitude (at least RelDiffFloor) when relative is set; NaNs and
// infinities compare as in ElemDiff.
func elemDiff(x, y float64, relative bool) float64 {
	d := ElemDiff(x, y)
	if !relative || math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return d
	}
	return d / max(math.Abs(x), math.Abs(y), RelDiffFloor)
}
