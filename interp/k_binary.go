package interp

import (
	"fmt"
	"math"
	"sync/atomic"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// Element-wise ops of several operands, with Paddle's integer semantics where they differ from the floating-point
// ones (elementwise_functor.h): the declared result type says which applies.

func registerBinary[T tensor.Float](r registry[T]) {
	r["pd_op.maximum"] = binaryFunc[T](func(a, b float64) float64 {
		if a > b {
			return a
		}
		return b
	})
	r["pd_op.minimum"] = binaryFunc[T](func(a, b float64) float64 {
		if a < b {
			return a
		}
		return b
	})
	r["pd_op.elementwise_pow"] = kElementwisePow[T]
	r["pd_op.remainder"] = kRemainder[T]
	r["pd_op.floor_divide"] = kFloorDivide[T]
	r["pd_op.copysign"] = binaryFunc[T](math.Copysign)
	r["pd_op.gammaincc"] = binaryFunc[T](gammaincc)
	r["pd_op.bitwise_and"] = bitwiseKernel[T](func(a, b int64) int64 { return a & b })
	r["pd_op.bitwise_or"] = bitwiseKernel[T](func(a, b int64) int64 { return a | b })
	r["pd_op.bitwise_xor"] = bitwiseKernel[T](func(a, b int64) int64 { return a ^ b })
	r["pd_op.bitwise_not"] = kBitwiseNot[T]
	r["pd_op.bitwise_left_shift"] = kShift[T](true)
	r["pd_op.bitwise_right_shift"] = kShift[T](false)
	r["pd_op.where"] = kWhere[T]
	r["pd_op.lerp"] = kLerp[T]
	r["pd_op.masked_fill"] = kMaskedFill[T]
	r["pd_op.prelu"] = kPrelu[T]
	r["pd_op.swiglu"] = kSwiglu[T]
	r["pd_op.add_n"] = kAddN[T]
	// fmax/fmin ignore a NaN operand (the other is the result); maximum/minimum propagate it.
	r["pd_op.fmax"] = binaryFunc[T](func(x, y float64) float64 {
		if math.IsNaN(x) || y > x {
			return y
		}
		return x
	})
	r["pd_op.fmin"] = binaryFunc[T](func(x, y float64) float64 {
		if math.IsNaN(x) || y < x {
			return y
		}
		return x
	})
	r["pd_op.atan2"] = binaryFunc[T](math.Atan2)
	r["pd_op.heaviside"] = binaryFunc[T](func(x, y float64) float64 {
		switch {
		case x == 0:
			return y
		case x > 0:
			return 1
		case x < 0:
			return 0
		}
		return x // NaN
	})
}

// binaryFunc is a broadcasting kernel of f.
func binaryFunc[T tensor.Float](f func(a, b float64) float64) kernel[T] {
	return func(c *call[T]) ([]*value[T], error) {
		x, y, err := c.pair()
		if err != nil {
			return nil, err
		}
		return c.one(mapBinary(x, y, f))
	}
}

// intResult reports whether result 0 is declared with an integer (or boolean) element type.
func (c *call[T]) intResult() bool {
	dt := c.outDType(0)
	return dt.IsInteger() || dt == ir.DTypeBool
}

// errDivZero is the error of an integer division (or remainder) by zero, which Paddle enforces.
var errDivZero = fmt.Errorf("integer division by zero")

// kElementwisePow is x**y; integer results are the (truncated) power of the integers, as Paddle's CPU kernel.
func kElementwisePow[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, y, err := c.pair()
	if err != nil {
		return nil, err
	}
	if c.intResult() {
		return c.one(mapBinary(x, y, func(a, b float64) float64 { return math.Trunc(math.Pow(a, b)) }))
	}
	return c.one(mapBinary(x, y, math.Pow))
}

// kRemainder is the remainder with the sign of the divisor (Python's %): integers fail on a zero divisor, floats
// follow fmod.
func kRemainder[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, y, err := c.pair()
	if err != nil {
		return nil, err
	}
	ints := c.intResult()
	var divZero atomic.Bool
	out, err := mapBinary(x, y, func(a, b float64) float64 {
		if ints && b == 0 {
			divZero.Store(true)
			return 0
		}
		res := math.Mod(a, b)
		if res != 0 && (res < 0) != (b < 0) {
			res += b
		}
		return res
	})
	if divZero.Load() {
		return nil, errDivZero
	}
	return c.one(out, err)
}

// kFloorDivide is the quotient rounded toward −∞: integers fail on a zero divisor; floats divide by zero as IEEE
// does.
func kFloorDivide[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, y, err := c.pair()
	if err != nil {
		return nil, err
	}
	ints := c.intResult()
	var divZero atomic.Bool
	out, err := mapBinary(x, y, func(a, b float64) float64 {
		if ints {
			if b == 0 {
				divZero.Store(true)
				return 0
			}
			q := math.Trunc(a / b)
			if math.Signbit(a) != math.Signbit(b) && math.Mod(a, b) != 0 {
				q--
			}
			return q
		}
		return floorDivFloat(a, b)
	})
	if divZero.Load() {
		return nil, errDivZero
	}
	return c.one(out, err)
}

// floorDivFloat is Paddle's floating-point floor division (Python's // for floats).
func floorDivFloat(a, b float64) float64 {
	if b == 0 {
		return a / b
	}
	mod := math.Mod(a, b)
	div := (a - mod) / b
	if mod != 0 && (b < 0) != (mod < 0) {
		div--
	}
	if div == 0 {
		return math.Copysign(0, a/b)
	}
	f := math.Floor(div)
	if div-f > 0.5 {
		f++
	}
	return f
}

// bitwiseKernel applies f to the operands as 64-bit integers; booleans are combined logically.
func bitwiseKernel[T tensor.Float](f func(a, b int64) int64) kernel[T] {
	return func(c *call[T]) ([]*value[T], error) {
		x, y, err := c.pair()
		if err != nil {
			return nil, err
		}
		return c.one(mapBinary(x, y, func(a, b float64) float64 { return float64(f(int64(a), int64(b))) }))
	}
}

// kBitwiseNot is ^x for integers and !x for booleans.
func kBitwiseNot[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	if c.outDType(0) == ir.DTypeBool {
		return c.one(mapUnary(x, func(v float64) float64 { return b2f(v == 0) }), nil)
	}
	unsigned := c.outDType(0) == ir.DTypeUint8
	return c.one(mapUnary(x, func(v float64) float64 {
		if unsigned {
			return float64(^uint8(v))
		}
		return float64(^int64(v))
	}), nil)
}

// kShift shifts left or right; is_arithmetic keeps the sign on right shifts, otherwise the operand is shifted as
// an unsigned integer of its width. Shifts by more than the width give 0 (or −1 for negative arithmetic right
// shifts), as Paddle's functors do.
func kShift[T tensor.Float](left bool) kernel[T] {
	return func(c *call[T]) ([]*value[T], error) {
		x, y, err := c.pair()
		if err != nil {
			return nil, err
		}
		arith := c.attrBool("is_arithmetic", true)
		dt := c.outDType(0)
		bits := uint(8 * ElemSize(dt))
		if bits == 0 || !dt.IsInteger() {
			return nil, fmt.Errorf("bitwise shift of %s", dt)
		}
		signed := dt != ir.DTypeUint8 && dt != ir.DTypeUint16 && dt != ir.DTypeUint32 && dt != ir.DTypeUint64
		return c.one(mapBinary(x, y, func(a, b float64) float64 {
			v, s := int64(a), int64(b)
			if s < 0 || uint(s) >= bits {
				if !left && arith && v < 0 {
					return -1
				}
				return 0
			}
			if left {
				return float64(signExtend(v<<uint(s), bits, signed))
			}
			if arith {
				return float64(v >> uint(s))
			}
			mask := uint64(1)<<bits - 1
			if bits == 64 {
				mask = math.MaxUint64
			}
			return float64(signExtend(int64((uint64(v)&mask)>>uint(s)), bits, signed))
		}))
	}
}

// signExtend wraps v to an integer of the given width (two's complement when signed).
func signExtend(v int64, bits uint, signed bool) int64 {
	if bits >= 64 {
		return v
	}
	v &= 1<<bits - 1
	if signed && v&(1<<(bits-1)) != 0 {
		v -= 1 << bits
	}
	return v
}

// kWhere is condition ? x : y, the three broadcast.
func kWhere[T tensor.Float](c *call[T]) ([]*value[T], error) {
	cond, err := c.in(0)
	if err != nil {
		return nil, err
	}
	x, y, err := c.inPair(1, 2)
	if err != nil {
		return nil, err
	}
	return c.one(mapTernary(cond, x, y, func(k, a, b float64) float64 {
		if k != 0 {
			return a
		}
		return b
	}))
}

// inPair returns operands i and j.
func (c *call[T]) inPair(i, j int) (*tensor.Tensor[T], *tensor.Tensor[T], error) {
	x, err := c.in(i)
	if err != nil {
		return nil, nil, err
	}
	y, err := c.in(j)
	if err != nil {
		return nil, nil, err
	}
	return x, y, nil
}

// kLerp is x + weight·(y − x).
func kLerp[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	y, w, err := c.inPair(1, 2)
	if err != nil {
		return nil, err
	}
	return c.one(mapTernary(x, y, w, func(a, b, t float64) float64 { return a + t*(b-a) }))
}

// kMaskedFill is mask ? value : x, the value (usually 0-D) broadcast.
func kMaskedFill[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.tensorArg("x", 0)
	if err != nil {
		return nil, err
	}
	mask, err := c.tensorArg("mask", 1)
	if err != nil {
		return nil, err
	}
	val, err := c.tensorArg("value", 2)
	if err != nil {
		return nil, err
	}
	out, err := mapTernary(x, mask, val, func(a, m, v float64) float64 {
		if m != 0 {
			return v
		}
		return a
	})
	if err == nil && !sameInts(out.Shape, x.Shape) {
		return nil, fmt.Errorf("mask %v and value %v broadcast x %v to %v", mask.Shape, val.Shape, x.Shape, out.Shape)
	}
	return c.one(out, err)
}

// kPrelu is x > 0 ? x : α·x with α one value (mode "all"), one per channel ("channel": the channel axis of
// data_format) or one per element of x's non-batch dims ("element").
func kPrelu[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, alpha, err := c.pair()
	if err != nil {
		return nil, err
	}
	mode := c.attrString("mode", "all")
	r := len(x.Shape)
	var at func(i int) float64
	switch mode {
	case "all":
		if len(alpha.Data) != 1 {
			return nil, fmt.Errorf("prelu mode all needs one alpha, has %v", alpha.Shape)
		}
		at = func(int) float64 { return float64(alpha.Data[0]) }
	case "channel":
		if r < 2 {
			return nil, fmt.Errorf("prelu mode channel needs rank >= 2, x is %v", x.Shape)
		}
		axis := 1
		if f := c.attrString("data_format", "NCHW"); f == "NHWC" || f == "NLC" || f == "NDHWC" {
			axis = r - 1
		}
		ch, inner := x.Shape[axis], 1
		for _, d := range x.Shape[axis+1:] {
			inner *= d
		}
		if len(alpha.Data) != ch {
			return nil, fmt.Errorf("prelu mode channel needs %d alphas, has %v", ch, alpha.Shape)
		}
		at = func(i int) float64 { return float64(alpha.Data[(i/inner)%ch]) }
	case "element":
		per := 1
		if r > 0 {
			per = len(x.Data) / max(x.Shape[0], 1)
		}
		if len(alpha.Data) != per {
			return nil, fmt.Errorf("prelu mode element needs %d alphas, has %v", per, alpha.Shape)
		}
		at = func(i int) float64 { return float64(alpha.Data[i%per]) }
	default:
		return nil, unsupported("prelu mode %q", mode)
	}
	out := make([]T, len(x.Data))
	for i, v := range x.Data {
		if v > 0 {
			out[i] = v
		} else {
			out[i] = T(at(i) * float64(v))
		}
	}
	return c.one(&tensor.Tensor[T]{Shape: append([]int{}, x.Shape...), Data: out}, nil)
}

// kSwiglu is silu(x)·y, or with y absent silu(a)·b for the two halves a, b of x's last dimension.
func kSwiglu[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	y, err := c.optIn(1)
	if err != nil {
		return nil, err
	}
	silu := func(a, b float64) float64 { return a / (1 + math.Exp(-a)) * b }
	if y != nil {
		return c.one(mapBinary(x, y, silu))
	}
	if len(x.Shape) == 0 || x.Shape[len(x.Shape)-1]%2 != 0 {
		return nil, fmt.Errorf("swiglu without y needs an even last dimension, x is %v", x.Shape)
	}
	parts, err := tensor.SplitNum(x, 2, -1)
	if err != nil {
		return nil, err
	}
	return c.one(mapBinary(parts[0], parts[1], silu))
}

// kAddN sums the tensors of its vector operand.
func kAddN[T tensor.Float](c *call[T]) ([]*value[T], error) {
	xs, err := c.vector(0)
	if err != nil {
		return nil, err
	}
	if len(xs) == 0 {
		return nil, fmt.Errorf("add_n of no tensors")
	}
	acc := xs[0].tensor().Clone()
	for _, x := range xs[1:] {
		if acc, err = tensor.Add(acc, x.tensor()); err != nil {
			return nil, err
		}
	}
	return c.one(acc, nil)
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
