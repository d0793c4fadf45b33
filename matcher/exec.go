package matcher

import (
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// exec runs rule programs. It is scratch state, reused across rules and ops; its bindings are the rule.Env of
// where constraints.
type exec struct {
	bindings
	p     *program
	trail []int // $holes bound, newest last, so backtracking can unbind them
	stack []frame
	users []*ir.Op    // arena of user lists of ChooseUser frames
	arena []*ir.Value // backing store of bound lists
	// A users group's scratch: the users of its value, the elements, their per-element values (element-major).
	gusers, group []*ir.Op
	gvals         []*ir.Value
}

// frame is a choice point: the choice instruction, the alternative being tried and what to undo.
type frame struct {
	pc, alt, n int
	start      int // cUser: first user in the users arena
	trail      int
}

// emptyList is the binding of a list hole that matched no operands (bound lists are never nil).
var emptyList = []*ir.Value{}

// grow returns s with length n, reusing its array; the contents are stale.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// reset prepares x to run p. Op, value and list bindings are left stale: the plan assigns each before any
// instruction reads it. Hole bindings are dynamic (holeSet) and swaps default to false.
func (x *exec) reset(p *program) {
	if x.p == nil || x.p.r != p.r {
		pat := p.r.Pattern
		x.pat = pat
		x.ops = grow(x.ops, len(pat.Ops))
		x.vals = grow(x.vals, len(pat.Values))
		x.lists = grow(x.lists, len(pat.Values))
		x.holes = grow(x.holes, len(pat.Holes))
		x.holeSet = grow(x.holeSet, len(pat.Holes))
		x.swap = grow(x.swap, len(pat.Ops))
		x.elem = elemMask(pat)
	}
	x.p = p
	if p.hasAlts {
		clear(x.ops) // the ops of a branch not taken stay nil
	}
	clear(x.holeSet)
	clear(x.swap)
	x.trail = x.trail[:0]
	x.stack = x.stack[:0]
	x.users = x.users[:0]
	x.arena = x.arena[:0]
}

// operand returns the IR operand index that pattern operand j of op k reads under the current swap choice.
func (x *exec) operand(k, j int) int {
	if j < 2 && x.swap[k] {
		return 1 - j
	}
	return j
}

func (x *exec) bindHole(h int, v any) bool {
	if x.holeSet[h] {
		return holeEqual(x.holes[h], v)
	}
	x.holes[h] = v
	x.holeSet[h] = true
	if len(x.stack) > 0 { // without a choice point there is nothing to backtrack to
		x.trail = append(x.trail, h)
	}
	return true
}

// attrOf is ir.Op.AttrOrDefault, looking the schema up only when the op does not carry the attribute. name is the
// Context's copy (compileRule interns it), which ir.Op.Attr finds by its data pointer.
func attrOf(op *ir.Op, name string) ir.Attribute {
	if a := op.Attr(name); a != nil {
		return a
	}
	if op.Schema() == nil {
		return nil
	}
	return op.AttrOrDefault(name)
}

func (x *exec) isBound(op *ir.Op) bool {
	for _, o := range x.ops {
		if o == op {
			return true
		}
	}
	return false
}

// checkType matches type t against tp, binding its holes; static says the tree checked tp's hole-free part.
func (x *exec) checkType(tp *rule.TypePattern, t ir.Type, static bool) bool {
	switch {
	case tp.Exact != nil:
		return static || t == tp.Exact
	case tp.Tensor != nil:
		if !static && !tensorStatic(tp.Tensor, t) {
			return false
		}
		tt := t.(*ir.TensorType)
		dims := tp.Tensor.Dims
		rest := restIndex(dims)
		for i, d := range dims {
			if d.Kind == rule.DimHole && !x.bindHole(d.Hole, tt.Dims[dimIndex(dims, rest, i, len(tt.Dims))]) {
				return false
			}
		}
		if !tp.Tensor.AnyDType && tp.Tensor.DTypeHole >= 0 && !x.bindHole(tp.Tensor.DTypeHole, tt.DType()) {
			return false
		}
		return true
	case tp.Hole >= 0:
		return x.bindHole(tp.Hole, t)
	}
	return true
}

// run runs program p with root bound to the pattern's root and reports whether it found a complete match (left in
// x's bindings).
func (x *exec) run(p *program, root *ir.Op) bool {
	x.reset(p)
	x.ops[p.root] = root
	code := p.code
	pc := 0
	for {
		in := &code[pc]
		ok := true
		switch in.Code {
		case BindRoot:
			x.ops[in.Op] = root
		case CheckName:
			ok = in.covered || x.ops[in.Op].Info() == in.info
		case CheckOperands:
			n := x.ops[in.Op].NumOperands()
			ok = n == in.N || in.AtLeast && n > in.N
		case CheckResults:
			n := x.ops[in.Op].NumResults()
			ok = n == in.N || in.AtLeast && n > in.N
		case BindAttr:
			a := attrOf(x.ops[in.Op], in.Name)
			if ok = a != nil; ok {
				if !x.holeSet[in.Hole] { // the usual case, inline
					x.holes[in.Hole] = a
					x.holeSet[in.Hole] = true
					if len(x.stack) > 0 {
						x.trail = append(x.trail, in.Hole)
					}
				} else {
					ok = x.holes[in.Hole] == a
				}
			}
		case CheckAttr:
			a := attrOf(x.ops[in.Op], in.Name)
			ok = a != nil && x.holes[in.Hole] == a
		case CheckAttrLit:
			ok = attrOf(x.ops[in.Op], in.Name) == in.Literal
		case CheckAttrPresent:
			ok = x.ops[in.Op].Attr(in.Name) != nil
		case BindRestAttrs:
			ok = x.bindHole(in.Hole, restAttrs(x.ops[in.Op], in.Names))
		case CheckUnused:
			ok = !x.ops[in.Op].Result(in.Index).HasUses()
		case CheckExtraUnused:
			op := x.ops[in.Op]
			for i := in.N; i < op.NumResults() && ok; i++ {
				ok = !op.Result(i).HasUses()
			}
		case BindResult:
			x.vals[in.Value] = x.ops[in.Op].Result(in.Index)
		case ChooseSwap:
			x.swap[in.Op] = false
			x.stack = append(x.stack, frame{pc: pc, n: 2, trail: len(x.trail)})
		case CheckOperand:
			ok = x.ops[in.Op].Operand(x.operand(in.Op, in.Index)) == x.vals[in.Value]
		case CheckConst:
			ok = SameConstant(x.vals[in.Value], x.ops[in.Op].Operand(x.operand(in.Op, in.Index)))
		case BindOperand:
			v := x.ops[in.Op].Operand(x.operand(in.Op, in.Index))
			x.vals[in.Value] = v
			ok = in.covered || v != nil
		case BindDef:
			v := x.vals[in.Value]
			d := v.DefiningOp()
			ok = in.covered || d != nil && v.Index() == in.N
			x.ops[in.Op] = d
			for _, b := range in.Bound {
				if x.ops[b] == d {
					ok = false
					break
				}
			}
		case cShape:
			op := x.ops[in.Op]
			ok = in.info == nil || op.Info() == in.info
			if n := op.NumOperands(); in.N >= 0 && ok {
				ok = n == in.N || in.AtLeast && n > in.N
			}
			if n := op.NumResults(); in.n2 >= 0 && ok {
				ok = n == in.n2 || in.atLeast2 && n > in.n2
			}
		case cBindOperands:
			op := x.ops[in.Op]
			for _, it := range in.items {
				v := op.Operand(x.operand(in.Op, it.j))
				x.vals[it.h] = v
				if it.check && v == nil {
					ok = false
					break
				}
			}
		case cBindResults:
			op := x.ops[in.Op]
			for _, it := range in.items {
				x.vals[it.h] = op.Result(it.j)
			}
		case cBindAttrs:
			op := x.ops[in.Op]
			for _, it := range in.items {
				a := attrOf(op, it.name)
				if a == nil || !x.bindHole(it.h, a) {
					ok = false
					break
				}
			}
		case CheckDistinct:
			op := x.ops[in.Op]
			for _, b := range in.Bound {
				if x.ops[b] == op {
					ok = false
					break
				}
			}
		case CheckNull:
			ok = x.ops[in.Op].Operand(x.operand(in.Op, in.Index)) == nil
		case BindList:
			x.lists[in.Value] = x.operandList(x.ops[in.Op], in.Index)
		case CheckList:
			op := x.ops[in.Op]
			l := x.lists[in.Value]
			ok = op.NumOperands()-in.Index == len(l)
			for i := 0; ok && i < len(l); i++ {
				ok = op.Operand(in.Index+i) == l[i]
			}
		case CheckType:
			if p.isList[in.Value] {
				for _, v := range x.lists[in.Value] {
					if ok = v != nil && x.checkType(in.Type, v.Type(), false); !ok {
						break
					}
				}
			} else {
				ok = x.checkType(in.Type, x.vals[in.Value].Type(), in.covered)
			}
		case ChooseUser:
			start := len(x.users)
			x.users = appendUsers(x.users, x.vals[in.Value])
			if n := len(x.users) - start; n > 0 {
				x.stack = append(x.stack, frame{pc: pc, n: n, start: start, trail: len(x.trail)})
				x.ops[in.Op] = x.users[start]
			} else {
				ok = false
			}
		case CheckClosure: // a value of a branch not taken is nil: nothing to check
			if v := x.vals[in.Value]; v != nil {
				for u := v.FirstUse(); u != nil; u = u.Next() {
					if !x.isBound(u.Owner()) {
						ok = false
						break
					}
				}
			}
		case CheckUses:
			v := x.vals[in.Value]
			ok = v != nil && in.Cmp.Eval(int64(v.NumUses()), int64(in.N))
		case CheckWhere:
			v, err := rule.Eval(in.Expr, x)
			ok = err == nil && v == true
		case ChooseAlt:
			x.stack = append(x.stack, frame{pc: pc, n: len(in.Targets), trail: len(x.trail)})
			x.unbind(&in.Instr)
			pc = in.Targets[0]
			continue
		case BindAlias:
			x.vals[in.Value] = x.vals[in.Other]
		case CheckAlias:
			ok = x.vals[in.Value] == x.vals[in.Other]
		case CollectUsers:
			ok = x.collect(&in.Instr)
		case Jump:
			pc = in.N
			continue
		case Success:
			return true
		}
		if ok {
			pc++
			continue
		}
		// Backtrack to the newest choice with an alternative left.
		for {
			if len(x.stack) == 0 {
				return false
			}
			f := &x.stack[len(x.stack)-1]
			for len(x.trail) > f.trail {
				x.holeSet[x.trail[len(x.trail)-1]] = false
				x.trail = x.trail[:len(x.trail)-1]
			}
			f.alt++
			if f.alt < f.n {
				c := &code[f.pc]
				pc = f.pc + 1
				switch c.Code {
				case ChooseSwap:
					x.swap[c.Op] = true
				case ChooseAlt:
					x.unbind(&c.Instr)
					pc = c.Targets[f.alt]
				default:
					x.ops[c.Op] = x.users[f.start+f.alt]
				}
				break
			}
			switch c := &code[f.pc]; c.Code {
			case ChooseSwap:
				x.swap[c.Op] = false
			case ChooseUser:
				x.users = x.users[:f.start]
			}
			x.stack = x.stack[:len(x.stack)-1]
		}
	}
}

// collect runs a users group's CollectUsers: the root is the first element; each later user of the group's value
// in the root's block, in program order, that passes the element code is the next one, up to Max; a user before
// the root that passes it fails the match (it is rooted there). The per-element holes are bound to the lists of
// the elements' values.
func (x *exec) collect(in *Instr) bool {
	root := x.ops[in.Op]
	elems := x.pat.Users.Elems
	x.group, x.gvals = x.group[:0], x.gvals[:0]
	var ok bool
	x.gusers, ok = CollectElements(x.gusers, root, x.vals[in.Value], in.Max, func(op *ir.Op, _ bool) bool { return x.element(in, op) })
	x.ops[in.Op] = root
	if !ok || len(x.group) < in.N {
		return false
	}
	for i, h := range elems {
		start := len(x.arena)
		for e := range x.group {
			x.arena = append(x.arena, x.gvals[e*len(elems)+i])
		}
		x.lists[h] = x.arena[start:len(x.arena):len(x.arena)]
		x.vals[h] = nil
	}
	return true
}

// element runs a users group's element code on op, and records op and its per-element values as the next
// element when it passes.
func (x *exec) element(in *Instr, op *ir.Op) bool {
	x.ops[in.Op] = op
	x.inElem = true
	ok := true
	for i := range in.Sub {
		if ok = x.elemStep(&in.Sub[i]); !ok {
			break
		}
	}
	x.inElem = false
	if ok {
		x.group = append(x.group, op)
		for _, h := range x.pat.Users.Elems {
			x.gvals = append(x.gvals, x.vals[h])
		}
	}
	return ok
}

// elemStep runs one instruction of an element's code (the checks and bindings of one op, NewPlan's users).
func (x *exec) elemStep(in *Instr) bool {
	op := x.ops[in.Op]
	switch in.Code {
	case CheckName:
		return op.Name() == in.Name
	case CheckOperands:
		n := op.NumOperands()
		return n == in.N || in.AtLeast && n > in.N
	case CheckResults:
		n := op.NumResults()
		return n == in.N || in.AtLeast && n > in.N
	case BindAttr:
		a := attrOf(op, in.Name)
		return a != nil && x.bindHole(in.Hole, a)
	case CheckAttr:
		a := attrOf(op, in.Name)
		return a != nil && x.holes[in.Hole] == a
	case CheckAttrLit:
		return attrOf(op, in.Name) == in.Literal
	case CheckAttrPresent:
		return op.Attr(in.Name) != nil
	case BindRestAttrs:
		return x.bindHole(in.Hole, restAttrs(op, in.Names))
	case CheckUnused:
		return !op.Result(in.Index).HasUses()
	case CheckExtraUnused:
		for i := in.N; i < op.NumResults(); i++ {
			if op.Result(i).HasUses() {
				return false
			}
		}
	case BindResult:
		x.vals[in.Value] = op.Result(in.Index)
	case CheckOperand:
		return op.Operand(in.Index) == x.vals[in.Value]
	case CheckConst:
		return SameConstant(x.vals[in.Value], op.Operand(in.Index))
	case BindOperand:
		x.vals[in.Value] = op.Operand(in.Index)
		return x.vals[in.Value] != nil
	case CheckNull:
		return op.Operand(in.Index) == nil
	case CheckType:
		return x.checkType(in.Type, x.vals[in.Value].Type(), false)
	case CheckUses:
		v := x.vals[in.Value]
		return v != nil && in.Cmp.Eval(int64(v.NumUses()), int64(in.N))
	case CheckWhere:
		v, err := rule.Eval(in.Expr, x)
		return err == nil && v == true
	default:
		return false // NewPlan puts no other instruction in an element's code
	}
	return true
}

// unbind clears the ops and values a ChooseAlt's branches bind, before each branch.
func (x *exec) unbind(in *Instr) {
	for _, k := range in.Reset {
		x.ops[k] = nil
	}
	for _, h := range in.ResetVals {
		x.vals[h], x.lists[h] = nil, nil
	}
}

// operandList returns operands j.. of op as a list binding (never nil).
func (x *exec) operandList(op *ir.Op, j int) []*ir.Value {
	n := op.NumOperands() - j
	if n <= 0 {
		return emptyList
	}
	start := len(x.arena)
	for i := j; i < op.NumOperands(); i++ {
		x.arena = append(x.arena, op.Operand(i))
	}
	return x.arena[start:len(x.arena):len(x.arena)]
}

// restAttrs returns the attributes of op not named in names, in order.
func restAttrs(op *ir.Op, names []string) []ir.NamedAttr {
	out := []ir.NamedAttr{}
outer:
	for _, a := range op.Attrs() {
		for _, n := range names {
			if a.Name == n {
				continue outer
			}
		}
		out = append(out, a)
	}
	return out
}

// fill copies x's bindings into m (reusing m's slices when they are large enough). Bound lists are copied into
// new slices (a Clone of an earlier match may share the old ones).
func (x *exec) fill(m *rule.Match) {
	p := x.p
	m.Rule = p.r
	m.Ops = resize(m.Ops, len(x.ops))
	copy(m.Ops, x.ops)
	m.Values = resize(m.Values, len(x.vals))
	copy(m.Values, x.vals)
	m.Lists = resize(m.Lists, len(x.vals))
	clear(m.Lists)
	if p.hasLists {
		for i, isList := range p.isList {
			switch l := x.lists[i]; {
			case !isList:
			case l == nil: // a list of an alternative not taken
				m.Values[i] = nil
			case len(l) == 0:
				m.Values[i], m.Lists[i] = nil, emptyList
			default:
				m.Values[i], m.Lists[i] = nil, append([]*ir.Value(nil), l...)
			}
		}
	}
	m.Group = nil
	if x.pat.Users != nil {
		m.Group = append([]*ir.Op(nil), x.group...)
		for _, h := range x.pat.Users.Elems {
			m.Values[h], m.Lists[h] = nil, append([]*ir.Value(nil), x.lists[h]...)
		}
	}
	m.Holes = resize(m.Holes, len(x.holes))
	copy(m.Holes, x.holes)
	for i, set := range x.holeSet {
		if !set {
			m.Holes[i] = nil
		}
	}
}

// resize returns s with length n, reusing its array when it is large enough.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
