package matcher

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr/rule"
)

// checkPlan checks what the automaton, Explain and drrc gen rely on in a plan: it starts with BindRoot and ends
// with a Success; every pattern op, value hole and attribute $hole is bound at most once on each path, by the
// instructions that bind it, before an instruction reads it; a distinctness check names bound ops only; and by each
// Success everything is bound but what only alternatives not taken mention. A ChooseAlt's branches are laid out
// after it in order, each a path to its own Success or, when they join, to a Jump to the code after them (where a
// distinctness check may name, and a closure check read, what only a branch not taken binds: nil there).
func checkPlan(pl *Plan) error {
	p := pl.Rule.Pattern
	in := pl.Instrs
	if len(in) < 2 || in[0].Code != BindRoot || in[0].Op != p.Root || in[len(in)-1].Code != Success {
		return fmt.Errorf("a plan is BindRoot(root) … Success")
	}
	return checkPath(pl, 0, len(in), &pathState{op: make([]bool, len(p.Ops)), val: make([]bool, len(p.Values)),
		attr: make([]bool, len(p.Holes))})
}

// pathState is what a path of a plan has bound; joined says it has followed a Jump.
type pathState struct {
	op, val, attr []bool
	joined        bool
}

func (s *pathState) clone() *pathState {
	return &pathState{op: slices.Clone(s.op), val: slices.Clone(s.val), attr: slices.Clone(s.attr), joined: s.joined}
}

// checkPath checks the path of a plan from instruction pc to its Success, which must come before instruction end
// (a Jump leaves the range).
func checkPath(pl *Plan, pc, end int, st *pathState) error {
	p := pl.Rule.Pattern
	in := pl.Instrs
	bindOp := func(k int) error {
		if st.op[k] {
			return fmt.Errorf("op%d bound twice", k)
		}
		st.op[k] = true
		return nil
	}
	bindVal := func(h int) error {
		if st.val[h] {
			return fmt.Errorf("%s bound twice", rule.ValueName(p, h))
		}
		st.val[h] = true
		return nil
	}
	for i := pc; i < end; i++ {
		x := in[i]
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
		case BindAlias:
			needVal = x.Other
			err = bindVal(x.Value)
		case CheckAlias:
			needVal = x.Other
			if !st.val[x.Value] {
				err = fmt.Errorf("reads %s before it is bound", rule.ValueName(p, x.Value))
			}
		case BindAttr:
			needOp = x.Op
			if st.attr[x.Hole] {
				err = fmt.Errorf("%s bound twice", rule.HoleName(p, x.Hole))
			}
			st.attr[x.Hole] = true
		case CheckAttr:
			needOp = x.Op
			if !st.attr[x.Hole] {
				err = fmt.Errorf("%s checked before it is bound", rule.HoleName(p, x.Hole))
			}
		case CheckOperand, CheckList:
			needOp, needVal = x.Op, x.Value
		case CheckType, CheckUses:
			needVal = x.Value
		case CheckClosure:
			if !st.joined || mentionedOutsideAlts(p, x.Value) {
				needVal = x.Value
			}
		case CheckDistinct:
			needOp = x.Op
			for _, b := range x.Bound {
				if !st.op[b] && !(st.joined && p.InAlt(b)) || b == x.Op {
					err = fmt.Errorf("distinct from op%d, which is not bound before op%d", b, x.Op)
				}
			}
		case ChooseAlt:
			needOp, needVal = x.Op, x.Value
			if len(x.Targets) < 2 || x.Targets[0] != i+1 || !slices.IsSorted(x.Targets) || x.Targets[len(x.Targets)-1] >= end {
				err = fmt.Errorf("branches at %v, not laid out after it", x.Targets)
			}
			if x.Join != 0 && (x.Join <= x.Targets[len(x.Targets)-1] || x.Join >= len(in)) {
				err = fmt.Errorf("join at %d, not after the branches", x.Join)
			}
		case Jump:
			if x.N <= i || x.N >= len(in) {
				err = fmt.Errorf("jump to %d, not forward", x.N)
			}
		case CheckWhere, Success:
		case CollectUsers:
			// The element code binds the per-element values and the shared $holes, and reads only those and the
			// group's value; it has no choice point and no Success.
			needOp, needVal = x.Op, x.Value
			for _, s := range x.Sub {
				switch s.Code {
				case BindResult, BindOperand:
					err = bindVal(s.Value)
				case BindAttr:
					if st.attr[s.Hole] {
						err = fmt.Errorf("%s bound twice", rule.HoleName(p, s.Hole))
					}
					st.attr[s.Hole] = true
				case CheckAttr:
					if !st.attr[s.Hole] {
						err = fmt.Errorf("%s checked before it is bound", rule.HoleName(p, s.Hole))
					}
				case CheckOperand, CheckConst, CheckType, CheckUses:
					if !st.val[s.Value] {
						err = fmt.Errorf("element code reads %s before it is bound", rule.ValueName(p, s.Value))
					}
				case CheckName, CheckOperands, CheckResults, CheckAttrLit, CheckAttrPresent, BindRestAttrs, CheckUnused,
					CheckExtraUnused, CheckNull, CheckWhere:
				default:
					err = fmt.Errorf("%s in an element's code", s.Code)
				}
				if err != nil {
					break
				}
			}
		default:
			needOp = x.Op
		}
		if err == nil && needOp >= 0 && !st.op[needOp] {
			err = fmt.Errorf("reads op%d before it is bound", needOp)
		}
		if err == nil && needVal >= 0 && !st.val[needVal] {
			err = fmt.Errorf("reads %s before it is bound", rule.ValueName(p, needVal))
		}
		if err != nil {
			return fmt.Errorf("instruction %d (%s): %w", i, x.Format(p), err)
		}
		if x.Code == ChooseAlt {
			for b, t := range x.Targets {
				e := end
				if b+1 < len(x.Targets) {
					e = x.Targets[b+1]
				} else if x.Join != 0 {
					e = x.Join
				}
				if last := in[e-1]; x.Join != 0 && !(last.Code == Jump && last.N == x.Join || last.Code == Success) {
					return fmt.Errorf("instruction %d (%s): a branch that joins ends with a Jump to %d", e-1, last.Format(p), x.Join)
				}
				if x.Join != 0 {
					e = len(in) // its path goes on after the join
				}
				if err := checkPath(pl, t, e, st.clone()); err != nil {
					return err
				}
			}
			return nil
		}
		if x.Code == Jump {
			st.joined = true
			i = x.N - 1
			continue
		}
		if x.Code == Success {
			end = i + 1
			break
		}
	}
	if in[end-1].Code != Success {
		return fmt.Errorf("instruction %d (%s): a path ends with Success", end-1, in[end-1].Format(p))
	}
	for k, b := range st.op {
		if !b && !p.InAlt(k) {
			return fmt.Errorf("op%d is never bound", k)
		}
	}
	for h, b := range st.val {
		if !b && mentionedOutsideAlts(p, h) {
			return fmt.Errorf("%s is never bound", rule.ValueName(p, h))
		}
	}
	return nil
}

// mentionedOutsideAlts reports whether value hole h is an operand or result of an op in no alternative.
func mentionedOutsideAlts(p *rule.Pattern, h int) bool {
	for k, op := range p.Ops {
		if p.InAlt(k) {
			continue
		}
		for _, o := range op.Operands {
			if o.Kind != rule.OperandAny && o.Kind != rule.OperandNull && o.Value == h {
				return true
			}
		}
		for _, r := range op.Results {
			if r.Value == h {
				return true
			}
		}
	}
	return false
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
	joined, split := 0, 0 // plans whose alternatives join, and plans with alternatives that do not
	for _, r := range rules {
		pl, err := NewPlan(r)
		require.NoError(t, err, "rule %s", r.ID())
		require.NoError(t, checkPlan(pl), "rule %s:\n%s", r.ID(), rule.FormatPattern(r.Pattern))
		for _, x := range pl.Instrs {
			if x.Code == ChooseAlt && x.Join != 0 {
				joined++
			} else if x.Code == ChooseAlt {
				split++
			}
		}
		var where []int
		for _, x := range pl.Instrs {
			for _, y := range append([]Instr{x}, x.Sub...) { // a users group's per-element constraints are in Sub
				if y.Code == CheckUses || y.Code == CheckWhere {
					where = append(where, y.Where)
					require.Same(t, r.Where[y.Where], y.Expr)
				}
			}
		}
		require.ElementsMatch(t, where, seq(len(r.Where)), "rule %s: every where constraint once", r.ID())
	}
	t.Logf("alternatives: %d join, %d do not", joined, split)
	require.Positive(t, joined, "the random rules have alternatives that join")
	require.Positive(t, split, "and alternatives whose paths stay apart")
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
