package rule

import "slices"

// Constraints per alternative (language.md §4.8): `bound(%x)` in a where clause is true on the paths through a
// rule's alternatives that bind %x. It is a fact of the path, not of the program, so every consumer decides it
// when it knows the path — the matcher's planner for each path of a plan, Paths for each path rule, the
// generators from those — and simplifies what it decides (FoldBound): on a path that does not bind %x, the
// operands `bound(%x)` guards (the right of `bound(%x) && …`, the then-branch of `bound(%x) ? … : …`) are gone,
// so nothing reads what the path leaves unbound.

// PathBinds says what one path through a pattern's alternatives binds: Values[h] for value hole h, Holes[h] for
// $hole h.
type PathBinds struct {
	Values, Holes []bool
}

// BindsOnPath returns what the path that takes branch choice[g] of each group g (-1: the path does not reach g)
// binds: the values and $holes its ops mention (operands, results, attribute bindings, type patterns of the
// values it binds) and the values of the branches it takes.
func BindsOnPath(p *Pattern, choice []int) *PathBinds {
	pb := &PathBinds{Values: make([]bool, len(p.Values)), Holes: make([]bool, len(p.Holes))}
	for k, op := range p.Ops {
		if !p.OnPath(choice, k) {
			continue
		}
		for _, o := range op.Operands {
			switch o.Kind {
			case OperandValue, OperandList:
				pb.Values[o.Value] = true
			case OperandAlt:
				pb.Values[o.Value] = true
				if b := choice[o.Alt]; b >= 0 {
					pb.Values[p.Alts[o.Alt].Branches[b].Value] = true
				}
			}
		}
		for _, r := range op.Results {
			if r.Value >= 0 {
				pb.Values[r.Value] = true
			}
		}
		for _, a := range op.Attrs {
			if a.Kind == AttrBind {
				pb.Holes[a.Hole] = true
			}
		}
		if op.RestAttrs >= 0 {
			pb.Holes[op.RestAttrs] = true
		}
	}
	if g := p.Users; g != nil {
		pb.Values[g.Value] = true
	}
	for h, v := range p.Values {
		if pb.Values[h] && v.Type != nil {
			for _, x := range v.Type.Holes() {
				pb.Holes[x] = true
			}
		}
	}
	return pb
}

// OnPath reports whether pattern op k is on the path that takes branch choice[g] of each group g: it is in no
// branch the path does not take (a group with choice -1 is not reached, nor is any op of its branches).
func (p *Pattern) OnPath(choice []int, k int) bool {
	for g, a := range p.Alts {
		for b, br := range a.Branches {
			if choice[g] != b && slices.Contains(br.Ops, k) {
				return false
			}
		}
	}
	return true
}

// Holes returns the $holes a type pattern binds: its whole-type hole, its dimension holes and its element type
// hole.
func (t *TypePattern) Holes() []int {
	var out []int
	if t.Hole >= 0 && t.Exact == nil && t.Tensor == nil {
		out = append(out, t.Hole)
	}
	if tp := t.Tensor; tp != nil {
		for _, d := range tp.Dims {
			if d.Kind == DimHole {
				out = append(out, d.Hole)
			}
		}
		if tp.DTypeHole >= 0 && !tp.AnyDType {
			out = append(out, tp.DTypeHole)
		}
	}
	return out
}

// Binds reports whether the path binds what argument e of bound(…) names: a %value or a $hole of the pattern.
func (pb *PathBinds) Binds(e Expr) bool {
	switch e := e.(type) {
	case *ValueRef:
		return !e.Ref.New && e.Ref.Index >= 0 && e.Ref.Index < len(pb.Values) && pb.Values[e.Ref.Index]
	case *HoleRef:
		return e.Hole >= 0 && e.Hole < len(pb.Holes) && pb.Holes[e.Hole]
	}
	return false
}

// Fold decides the bound(…) calls of e for the path and simplifies what they decide: `!` of a decided bool, `&&`
// and `||` whose left operand is decided, `?:` whose condition is, and `==` / `!=` of two decided bools. Only
// operands rule.Eval would not evaluate go, so the folded constraint holds exactly when the original does on the
// path. It returns e itself when e calls no bound.
func (pb *PathBinds) Fold(e Expr) Expr {
	switch x := e.(type) {
	case *Call:
		if b := x.Builtin(); b != nil && b.PathQuery {
			all := true
			for _, a := range x.Args {
				all = all && pb.Binds(a)
			}
			return &Lit{Value: all, Pos: x.Pos}
		}
		args, changed := pb.foldAll(x.Args)
		if changed {
			return &Call{Func: x.Func, Args: args, Native: x.Native, Pos: x.Pos}
		}
	case *Unary:
		y := pb.Fold(x.X)
		if b, ok := boolLit(y); ok && x.Op == "!" {
			return &Lit{Value: !b, Pos: x.Pos}
		}
		if y != x.X {
			return &Unary{Op: x.Op, X: y, Pos: x.Pos}
		}
	case *Binary:
		a := pb.Fold(x.X)
		if b, ok := boolLit(a); ok {
			switch {
			case x.Op == "&&" && !b, x.Op == "||" && b:
				return &Lit{Value: b, Pos: x.Pos}
			case x.Op == "&&" || x.Op == "||":
				return pb.Fold(x.Y)
			}
		}
		c := pb.Fold(x.Y)
		p, okA := boolLit(a)
		q, okC := boolLit(c)
		if okA && okC && (x.Op == "==" || x.Op == "!=") {
			return &Lit{Value: (p == q) == (x.Op == "=="), Pos: x.Pos}
		}
		if a != x.X || c != x.Y {
			return &Binary{Op: x.Op, X: a, Y: c, Pos: x.Pos}
		}
	case *Cond:
		c := pb.Fold(x.Cond)
		if b, ok := boolLit(c); ok {
			if b {
				return pb.Fold(x.Then)
			}
			return pb.Fold(x.Else)
		}
		t, f := pb.Fold(x.Then), pb.Fold(x.Else)
		if c != x.Cond || t != x.Then || f != x.Else {
			return &Cond{Cond: c, Then: t, Else: f, Pos: x.Pos}
		}
	case *List:
		elems, changed := pb.foldAll(x.Elems)
		if changed {
			return &List{Elems: elems, Pos: x.Pos}
		}
	case *Index:
		a, i := pb.Fold(x.X), pb.Fold(x.Index)
		if a != x.X || i != x.Index {
			return &Index{X: a, Index: i, Pos: x.Pos}
		}
	}
	return e
}

func (pb *PathBinds) foldAll(xs []Expr) ([]Expr, bool) {
	var out []Expr
	for i, x := range xs {
		if y := pb.Fold(x); y != x && out == nil {
			out = append(make([]Expr, 0, len(xs)), xs[:i]...)
			out = append(out, y)
		} else if out != nil {
			out = append(out, y)
		}
	}
	if out == nil {
		return xs, false
	}
	return out, true
}

func boolLit(e Expr) (bool, bool) {
	l, ok := e.(*Lit)
	if !ok {
		return false, false
	}
	b, ok := l.Value.(bool)
	return b, ok
}

// CallsBound reports whether e calls bound(…) (a constraint per alternative).
func CallsBound(e Expr) bool {
	found := false
	WalkExpr(e, func(x Expr) {
		if c, ok := x.(*Call); ok && c.Builtin() != nil && c.Builtin().PathQuery {
			found = true
		}
	})
	return found
}
