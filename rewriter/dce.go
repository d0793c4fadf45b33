package rewriter

import "github.com/pirdrr/drr/ir"

// DCE erases ops whose results are unused, that have no side effects and write no operand (registered ops only:
// an unregistered op may have effects nobody declared), until none is left. It returns the number of ops erased.
func DCE(p *ir.Program, rw *ir.Rewriter) (int, error) {
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

// RegisterBuiltinPasses registers the Go passes that ship with the rewriter: dce.
func RegisterBuiltinPasses(reg *Registry) error {
	return reg.RegisterPass("dce", "erase ops whose results are unused, that have no side effects and write no operand",
		func(*ir.Context, *Registry) (Pass, error) { return &GoPass{PassName: "dce", Fn: DCE}, nil })
}
