package ir

// Output op names: pd_op.fetch returns a value to the caller (the fetch list), builtin.shadow_output publishes one
// as a scope variable (what Paddle's exporter writes for the values a model saves), and builtin.set_parameter
// (SetParameterOpName) stores one into a parameter.
const (
	FetchOpName        = "pd_op.fetch"
	ShadowOutputOpName = "builtin.shadow_output"
)

// IsOutputOp reports whether op is one of the ops through which values leave a program: pd_op.fetch,
// builtin.shadow_output or builtin.set_parameter. The program's outputs are the operands of these ops; dead-code
// elimination never erases them.
func IsOutputOp(op *Op) bool {
	switch op.Name() {
	case FetchOpName, ShadowOutputOpName, SetParameterOpName:
		return true
	}
	return false
}

// HasOutputs reports whether p marks its outputs with output ops (IsOutputOp), at any depth. A program without
// them — a GraphNet capture, a hand-written text program, a printed fragment — does not say which of its values
// matter: its outputs are its sinks (IsSink).
//
// The answer costs no walk when the program's Context has never made an op of an output kind, and is found at
// once when an output op ends the program (as Paddle's fetch ops do): the walk goes from the last op to the first.
// A rewrite pipeline asks it several times, and a million-op program without outputs took a walk each time.
func HasOutputs(p *Program) bool {
	if p.Ctx != nil && !p.Ctx.hasOpInfo(FetchOpName, ShadowOutputOpName, SetParameterOpName) {
		return false // the program's ops have their kinds from p.Ctx, which has none of these
	}
	return hasOutputs(p.Body())
}

// hasOutputs reports whether an output op is in b or nested in its ops, looking from b's last op back.
func hasOutputs(b *Block) bool {
	for op := b.last; op != nil; op = op.prev {
		if IsOutputOp(op) {
			return true
		}
		for _, r := range op.regionSlice() {
			for _, nb := range r.blocks {
				if hasOutputs(nb) {
					return true
				}
			}
		}
	}
	return false
}

// IsSinkCandidate reports whether the unused results of op may be outputs of a program without output ops: every
// op but those that read inputs (pd_op.data, pd_op.feed), parameters (builtin.parameter, builtin.get_parameter)
// or constants (pd_op.full, pd_op.full_int_array, pd_op.assign_value, builtin.constant and any other ConstantLike
// op), and the output ops themselves. An unused input, weight or constant is something the model was given, not
// something it computes.
func IsSinkCandidate(op *Op) bool {
	switch op.Name() {
	case ParameterOpName, GetParameterOpName, "pd_op.data", "pd_op.feed", "pd_op.full_int_array", "pd_op.full",
		"builtin.constant", "pd_op.assign_value":
		return false
	}
	return !IsOutputOp(op) && !op.Has(ConstantLike)
}

// IsSink reports whether op is a sink: an op with results, none of them used, that is a sink candidate
// (IsSinkCandidate). The results of the sinks of a program's top-level block are the outputs of a program without
// output ops (HasOutputs): the interpreter reports them, drrc verify and the GraphNet reader fetch them.
func IsSink(op *Op) bool {
	return op.NumResults() > 0 && !op.HasUses() && IsSinkCandidate(op)
}

// SinkTensors returns the tensor-typed results of the sinks of b (not of nested blocks), in program order: the
// values a fetch can anchor.
func SinkTensors(b *Block) []*Value {
	var out []*Value
	for op := range b.Ops() {
		if !IsSink(op) {
			continue
		}
		for _, r := range op.Results() {
			if TensorOf(r.Type()) != nil {
				out = append(out, r)
			}
		}
	}
	return out
}
