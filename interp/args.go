package interp

import (
	"fmt"
	"math"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// Reading operands and attributes by the schema's names. Paddle turns some Scalar and IntArray arguments into
// operands (mutable attributes: reshape's shape, scale's scale) and has moved arguments between the two over its
// versions (mean's axis became an operand in 2025; pow's y went the other way), so a kernel asks for an argument by
// name and accepts it from whichever place the op has it: the operand of that name when the op's schema has one and
// the op carries it, else the attribute of that name. Ops without a schema (unregistered) are read by position.

// argIndex returns the operand index of the argument called name: its index in the op's schema, or pos when the op
// has no schema; -1 when the schema has no such operand.
func (c *call[T]) argIndex(name string, pos int) int {
	s := c.op.Schema()
	if s == nil {
		return pos
	}
	return s.OperandIndex(name)
}

// named returns the operand called name, or nil when the op does not carry it (an absent optional operand, or an
// argument this op spells as an attribute).
func (c *call[T]) named(name string, pos int) *value[T] {
	i := c.argIndex(name, pos)
	if i < 0 || i >= len(c.args) {
		return nil
	}
	return c.args[i]
}

// tensorArg returns the tensor operand called name, which must be present.
func (c *call[T]) tensorArg(name string, pos int) (*tensor.Tensor[T], error) {
	v := c.named(name, pos)
	if v == nil {
		return nil, fmt.Errorf("operand %s is missing", name)
	}
	if v.vec {
		return nil, fmt.Errorf("operand %s is a vector, not a tensor", name)
	}
	return v.tensor(), nil
}

// optTensorArg returns the tensor operand called name, or nil when it is absent.
func (c *call[T]) optTensorArg(name string, pos int) (*tensor.Tensor[T], error) {
	v := c.named(name, pos)
	if v == nil {
		return nil, nil
	}
	if v.vec {
		return nil, fmt.Errorf("operand %s is a vector, not a tensor", name)
	}
	return v.tensor(), nil
}

// intArrayArg reads an IntArray argument: the operand called name when the op carries it, else the first of the
// attributes attrNames (name itself when none are given) that is present. ok is false when the op has neither.
func (c *call[T]) intArrayArg(name string, pos int, attrNames ...string) (vals []int, ok bool, err error) {
	if i := c.argIndex(name, pos); i >= 0 && i < len(c.args) && c.args[i] != nil {
		v, err := c.ints(i)
		return v, err == nil, err
	}
	if len(attrNames) == 0 {
		attrNames = []string{name}
	}
	for _, a := range attrNames {
		if v, ok := ir.AsInts(c.attr(a)); ok {
			out := make([]int, len(v))
			for k, x := range v {
				out[k] = clampInt(float64(x))
			}
			return out, true, nil
		}
		if v, ok := ir.AsInt(c.attr(a)); ok {
			return []int{clampInt(float64(v))}, true, nil
		}
	}
	return nil, false, nil
}

// scalarArg reads a Scalar argument: the one-element operand called name when the op carries it, else the first of
// the attributes attrNames (name itself when none are given) that is present. ok is false when the op has neither.
func (c *call[T]) scalarArg(name string, pos int, attrNames ...string) (v float64, ok bool, err error) {
	if i := c.argIndex(name, pos); i >= 0 && i < len(c.args) && c.args[i] != nil {
		v, err := c.scalar(i)
		return v, err == nil, err
	}
	if len(attrNames) == 0 {
		attrNames = []string{name}
	}
	for _, a := range attrNames {
		if f, ok := ir.AsFloat(c.attr(a)); ok {
			return f, true, nil
		}
		if b, ok := ir.AsBool(c.attr(a)); ok {
			return b2f(b), true, nil
		}
	}
	return 0, false, nil
}

// requireScalar is scalarArg for an argument the op must have.
func (c *call[T]) requireScalar(name string, pos int, attrNames ...string) (float64, error) {
	v, ok, err := c.scalarArg(name, pos, attrNames...)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, fmt.Errorf("no %s operand or attribute", name)
	}
	return v, nil
}

// requireInts is intArrayArg for an argument the op must have.
func (c *call[T]) requireInts(name string, pos int, attrNames ...string) ([]int, error) {
	v, ok, err := c.intArrayArg(name, pos, attrNames...)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("no %s operand or attribute", name)
	}
	return v, nil
}

// intScalarArg reads a Scalar argument that must be an integer (an axis, a count).
func (c *call[T]) intScalarArg(name string, pos int, attrNames ...string) (int, bool, error) {
	f, ok, err := c.scalarArg(name, pos, attrNames...)
	if err != nil || !ok {
		return 0, ok, err
	}
	if f != math.Trunc(f) {
		return 0, false, fmt.Errorf("%s is %v, not an integer", name, f)
	}
	return clampInt(f), true, nil
}

// bigInt is the magnitude integer arguments saturate to: Paddle spells "to the end" as INT64_MAX or INT32_MAX in
// slice ends and similar bounds, which only ever clamp against a dimension.
const bigInt = 1 << 62

// clampInt converts an integral float to an int, saturating beyond ±2^53 (where floats stop holding every
// integer, and which only the "unbounded" sentinels INT64_MAX/INT64_MIN reach).
func clampInt(f float64) int {
	switch {
	case f >= 1<<53:
		return bigInt
	case f <= -(1 << 53):
		return -bigInt
	}
	return int(f)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
