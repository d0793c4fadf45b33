package matcher

import (
	"fmt"
	"slices"

	"github.com/pirdrr/drr/drr/rule"
)

// validate checks that a pattern is well formed: indices in range, holes of the right kinds, value holes defined
// consistently by the results that bind them, list operands last, commutative ops with two plain operands first,
// and every value hole bound by the pattern. It does not check connectivity (see plan).
func validate(r *rule.Rule) error {
	p := r.Pattern
	if p == nil || len(p.Ops) == 0 {
		return fmt.Errorf("the pattern has no ops")
	}
	if p.Root < 0 || p.Root >= len(p.Ops) {
		return fmt.Errorf("root %d out of range", p.Root)
	}
	holeKind := func(h int, k rule.HoleKind, what string) error {
		if h < 0 || h >= len(p.Holes) {
			return fmt.Errorf("%s: hole %d out of range", what, h)
		}
		if p.Holes[h].Kind != k {
			return fmt.Errorf("%s: %s has the wrong kind", what, rule.HoleName(p, h))
		}
		return nil
	}
	valueOK := func(v int, list bool, what string) error {
		if v < 0 || v >= len(p.Values) {
			return fmt.Errorf("%s: value %d out of range", what, v)
		}
		if p.Values[v].List != list {
			if list {
				return fmt.Errorf("%s: %s is not a list", what, rule.ValueName(p, v))
			}
			return fmt.Errorf("%s: %s is a list", what, rule.ValueName(p, v))
		}
		return nil
	}
	bound := make([]bool, len(p.Values))
	for k, op := range p.Ops {
		what := fmt.Sprintf("%s %s", op.Pos, rule.OpName(p, k))
		for j, o := range op.Operands {
			switch o.Kind {
			case rule.OperandValue:
				if err := valueOK(o.Value, false, what); err != nil {
					return err
				}
				bound[o.Value] = true
			case rule.OperandList:
				if j != len(op.Operands)-1 {
					return fmt.Errorf("%s: the list operand must be last", what)
				}
				if err := valueOK(o.Value, true, what); err != nil {
					return err
				}
				bound[o.Value] = true
			case rule.OperandAlt:
				if err := valueOK(o.Value, false, what); err != nil {
					return err
				}
				if p.Values[o.Value].Def >= 0 {
					return fmt.Errorf("%s: the alternatives' value %s is an op result", what, rule.ValueName(p, o.Value))
				}
				if o.Alt < 0 || o.Alt >= len(p.Alts) || p.Alts[o.Alt].Op != k || p.Alts[o.Alt].Operand != j ||
					p.Alts[o.Alt].Value != o.Value {
					return fmt.Errorf("%s: operand %d: alternatives %d do not say they are read there", what, j, o.Alt)
				}
				bound[o.Value] = true
			case rule.OperandNull, rule.OperandAny:
			default:
				return fmt.Errorf("%s: unknown operand kind %d", what, o.Kind)
			}
		}
		if op.Commutative {
			if len(op.Operands) < 2 || op.Operands[0].Kind == rule.OperandList || op.Operands[1].Kind == rule.OperandList {
				return fmt.Errorf("%s: a commutative op needs two single operands first", what)
			}
		}
		for i, res := range op.Results {
			if res.Value < 0 {
				continue
			}
			if err := valueOK(res.Value, false, what); err != nil {
				return err
			}
			if v := p.Values[res.Value]; v.Def != k || v.Result != i {
				return fmt.Errorf("%s: result %d binds %s, whose definition says op %d result %d", what, i,
					rule.ValueName(p, res.Value), v.Def, v.Result)
			}
		}
		for _, a := range op.Attrs {
			switch a.Kind {
			case rule.AttrBind:
				if err := holeKind(a.Hole, rule.HoleAttr, what+" attribute "+a.Name); err != nil {
					return err
				}
			case rule.AttrEquals:
				if a.Literal == nil {
					return fmt.Errorf("%s: attribute %s: nil literal", what, a.Name)
				}
			case rule.AttrPresent:
			default:
				return fmt.Errorf("%s: attribute %s: unknown kind %d", what, a.Name, a.Kind)
			}
		}
		if op.RestAttrs >= 0 {
			if err := holeKind(op.RestAttrs, rule.HoleAttrs, what+" rest attributes"); err != nil {
				return err
			}
		}
	}
	if err := validateAlts(p); err != nil {
		return err
	}
	if err := validateUsers(r); err != nil {
		return err
	}
	for i, v := range p.Values {
		what := fmt.Sprintf("%s %s", v.Pos, rule.ValueName(p, i))
		if v.Def >= 0 {
			if v.List {
				return fmt.Errorf("%s: a list cannot be an op result", what)
			}
			if v.Def >= len(p.Ops) || v.Result < 0 || v.Result >= len(p.Ops[v.Def].Results) ||
				p.Ops[v.Def].Results[v.Result].Value != i {
				return fmt.Errorf("%s: not bound by result %d of op %d", what, v.Result, v.Def)
			}
			bound[i] = true
		}
		if !bound[i] && !v.Unbound {
			return fmt.Errorf("%s: not bound by the pattern", what)
		}
		if t := v.Type; t != nil {
			if err := validateType(p, t, what); err != nil {
				return err
			}
		}
	}
	return nil
}

func validateType(p *rule.Pattern, t *rule.TypePattern, what string) error {
	hole := func(h int, k rule.HoleKind) error {
		if h < 0 || h >= len(p.Holes) || p.Holes[h].Kind != k {
			return fmt.Errorf("%s: type pattern: bad hole %d", what, h)
		}
		return nil
	}
	switch {
	case t.Exact != nil:
	case t.Tensor != nil:
		rest := 0
		for _, d := range t.Tensor.Dims {
			switch d.Kind {
			case rule.DimHole:
				if err := hole(d.Hole, rule.HoleDim); err != nil {
					return err
				}
			case rule.DimRest:
				rest++
			case rule.DimExpr:
				return fmt.Errorf("%s: type pattern: a dimension expression only gives a result type; it cannot match", what)
			}
		}
		if rest > 1 {
			return fmt.Errorf("%s: type pattern: more than one *", what)
		}
		if !t.Tensor.AnyDType && t.Tensor.DTypeHole >= 0 {
			if err := hole(t.Tensor.DTypeHole, rule.HoleDType); err != nil {
				return err
			}
		}
	case t.Hole >= 0:
		return hole(t.Hole, rule.HoleType)
	}
	return nil
}

// validateAlts checks the pattern's alternatives: each is read by the operand it names, has two branches or more
// whose values are in range, and a branch's ops are in range and not the root.
func validateAlts(p *rule.Pattern) error {
	for g, a := range p.Alts {
		what := fmt.Sprintf("%s alternatives %d", a.Pos, g)
		if a.Op < 0 || a.Op >= len(p.Ops) || a.Operand < 0 || a.Operand >= len(p.Ops[a.Op].Operands) {
			return fmt.Errorf("%s: read at op %d operand %d, out of range", what, a.Op, a.Operand)
		}
		if o := p.Ops[a.Op].Operands[a.Operand]; o.Kind != rule.OperandAlt || o.Alt != g {
			return fmt.Errorf("%s: op %d operand %d does not read them", what, a.Op, a.Operand)
		}
		if len(a.Branches) < 2 {
			return fmt.Errorf("%s: %d branches, need two or more", what, len(a.Branches))
		}
		for _, br := range a.Branches {
			if br.Value < 0 || br.Value >= len(p.Values) || p.Values[br.Value].List || br.Value == a.Value {
				return fmt.Errorf("%s: branch value %d out of range", what, br.Value)
			}
			for _, k := range br.Ops {
				if k < 0 || k >= len(p.Ops) || k == p.Root {
					return fmt.Errorf("%s: branch op %d out of range or the root", what, k)
				}
			}
			if d := p.Values[br.Value].Def; d >= 0 && !slices.Contains(br.Ops, d) && p.InAlt(d) {
				return fmt.Errorf("%s: branch value %s is defined in another alternative", what, rule.ValueName(p, br.Value))
			}
		}
	}
	return nil
}

// validateUsers checks a users group (rule.UsersGroup): one op pattern, the root, without alternatives or swaps,
// that reads the group's value at the operand it says, with every other value it binds per element and no
// per-element value as a list; per-element constraints that exist.
func validateUsers(r *rule.Rule) error {
	p := r.Pattern
	g := p.Users
	if g == nil {
		return nil
	}
	what := g.Pos.String() + " users group"
	switch {
	case len(p.Ops) != 1 || g.Op != 0 || p.Root != 0:
		return fmt.Errorf("%s: the element must be the pattern's only op pattern, its root", what)
	case len(p.Alts) > 0 || p.Ops[0].Commutative:
		return fmt.Errorf("%s: the element cannot have alternatives or swapped operands", what)
	case g.Min < 1 || g.Max < g.Min:
		return fmt.Errorf("%s: counts %d to %d: want 1 <= min <= max", what, g.Min, g.Max)
	case g.Operand < 0 || g.Operand >= len(p.Ops[0].Operands) || p.Ops[0].Operands[g.Operand].Kind != rule.OperandValue ||
		p.Ops[0].Operands[g.Operand].Value != g.Value:
		return fmt.Errorf("%s: operand %d of the element is not the group's value", what, g.Operand)
	}
	for h, v := range p.Values {
		if elem := slices.Contains(g.Elems, h); elem == (h == g.Value) || elem && v.List {
			return fmt.Errorf("%s: %s: every value but the group's is bound per element, none is a list", what,
				rule.ValueName(p, h))
		}
	}
	for _, i := range g.ElemWhere {
		if i < 0 || i >= len(r.Where) {
			return fmt.Errorf("%s: per-element constraint %d out of range", what, i)
		}
	}
	return nil
}
