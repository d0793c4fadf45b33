package interp

import (
	"fmt"
	"slices"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// Program inputs, parameters and outputs.

func registerIO[T tensor.Float](r registry[T]) {
	r[ir.ParameterOpName] = kParameter[T]
	r[ir.GetParameterOpName] = kParameter[T]
	r[ir.SetParameterOpName] = kSetParameter[T]
	r["pd_op.data"] = kInput[T]
	r["pd_op.feed"] = kInput[T]
	r["pd_op.fetch"] = kFetch[T]
	r["builtin.shadow_output"] = kShadowOutput[T]
}

// kParameter reads a parameter: every read of one name shares one buffer for the whole run, so that inplace writes
// to a parameter are seen by later reads.
func kParameter[T tensor.Float](c *call[T]) ([]*value[T], error) {
	name, ok := ir.AsString(c.attr("parameter_name"))
	if !ok {
		return nil, fmt.Errorf("no parameter_name attribute")
	}
	p, err := c.m.param(name, c.op.Result(0).Type())
	if err != nil {
		return nil, err
	}
	return []*value[T]{p.view(p.shape, p.dtype)}, nil
}

// param returns the buffer of a parameter, loading it on first use from the feed or from the program's data.
func (m *machine[T]) param(name string, t ir.Type) (*value[T], error) {
	if p, ok := m.params[name]; ok {
		return p, nil
	}
	tt := ir.TensorOf(t)
	if tt == nil {
		return nil, fmt.Errorf("parameter %q has type %s, not a tensor", name, t)
	}
	var h *Tensor
	if f := m.feed.Params[name]; f != nil {
		h = f
	} else if p, ok, err := m.drawParam(name); ok {
		if err != nil {
			return nil, err
		}
		if !dimsAgree(tt.Dims, p.shape) || p.dtype != tt.DType() {
			return nil, fmt.Errorf("parameter %q is drawn as %s%v but its type is %s", name, p.dtype, p.shape, t)
		}
		m.params[name] = p
		return p, nil
	} else if v := m.prog.Params[name]; v != nil && v.Data != nil {
		shape, ok := tensor.StaticShape(tt.Dims)
		if !ok {
			return nil, fmt.Errorf("parameter %q has dynamic type %s", name, t)
		}
		if err := m.opts.CheckSize(fmt.Sprintf("parameter %q", name), shape); err != nil {
			return nil, err
		}
		var err error
		if h, err = DecodeData(tt.DType(), shape, v.Data); err != nil {
			return nil, fmt.Errorf("parameter %q: %w", name, err)
		}
	} else {
		return nil, fmt.Errorf("parameter %q has no data (load weights, set Feed.Params, or draw them: feeds.Random)", name)
	}
	if !dimsAgree(tt.Dims, h.Shape) {
		return nil, fmt.Errorf("parameter %q has shape %v but its type is %s", name, h.Shape, t)
	}
	if err := m.opts.CheckSize(fmt.Sprintf("parameter %q", name), h.Shape); err != nil {
		return nil, err
	}
	p := fromHost[T](h)
	p.dtype = tt.DType()
	m.params[name] = p
	return p, nil
}

// drawParam asks the feed's drawer (Feed.Drawer) for a parameter. ok is false when there is no drawer or it does
// not give the parameter.
func (m *machine[T]) drawParam(name string) (v *value[T], ok bool, err error) {
	if m.feed.Drawer == nil {
		return nil, false, nil
	}
	prec := Float64
	if _, f32 := any(T(0)).(float32); f32 {
		prec = Float32
	}
	d, ok, err := m.feed.Drawer.DrawParam(name, prec)
	if !ok || err != nil {
		return nil, ok, err
	}
	data, isT := d.Data.([]T)
	if !isT {
		return nil, true, fmt.Errorf("parameter %q is drawn as %T in a %s evaluation", name, d.Data, prec)
	}
	if n, err := NumElements(d.Shape); err != nil || n != len(data) && !isComplex(d.DType) {
		return nil, true, fmt.Errorf("parameter %q is drawn with %d elements for shape %v", name, len(data), d.Shape)
	}
	return &value[T]{buf: &buffer[T]{data: data, borrowed: d.Borrowed}, shape: slices.Clone(d.Shape), dtype: d.DType}, true, nil
}

// kSetParameter stores a copy of its operand as the parameter's value for later reads, and records it as an output.
func kSetParameter[T tensor.Float](c *call[T]) ([]*value[T], error) {
	name, ok := ir.AsString(c.attr("parameter_name"))
	if !ok {
		return nil, fmt.Errorf("no parameter_name attribute")
	}
	x, err := c.arg(0)
	if err != nil {
		return nil, err
	}
	c.m.params[name] = copyValue(x)
	h, raw := x.output(c.m.opts.Compact, true)
	c.m.outputs = append(c.m.outputs, Output{Kind: ParameterOutput, Name: name, Col: -1, Value: h, Elems: raw, Random: x.isRandom(),
		Rounding: x.roundingOf()})
	return nil, nil
}

// kInput reads a program input (pd_op.data, pd_op.feed) by its name attribute, as a copy of the fed tensor.
func kInput[T tensor.Float](c *call[T]) ([]*value[T], error) {
	name, ok := ir.AsString(c.attr("name"))
	if !ok {
		return nil, fmt.Errorf("no name attribute")
	}
	h := c.m.feed.Inputs[name]
	if h == nil {
		return nil, fmt.Errorf("input %q is not fed", name)
	}
	if _, err := NewTensor(h.DType, h.Shape, h.Data); err != nil {
		return nil, fmt.Errorf("input %q: %w", name, err)
	}
	if err := c.m.opts.CheckSize(fmt.Sprintf("input %q", name), h.Shape); err != nil {
		return nil, err
	}
	return []*value[T]{fromHost[T](h)}, nil
}

// kFetch records a copy of its operand as an output and returns another copy.
func kFetch[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.arg(0)
	if err != nil {
		return nil, err
	}
	name := c.attrString("name", "")
	h, raw := x.output(c.m.opts.Compact, true)
	c.m.outputs = append(c.m.outputs, Output{Kind: FetchOutput, Name: name, Col: c.attrInt("col", -1), Value: h, Elems: raw, Random: x.isRandom(),
		Rounding: x.roundingOf()})
	if c.op.NumResults() == 0 || !c.op.Result(0).HasUses() {
		return nil, nil // a copy nothing reads (a model's masks: 768 MB)
	}
	return []*value[T]{copyValue(x)}, nil
}

// kShadowOutput publishes its operand; the output is read when the program ends (it shares the buffer, as the
// scope variable does in Paddle).
func kShadowOutput[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.arg(0)
	if err != nil {
		return nil, err
	}
	name, ok := ir.AsString(c.attr("output_name"))
	if !ok {
		return nil, fmt.Errorf("no output_name attribute")
	}
	c.m.shadows = append(c.m.shadows, shadow[T]{name: name, v: x})
	return nil, nil
}
