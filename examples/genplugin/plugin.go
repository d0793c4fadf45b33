// Package genplugin is an example plugin whose rules are compiled to Go: activations.drr, turned by drrc gen into
// activations_rules.go, registers as the pass "activations" next to its native constraint is_one. The generated pass
// finds the matches the interpreted automaton would find and rewrites programs to the same bytes, faster; the
// .drr file stays the source of truth, and go generate keeps the Go in step with it (TestGenerated fails when it
// is stale). testdata/ holds the plugin's golden tests, run by drrtest. See docs/plugins.md, "Compiled rules".
package genplugin

//go:generate go run ../../cmd/drrc gen -rules activations.drr -pkg genplugin -o activations_rules.go

import (
	"fmt"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
)

// Register registers the native constraint is_one and the compiled pass "activations" in reg. The pass looks the
// native up in reg when it is built, so a registry without is_one cannot build it.
func Register(reg *rewriter.Registry) error {
	if err := reg.RegisterConstraint("is_one", isOne); err != nil {
		return err
	}
	return reg.RegisterPass("activations", "simplify activations (compiled from activations.drr)", ActivationsPass)
}

// isOne is the native constraint is_one(%v): v is the result of a pd_op.full whose value is 1.
func isOne(args []any) (bool, error) {
	v, ok := args[0].(*ir.Value)
	if !ok || v == nil {
		return false, fmt.Errorf("is_one: argument 1 is %T, not a value", args[0])
	}
	def := v.DefiningOp()
	if def == nil || def.Name() != "pd_op.full" {
		return false, nil
	}
	switch a := def.AttrOrDefault("value").(type) {
	case *ir.DoubleAttr:
		return a.Value == 1, nil
	case *ir.FloatAttr:
		return a.Value == 1, nil
	}
	return false, nil
}
