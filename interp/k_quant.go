package interp

import (
	"fmt"
	"math"

	"github.com/pirdrr/drr/interp/tensor"
)

// Linear (fake) quantization, as Paddle's phi kernels compute it (quantize_linear_impl.h,
// funcs/fake_quantize_functor.cc, cpu/quantize_linear_kernel.cc). The scale is the abs-max of the tensor: with
// the bin count b = qmax (the kernels read the qmax attribute; before it existed they used 2^(bit_length−1)−1,
// the same 127 for the defaults), quantize_linear maps x to the integer grid
//
//	round_type 0: q = round_half_even(b·inv(s)·x), clamped to [−b−1, b]
//	round_type 1: q = round_half_away(b·inv(s)·clip(x, −s, s))
//
// with inv(s) = 1/s, or 1/(s + 10⁻⁶) when s ≤ 10⁻³⁰, and dequantize_linear maps it back, y = q·s/b, in the
// scale's dtype. The results stay floating point (fake quantization). qmin, bit_length (beyond the range check of
// QuantizeLinearInferMeta) and zero_point are not read.

func registerQuant[T tensor.Float](r registry[T]) {
	r["pd_op.quantize_linear"] = kQuantizeLinear[T]
	r["pd_op.dequantize_linear"] = kDequantizeLinear[T]
}

// quantAttrs are the attributes of the two ops that their kernels read.
type quantAttrs struct {
	axis, qmax, roundType int
	isTest, observer      bool
}

// readQuantAttrs reads the attributes and applies QuantizeLinearInferMeta's checks.
func readQuantAttrs[T tensor.Float](c *call[T]) (quantAttrs, error) {
	q := quantAttrs{axis: c.attrInt("quant_axis", 0), qmax: c.attrInt("qmax", 127),
		roundType: c.attrInt("round_type", 0), isTest: c.attrBool("is_test", true),
		observer: c.attrBool("only_observer", false)}
	if q.axis < -1 || q.axis > 1 {
		return q, fmt.Errorf("quant_axis must be 0, 1 or -1, is %d", q.axis)
	}
	if bl := c.attrInt("bit_length", 8); bl < 1 || bl > 16 {
		return q, fmt.Errorf("bit_length must be in [1, 16], is %d", bl)
	}
	if q.roundType != 0 && q.roundType != 1 {
		return q, fmt.Errorf("round_type must be 0 (ties to even) or 1 (ties away from zero), is %d", q.roundType)
	}
	return q, nil
}

// quantInverse is Paddle's inverse(s): 1/s, guarded against a zero scale.
func quantInverse[T tensor.Float](s T) T {
	if s <= T(1e-30) {
		return 1 / (s + T(1e-6))
	}
	return 1 / s
}

// roundHalfEven rounds to the nearest integer, ties to the even one (Paddle's roundWithTiesToEven).
func roundHalfEven[T tensor.Float](x T) T {
	lo, hi := T(math.Floor(float64(x))), T(math.Ceil(float64(x)))
	dl, dh := x-lo, hi-x
	if dl == dh {
		if math.Mod(float64(lo), 2) == 0 {
			return lo
		}
		return hi
	}
	if dl < dh {
		return lo
	}
	return hi
}

// channels describes how the elements of x map to scales: per tensor (n = 1), or per channel along axis, element
// e reading scale (e / inner) % n.
type channels struct{ n, inner int }

func channelsOf(shape []int, axis int) (channels, error) {
	if axis < 0 {
		return channels{n: 1, inner: max(prod(shape), 1)}, nil
	}
	if axis >= len(shape) {
		return channels{}, fmt.Errorf("quant_axis %d of a rank-%d input", axis, len(shape))
	}
	return channels{n: shape[axis], inner: prod(shape[axis+1:])}, nil
}

func (ch channels) of(e int) int {
	if ch.n == 1 {
		return 0
	}
	return e / ch.inner % ch.n
}

// fakeQuant quantizes x with one scale per channel.
func fakeQuant[T tensor.Float](x []T, scale []T, ch channels, qmax, roundType int) []T {
	out := make([]T, len(x))
	b := T(qmax)
	for e, v := range x {
		s := scale[ch.of(e)]
		inv := quantInverse(s)
		if roundType == 0 {
			q := roundHalfEven(b * inv * v)
			out[e] = min(max(q, -b-1), b)
			continue
		}
		if v < -s {
			v = -s
		} else if v > s {
			v = s
		}
		out[e] = T(math.Round(float64(b * inv * v)))
	}
	return out
}

// kQuantizeLinear: (y, out_state, out_accum, out_scale). With is_test, y quantizes x with the given scale and the
// other results are not computed. Otherwise the scale is computed first: per tensor the moving average of the
// abs-max (state = 0.9·in_state + 1, accum = 0.9·in_accum + max|x|, scale = accum / state, all three returned),
// per channel (quant_axis 0 or 1) each channel's abs-max (out_scale only). only_observer returns x as y.
func kQuantizeLinear[T tensor.Float](c *call[T]) ([]*value[T], error) {
	q, x, s, ch, err := quantOperands(c, "quantize_linear")
	if err != nil {
		return nil, err
	}
	res := make([]*value[T], 4)
	var scale []T
	if q.isTest {
		if len(s.Data) < ch.n {
			return nil, fmt.Errorf("scale %v has fewer than the %d values of quant_axis %d", s.Shape, ch.n, q.axis)
		}
		scale = s.Data
	} else {
		scale = channelAbsMax(x.Data, ch)
		scaleShape := []int{ch.n}
		if q.axis < 0 {
			accum, state, err := c.inPair(3, 4)
			if err != nil {
				return nil, fmt.Errorf("quantize_linear in training needs in_accum and in_state: %w", err)
			}
			scaleShape = s.Shape
			rate := T(float32(0.9))
			st := rate*state.Data[0] + 1
			acc := rate*accum.Data[0] + scale[0]
			scale = []T{acc / st}
			res[1] = c.out(&tensor.Tensor[T]{Shape: append([]int{}, state.Shape...), Data: []T{st}}, 1)
			res[2] = c.out(&tensor.Tensor[T]{Shape: append([]int{}, accum.Shape...), Data: []T{acc}}, 2)
		}
		res[3] = c.out(&tensor.Tensor[T]{Shape: scaleShape, Data: scale}, 3)
	}
	y := fakeQuant(x.Data, scale, ch, q.qmax, q.roundType)
	if q.observer {
		y = append([]T{}, x.Data...)
	}
	res[0] = c.out(&tensor.Tensor[T]{Shape: append([]int{}, x.Shape...), Data: y}, 0)
	return c.quantResults(res), nil
}

// quantOperands reads what both kernels start from: the attributes, x, its channels along quant_axis, and the
// scale operand, which both require (also in training, where quantize_linear computes the scale it uses).
func quantOperands[T tensor.Float](c *call[T], op string) (quantAttrs, *tensor.Tensor[T], *tensor.Tensor[T], channels, error) {
	q, err := readQuantAttrs(c)
	if err != nil {
		return q, nil, nil, channels{}, err
	}
	x, err := c.in(0)
	if err != nil {
		return q, nil, nil, channels{}, err
	}
	ch, err := channelsOf(x.Shape, q.axis)
	if err != nil {
		return q, nil, nil, channels{}, err
	}
	s, err := c.in(1)
	if err != nil {
		return q, nil, nil, channels{}, fmt.Errorf("%s needs a scale: %w", op, err)
	}
	return q, x, s, ch, nil
}

// channelAbsMax is max|x| over each channel.
func channelAbsMax[T tensor.Float](x []T, ch channels) []T {
	out := make([]T, ch.n)
	for e, v := range x {
		k := ch.of(e)
		out[k] = max(out[k], T(math.Abs(float64(v))))
	}
	return out
}

// quantResults trims the results to the op's (trailing optional results may be left out) and gives the inplace
// form's results that the kernel does not compute the value of the operand they are written into: the operand's
// buffer, unchanged (quantize_linear_ in inference leaves its scale alone).
func (c *call[T]) quantResults(res []*value[T]) []*value[T] {
	res = res[:min(len(res), c.op.NumResults())]
	s := c.op.Schema()
	if s == nil {
		return res
	}
	for _, p := range s.Inplace {
		if p.Result < len(res) && res[p.Result] == nil && p.Operand < len(c.args) && c.args[p.Operand] != nil {
			a := c.args[p.Operand]
			res[p.Result] = a.view(a.shape, a.dtype)
		}
	}
	return res
}

// kDequantizeLinear: y = x·s/qmax per tensor (scale[0]) or per channel along quant_axis 0 or 1 (scale must hold
// one value per channel), in the scale's dtype; only_observer returns x. The other results are not computed.
func kDequantizeLinear[T tensor.Float](c *call[T]) ([]*value[T], error) {
	q, x, s, ch, err := quantOperands(c, "dequantize_linear")
	if err != nil {
		return nil, err
	}
	if q.axis >= 0 && len(s.Data) != ch.n || len(s.Data) == 0 {
		return nil, fmt.Errorf("scale %v must hold one value per channel of dim %d of x %v", s.Shape, q.axis, x.Shape)
	}
	y := make([]T, len(x.Data))
	b := T(q.qmax)
	for e, v := range x.Data {
		if q.observer {
			y[e] = v
			continue
		}
		y[e] = v * s.Data[ch.of(e)] / b
	}
	res := []*value[T]{c.out(&tensor.Tensor[T]{Shape: append([]int{}, x.Shape...), Data: y}, 0), nil, nil, nil}
	return c.quantResults(res), nil
}
