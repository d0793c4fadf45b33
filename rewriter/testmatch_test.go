package rewriter

import (
	"sort"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// simpleMatch is a small matcher for the driver's tests: single-root patterns whose ops are reached through
// operand producers, no commutative operands, no lists, no type patterns. The real matcher is package matcher.
func simpleMatch(set *rule.Set) MatchFunc {
	return func(dst []*rule.Match, op *ir.Op) []*rule.Match {
		for _, r := range set.Rules {
			m := rule.NewMatch(r)
			if bindOp(m, r.Pattern.Root, op) && closed(m) && where(m) {
				dst = append(dst, m)
			}
		}
		sort.SliceStable(dst, func(i, j int) bool {
			if dst[i].Rule.Benefit != dst[j].Rule.Benefit {
				return dst[i].Rule.Benefit > dst[j].Rule.Benefit
			}
			return dst[i].Rule.Index < dst[j].Rule.Index
		})
		return dst
	}
}

func bindOp(m *rule.Match, k int, op *ir.Op) bool {
	p := m.Rule.Pattern.Ops[k]
	if m.Ops[k] != nil {
		return m.Ops[k] == op
	}
	for _, o := range m.Ops {
		if o == op {
			return false
		}
	}
	if p.Name != "" && op.Name() != p.Name || op.NumOperands() != len(p.Operands) || op.NumResults() != len(p.Results) {
		return false
	}
	m.Ops[k] = op
	for i, rp := range p.Results {
		if rp.Value < 0 {
			if op.Result(i).HasUses() {
				return false
			}
			continue
		}
		m.Values[rp.Value] = op.Result(i)
	}
	for _, a := range p.Attrs {
		got := op.AttrOrDefault(a.Name)
		switch a.Kind {
		case rule.AttrBind:
			if got == nil {
				return false
			}
			if prev := m.Holes[a.Hole]; prev != nil && prev != got {
				return false
			}
			m.Holes[a.Hole] = got
		case rule.AttrEquals:
			if got != a.Literal {
				return false
			}
		}
	}
	if p.RestAttrs >= 0 {
		var rest []ir.NamedAttr
		for _, a := range op.Attrs() {
			listed := false
			for _, pa := range p.Attrs {
				listed = listed || pa.Name == a.Name
			}
			if !listed {
				rest = append(rest, a)
			}
		}
		m.Holes[p.RestAttrs] = rest
	}
	for i, o := range p.Operands {
		v := op.Operand(i)
		switch o.Kind {
		case rule.OperandNull:
			if v != nil {
				return false
			}
		case rule.OperandValue:
			if v == nil {
				return false
			}
			h := m.Rule.Pattern.Values[o.Value]
			if prev := m.Values[o.Value]; prev != nil && prev != v {
				return false
			}
			m.Values[o.Value] = v
			if h.Def >= 0 {
				if v.DefiningOp() == nil || v.Index() != h.Result || !bindOp(m, h.Def, v.DefiningOp()) {
					return false
				}
			}
		}
	}
	return true
}

// closed checks use-set closure of internal values.
func closed(m *rule.Match) bool {
	in := map[*ir.Op]bool{}
	for _, op := range m.Ops {
		in[op] = true
	}
	used := map[int]bool{}
	for _, p := range m.Rule.Pattern.Ops {
		for _, o := range p.Operands {
			if o.Kind == rule.OperandValue {
				used[o.Value] = true
			}
		}
	}
	for i, h := range m.Rule.Pattern.Values {
		if h.Def < 0 || !used[i] || h.Shared {
			continue
		}
		for u := range m.Values[i].Uses() {
			if !in[u.Owner()] {
				return false
			}
		}
	}
	return true
}

type testEnv struct{ m *rule.Match }

func (e testEnv) Hole(i int) (any, bool) { return e.m.Holes[i], e.m.Holes[i] != nil }
func (e testEnv) Value(r rule.Ref) *ir.Value {
	if r.New {
		return nil
	}
	return e.m.Values[r.Index]
}
func (e testEnv) List(r rule.Ref) []*ir.Value                 { return nil }
func (e testEnv) Builtin(string, []any) (any, bool, error)    { return nil, false, nil }
func (e testEnv) Native(name string, args []any) (any, error) { return nil, nil }

func where(m *rule.Match) bool {
	for _, w := range m.Rule.Where {
		v, err := rule.Eval(w, testEnv{m})
		if b, ok := v.(bool); err != nil || !ok || !b {
			return false
		}
	}
	return true
}
