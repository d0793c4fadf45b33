package rule

// Substituting value holes: on a path through a rule's alternatives (Paths), the value an optional statement binds
// (`%c = op(x)?`, the value of its group of alternatives) is the value of the branch taken — the op's result, or x —
// so the path's pattern, where clause and actions read that value instead.

// valueSubst maps match value holes to the holes that stand for them.
type valueSubst map[int]int

// resolve follows s from h to a hole it does not map (an optional statement's first operand may be another's value).
func (s valueSubst) resolve(h int) int {
	for n := 0; n <= len(s); n++ {
		t, ok := s[h]
		if !ok {
			return h
		}
		h = t
	}
	return h
}

// ref returns r with its match value substituted.
func (s valueSubst) ref(r Ref) Ref {
	if !r.New {
		r.Index = s.resolve(r.Index)
	}
	return r
}

// expr returns e with every read of a substituted value hole replaced; e itself when it reads none.
func (s valueSubst) expr(e Expr) Expr {
	switch x := e.(type) {
	case *ValueRef:
		if r := s.ref(x.Ref); r != x.Ref {
			return &ValueRef{Ref: r, Pos: x.Pos}
		}
	case *Spread:
		y := s.expr(x.X)
		elems, changed := s.holes(x.Elems)
		if y != x.X || changed {
			return &Spread{X: y, Elems: elems, Pos: x.Pos}
		}
	case *Unary:
		if y := s.expr(x.X); y != x.X {
			return &Unary{Op: x.Op, X: y, Pos: x.Pos}
		}
	case *Binary:
		a, b := s.expr(x.X), s.expr(x.Y)
		if a != x.X || b != x.Y {
			return &Binary{Op: x.Op, X: a, Y: b, Pos: x.Pos}
		}
	case *Cond:
		c, t, f := s.expr(x.Cond), s.expr(x.Then), s.expr(x.Else)
		if c != x.Cond || t != x.Then || f != x.Else {
			return &Cond{Cond: c, Then: t, Else: f, Pos: x.Pos}
		}
	case *List:
		if elems, changed := s.exprs(x.Elems); changed {
			return &List{Elems: elems, Pos: x.Pos}
		}
	case *Index:
		a, i := s.expr(x.X), s.expr(x.Index)
		if a != x.X || i != x.Index {
			return &Index{X: a, Index: i, Pos: x.Pos}
		}
	case *Call:
		if args, changed := s.exprs(x.Args); changed {
			return &Call{Func: x.Func, Args: args, Native: x.Native, Pos: x.Pos}
		}
	}
	return e
}

func (s valueSubst) exprs(xs []Expr) ([]Expr, bool) {
	out, changed := make([]Expr, len(xs)), false
	for i, x := range xs {
		out[i] = s.expr(x)
		changed = changed || out[i] != x
	}
	if !changed {
		return xs, false
	}
	return out, true
}

func (s valueSubst) holes(hs []int) ([]int, bool) {
	out, changed := make([]int, len(hs)), false
	for i, h := range hs {
		out[i] = s.resolve(h)
		changed = changed || out[i] != h
	}
	if !changed {
		return hs, false
	}
	return out, true
}

// action returns a with its reads of substituted value holes replaced (a copy), or a itself when it reads none.
func (s valueSubst) action(a Action) Action {
	switch x := a.(type) {
	case *Create:
		c := *x
		c.Operands = make([]RewriteOperand, len(x.Operands))
		for i, o := range x.Operands {
			o.Ref = s.ref(o.Ref)
			c.Operands[i] = o
		}
		c.Attrs = make([]AttrSet, len(x.Attrs))
		for i, at := range x.Attrs {
			c.Attrs[i] = AttrSet{Name: at.Name, Value: s.expr(at.Value)}
		}
		c.ResultTypes = make([]TypeExpr, len(x.ResultTypes))
		for i, t := range x.ResultTypes {
			if t.Of != nil {
				r := s.ref(*t.Of)
				t.Of = &r
			}
			c.ResultTypes[i] = t
		}
		if x.ResultTypes == nil {
			c.ResultTypes = nil
		}
		return &c
	case *Replace:
		c := *x
		c.Value, c.With = s.ref(x.Value), s.ref(x.With)
		return &c
	case *NativeRewrite:
		c := *x
		c.Args, _ = s.exprs(x.Args)
		return &c
	}
	return a
}
