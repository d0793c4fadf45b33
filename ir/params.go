package ir

// NewParams returns the parameter table of a program just read, from its parameter ops (builtin.parameter,
// builtin.get_parameter and builtin.set_parameter) in program order: what Program.CollectParams computes, without
// a walk over the whole program, for readers that meet those ops as they build it. The first op reading a name
// gives its type; a name some set_parameter writes is mutable. The variables are allocated together.
func NewParams(ctx *Context, ops *OpList) map[string]*Variable {
	params := make(map[string]*Variable, ops.Len())
	vars := make([]Variable, 0, ops.Len())
	add := func(v Variable) *Variable {
		vars = append(vars, v) // never reallocates: one op adds at most one variable (a later op's may be dropped)
		return &vars[len(vars)-1]
	}
	// Last to first, so that the first op reading a name makes its entry, with one map assignment per op.
	for op := range ops.Backward() {
		if v, ok := readVariable(op); ok {
			params[v.Name] = add(v)
		}
	}
	for op := range ops.All() {
		if op.info.Name == SetParameterOpName {
			setParam(ctx, params, op, add)
		}
	}
	return params
}

// readVariable returns the variable a parameter op that reads one (not set_parameter) declares: its name and the
// type it reads it as; false for an op without a name or a result.
func readVariable(op *Op) (Variable, bool) {
	if op.info.Name == SetParameterOpName || op.NumResults() == 0 {
		return Variable{}, false
	}
	name, ok := AsString(op.Attr("parameter_name"))
	if !ok {
		return Variable{}, false
	}
	return Variable{Name: name, Type: op.Result(0).Type()}, true
}

// setParam enters what the set_parameter op writes into params: its variable becomes mutable, or is declared by
// the write (with the written value's type) if nothing reads it; add allocates a new variable.
func setParam(ctx *Context, params map[string]*Variable, op *Op, add func(Variable) *Variable) {
	name, ok := AsString(op.Attr("parameter_name"))
	if !ok {
		return
	}
	if v := params[name]; v != nil {
		v.Mutable = true
		return
	}
	var t Type = ctx.NullType()
	if op.NumOperands() > 0 && op.Operand(0) != nil {
		t = op.Operand(0).Type()
	}
	params[name] = add(Variable{Name: name, Type: t, Mutable: true})
}

// IsParamOp reports whether op is a parameter op that NewParams reads: builtin.parameter, builtin.get_parameter or
// builtin.set_parameter.
func IsParamOp(op *Op) bool {
	switch op.info.Name {
	case ParameterOpName, GetParameterOpName, SetParameterOpName:
		return true
	}
	return false
}
