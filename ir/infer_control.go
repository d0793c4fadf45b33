package ir

import "fmt"

// Result-type rules of the builtin and cf dialects and of pd_op's control flow (if, while, select_input/output):
// packing and unpacking vectors, what regions yield, what a program's parameters and inputs are.

func inferCombine(c *Context, in *InferInput) ([]Type, error) {
	ts := make([]Type, len(in.Operands))
	for i, v := range in.Operands {
		if v == nil {
			return nil, fmt.Errorf("combine: operand %d is missing", i)
		}
		ts[i] = v.Type()
	}
	return []Type{c.Vector(ts...)}, nil
}

func inferBuiltinSplit(c *Context, in *InferInput) ([]Type, error) {
	v := in.Operand(0)
	if v == nil {
		return nil, fmt.Errorf("split: operand 0 is missing")
	}
	vec, ok := v.Type().(*VectorType)
	if !ok {
		return nil, fmt.Errorf("split: operand 0 is not a vector")
	}
	return append([]Type(nil), vec.Elems...), nil
}

func inferSlice(c *Context, in *InferInput) ([]Type, error) {
	v := in.Operand(0)
	if v == nil {
		return nil, fmt.Errorf("slice: operand 0 is missing")
	}
	vec, ok := v.Type().(*VectorType)
	if !ok {
		return nil, fmt.Errorf("slice: operand 0 is not a vector")
	}
	i, ok := AsInt(in.Attr("index"))
	if !ok || i < 0 || int(i) >= len(vec.Elems) {
		return nil, fmt.Errorf("slice: bad index")
	}
	return []Type{vec.Elems[i]}, nil
}

// inferIf: the results of pd_op.if are what its then-region yields (Paddle's IfOp takes them from the cf.yield
// that ends the true branch; both branches must agree).
func inferIf(c *Context, in *InferInput) ([]Type, error) {
	if len(in.Regions) == 0 || in.Regions[0].Empty() {
		return nil, fmt.Errorf("the result types are what the branches yield, and the op has no branches yet")
	}
	blocks := in.Regions[0].Blocks()
	y := blocks[len(blocks)-1].Terminator()
	if y == nil {
		return nil, fmt.Errorf("the true branch does not end in cf.yield")
	}
	out := make([]Type, y.NumOperands())
	for i, v := range y.Operands() {
		if v == nil {
			return nil, fmt.Errorf("the true branch yields an absent value %d", i)
		}
		out[i] = v.Type()
	}
	return out, nil
}

// inferWhile: the loop values keep their types: one result per operand after the condition.
func inferWhile(c *Context, in *InferInput) ([]Type, error) {
	if len(in.Operands) == 0 {
		return nil, fmt.Errorf("operand 0 (cond) is missing")
	}
	out := make([]Type, 0, len(in.Operands)-1)
	for i, v := range in.Operands[1:] {
		if v == nil {
			return nil, fmt.Errorf("loop value %d is absent", i)
		}
		out = append(out, v.Type())
	}
	return out, nil
}

// inferSelectInput: one of the inputs (which one the mask says at run time), all of one type: the first's.
func inferSelectInput(c *Context, in *InferInput) ([]Type, error) {
	v := in.Operand(1)
	if v == nil {
		return nil, fmt.Errorf("no input to select")
	}
	return []Type{v.Type()}, nil
}

// inferSelectOutput: x routed to one of two outputs (the true and false branches Paddle's translator builds it
// for), both of x's type.
func inferSelectOutput(c *Context, in *InferInput) ([]Type, error) {
	v := in.Operand(1)
	if v == nil {
		return nil, fmt.Errorf("operand 1 (x) is missing")
	}
	return []Type{v.Type(), v.Type()}, nil
}

// inferParameter: a builtin.parameter (or get_parameter) has the type of the program's weight parameter_name.
func inferParameter(c *Context, in *InferInput) ([]Type, error) {
	name, _ := AsString(in.Attr("parameter_name"))
	return weightType(in, name)
}

func weightType(in *InferInput, name string) ([]Type, error) {
	if in.Program == nil {
		return nil, fmt.Errorf("the type of weight %q is the program's: infer it within its program", name)
	}
	w := in.Program.Params[name]
	if w == nil || w.Type == nil {
		return nil, fmt.Errorf("the program has no weight %q", name)
	}
	return []Type{w.Type}, nil
}

// inferConstant: a builtin.constant naming a tensor (TensorName) has that weight's type; Paddle builds other
// constants with their type given, which no rule can recover.
func inferConstant(c *Context, in *InferInput) ([]Type, error) {
	if n, ok := in.Attr("value").(*TensorNameAttr); ok {
		return weightType(in, n.Name)
	}
	return nil, fmt.Errorf("the type of a constant %s is given when it is built, not inferred", in.Attr("value"))
}

// inferFeed: a pd_op.feed has the type of the program's input name, when the program records its inputs.
func inferFeed(c *Context, in *InferInput) ([]Type, error) {
	name, _ := AsString(in.Attr("name"))
	if in.Program == nil || in.Program.Feeds[name] == nil || in.Program.Feeds[name].Type == nil {
		return nil, fmt.Errorf("the type of feed %q is the program's input's, and the program records none of that name", name)
	}
	return []Type{in.Program.Feeds[name].Type}, nil
}

// inferStackCreate: the stack container and its inlet and outlet handles.
func inferStackCreate(c *Context, in *InferInput) ([]Type, error) {
	return []Type{c.Opaque("cf.stack"), c.Opaque("cf.inlet"), c.Opaque("cf.outlet")}, nil
}

// inferTuplePop: the elements pushed through the inlet of the same stack (the cf.tuple_push on the stack_create's
// inlet), in their types.
func inferTuplePop(c *Context, in *InferInput) ([]Type, error) {
	outlet := in.Operand(0)
	if outlet == nil || outlet.def() == nil || outlet.def().Name() != "cf.stack_create" || outlet.def().NumResults() < 2 {
		return nil, fmt.Errorf("the outlet does not come from a cf.stack_create")
	}
	for _, user := range outlet.def().Result(1).Users() {
		if user.Name() != "cf.tuple_push" {
			continue
		}
		out := make([]Type, 0, user.NumOperands()-1)
		for _, v := range user.Operands()[1:] {
			out = append(out, v.Type())
		}
		return out, nil
	}
	return nil, fmt.Errorf("nothing is pushed into the stack")
}

// inferHasElements: one bool.
func inferHasElements(c *Context, in *InferInput) ([]Type, error) {
	return []Type{newTensor(c, dims(1), DTypeBool)}, nil
}
