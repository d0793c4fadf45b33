package matcher

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// A rule compiles into a program: a flat list of instructions that the executor (exec) runs with backtracking.
// The instructions follow the plan of the rule (see doc.go, "Exploration order"): the root's checks, its results,
// its operands with their producers depth-first, then the ops reached through users, then closure, constraints
// and success. Choice instructions (cSwap, cUser) push a frame; a failing check resumes the newest frame's next
// alternative.
//
// Every check the decision tree can ask at a fixed position is emitted together with a predicate (question,
// answer), and the instruction remembers its question. The full program checks everything (Options.NoTree runs
// it); each success node of the tree gets its own leaf program (crule.leaf), which skips the checks of the
// questions asked on the node's path while keeping the bindings they make.

type opcode uint8

const (
	cName         opcode = iota // ops[k] is named info
	cNumOperands                // ops[k] has n operands (atLeast: >= n)
	cNumResults                 // ops[k] has n results (atLeast: >= n)
	cAttrBind                   // holes[h] = attribute name of ops[k] or its default, which must exist
	cAttrCheck                  // attribute name of ops[k] (or default) == holes[h]
	cAttrEquals                 // attribute name of ops[k] (or default) == lit
	cAttrPresent                // ops[k] carries attribute name
	cRestAttrs                  // holes[h] = attributes of ops[k] not in names (or check, if bound)
	cResultUnused               // result j of ops[k] has no uses
	cExtraUnused                // results n.. of ops[k] have no uses
	cBindResult                 // vals[h] = result j of ops[k]
	cSwap                       // choice: operands 0 and 1 of ops[k] as written, then swapped
	cOperandEq                  // operand j of ops[k] is vals[h]
	cBindOperand                // vals[h] = operand j of ops[k], which must be present
	cBindDef                    // ops[k] = the op defining vals[h], of which it must be result n
	cDistinct                   // ops[k] is none of ops[bound…]
	cOperandNull                // operand j of ops[k] is absent
	cBindList                   // lists[h] = operands j.. of ops[k]
	cListEq                     // operands j.. of ops[k] are lists[h]
	cType                       // the type of vals[h] (each of lists[h]) matches tp
	cUser                       // choice: ops[k] = each user of vals[h], in program order
	cClosure                    // every use of vals[h] is by a bound op
	cUsesCmp                    // uses(vals[h]) cmp n (a where constraint compiled to a check)
	cWhere                      // where constraint expr is true
	cSuccess                    // a complete match

	// Fused instructions, made by fuse from runs of the above.
	cShape        // name, operand count and result count of ops[k] (info nil / n, n2 < 0: not checked)
	cBindOperands // cBindOperand for each item (j, h, check)
	cBindResults  // cBindResult for each item (j, h)
	cAttrBinds    // cAttrBind for each item (name, h)
)

// item is one element of a fused instruction.
type item struct {
	j, h  int
	check bool
	name  string
}

type instr struct {
	code opcode
	// covered says the decision tree has made this instruction's check (set in leaf programs only).
	covered bool
	// q is the question that covers the instruction when the tree asks it on the way to the rule's success node,
	// or nil; always marks checks that dispatch itself makes (the root's name).
	q       *question
	always  bool
	atLeast bool
	k, j, h int
	n       int
	info    *ir.OpInfo
	name    string
	lit     ir.Attribute
	names   []string // cRestAttrs: the attribute names the op pattern lists
	bound   []int    // cDistinct: the pattern ops bound before ops[k]
	tp      *rule.TypePattern
	cmp     cmpOp
	expr    rule.Expr
	where   int // cWhere, cUsesCmp: index in Rule.Where
	// Fused instructions: cShape's result count (n2, atLeast2), and the items of the others.
	n2       int
	atLeast2 bool
	items    []item
}

// keepWhenCovered reports whether a covered instruction still has work at a leaf: a binding, or the holes of a
// tensor pattern whose hole-free part the tree checked.
func (in *instr) keepWhenCovered() bool {
	switch in.code {
	case cAttrBind, cBindOperand, cBindDef:
		return true
	case cType:
		return in.tp.Exact == nil && in.tp.Tensor != nil && tensorHasHoles(in.tp.Tensor)
	}
	return false
}

type program struct {
	r    *rule.Rule
	code []instr
	root int
	// isList[i] says whether value hole i is a list; hasLists whether any is.
	isList   []bool
	hasLists bool
}

// pred is one predicate of a rule: a question at a position and the answer the rule needs.
type pred struct {
	q *question
	a answer
}

// crule is a compiled rule.
type crule struct {
	r    *rule.Rule
	full *program
	// code is the plan's instructions with the questions that can cover them; leaf builds programs from it.
	code  []instr
	preds []pred
	// never is set when the rule's predicates contradict each other (it can never match).
	never bool
}

type compiler struct {
	r        *rule.Rule
	p        *rule.Pattern
	ctx      *ir.Context
	t        *tables
	boundOp  []bool
	order    []int
	boundVal []bool
	bound    []bool // attribute $holes bound so far (their first AttrBind binds, later ones check)
	valPos   []*position
	attrPos  []*position
	code     []instr
	preds    []pred
}

// compileRule compiles r into its programs and predicates, hash-consing positions and questions in t.
func compileRule(r *rule.Rule, ctx *ir.Context, t *tables) (cr *crule, err error) {
	if err := validate(r); err != nil {
		return nil, err
	}
	p := r.Pattern
	c := &compiler{r: r, p: p, ctx: ctx, t: t,
		boundOp: make([]bool, len(p.Ops)), boundVal: make([]bool, len(p.Values)), bound: make([]bool, len(p.Holes)),
		valPos: make([]*position, len(p.Values)), attrPos: make([]*position, len(p.Holes))}
	c.boundOp[p.Root] = true
	c.order = append(c.order, p.Root)
	c.visit(p.Root, t.root())
	for {
		k, j, h := nextPivot(p, c.boundOp, c.boundVal)
		if k < 0 {
			break
		}
		c.emit(instr{code: cUser, k: k, j: j, h: h})
		c.emit(instr{code: cDistinct, k: k, bound: append([]int(nil), c.order...)})
		c.boundOp[k] = true
		c.order = append(c.order, k)
		c.visit(k, nil)
	}
	for k, b := range c.boundOp {
		if !b {
			return nil, fmt.Errorf("%s %s is not connected to the root %s", p.Ops[k].Pos, rule.OpName(p, k),
				rule.OpName(p, p.Root))
		}
	}
	for h := range p.Values {
		if isInternal(p, h) {
			c.emit(instr{code: cClosure, h: h})
		}
	}
	for i, e := range r.Where {
		if h, cmp, n, ok := usesConstraint(p, e); ok {
			in := instr{code: cUsesCmp, h: h, cmp: cmp, n: n, expr: e, where: i}
			if vp := c.valPos[h]; vp != nil {
				if cmp == cmpEq {
					c.emitPred(in, question{kind: qUses, pos: vp}, answer{n: int64(n)})
				} else {
					c.emitPred(in, question{kind: qUsesCmp, pos: vp, cmp: cmp, n: n}, answerTrue)
				}
				continue
			}
			c.emit(in)
			continue
		}
		c.emit(instr{code: cWhere, expr: e, where: i})
	}
	c.emit(instr{code: cSuccess})

	cr = &crule{r: r, code: c.code}
	cr.full = cr.leaf(nil)
	// Deduplicate predicates; contradictory answers mean the rule can never match.
	seen := map[*question]answer{}
	for _, pr := range c.preds {
		if a, ok := seen[pr.q]; ok {
			if a != pr.a {
				cr.never = true
			}
			continue
		}
		seen[pr.q] = pr.a
		cr.preds = append(cr.preds, pr)
	}
	return cr, nil
}

// leaf returns the rule's program for a success node of the tree whose path asked the questions in path: the
// instructions those questions cover skip their checks (and disappear unless they also bind). leaf(nil) is the
// full program.
func (cr *crule) leaf(path map[*question]bool) *program {
	p := cr.r.Pattern
	prog := &program{r: cr.r, root: p.Root, isList: make([]bool, len(p.Values))}
	for i, v := range p.Values {
		prog.isList[i] = v.List
		prog.hasLists = prog.hasLists || v.List
	}
	for _, in := range cr.code {
		in.covered = path != nil && (in.always || in.q != nil && path[in.q])
		if !in.covered || in.keepWhenCovered() {
			prog.code = append(prog.code, in)
		}
	}
	prog.code = fuse(prog.code)
	return prog
}

// fuse merges runs of instructions on one op into fused instructions, so that the executor dispatches fewer
// times: name and counts into cShape, consecutive operand, result and attribute bindings into one instruction
// each, and the distinctness check into the cBindDef before it. The order of bindings is kept.
func fuse(code []instr) []instr {
	var out []instr
	for i := 0; i < len(code); i++ {
		in := code[i]
		last := len(out) - 1
		switch in.code {
		case cName, cNumOperands, cNumResults:
			if last < 0 || out[last].code != cShape || out[last].k != in.k || !shapeFree(&out[last], in.code) {
				out = append(out, instr{code: cShape, k: in.k, n: -1, n2: -1})
				last = len(out) - 1
			}
			sh := &out[last]
			switch in.code {
			case cName:
				sh.info = in.info
			case cNumOperands:
				sh.n, sh.atLeast = in.n, in.atLeast
			case cNumResults:
				sh.n2, sh.atLeast2 = in.n, in.atLeast
			}
			continue
		case cBindOperand:
			if last >= 0 && out[last].code == cBindOperands && out[last].k == in.k {
				out[last].items = append(out[last].items, item{j: in.j, h: in.h, check: !in.covered})
				continue
			}
			if i+1 < len(code) && code[i+1].code == cBindOperand && code[i+1].k == in.k {
				out = append(out, instr{code: cBindOperands, k: in.k,
					items: []item{{j: in.j, h: in.h, check: !in.covered}}})
				continue
			}
		case cBindResult:
			if last >= 0 && out[last].code == cBindResults && out[last].k == in.k {
				out[last].items = append(out[last].items, item{j: in.j, h: in.h})
				continue
			}
			if i+1 < len(code) && code[i+1].code == cBindResult && code[i+1].k == in.k {
				out = append(out, instr{code: cBindResults, k: in.k, items: []item{{j: in.j, h: in.h}}})
				continue
			}
		case cAttrBind:
			if last >= 0 && out[last].code == cAttrBinds && out[last].k == in.k {
				out[last].items = append(out[last].items, item{name: in.name, h: in.h})
				continue
			}
			if i+1 < len(code) && code[i+1].code == cAttrBind && code[i+1].k == in.k {
				out = append(out, instr{code: cAttrBinds, k: in.k, items: []item{{name: in.name, h: in.h}}})
				continue
			}
		case cDistinct:
			if last >= 0 && out[last].code == cBindDef && out[last].k == in.k && out[last].bound == nil {
				out[last].bound = in.bound
				continue
			}
		}
		out = append(out, in)
	}
	return out
}

// shapeFree reports whether the cShape sh does not check yet what an instruction of code c checks.
func shapeFree(sh *instr, c opcode) bool {
	switch c {
	case cName:
		return sh.info == nil && sh.n < 0 && sh.n2 < 0
	case cNumOperands:
		return sh.n < 0 && sh.n2 < 0
	}
	return sh.n2 < 0
}

func (c *compiler) emit(in instr) { c.code = append(c.code, in) }

// emitPred emits in as coverable by the predicate (q, a).
func (c *compiler) emitPred(in instr, q question, a answer) {
	in.q = c.t.question(q)
	c.code = append(c.code, in)
	c.preds = append(c.preds, pred{q: in.q, a: a})
}

// check emits in, covered by (q, a) when the op is at a fixed position (pos != nil).
func (c *compiler) check(in instr, pos *position, q question, a answer) {
	if pos == nil {
		c.emit(in)
		return
	}
	c.emitPred(in, q, a)
}

// visit emits the instructions for op k once it is bound: its own checks, its results, and its operands (binding
// their producers depth-first). pos is the op's fixed position, or nil if a choice (a swap, a user) precedes it.
func (c *compiler) visit(k int, pos *position) {
	p, t := c.p, c.t
	op := p.Ops[k]
	if op.Name != "" {
		in := instr{code: cName, k: k, info: c.ctx.OpInfo(op.Name)}
		if k == p.Root {
			in.always = true // the automaton dispatches on the root's name
			c.emit(in)
		} else {
			c.check(in, pos, question{kind: qName, pos: pos}, answer{ref: in.info})
		}
	}
	nopd := len(op.Operands)
	if nopd > 0 && op.Operands[nopd-1].Kind == rule.OperandList {
		c.check(instr{code: cNumOperands, k: k, n: nopd - 1, atLeast: true}, pos,
			question{kind: qNumOperandsGE, pos: pos, n: nopd - 1}, answerTrue)
	} else {
		c.check(instr{code: cNumOperands, k: k, n: nopd}, pos, question{kind: qNumOperands, pos: pos},
			answer{n: int64(nopd)})
	}
	nres := len(op.Results)
	if op.MoreResults {
		c.check(instr{code: cNumResults, k: k, n: nres, atLeast: true}, pos,
			question{kind: qNumResultsGE, pos: pos, n: nres}, answerTrue)
	} else {
		c.check(instr{code: cNumResults, k: k, n: nres}, pos, question{kind: qNumResults, pos: pos},
			answer{n: int64(nres)})
	}
	for _, a := range op.Attrs {
		var ap *position
		if pos != nil {
			ap = t.attr(pos, a.Name)
		}
		switch a.Kind {
		case rule.AttrBind:
			if !c.bound[a.Hole] {
				c.bound[a.Hole] = true
				c.attrPos[a.Hole] = ap
				// The existence check stays with the binding at the leaf: it never tells rules apart, and the
				// leaf reads the attribute anyway.
				c.emit(instr{code: cAttrBind, k: k, name: a.Name, h: a.Hole})
				continue
			}
			in := instr{code: cAttrCheck, k: k, name: a.Name, h: a.Hole}
			switch first := c.attrPos[a.Hole]; {
			case ap == nil || first == nil:
				c.emit(in)
			case ap == first: // the same attribute of the same op, listed twice
				in.always = true
				c.emit(in)
			default:
				c.emitPred(in, question{kind: qAttrEq, pos: ap, other: first}, answerTrue)
			}
		case rule.AttrEquals:
			c.check(instr{code: cAttrEquals, k: k, name: a.Name, lit: a.Literal}, ap,
				question{kind: qAttr, pos: ap}, answer{ref: a.Literal})
		case rule.AttrPresent:
			c.check(instr{code: cAttrPresent, k: k, name: a.Name}, pos,
				question{kind: qAttrPresent, pos: pos, name: a.Name}, answerTrue)
		}
	}
	if op.RestAttrs >= 0 {
		names := make([]string, len(op.Attrs))
		for i, a := range op.Attrs {
			names[i] = a.Name
		}
		c.emit(instr{code: cRestAttrs, k: k, h: op.RestAttrs, names: names})
	}
	for i, res := range op.Results {
		var rp *position
		if pos != nil {
			rp = t.result(pos, i)
		}
		switch {
		case res.Value < 0:
			c.check(instr{code: cResultUnused, k: k, j: i}, rp, question{kind: qNoUses, pos: rp}, answerTrue)
		case !c.boundVal[res.Value]:
			c.emit(instr{code: cBindResult, k: k, j: i, h: res.Value})
			c.boundVal[res.Value] = true
			c.valPos[res.Value] = rp
			c.typeCheck(res.Value)
		}
		// A result hole bound already is the one op k was reached through: cBindDef checked it.
	}
	if op.MoreResults {
		c.check(instr{code: cExtraUnused, k: k, n: nres}, pos, question{kind: qExtraUnused, pos: pos, n: nres},
			answerTrue)
	}
	if op.Commutative {
		c.emit(instr{code: cSwap, k: k})
	}
	for j, o := range op.Operands {
		var opd *position
		if pos != nil && !(op.Commutative && j < 2) {
			opd = t.operand(pos, j)
		}
		switch o.Kind {
		case rule.OperandValue:
			h := o.Value
			if c.boundVal[h] {
				in := instr{code: cOperandEq, k: k, j: j, h: h}
				if first := c.valPos[h]; opd != nil && first != nil {
					c.emitPred(in, question{kind: qValueEq, pos: opd, other: first}, answerTrue)
				} else {
					c.emit(in)
				}
				continue
			}
			hv := p.Values[h]
			in := instr{code: cBindOperand, k: k, j: j, h: h}
			var defQ *question
			if hv.Def >= 0 {
				c.check(in, opd, question{kind: qResultIndex, pos: opd}, answer{n: int64(hv.Result)})
				defQ = c.code[len(c.code)-1].q
			} else {
				// An input's presence is checked by the leaf when it binds it (as for attributes above).
				c.emit(in)
			}
			c.boundVal[h] = true
			c.valPos[h] = opd
			c.typeCheck(h)
			if d := hv.Def; d >= 0 {
				if c.boundOp[d] {
					panic(fmt.Sprintf("matcher: %s unbound while its op is bound", rule.ValueName(p, h)))
				}
				// cBindDef's checks (a defining op exists, the value is its result n) are exactly the
				// qResultIndex predicate of cBindOperand.
				c.emit(instr{code: cBindDef, k: d, h: h, n: hv.Result, q: defQ})
				c.emit(instr{code: cDistinct, k: d, bound: append([]int(nil), c.order...)})
				c.boundOp[d] = true
				c.order = append(c.order, d)
				var dpos *position
				if opd != nil {
					dpos = t.def(opd)
				}
				c.visit(d, dpos)
			}
		case rule.OperandNull:
			c.check(instr{code: cOperandNull, k: k, j: j}, opd, question{kind: qIsNull, pos: pos, n: j}, answerTrue)
		case rule.OperandList:
			h := o.Value
			if c.boundVal[h] {
				c.emit(instr{code: cListEq, k: k, j: j, h: h})
				continue
			}
			c.emit(instr{code: cBindList, k: k, j: j, h: h})
			c.boundVal[h] = true
			c.typeCheck(h)
		}
	}
}

// typeCheck emits the type check of value hole h, right after it is bound.
func (c *compiler) typeCheck(h int) {
	v := c.p.Values[h]
	tp := v.Type
	if tp == nil {
		return
	}
	in := instr{code: cType, h: h, tp: tp}
	vp := c.valPos[h]
	if v.List {
		vp = nil
	}
	switch {
	case tp.Exact != nil:
		c.check(in, vp, question{kind: qType, pos: vp}, answer{ref: tp.Exact})
	case tp.Tensor != nil:
		c.check(in, vp, question{kind: qTensor, pos: vp, tensor: tp.Tensor}, answerTrue)
	case tp.Hole >= 0:
		c.emit(in)
	}
}

// nextPivot picks the next op to reach through the users of a bound value: the unbound op with the smallest index
// that has a single-value operand whose hole is bound, and the first such operand. It returns k = -1 when there
// is none.
func nextPivot(p *rule.Pattern, boundOp, boundVal []bool) (k, j, h int) {
	for k, op := range p.Ops {
		if boundOp[k] {
			continue
		}
		for j, o := range op.Operands {
			if o.Kind == rule.OperandValue && boundVal[o.Value] {
				return k, j, o.Value
			}
		}
	}
	return -1, -1, -1
}

// isInternal reports whether value hole h is internal to the pattern: defined by a pattern op, used as an operand
// by another one, and not marked Shared. Every use of an internal value must be by an op of the match.
func isInternal(p *rule.Pattern, h int) bool {
	v := p.Values[h]
	if v.Def < 0 || v.Shared || v.List {
		return false
	}
	for _, op := range p.Ops {
		for _, o := range op.Operands {
			if o.Kind == rule.OperandValue && o.Value == h {
				return true
			}
		}
	}
	return false
}

// usesConstraint recognizes a where constraint `uses(%v) cmp n` (or `n cmp uses(%v)`) on a single value hole with
// an integer literal, which the matcher checks directly (and the tree hoists when %v has a fixed position).
func usesConstraint(p *rule.Pattern, e rule.Expr) (h int, cmp cmpOp, n int, ok bool) {
	b, isBin := e.(*rule.Binary)
	if !isBin {
		return
	}
	cmp, ok = parseCmp(b.Op)
	if !ok {
		return
	}
	x, y := b.X, b.Y
	if _, lit := x.(*rule.Lit); lit {
		x, y = y, x
		cmp = cmp.mirror()
	}
	call, isCall := x.(*rule.Call)
	lit, isLit := y.(*rule.Lit)
	if !isCall || !isLit || call.Builtin() == nil || !call.Builtin().CountsUses || len(call.Args) != 1 {
		return 0, 0, 0, false
	}
	ref, isRef := call.Args[0].(*rule.ValueRef)
	iv, isInt := lit.Value.(int64)
	if !isRef || !isInt || ref.Ref.New || ref.Ref.Index < 0 || ref.Ref.Index >= len(p.Values) ||
		p.Values[ref.Ref.Index].List || iv < -1<<31 || iv > 1<<31-1 {
		return 0, 0, 0, false
	}
	return ref.Ref.Index, cmp, int(iv), true
}

// describe renders an instruction for dumps, in the rule's names: ops as op<k>, values %x, holes $h.
func (in *instr) describe(p *rule.Pattern) string {
	op := func(k int) string { return "op" + strconv.Itoa(k) }
	v := func(h int) string { return rule.ValueName(p, h) }
	hole := func(h int) string { return rule.HoleName(p, h) }
	ge := func(b bool) string {
		if b {
			return " >= "
		}
		return " == "
	}
	switch in.code {
	case cName:
		return "name(" + op(in.k) + ") == " + in.info.Name
	case cNumOperands:
		return "num_operands(" + op(in.k) + ")" + ge(in.atLeast) + strconv.Itoa(in.n)
	case cNumResults:
		return "num_results(" + op(in.k) + ")" + ge(in.atLeast) + strconv.Itoa(in.n)
	case cAttrBind:
		return hole(in.h) + " = attr(" + op(in.k) + ", " + in.name + ")"
	case cAttrCheck:
		return "attr(" + op(in.k) + ", " + in.name + ") == " + hole(in.h)
	case cAttrEquals:
		return "attr(" + op(in.k) + ", " + in.name + ") == " + in.lit.String()
	case cAttrPresent:
		return "has_attr(" + op(in.k) + ", " + in.name + ")"
	case cRestAttrs:
		return hole(in.h) + " = rest_attrs(" + op(in.k) + " - {" + strings.Join(in.names, ", ") + "})"
	case cResultUnused:
		return "unused(" + op(in.k) + ".result[" + strconv.Itoa(in.j) + "])"
	case cExtraUnused:
		return "unused_results(" + op(in.k) + ", from " + strconv.Itoa(in.n) + ")"
	case cBindResult:
		return v(in.h) + " = " + op(in.k) + ".result[" + strconv.Itoa(in.j) + "]"
	case cSwap:
		return "choose operands of " + op(in.k) + ": as written | swapped"
	case cOperandEq:
		return op(in.k) + ".operand[" + strconv.Itoa(in.j) + "] == " + v(in.h)
	case cBindOperand:
		return v(in.h) + " = " + op(in.k) + ".operand[" + strconv.Itoa(in.j) + "]"
	case cBindDef:
		s := op(in.k) + " = def(" + v(in.h) + "), result " + strconv.Itoa(in.n)
		if in.bound != nil {
			parts := make([]string, len(in.bound))
			for i, b := range in.bound {
				parts[i] = op(b)
			}
			s += ", distinct from " + strings.Join(parts, ", ")
		}
		return s
	case cDistinct:
		parts := make([]string, len(in.bound))
		for i, b := range in.bound {
			parts[i] = op(b)
		}
		return "distinct(" + op(in.k) + "; " + strings.Join(parts, ", ") + ")"
	case cOperandNull:
		return "is_null(" + op(in.k) + ".operand[" + strconv.Itoa(in.j) + "])"
	case cBindList:
		return v(in.h) + "... = " + op(in.k) + ".operands[" + strconv.Itoa(in.j) + ":]"
	case cListEq:
		return op(in.k) + ".operands[" + strconv.Itoa(in.j) + ":] == " + v(in.h) + "..."
	case cType:
		return "type(" + v(in.h) + ") ~ " + rule.FormatType(p, in.tp)
	case cUser:
		return "choose " + op(in.k) + " among users(" + v(in.h) + ")"
	case cClosure:
		return "closure(" + v(in.h) + ")"
	case cUsesCmp:
		return "uses(" + v(in.h) + ") " + in.cmp.String() + " " + strconv.Itoa(in.n)
	case cWhere:
		return "where " + rule.FormatExpr(&rule.Rule{Pattern: p}, in.expr)
	case cSuccess:
		return "success"
	case cShape:
		var parts []string
		if in.info != nil {
			parts = append(parts, "name("+op(in.k)+") == "+in.info.Name)
		}
		if in.n >= 0 {
			parts = append(parts, "num_operands("+op(in.k)+")"+ge(in.atLeast)+strconv.Itoa(in.n))
		}
		if in.n2 >= 0 {
			parts = append(parts, "num_results("+op(in.k)+")"+ge(in.atLeast2)+strconv.Itoa(in.n2))
		}
		return strings.Join(parts, ", ")
	case cBindOperands, cBindResults, cAttrBinds:
		var parts []string
		for _, it := range in.items {
			switch in.code {
			case cBindOperands:
				parts = append(parts, v(it.h)+" = "+op(in.k)+".operand["+strconv.Itoa(it.j)+"]")
			case cBindResults:
				parts = append(parts, v(it.h)+" = "+op(in.k)+".result["+strconv.Itoa(it.j)+"]")
			default:
				parts = append(parts, hole(it.h)+" = attr("+op(in.k)+", "+it.name+")")
			}
		}
		return strings.Join(parts, ", ")
	}
	return fmt.Sprintf("op%d", in.code)
}
