package verify

import (
	"fmt"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// The hole values an instance may take: schema defaults, the literals where clauses compare holes with, and a few
// values per attribute kind; and the where clauses that read holes only, checked before a program is built.

// collectHoles finds, for every attribute hole, the attribute it binds and its candidate values.
func (in *instantiator) collectHoles() {
	p := in.pat
	lits := make([][]rule.Val, len(p.Holes))
	for _, w := range in.r.Where {
		collectLiterals(w, lits)
	}
	in.dtypeHoleLits(lits)
	for _, op := range p.Ops {
		s := in.ctx.Schema(op.Name)
		for _, a := range op.Attrs {
			if a.Kind != rule.AttrBind || a.Hole < 0 || a.Hole >= len(p.Holes) || in.holeSpec[a.Hole] != nil {
				continue
			}
			if spec := s.Attr(a.Name); spec != nil {
				in.holeSpec[a.Hole] = spec
				if !in.findLate(a.Hole, spec, lits[a.Hole]) {
					in.holeCands[a.Hole] = in.candidates(op.Name, spec, lits[a.Hole])
				}
			}
		}
	}
}

// candidates lists the values tried for an attribute hole: the default (for a required attribute, the value of
// requiredAttrs), the where clause's literals, and a few values by attribute kind and name; at most 4.
func (in *instantiator) candidates(opName string, spec *ir.AttrSpec, lits []rule.Val) []ir.Attribute {
	var out []ir.Attribute
	add := func(a ir.Attribute) {
		if a == nil || !spec.Type.Accepts(a) {
			return
		}
		for _, x := range out {
			if x == a {
				return
			}
		}
		out = append(out, a)
	}
	add(spec.Default)
	for _, l := range lits {
		if a, err := rule.ToAttr(in.ctx, spec.Type, l); err == nil {
			add(a)
		}
	}
	if spec.Default == nil && !spec.Optional {
		// A required attribute: the value Paddle's programs usually carry, after the values the where clause
		// names (they are what the rule wants).
		add(in.fillAttr(opName, spec))
	}
	for _, v := range extraAttrValues(spec) {
		if a, err := rule.ToAttr(in.ctx, spec.Type, v); err == nil {
			add(a)
		}
	}
	if len(out) > 4 {
		out = out[:4]
	}
	return out
}

// extraAttrValues are values tried for holes beyond defaults and literals.
func extraAttrValues(spec *ir.AttrSpec) []rule.Val {
	switch spec.Name {
	case "strides":
		return []rule.Val{[]rule.Val{int64(1), int64(1)}, []rule.Val{int64(2), int64(2)}}
	case "paddings":
		return []rule.Val{[]rule.Val{int64(0), int64(0)}, []rule.Val{int64(1), int64(1)}}
	case "dilations":
		return []rule.Val{[]rule.Val{int64(1), int64(1)}, []rule.Val{int64(2), int64(2)}}
	case "groups":
		// 8: a depthwise convolution of 8 channels, the alignment of Paddle's cutlass kernels (see convPlans).
		return []rule.Val{int64(1), int64(2), int64(8)}
	case "start_axis":
		return []rule.Val{int64(1), int64(0)}
	case "stop_axis":
		// To the last axis: flattening to a matrix.
		return []rule.Val{int64(-1), int64(2)}
	case "perm":
		// Permutations that do not commute with the default [0, 2, 3, 1] nor with each other: two transposes in a
		// row get different ones (see run), so that a rule composing them in the wrong order fails.
		return []rule.Val{[]rule.Val{int64(0), int64(2), int64(1), int64(3)}, []rule.Val{int64(1), int64(0), int64(2), int64(3)}}
	case "begin_norm_axis", "in_num_col_dims":
		// The last axis of the proposed rank-3 and rank-4 tensors: where clauses compare these holes with
		// rank(%x) - 1.
		return []rule.Val{int64(2), int64(3)}
	}
	if !spec.Type.Array && spec.Type.Kind == ir.KindBool {
		return []rule.Val{false, true}
	}
	if !spec.Type.Array && spec.Type.Kind == ir.KindDataType {
		// The element type of the proposed tensors: a rule comparing the hole with an operand's dtype
		// ($to == dtype(%x)) is satisfied by it.
		return []rule.Val{ir.DTypeFloat32}
	}
	return nil
}

// collectLiterals records, per hole, the literals an expression compares it with.
func collectLiterals(e rule.Expr, lits [][]rule.Val) {
	hole := func(x rule.Expr) int {
		if h, ok := x.(*rule.HoleRef); ok && h.Hole >= 0 && h.Hole < len(lits) {
			return h.Hole
		}
		return -1
	}
	// litVals returns the constant x stands for (list: its elements), folding constant expressions: [-1] and
	// [[1, 0], [0, 2, 1]] are lists of literals; [rank(%x) - 1] is no constant.
	litVals := func(x rule.Expr, list bool) []rule.Val {
		if l, ok := x.(*rule.List); ok && list {
			var out []rule.Val
			for _, el := range l.Elems {
				if v, ok := constExpr(el); ok {
					out = append(out, v)
				}
			}
			return out
		}
		v, ok := constExpr(x)
		if !ok {
			return nil
		}
		if l, isList := v.([]rule.Val); isList && list {
			return l
		}
		return []rule.Val{v}
	}
	switch e := e.(type) {
	case *rule.Binary:
		switch e.Op {
		case "==", "!=", "<", "<=", ">", ">=":
			if h := hole(e.X); h >= 0 {
				lits[h] = append(lits[h], litVals(e.Y, false)...)
			}
			if h := hole(e.Y); h >= 0 {
				lits[h] = append(lits[h], litVals(e.X, false)...)
			}
		case "in":
			if h := hole(e.X); h >= 0 {
				lits[h] = append(lits[h], litVals(e.Y, true)...)
			}
		}
		collectLiterals(e.X, lits)
		collectLiterals(e.Y, lits)
	case *rule.Unary:
		collectLiterals(e.X, lits)
	case *rule.Cond:
		collectLiterals(e.Cond, lits)
		collectLiterals(e.Then, lits)
		collectLiterals(e.Else, lits)
	case *rule.Call:
		if b := e.Builtin(); b != nil && b.Membership && len(e.Args) == 2 {
			if h := hole(e.Args[1]); h >= 0 {
				lits[h] = append(lits[h], litVals(e.Args[0], true)...)
			}
		}
		for _, a := range e.Args {
			collectLiterals(a, lits)
		}
	case *rule.List:
		for _, x := range e.Elems {
			collectLiterals(x, lits)
		}
	case *rule.Index:
		collectLiterals(e.X, lits)
		collectLiterals(e.Index, lits)
	}
}

// constExpr evaluates an expression that reads neither holes nor values (a literal, -1, a list of them).
func constExpr(e rule.Expr) (rule.Val, bool) {
	if !holesOnly(e) {
		return nil, false
	}
	v, err := rule.Eval(e, holeEnv{})
	return v, err == nil
}

// classifyWhere separates the constraints over holes only (evaluated before building) and derives, from the
// program builtins the constraints call on each input value, the order producers are tried in.
func (in *instantiator) classifyWhere() {
	type want struct{ param, notParam, notInput bool }
	wants := make([]want, len(in.pat.Values))
	var walk func(e rule.Expr, neg bool)
	walk = func(e rule.Expr, neg bool) {
		switch e := e.(type) {
		case *rule.Unary:
			walk(e.X, neg != (e.Op == "!"))
		case *rule.Binary:
			walk(e.X, neg)
			walk(e.Y, neg)
		case *rule.Cond:
			walk(e.Then, neg)
			walk(e.Else, neg)
		case *rule.Call:
			b := e.Builtin()
			if b == nil {
				break
			}
			// defined_by(%w, "builtin.parameter"): %w wants a parameter, as is_param(%w) does.
			if lit, ok := argLit(e, 1); ok && b.DefQuery != nil && lit == ir.ParameterOpName && !neg {
				if vr, ok := e.Args[0].(*rule.ValueRef); ok && !vr.Ref.New && vr.Ref.Index >= 0 && vr.Ref.Index < len(wants) {
					wants[vr.Ref.Index].param = true
				}
			}
			for _, a := range e.Args {
				vr, ok := a.(*rule.ValueRef)
				if !ok || vr.Ref.New || vr.Ref.Index < 0 || vr.Ref.Index >= len(wants) {
					continue
				}
				w := &wants[vr.Ref.Index]
				switch b.Implies {
				case rule.ImpliesParam:
					if neg {
						w.notParam = true
					} else {
						w.param = true
					}
				case rule.ImpliesInput:
					if neg {
						w.notInput = true
					}
				}
			}
		}
	}
	for _, w := range in.r.Where {
		walk(w, false)
		if holesOnly(w) {
			in.pure = append(in.pure, w)
		}
	}
	for i, w := range wants {
		switch {
		case w.param && !w.notParam:
			in.prefs[i] = []producer{prodParam, prodInput, prodObserved, prodCopy}
		case w.notParam && w.notInput:
			in.prefs[i] = []producer{prodObserved, prodCopy, prodInput, prodParam}
		case w.notInput:
			in.prefs[i] = []producer{prodParam, prodObserved, prodCopy, prodInput}
		case w.notParam:
			in.prefs[i] = []producer{prodInput, prodObserved, prodCopy, prodParam}
		default:
			in.prefs[i] = []producer{prodInput, prodParam, prodObserved, prodCopy}
		}
	}
}

// argLit returns argument i of call c when it is a literal.
func argLit(c *rule.Call, i int) (rule.Val, bool) {
	if i >= len(c.Args) {
		return nil, false
	}
	lit, ok := c.Args[i].(*rule.Lit)
	if !ok {
		return nil, false
	}
	return lit.Value, true
}

// holesOnly reports whether e reads nothing but holes and literals through pure builtins.
func holesOnly(e rule.Expr) bool {
	switch e := e.(type) {
	case *rule.Lit, *rule.HoleRef:
		return true
	case *rule.ValueRef:
		return false
	case *rule.Unary:
		return holesOnly(e.X)
	case *rule.Binary:
		return holesOnly(e.X) && holesOnly(e.Y)
	case *rule.Cond:
		return holesOnly(e.Cond) && holesOnly(e.Then) && holesOnly(e.Else)
	case *rule.List:
		for _, x := range e.Elems {
			if !holesOnly(x) {
				return false
			}
		}
		return true
	case *rule.Index:
		return holesOnly(e.X) && holesOnly(e.Index)
	case *rule.Call:
		if e.Native {
			return false
		}
		if b, ok := rule.LookupBuiltin(e.Func); !ok || b.Program {
			return false
		}
		for _, a := range e.Args {
			if !holesOnly(a) {
				return false
			}
		}
		return true
	}
	return false
}

// holeEnv evaluates hole-only constraints under an assignment.
type holeEnv struct{ assign []ir.Attribute }

func (e holeEnv) Hole(i int) (any, bool) {
	if i < len(e.assign) && e.assign[i] != nil {
		return e.assign[i], true
	}
	return nil, false
}
func (holeEnv) Value(rule.Ref) *ir.Value  { return nil }
func (holeEnv) List(rule.Ref) []*ir.Value { return nil }
func (holeEnv) Builtin(string, []rule.Val) (rule.Val, bool, error) {
	return nil, false, nil
}
func (holeEnv) Native(name string, _ []rule.Val) (rule.Val, error) {
	return nil, fmt.Errorf("native %s is not evaluated here", name)
}

// admissible reports whether no hole-only constraint rejects an assignment (a constraint that cannot be evaluated
// does not reject it).
func (in *instantiator) admissible(assign []ir.Attribute) bool {
	env := holeEnv{assign}
	for _, w := range in.pure {
		v, err := rule.Eval(w, env)
		if err != nil {
			continue
		}
		if b, ok := v.(bool); ok && !b {
			return false
		}
	}
	return true
}

// maxAssignments bounds the hole assignments enumerated.
var maxAssignments = 1 << 15

// assignments enumerates the admissible hole assignments (as candidate indices per hole), defaults first: all of
// them when there are at most maxAssignments, otherwise the defaults, every assignment differing from them in one
// hole, and a deterministic pseudo-random sample of the rest.
func (in *instantiator) assignments() [][]int {
	var holes []int
	total := 1
	for h, c := range in.holeCands {
		if len(c) > 0 {
			holes = append(holes, h)
			total = min(total*len(c), maxAssignments+1)
		}
	}
	var out [][]int
	seen := map[string]bool{}
	try := func(idx []int) {
		key := fmt.Sprint(idx)
		if seen[key] {
			return
		}
		seen[key] = true
		if in.admissible(in.assignment(idx)) {
			out = append(out, append([]int(nil), idx...))
		}
	}
	idx := make([]int, len(in.pat.Holes))
	if total <= maxAssignments {
		for {
			try(idx)
			// Odometer: the last hole varies fastest.
			i := len(holes) - 1
			for ; i >= 0; i-- {
				h := holes[i]
				idx[h]++
				if idx[h] < len(in.holeCands[h]) {
					break
				}
				idx[h] = 0
			}
			if i < 0 {
				return out
			}
		}
	}
	try(idx)
	for _, h := range holes {
		for c := 1; c < len(in.holeCands[h]); c++ {
			v := make([]int, len(idx))
			v[h] = c
			try(v)
		}
	}
	rng := tensor.NewRand(uint64(len(holes)))
	for n := 0; n < maxAssignments; n++ {
		v := make([]int, len(idx))
		for _, h := range holes {
			v[h] = rng.IntN(len(in.holeCands[h]))
		}
		try(v)
	}
	return out
}

func (in *instantiator) assignment(idx []int) []ir.Attribute {
	a := make([]ir.Attribute, len(in.pat.Holes))
	for h, c := range in.holeCands {
		if len(c) > 0 {
			a[h] = c[idx[h]]
		}
	}
	return a
}
