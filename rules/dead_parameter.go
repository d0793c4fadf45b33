package rules

import "github.com/pirdrr/drr/ir"

// AddShadowOutputAfterDeadParameter is the Go pass add_shadow_output_after_dead_parameter, Paddle's
// add_shadow_output_after_dead_parameter_pass (a functional pass, first of kPirGpuPasses): every builtin.parameter
// op whose result nothing reads — at any depth, in the program body or in the regions of control flow — gets a
// builtin.shadow_output of that result named as the parameter, right after it. The program then publishes the
// weight, so Paddle's executor keeps the parameter alive and dead-code elimination cannot take it (an output op is
// never dead: ir.IsOutputOp). It returns the number of shadow_outputs added.
//
// It is idempotent: a parameter a shadow_output reads has a use, so a second run adds nothing. As in Paddle, only
// builtin.parameter counts (builtin.get_parameter, the older spelling, is left alone), and the shadow_output is
// added whatever else the program publishes; a parameter op without a parameter_name (which ir.Verify reports)
// has no name to publish under and is skipped. drrc verify does not count these shadow_outputs as model outputs
// (compare.Programs): they publish a weight unchanged.
func AddShadowOutputAfterDeadParameter(p *ir.Program, rw *ir.Rewriter) (int, error) {
	var dead []*ir.Op
	for op := range p.Walk() {
		if op.Name() == ir.ParameterOpName && op.NumResults() == 1 && !op.Result(0).HasUses() {
			dead = append(dead, op)
		}
	}
	added := 0
	for _, op := range dead {
		name, ok := ir.AsString(op.Attr("parameter_name"))
		if !ok {
			continue
		}
		rw.SetInsertionPointAfter(op)
		rw.Create(ir.OpSpec{Name: ir.ShadowOutputOpName, Operands: []*ir.Value{op.Result(0)},
			Attrs: []ir.NamedAttr{{Name: "output_name", Value: p.Ctx.Str(name)}}, Loc: op.Loc})
		added++
	}
	return added, nil
}
