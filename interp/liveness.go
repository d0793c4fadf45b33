package interp

import (
	"github.com/pirdrr/drr/ir"
)

// Freeing values after their last use. A model's activations and weights do not all fit in memory at once (a
// 7-billion-parameter graph holds 27 GB of float32 weights), but each is needed only until its last reader: the
// machine drops its reference to a top-level value, and to a parameter's buffer, right after the op that reads it
// last, and the garbage collector reclaims the buffer once no other live value (a view, an inplace result)
// shares it.
//
// Programs often read every weight at the top (GraphNet's captures define all parameters before the first op), so
// top-level builtin.parameter ops are deferred: a parameter is loaded (or drawn) when an op first reads it, and
// its name lives until the last reader of any of its parameter ops. Programs that replace parameters
// (builtin.set_parameter) read them where they stand.

// lifetimes lists, per top-level op of the program body, what may be dropped once the op has run.
type lifetimes struct {
	values map[*ir.Op][]*ir.Value
	params map[*ir.Op][]string
}

// computeLifetimes finds the last reader of every value defined in body (by a top-level op or as a block
// argument) and of every parameter name. A value read inside a region dies after the top-level op that holds the
// region (a loop body reads it on every iteration). Results nobody reads die at once, unless keepUnused is set:
// programs without explicit outputs report those results as their outputs (sinks).
func computeLifetimes(body *ir.Block, keepUnused, deferParams bool) *lifetimes {
	last := map[*ir.Value]*ir.Op{}
	lastParam := map[string]*ir.Op{}
	for top := range body.Ops() {
		visit := func(op *ir.Op) {
			for i := 0; i < op.NumOperands(); i++ {
				if v := op.Operand(i); v != nil {
					last[v] = top
					if d := v.DefiningOp(); deferParams && d != nil && deferred(d, body) {
						n, _ := ir.AsString(d.Attr("parameter_name"))
						lastParam[n] = top
					}
				}
			}
			switch op.Name() {
			case ir.ParameterOpName, ir.GetParameterOpName, ir.SetParameterOpName:
				if n, ok := ir.AsString(op.Attr("parameter_name")); ok && !(deferParams && deferred(op, body)) {
					lastParam[n] = top
				}
			}
		}
		visit(top)
		for op := range top.Nested() {
			visit(op)
		}
		if !keepUnused {
			for _, r := range top.Results() {
				if !r.HasUses() {
					last[r] = top
				}
			}
		}
	}
	lt := &lifetimes{values: map[*ir.Op][]*ir.Value{}, params: map[*ir.Op][]string{}}
	// Only values the top-level block defines are freed; values of nested regions are small and rebound on each
	// iteration.
	for top := range body.Ops() {
		for _, r := range top.Results() {
			if op := last[r]; op != nil {
				lt.values[op] = append(lt.values[op], r)
			}
		}
	}
	for _, a := range body.Args() {
		if op := last[a]; op != nil {
			lt.values[op] = append(lt.values[op], a)
		}
	}
	for n, op := range lastParam {
		lt.params[op] = append(lt.params[op], n)
	}
	return lt
}

// deferred reports whether op is a parameter read the machine defers to its first reader: a builtin.parameter of
// the top-level block whose result is used.
func deferred(op *ir.Op, body *ir.Block) bool {
	return op.Name() == ir.ParameterOpName && op.Block() == body && op.NumResults() == 1 && op.Result(0).HasUses()
}

// unusedParam reports whether op reads a parameter (builtin.parameter, builtin.get_parameter) into a result
// nothing uses: the machine does not evaluate it, since drawing a weight nothing reads costs time and memory (a
// GraphNet graph cut from a large model lists every weight of the model) and cannot change a result — a weight
// is drawn from its name, whichever read draws it.
func unusedParam(op *ir.Op) bool {
	switch op.Name() {
	case ir.ParameterOpName, ir.GetParameterOpName:
		return op.NumResults() == 1 && !op.Result(0).HasUses()
	}
	return false
}

// replacesParams reports whether p has builtin.set_parameter ops (its parameter reads are then not deferred).
func replacesParams(p *ir.Program) bool {
	for op := range p.Walk() {
		if op.Name() == ir.SetParameterOpName {
			return true
		}
	}
	return false
}

// release drops what dies at op.
func (m *machine[T]) release(op *ir.Op) {
	if m.life == nil {
		return
	}
	for _, v := range m.life.values[op] {
		delete(m.env, v)
	}
	for _, n := range m.life.params[op] {
		delete(m.params, n)
	}
}
