package rewriter

import "github.com/pirdrr/drr/ir"

// What passes say about a program without outputs (ir.HasOutputs): the dce pass keeps it whole, and rule passes run
// their driver with Options.NoDCE.
const (
	NoOutputsWarning       = "no outputs (pd_op.fetch, builtin.shadow_output or builtin.set_parameter): dce keeps every op"
	NoOutputsDriverWarning = "no outputs (pd_op.fetch, builtin.shadow_output or builtin.set_parameter): the driver keeps the ops rewrites leave without uses"
)

// DCE erases ops whose results are unused, that have no side effects and write no operand (registered ops only:
// an unregistered op may have effects nobody declared), until none is left. It returns the number of ops erased.
//
// A program without outputs (ir.HasOutputs) is left alone: every op of it would be dead, and erasing them all would
// destroy the program without a word. The dce pass keeps it and warns (NoOutputsWarning); so does a rule pass, whose
// driver would otherwise erase the producers of a sink a rewrite replaced (NoOutputsDriverWarning).
func DCE(p *ir.Program, rw *ir.Rewriter) (int, error) {
	if !ir.HasOutputs(p) {
		return 0, nil
	}
	n := 0
	for changed := true; changed; {
		changed = false
		for op := range ir.WalkPost(p.Body()) {
			if !op.Erased() && triviallyDead(op) {
				if err := rw.Erase(op); err != nil {
					return n, err
				}
				n++
				changed = true
			}
		}
	}
	return n, nil
}

// dcePass is the dce pass: DCE, with a warning for programs without outputs.
type dcePass struct{ GoPass }

// Run runs DCE on p, or, when p has no outputs, keeps it and says so in the result's warnings.
func (d *dcePass) Run(p *ir.Program, env *Env) (*PassResult, error) {
	if !ir.HasOutputs(p) {
		return &PassResult{Pass: d.Name(), Warnings: []string{NoOutputsWarning}}, nil
	}
	return d.GoPass.Run(p, env)
}

// RegisterBuiltinPasses registers the Go passes that ship with the rewriter: dce.
func RegisterBuiltinPasses(reg *Registry) error {
	return reg.RegisterPass("dce", "erase ops whose results are unused, that have no side effects and write no operand (a program without outputs is kept whole, with a warning)",
		func(*ir.Context, *Registry) (Pass, error) { return &dcePass{GoPass{PassName: "dce", Fn: DCE}}, nil })
}
