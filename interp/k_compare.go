package interp

import (
	"math"
	"slices"

	"github.com/pirdrr/drr/interp/tensor"
)

// Comparisons, predicates and logical ops (the conditions of pd_op.if and pd_op.while; isnan, isinf, isfinite,
// isclose, allclose, equal_all). Results are booleans (0 or 1).

func registerCompare[T tensor.Float](r registry[T]) {
	b := func(ok bool) float64 {
		if ok {
			return 1
		}
		return 0
	}
	binary := map[string]func(a, b float64) float64{
		"equal":         func(x, y float64) float64 { return b(x == y) },
		"not_equal":     func(x, y float64) float64 { return b(x != y) },
		"less_than":     func(x, y float64) float64 { return b(x < y) },
		"less_equal":    func(x, y float64) float64 { return b(x <= y) },
		"greater_than":  func(x, y float64) float64 { return b(x > y) },
		"greater_equal": func(x, y float64) float64 { return b(x >= y) },
		"logical_and":   func(x, y float64) float64 { return b(x != 0 && y != 0) },
		"logical_or":    func(x, y float64) float64 { return b(x != 0 || y != 0) },
		"logical_xor":   func(x, y float64) float64 { return b((x != 0) != (y != 0)) },
	}
	for name, f := range binary {
		r["pd_op."+name] = func(c *call[T]) ([]*value[T], error) {
			x, y, err := c.pair()
			if err != nil {
				return nil, err
			}
			return c.one(mapBinary(x, y, f))
		}
	}
	unary := map[string]func(float64) float64{
		"logical_not": func(x float64) float64 { return b(x == 0) },
		"isnan":       func(x float64) float64 { return b(math.IsNaN(x)) },
		"isinf":       func(x float64) float64 { return b(math.IsInf(x, 0)) },
		"isfinite":    func(x float64) float64 { return b(!math.IsInf(x, 0) && !math.IsNaN(x)) },
	}
	for name, f := range unary {
		r["pd_op."+name] = func(c *call[T]) ([]*value[T], error) {
			x, err := c.in(0)
			if err != nil {
				return nil, err
			}
			return c.one(mapUnary(x, f), nil)
		}
	}
	r["pd_op.isclose"] = kIsClose[T](false)
	r["pd_op.allclose"] = kIsClose[T](true)
	r["pd_op.equal_all"] = kEqualAll[T]
}

// kIsClose is |x − y| ≤ atol + rtol·|y| (within 1e-15) element-wise (isclose), or whether it holds everywhere (allclose, a 0-D
// boolean); equal values (infinities included) are close, NaNs only with equal_nan.
func kIsClose[T tensor.Float](all bool) kernel[T] {
	return func(c *call[T]) ([]*value[T], error) {
		x, y, err := c.inPair(0, 1)
		if err != nil {
			return nil, err
		}
		rtol, err := c.requireScalar("rtol", 2)
		if err != nil {
			return nil, err
		}
		atol, err := c.requireScalar("atol", 3)
		if err != nil {
			return nil, err
		}
		eqNaN := c.attrBool("equal_nan", false)
		near := func(a, b float64) float64 {
			switch {
			case a == b:
				return 1
			case math.IsNaN(a) || math.IsNaN(b):
				if eqNaN && math.IsNaN(a) && math.IsNaN(b) {
					return 1
				}
				return 0
			}
			// Paddle also accepts a difference within 1e-15 of the bound.
			d, bound := math.Abs(a-b), atol+rtol*math.Abs(b)
			if d <= bound || math.Abs(d-bound) <= 1e-15 {
				return 1
			}
			return 0
		}
		out, err := mapBinary(x, y, near)
		if err != nil || !all {
			return c.one(out, err)
		}
		ok := 1.0
		for _, v := range out.Data {
			ok = min(ok, float64(v))
		}
		return c.one(c.declaredScalar(&tensor.Tensor[T]{Shape: []int{}, Data: []T{T(ok)}}, 0), nil)
	}
}

// kEqualAll is whether x and y have the same shape and elements (a 0-D boolean).
func kEqualAll[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, y, err := c.inPair(0, 1)
	if err != nil {
		return nil, err
	}
	ok := T(0)
	if slices.Equal(x.Shape, y.Shape) && slices.Equal(x.Data, y.Data) {
		ok = 1
	}
	return c.one(c.declaredScalar(&tensor.Tensor[T]{Shape: []int{}, Data: []T{ok}}, 0), nil)
}
