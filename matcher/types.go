package matcher

import (
	"slices"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// Type patterns (rule.TypePattern) take one of three forms, tried in this order: Exact (the type must be that
// pointer), Tensor (a tensor pattern) and Hole >= 0 (bind the whole type). A pattern with none of them accepts
// any type.

// restIndex returns the index of the DimRest pattern, or -1.
func restIndex(dims []rule.DimPattern) int {
	for i, d := range dims {
		if d.Kind == rule.DimRest {
			return i
		}
	}
	return -1
}

// dimIndex returns the index of the tensor dimension that pattern dimension i matches in a tensor of the given
// rank (dimensions after * count from the end); rankOK reports whether the rank fits the pattern at all.
func rankOK(dims []rule.DimPattern, rank int) bool {
	if restIndex(dims) < 0 {
		return rank == len(dims)
	}
	return rank >= len(dims)-1
}

func dimIndex(dims []rule.DimPattern, rest, i, rank int) int {
	if rest < 0 || i < rest {
		return i
	}
	return rank - (len(dims) - i)
}

// tensorStatic checks the hole-free part of tensor pattern tp against type t: t is a tensor type with an accepted
// spelling, its rank fits, exact dimensions and an exact dtype agree.
func tensorStatic(tp *rule.TensorPattern, t ir.Type) bool {
	tt, ok := t.(*ir.TensorType)
	if !ok {
		return false
	}
	if len(tp.Spellings) > 0 && !slices.Contains(tp.Spellings, tt.Spelling) {
		return false
	}
	if !rankOK(tp.Dims, len(tt.Dims)) {
		return false
	}
	rest := restIndex(tp.Dims)
	for i, d := range tp.Dims {
		if d.Kind == rule.DimExact && tt.Dims[dimIndex(tp.Dims, rest, i, len(tt.Dims))] != d.Value {
			return false
		}
	}
	if !tp.AnyDType && tp.DTypeHole < 0 && tt.DType() != tp.DType {
		return false
	}
	return true
}

// holeEqual compares two hole bindings: attributes, types, dims and dtypes by ==, attribute lists element-wise.
func holeEqual(a, b any) bool {
	if la, ok := a.([]ir.NamedAttr); ok {
		lb, ok := b.([]ir.NamedAttr)
		return ok && slices.Equal(la, lb)
	}
	return a == b
}
