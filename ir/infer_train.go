package ir

import (
	"fmt"
	"strings"
)

// Result-type rules of training and distributed ops: optimizer updates, collectives, loss scaling and the
// fake-quantization ops of quantization-aware training, after the InferMeta functions each rule names.

// inferInplaceMap gives each result the type of the operand the schema's inplace map writes it into (average
// accumulates: out_sum_1 ← in_sum_1, …); a result paired with an absent optional operand is left unset (unsetMeta).
// Results the map does not cover are an error: such ops need a rule of their own.
func inferInplaceMap(c *Context, in *InferInput) ([]Type, error) {
	s := in.Schema
	out := make([]Type, len(s.Results))
	for _, p := range s.Inplace {
		if v := in.Operand(p.Operand); v != nil {
			out[p.Result] = v.Type()
		} else {
			out[p.Result] = unsetMeta(c)
		}
	}
	for i, t := range out {
		if t == nil {
			return nil, fmt.Errorf("result %d (%s) writes no operand", i, s.Results[i].Name)
		}
	}
	return out, nil
}

// inferCheckFiniteAndUnscale (CheckFiniteAndUnscaleInferMeta): the unscaled tensors keep their types; one bool
// says whether any was not finite.
func inferCheckFiniteAndUnscale(c *Context, in *InferInput) ([]Type, error) {
	v := in.Operand(0)
	if v == nil {
		return nil, fmt.Errorf("operand 0 (x) is missing")
	}
	return []Type{v.Type(), newTensor(c, dims(1), DTypeBool)}, nil
}

// inferDecayedAdagrad (DecayedAdagradInferMeta): param_out and moment_out have param's type.
func inferDecayedAdagrad(c *Context, in *InferInput) ([]Type, error) {
	p := in.Operand(0)
	if p == nil {
		return nil, fmt.Errorf("operand 0 (param) is missing")
	}
	return []Type{p.Type(), p.Type()}, nil
}

// inferCollective gives x's dims with the first (first) or last dim multiplied (gather, concat) or divided
// (scatter, split) by nranks (AllGatherInferMeta, CConcatInferMeta, CSplitInferMeta, CScatterInferMeta,
// ReduceScatterInferMeta).
func inferCollective(first, gather bool) InferFunc {
	return func(c *Context, in *InferInput) ([]Type, error) {
		x, err := in.tensor(0)
		if err != nil {
			return nil, err
		}
		if x.Rank() == 0 {
			return nil, fmt.Errorf("x must have rank 1 or more")
		}
		n := in.intAttr("nranks", 1)
		if n <= 0 {
			return nil, fmt.Errorf("nranks must be positive, is %d", n)
		}
		d := dims(x.Dims...)
		i := 0
		if !first {
			i = len(d) - 1
		}
		if gather {
			d[i] = mulDim(d[i], n)
		} else {
			d[i] = divDim(d[i], n)
		}
		return []Type{c.WithDims(x, d)}, nil
	}
}

// inferGlobalExchange (GlobalGatherInferMeta, GlobalScatterInferMeta): the rows each worker receives: x's dims with
// an unknown number of rows.
func inferGlobalExchange(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() == 0 {
		return nil, fmt.Errorf("x must have rank 1 or more")
	}
	d := dims(x.Dims...)
	d[0] = Dynamic
	return []Type{c.WithDims(x, d)}, nil
}

// inferPartial (PartialConcatInferMeta, PartialSumInferMeta): columns [start_index, start_index+length) of each
// [B, N] tensor, concatenated (partial_concat) or summed (partial_sum); length -1 runs to the end.
func inferPartial(concat bool) InferFunc {
	return func(c *Context, in *InferInput) ([]Type, error) {
		ts, err := in.tensors(0)
		if err != nil {
			return nil, err
		}
		if len(ts) == 0 || ts[0].Rank() != 2 {
			return nil, fmt.Errorf("x must hold [B, N] tensors")
		}
		start, length := in.intAttr("start_index", 0), in.intAttr("length", -1)
		n := ts[0].Dims[1]
		if start < 0 && n >= 0 {
			start += n
		}
		if length < 0 {
			length = Dynamic
			if n >= 0 {
				length = n - start
			}
		}
		if concat {
			length = mulDim(length, int64(len(ts)))
		}
		return []Type{c.WithDims(ts[0], dims(ts[0].Dims[0], length))}, nil
	}
}

// inferFakeQuant (FakeQuantizeAbsMaxInferMeta and the channel-wise, range and moving-average forms): out has x's
// type (x's dims in float32 for the moving-average forms, whose InferMeta sets no element type); out_scale is one
// value ([1]), or one per channel of quant_axis for the channel-wise ops, in float32 (unset by Paddle); the
// moving-average state and accumulator are [1] float32; out_scales (range) holds window_size values outside
// is_test and is left unset (unsetMeta) within.
func inferFakeQuant(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	s := in.Schema
	one := with(c, x, dims(1), DTypeFloat32)
	moving := s.OperandIndex("in_accum") >= 0
	out := make([]Type, len(s.Results))
	for i, r := range s.Results {
		switch r.Name {
		case "out":
			out[i] = x
			if moving {
				out[i] = with(c, x, x.Dims, DTypeFloat32)
			}
		case "out_scale":
			out[i] = one
			if s.Attr("quant_axis") != nil {
				a, err := normAxis(in.intAttr("quant_axis", 0), x.Rank())
				if err != nil {
					return nil, err
				}
				out[i] = with(c, x, dims(x.Dims[a]), DTypeFloat32)
			}
		case "out_state", "out_accum":
			out[i] = one
		case "out_scales":
			out[i] = unsetMeta(c)
			if !in.boolAttr("is_test") {
				out[i] = c.WithDims(x, dims(in.intAttr("window_size", 10000)))
			}
		default:
			return nil, fmt.Errorf("unexpected result %s", r.Name)
		}
	}
	return out, nil
}

// inferDequantToFloat (DequantizeAbsMaxInferMeta, DequantizeLogInferMeta): x's dims in float32.
func inferDequantToFloat(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	return []Type{with(c, x, x.Dims, DTypeFloat32)}, nil
}

// multiPrecision is Paddle's MPType: the float32 master copy of a half-precision parameter, the parameter's own
// element type otherwise.
func multiPrecision(d DType) DType {
	if d == DTypeFloat16 || d == DTypeBFloat16 {
		return DTypeFloat32
	}
	return d
}

// inferOptimizer (AdamInferMeta, AdamwInferMeta, AdadeltaInferMeta, AdagradInferMeta, AdamaxInferMeta,
// NAdamInferMeta, RAdamInferMeta, RmspropInferMeta, LambInferMeta, MomentumInferMeta, ASGDInferMeta,
// RpropInferMeta, SgdInferMeta, LarsMomentumInferMeta, FusedAdamInferMeta): each updated state has the type of the
// operand it updates (the inplace map); the velocity of the momentum optimizers is kept in the master precision;
// the master copy of the parameter, when multi_precision asks for one and it is given, has the parameter's dims
// in the master precision, and is otherwise left unset (unsetMeta), as is rmsprop_'s mean_grad_out outside
// centered mode. lamb_ and momentum_ set no element type on param_out (float32). Vector operands
// (lars_momentum_, fused_adam_) give vectors of the same.
func inferOptimizer(c *Context, in *InferInput) ([]Type, error) {
	s := in.Schema
	param := in.Operand(0)
	if param == nil {
		return nil, fmt.Errorf("operand 0 is missing")
	}
	master := in.Operand(s.OperandIndex("master_param"))
	if master == nil {
		master = in.Operand(s.OperandIndex("master_params"))
	}
	mp := in.boolAttr("multi_precision")
	op := s.Name
	paired := map[int]int{}
	for _, p := range s.Inplace {
		paired[p.Result] = p.Operand
	}
	out := make([]Type, len(s.Results))
	for i, r := range s.Results {
		switch {
		case strings.HasPrefix(r.Name, "master_param"):
			// Momentum sets the master copy whenever it is given; the others when multi_precision asks too.
			if master == nil || !mp && op != "pd_op.momentum_" && op != "pd_op.lars_momentum_" {
				out[i] = unsetMeta(c)
				continue
			}
			out[i] = mapTensors(c, param.Type(), func(t *TensorType) *TensorType {
				return with(c, t, t.Dims, multiPrecision(t.DType()))
			})
			if op == "pd_op.asgd_" || op == "pd_op.rprop_" || op == "pd_op.sgd_" {
				out[i] = mapTensors(c, master.Type(), func(t *TensorType) *TensorType {
					return with(c, t, t.Dims, multiPrecision(t.DType()))
				})
			}
		case r.Name == "mean_grad_out" && !in.boolAttr("centered"):
			out[i] = unsetMeta(c) // RmspropInferMeta sets it only when centered
		case r.Name == "velocity_out":
			out[i] = mapTensors(c, param.Type(), func(t *TensorType) *TensorType {
				return with(c, t, t.Dims, multiPrecision(t.DType()))
			})
		case r.Name == "param_out" && (op == "pd_op.lamb_" || op == "pd_op.momentum_"):
			out[i] = mapTensors(c, param.Type(), func(t *TensorType) *TensorType {
				return with(c, t, t.Dims, DTypeFloat32)
			})
		default:
			k, ok := paired[i]
			if !ok || in.Operand(k) == nil {
				return nil, fmt.Errorf("result %d (%s) updates no operand", i, r.Name)
			}
			out[i] = in.Operand(k).Type()
		}
	}
	return out, nil
}

// mapTensors applies f to a tensor type, or to each tensor of a vector type.
func mapTensors(c *Context, t Type, f func(*TensorType) *TensorType) Type {
	switch t := t.(type) {
	case *TensorType:
		return f(t)
	case *VectorType:
		elems := make([]Type, len(t.Elems))
		for i, e := range t.Elems {
			elems[i] = mapTensors(c, e, f)
		}
		return c.Vector(elems...)
	}
	return t
}

// inferMergedOptimizer (MergedAdamInferMeta, MergedMomentumInferMeta): their InferMeta functions set nothing, so
// every result is a vector of unset tensors (unsetMeta), one per parameter; the master copies only when given.
func inferMergedOptimizer(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensors(0)
	if err != nil {
		return nil, err
	}
	unset := make([]Type, len(ts))
	for i := range unset {
		unset[i] = unsetMeta(c)
	}
	vec := c.Vector(unset...)
	out := make([]Type, len(in.Schema.Results))
	for i, r := range in.Schema.Results {
		out[i] = vec
		if strings.HasPrefix(r.Name, "master_param") && in.Operand(in.Schema.OperandIndex("master_param")) == nil {
			out[i] = c.NullType()
		}
	}
	return out, nil
}

// inferUpdateLossScaling (UpdateLossScalingInferMeta): the tensors keep their types; the loss scaling is [1] in the
// element type Paddle leaves unset (float32); the step counters [1] int32.
func inferUpdateLossScaling(c *Context, in *InferInput) ([]Type, error) {
	v := in.Operand(0)
	if v == nil {
		return nil, fmt.Errorf("operand 0 (x) is missing")
	}
	steps := newTensor(c, dims(1), DTypeInt32)
	return []Type{v.Type(), newTensor(c, dims(1), DTypeFloat32), steps, steps}, nil
}
