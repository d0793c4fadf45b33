package matcher

import (
	"strconv"
	"strings"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// A rule's plan (plan.go) compiles into programs for a small backtracking executor (exec): its instructions with
// the op kinds resolved in the Context, fused where runs of them check one op (fuse), and the checks the decision
// tree makes dropped. A failing check resumes the newest choice point's next alternative.
//
// Every check the decision tree can ask at a fixed position (one that no choice precedes: the root, the op
// defining operand j of a fixed op, an attribute or result of a fixed op…) gets a predicate (question, answer),
// and the instruction remembers its question. The full program checks everything (Options.NoTree runs it); each
// success node of the tree gets its own leaf program (crule.leaf), which skips the checks of the questions asked
// on the node's path while keeping the bindings they make.

// The fused instructions fuse makes, after the plan's opcodes.
const (
	cShape        = Jump + 1 + iota // CheckName, CheckOperands and CheckResults of one op (unset: info nil, N, n2 < 0)
	cBindOperands                   // BindOperand for each item (Index, Value, check)
	cBindResults                    // BindResult for each item (Index, Value)
	cBindAttrs                      // BindAttr for each item (Name, Hole)
)

// item is one element of a fused instruction.
type item struct {
	j, h  int
	check bool
	name  string
}

// instr is a plan instruction lowered for the executor.
type instr struct {
	Instr
	// info is the op kind of CheckName (and cShape) in the automaton's Context.
	info *ir.OpInfo
	// covered says the decision tree has made this instruction's check (set in leaf programs only).
	covered bool
	// q is the question that covers the instruction when the tree asks it on the way to the rule's success node,
	// or nil; always marks checks that the matcher makes before any tree node (the root's name).
	q      *question
	always bool
	// Fused instructions: cShape's result count (n2, atLeast2), and the items of the others.
	n2       int
	atLeast2 bool
	items    []item
	// orig is the instruction's index in the plan; start says it begins a branch of a ChooseAlt (leaf programs
	// map the branches' targets through them).
	orig  int
	start bool
}

// keepWhenCovered reports whether a covered instruction still has work at a leaf: a binding, or the holes of a
// tensor pattern whose hole-free part the tree checked.
func (in *instr) keepWhenCovered() bool {
	switch in.Code {
	case BindAttr, BindOperand, BindDef:
		return true
	case CheckType:
		return in.Type.Exact == nil && in.Type.Tensor != nil && tensorHasHoles(in.Type.Tensor)
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
	// hasAlts says the program has a ChooseAlt: its runs start with no op bound, so that the ops of a branch
	// not taken are nil in the match.
	hasAlts bool
}

// pred is one predicate of a rule: a question at a position and the answer the rule needs.
type pred struct {
	q *question
	a answer
}

// crule is a compiled rule.
type crule struct {
	r    *rule.Rule
	plan *Plan
	full *program
	// code is the plan's instructions with the questions that can cover them; leaf builds programs from it.
	code  []instr
	preds []pred
	// never is set when the rule's predicates contradict each other (it can never match).
	never bool
}

// compileRule compiles r's plan into its programs and predicates, hash-consing positions and questions in t.
func compileRule(r *rule.Rule, ctx *ir.Context, t *tables) (*crule, error) {
	pl, err := NewPlan(r)
	if err != nil {
		return nil, err
	}
	cr := &crule{r: r, plan: pl, code: make([]instr, len(pl.Instrs))}
	for i, in := range pl.Instrs {
		cr.code[i] = instr{Instr: in}
		switch in.Code {
		case CheckName:
			cr.code[i].info = ctx.OpInfo(in.Name)
		case BindAttr, CheckAttr, CheckAttrLit, CheckAttrPresent:
			// The Context's copy of the name, which ir.Op.Attr finds by its data pointer.
			cr.code[i].Name = ctx.AttrName(in.Name)
		}
	}
	preds := cr.predicates(t)
	cr.full = cr.leaf(nil)
	// Deduplicate predicates; contradictory answers mean the rule can never match.
	seen := map[*question]answer{}
	for _, pr := range preds {
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

// predicates gives each check of the plan that is made at a fixed position its question, and returns the
// predicates. An op or value has a fixed position when the plan reaches it from the root through operands and
// producers only: a ChooseUser leaves the op it binds without one, a ChooseSwap the operands 0 and 1 of its op.
// Nothing after a ChooseAlt is asked: its branches are laid out one after the other, and a check in one of them is
// not a check of the rule.
func (cr *crule) predicates(t *tables) []pred {
	p := cr.r.Pattern
	opPos := make([]*position, len(p.Ops))
	valPos := make([]*position, len(p.Values))
	attrPos := make([]*position, len(p.Holes))
	defQ := make([]*question, len(p.Values)) // the question covering the BindOperand of a value BindDef reads
	swapped := make([]bool, len(p.Ops))
	var preds []pred
	for i := range cr.code {
		in := &cr.code[i]
		if in.Code == ChooseAlt || in.Code == CollectUsers {
			break // nothing after a choice among alternatives, or inside or after a users group, is a tree question
		}
		ask := func(q question, a answer) {
			in.q = t.question(q)
			preds = append(preds, pred{q: in.q, a: a})
		}
		operand := func() *position {
			if pos := opPos[in.Op]; pos != nil && !(swapped[in.Op] && in.Index < 2) {
				return t.operand(pos, in.Index)
			}
			return nil
		}
		pos := opPos[in.Op]
		switch in.Code {
		case BindRoot:
			opPos[in.Op] = t.root()
		case CheckName:
			switch {
			case in.Op == p.Root:
				in.always = true // the automaton dispatches on the root's name
			case pos != nil:
				ask(question{kind: qName, pos: pos}, answer{ref: in.info})
			}
		case CheckOperands, CheckResults:
			switch {
			case pos == nil:
			case in.AtLeast && in.Code == CheckOperands:
				ask(question{kind: qNumOperandsGE, pos: pos, n: in.N}, answerTrue)
			case in.AtLeast:
				ask(question{kind: qNumResultsGE, pos: pos, n: in.N}, answerTrue)
			case in.Code == CheckOperands:
				ask(question{kind: qNumOperands, pos: pos}, answer{n: int64(in.N)})
			default:
				ask(question{kind: qNumResults, pos: pos}, answer{n: int64(in.N)})
			}
		case BindAttr:
			// The existence check stays with the binding at the leaf: it never tells rules apart, and the leaf
			// reads the attribute anyway.
			if pos != nil {
				attrPos[in.Hole] = t.attr(pos, in.Name)
			}
		case CheckAttr:
			if pos == nil || attrPos[in.Hole] == nil {
				break
			}
			switch ap, first := t.attr(pos, in.Name), attrPos[in.Hole]; {
			case ap == first: // the same attribute of the same op, listed twice
				in.always = true
			default:
				ask(question{kind: qAttrEq, pos: ap, other: first}, answerTrue)
			}
		case CheckAttrLit:
			if pos != nil {
				ask(question{kind: qAttr, pos: t.attr(pos, in.Name)}, answer{ref: in.Literal})
			}
		case CheckAttrPresent:
			if pos != nil {
				ask(question{kind: qAttrPresent, pos: pos, name: in.Name}, answerTrue)
			}
		case CheckUnused:
			if pos != nil {
				ask(question{kind: qNoUses, pos: t.result(pos, in.Index)}, answerTrue)
			}
		case CheckExtraUnused:
			if pos != nil {
				ask(question{kind: qExtraUnused, pos: pos, n: in.N}, answerTrue)
			}
		case BindResult:
			if pos != nil {
				valPos[in.Value] = t.result(pos, in.Index)
			}
		case ChooseSwap:
			swapped[in.Op] = true
		case CheckOperand:
			if opd, first := operand(), valPos[in.Value]; opd != nil && first != nil {
				ask(question{kind: qValueEq, pos: opd, other: first}, answerTrue)
			}
		case BindOperand:
			opd := operand()
			valPos[in.Value] = opd
			// A produced value's presence, defining op and result index are one predicate, which covers
			// BindDef's checks too; an input's presence is checked by the leaf when it binds it (as for
			// attributes above).
			if p.Values[in.Value].Def >= 0 && opd != nil {
				ask(question{kind: qResultIndex, pos: opd}, answer{n: int64(p.Values[in.Value].Result)})
				defQ[in.Value] = in.q
			}
		case BindDef:
			in.q = defQ[in.Value]
			if vp := valPos[in.Value]; vp != nil {
				opPos[in.Op] = t.def(vp)
			}
		case CheckNull:
			if operand() != nil {
				ask(question{kind: qIsNull, pos: pos, n: in.Index}, answerTrue)
			}
		case CheckType:
			vp := valPos[in.Value]
			switch {
			case vp == nil || p.Values[in.Value].List:
			case in.Type.Exact != nil:
				ask(question{kind: qType, pos: vp}, answer{ref: in.Type.Exact})
			case in.Type.Tensor != nil:
				ask(question{kind: qTensor, pos: vp, tensor: in.Type.Tensor}, answerTrue)
			}
		case CheckUses:
			switch vp := valPos[in.Value]; {
			case vp == nil:
			case in.Cmp == CmpEq:
				ask(question{kind: qUses, pos: vp}, answer{n: int64(in.N)})
			default:
				ask(question{kind: qUsesCmp, pos: vp, cmp: in.Cmp, n: in.N}, answerTrue)
			}
		}
	}
	return preds
}

// leaf returns the rule's program for a success node of the tree whose path asked the questions in path: the
// instructions those questions cover skip their checks (and disappear unless they also bind). leaf(nil) is the
// full program. BindRoot goes: the executor binds the root itself.
func (cr *crule) leaf(path map[*question]bool) *program {
	p := cr.r.Pattern
	prog := &program{r: cr.r, root: p.Root, isList: make([]bool, len(p.Values))}
	for i, v := range p.Values {
		prog.isList[i] = v.List
		prog.hasLists = prog.hasLists || v.List
	}
	starts := map[int]bool{} // the first instructions of ChooseAlt branches and of joins, which fuse keeps apart
	for _, in := range cr.code {
		for _, t := range in.Targets {
			starts[t] = true
		}
		if in.Code == Jump {
			starts[in.N] = true
		}
	}
	for i, in := range cr.code {
		in.covered = path != nil && (in.always || in.q != nil && path[in.q])
		in.orig = i
		in.start = starts[i]
		if in.Code != BindRoot && (!in.covered || in.keepWhenCovered()) {
			prog.code = append(prog.code, in)
		}
		prog.hasAlts = prog.hasAlts || in.Code == ChooseAlt
	}
	prog.code = fuse(prog.code)
	if prog.hasAlts {
		at := map[int]int{} // plan index → program index of the branches' first instructions
		for i, in := range prog.code {
			if in.start {
				at[in.orig] = i
			}
		}
		for i := range prog.code {
			in := &prog.code[i]
			switch in.Code {
			case ChooseAlt:
				targets := make([]int, len(in.Targets))
				for b, t := range in.Targets {
					targets[b] = at[t]
				}
				in.Targets = targets
				if in.Join != 0 {
					in.Join = at[in.Join]
				}
			case Jump:
				in.N = at[in.N]
			}
		}
	}
	return prog
}

// fuse merges runs of instructions on one op into fused instructions, so that the executor dispatches fewer
// times: name and counts into cShape, consecutive operand, result and attribute bindings into one instruction
// each, and the distinctness check into the BindDef before it. The order of bindings is kept.
func fuse(code []instr) []instr {
	var out []instr
	for i := 0; i < len(code); i++ {
		in := code[i]
		last := len(out) - 1
		if in.start {
			last = -1 // a branch's first instruction starts a fused one, or stays as it is
		}
		next := func(c Opcode) bool {
			return i+1 < len(code) && code[i+1].Code == c && code[i+1].Op == in.Op && !code[i+1].start
		}
		switch in.Code {
		case CheckName, CheckOperands, CheckResults:
			if last < 0 || out[last].Code != cShape || out[last].Op != in.Op || !shapeFree(&out[last], in.Code) {
				out = append(out, instr{Instr: Instr{Code: cShape, Op: in.Op, N: -1}, n2: -1})
				last = len(out) - 1
			}
			sh := &out[last]
			switch in.Code {
			case CheckName:
				sh.info = in.info
			case CheckOperands:
				sh.N, sh.AtLeast = in.N, in.AtLeast
			case CheckResults:
				sh.n2, sh.atLeast2 = in.N, in.AtLeast
			}
			continue
		case BindOperand:
			it := item{j: in.Index, h: in.Value, check: !in.covered}
			if last >= 0 && out[last].Code == cBindOperands && out[last].Op == in.Op {
				out[last].items = append(out[last].items, it)
				continue
			}
			if next(BindOperand) {
				out = append(out, instr{Instr: Instr{Code: cBindOperands, Op: in.Op}, items: []item{it}})
				continue
			}
		case BindResult:
			it := item{j: in.Index, h: in.Value}
			if last >= 0 && out[last].Code == cBindResults && out[last].Op == in.Op {
				out[last].items = append(out[last].items, it)
				continue
			}
			if next(BindResult) {
				out = append(out, instr{Instr: Instr{Code: cBindResults, Op: in.Op}, items: []item{it}})
				continue
			}
		case BindAttr:
			it := item{name: in.Name, h: in.Hole}
			if last >= 0 && out[last].Code == cBindAttrs && out[last].Op == in.Op {
				out[last].items = append(out[last].items, it)
				continue
			}
			if next(BindAttr) {
				out = append(out, instr{Instr: Instr{Code: cBindAttrs, Op: in.Op}, items: []item{it}})
				continue
			}
		case CheckDistinct:
			if last >= 0 && out[last].Code == BindDef && out[last].Op == in.Op && out[last].Bound == nil {
				out[last].Bound = in.Bound
				continue
			}
		}
		out = append(out, in)
	}
	return out
}

// shapeFree reports whether the cShape sh does not check yet what an instruction of code c checks.
func shapeFree(sh *instr, c Opcode) bool {
	switch c {
	case CheckName:
		return sh.info == nil && sh.N < 0 && sh.n2 < 0
	case CheckOperands:
		return sh.N < 0 && sh.n2 < 0
	}
	return sh.n2 < 0
}

// describe renders a lowered instruction for dumps, in the rule's names (Instr.Format, and the fused ones).
func (in *instr) describe(p *rule.Pattern) string {
	op := "op" + strconv.Itoa(in.Op)
	ge := func(b bool) string {
		if b {
			return " >= "
		}
		return " == "
	}
	var parts []string
	switch in.Code {
	case BindDef:
		s := in.Format(p)
		if in.Bound != nil {
			bound := make([]string, len(in.Bound))
			for i, b := range in.Bound {
				bound[i] = "op" + strconv.Itoa(b)
			}
			s += ", distinct from " + strings.Join(bound, ", ")
		}
		return s
	case cShape:
		if in.info != nil {
			parts = append(parts, "name("+op+") == "+in.info.Name)
		}
		if in.N >= 0 {
			parts = append(parts, "num_operands("+op+")"+ge(in.AtLeast)+strconv.Itoa(in.N))
		}
		if in.n2 >= 0 {
			parts = append(parts, "num_results("+op+")"+ge(in.atLeast2)+strconv.Itoa(in.n2))
		}
	case cBindOperands, cBindResults, cBindAttrs:
		for _, it := range in.items {
			switch in.Code {
			case cBindOperands:
				parts = append(parts, rule.ValueName(p, it.h)+" = "+op+".operand["+strconv.Itoa(it.j)+"]")
			case cBindResults:
				parts = append(parts, rule.ValueName(p, it.h)+" = "+op+".result["+strconv.Itoa(it.j)+"]")
			default:
				parts = append(parts, rule.HoleName(p, it.h)+" = attr("+op+", "+it.name+")")
			}
		}
	default:
		return in.Format(p)
	}
	return strings.Join(parts, ", ")
}
