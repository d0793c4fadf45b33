package matcher

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr/rule"
)

// checkPlan checks what the automaton, Explain and drrc gen rely on in a plan: it starts with BindRoot and ends
// with its one Success; every pattern op, value hole and attribute $hole is bound exactly once, by the
// instructions that bind it, before an instruction reads it; a distinctness check names bound ops only; and by
// Success everything is bound.
func checkPlan(pl *Plan) error {
	p := pl.Rule.Pattern
	in := pl.Instrs
	if len(in) < 2 || in[0].Code != BindRoot || in[0].Op != p.Root || in[len(in)-1].Code != Success {
		return fmt.Errorf("a plan is BindRoot(root) … Success")
	}
	opBound := make([]bool, len(p.Ops))
	valBound := make([]bool, len(p.Values))
	attrBound := make([]bool, len(p.Holes))
	bindOp := func(k int) error {
		if opBound[k] {
			return fmt.Errorf("op%d bound twice", k)
		}
		opBound[k] = true
		return nil
	}
	bindVal := func(h int) error {
		if valBound[h] {
			return fmt.Errorf("%s bound twice", rule.ValueName(p, h))
		}
		valBound[h] = true
		return nil
	}
	for i, x := range in {
		var err error
		needOp, needVal := -1, -1
		switch x.Code {
		case BindRoot, ChooseUser:
			if x.Code == ChooseUser {
				needVal = x.Value
			}
			err = bindOp(x.Op)
		case BindDef:
			needVal = x.Value
			err = bindOp(x.Op)
		case BindResult, BindOperand, BindList:
			needOp = x.Op
			err = bindVal(x.Value)
		case BindAttr:
			needOp = x.Op
			if attrBound[x.Hole] {
				err = fmt.Errorf("%s bound twice", rule.HoleName(p, x.Hole))
			}
			attrBound[x.Hole] = true
		case CheckAttr:
			needOp = x.Op
			if !attrBound[x.Hole] {
				err = fmt.Errorf("%s checked before it is bound", rule.HoleName(p, x.Hole))
			}
		case CheckOperand, CheckList:
			needOp, needVal = x.Op, x.Value
		case CheckType, CheckUses, CheckClosure:
			needVal = x.Value
		case CheckDistinct:
			needOp = x.Op
			for _, b := range x.Bound {
				if !opBound[b] || b == x.Op {
					err = fmt.Errorf("distinct from op%d, which is not bound before op%d", b, x.Op)
				}
			}
		case CheckWhere, Success:
		default:
			needOp = x.Op
		}
		if err == nil && needOp >= 0 && !opBound[needOp] {
			err = fmt.Errorf("reads op%d before it is bound", needOp)
		}
		if err == nil && needVal >= 0 && !valBound[needVal] {
			err = fmt.Errorf("reads %s before it is bound", rule.ValueName(p, needVal))
		}
		if err == nil && x.Code == Success && i != len(in)-1 {
			err = fmt.Errorf("Success before the end")
		}
		if err != nil {
			return fmt.Errorf("instruction %d (%s): %w", i, x.Format(p), err)
		}
	}
	for k, b := range opBound {
		if !b {
			return fmt.Errorf("op%d is never bound", k)
		}
	}
	for h, b := range valBound {
		if !b {
			return fmt.Errorf("%s is never bound", rule.ValueName(p, h))
		}
	}
	return nil
}

// TestPlansAreWellFormed checks the plans of the differential test's random rules, the feature rules and the bench
// rules (checkPlan), and that a plan lists every where constraint once, in order, as CheckUses or CheckWhere.
func TestPlansAreWellFormed(t *testing.T) {
	var rules []*rule.Rule
	ctx := semCtx(t)
	rules = append(rules, featureRules(ctx)...)
	rules = append(rules, benchRules(ctx)...)
	for seed := int64(0); seed < 200; seed++ {
		g := newGen(seed, ctx)
		rules = append(rules, g.ruleSet(g.program(20+g.pick(30)), 10).Rules...)
	}
	for _, r := range rules {
		pl, err := NewPlan(r)
		require.NoError(t, err, "rule %s", r.ID())
		require.NoError(t, checkPlan(pl), "rule %s:\n%s", r.ID(), rule.FormatPattern(r.Pattern))
		var where []int
		for _, x := range pl.Instrs {
			if x.Code == CheckUses || x.Code == CheckWhere {
				where = append(where, x.Where)
				require.Same(t, r.Where[x.Where], x.Expr)
			}
		}
		require.ElementsMatch(t, where, seq(len(r.Where)), "rule %s: every where constraint once", r.ID())
	}
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// TestCheckPlanRejects: checkPlan fails on plans that break what it checks.
func TestCheckPlanRejects(t *testing.T) {
	ctx := semCtx(t)
	r := benchRules(ctx)[0] // conv2d → batch_norm → relu: reaches its producers through BindDef
	good, err := NewPlan(r)
	require.NoError(t, err)
	require.NoError(t, checkPlan(good))
	find := func(code Opcode) int {
		for i, x := range good.Instrs {
			if x.Code == code {
				return i
			}
		}
		t.Fatalf("no %s in the plan", code)
		return -1
	}
	for _, tc := range []struct {
		name   string
		mutate func([]Instr) []Instr
		err    string
	}{
		{"no BindRoot", func(in []Instr) []Instr { return in[1:] }, "BindRoot"},
		{"no Success", func(in []Instr) []Instr { return in[:len(in)-1] }, "Success"},
		{"read before BindDef", func(in []Instr) []Instr {
			i := find(BindDef) // the next instruction reads the op it binds
			in[i], in[i+1] = in[i+1], in[i]
			return in
		}, "before it is bound"},
		{"bound twice", func(in []Instr) []Instr {
			i := find(BindOperand)
			return append(append(append([]Instr(nil), in[:i+1]...), in[i]), in[i+1:]...)
		}, "bound twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := &Plan{Rule: good.Rule, Instrs: tc.mutate(append([]Instr(nil), good.Instrs...))}
			require.ErrorContains(t, checkPlan(bad), tc.err)
		})
	}
}
