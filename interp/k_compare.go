package interp

import (
	"math"

	"github.com/pirdrr/drr/interp/tensor"
)

// Comparisons and logical ops (the conditions of pd_op.if and pd_op.while). Results are booleans (0 or 1).

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
}
