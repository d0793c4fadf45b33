package rulegen

import (
	"fmt"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/matcher"
	"github.com/pirdrr/drr/rulegen/rt"
)

// A rule instance becomes a Go function that prints its plan (matcher.Plan): one case per instruction below, each
// instruction a term of a chain of && (an op's kind and counts one rt.Is, rt.IsAtLeast or rt.Arity), so that the function finds
// the binding the automaton finds. A choice point of the plan (ChooseSwap, ChooseUser, ChooseAlt) is a for loop, in
// plan order; a failing term continues the innermost loop or, outside every loop, returns false; Success is the call
// that emits the match. The branches of a ChooseAlt are an if per iteration of its loop, each printing its path to its
// own Success or, when they join, to a call of a function literal declared before the loop whose body is the code
// after the join (printed once); in a plan with alternatives the op a ChooseUser binds is a declared variable (the match of another
// branch names it, nil), not the loop's. The constants of the instance (op kinds, literal attributes, schema defaults,
// exact types, constant subexpressions of its constraints) are read from its rt.Instance, so that the instances of a
// family that differ only in them print to the same function, which is written once.

// fnGen prints the plan of one rule instance.
type fnGen struct {
	f      *fileGen
	r      *rule.Rule
	p      *rule.Pattern
	plan   *matcher.Plan
	where  []rule.Expr       // the constraints as compiled (rt.Constraints)
	const_ map[rule.Expr]int // their subexpressions read from Instance.Consts
	// never is set when a constraint the catalog decides is false: the instance cannot match.
	never bool

	opVar, valVar, holeVar []string
	bound                  []bool   // per $hole, whether the plan has bound it at the instruction printed
	swapVar                []string // per op, the loop variable of its ChooseSwap
	userOp                 []bool   // ops bound by the loop of a ChooseUser
	binder                 []int    // per value hole, the pattern op whose instruction bound it
	local                  names
	usesTT                 bool

	b     *strings.Builder // the body after the declarations (while a ChooseAlt's loop prints, its own)
	terms []term           // the chain being built
	loops int
	// alts is set for a plan with alternatives (ChooseAlt).
	alts bool
	// first is set while a users group's element code prints: the name of its function literal's parameter that
	// says the op is the first element (whose checks bind the shared $holes, Agree).
	first string
	// joins names the function literal of the code after each join of alternatives, by its first instruction.
	joins map[int]string
}

// term is one term of a chain: its Go code, whether it starts a line (the op a BindDef reaches, a constraint),
// and a comment for its line (a constraint's source). A term that binds and cannot fail (rt.Set) also has its
// form as a statement, which a chain of nothing else is printed as.
type term struct {
	code, comment, assign string
	newLine               bool
	closure               bool
}

// reserved are the names a generated function uses besides its variables.
var reserved = func() names {
	n := names{"m": true, "in": true, "rt": true, "ir": true, "rule": true, "tt": true}
	for _, name := range types.Universe.Names() {
		n[name] = true
	}
	return n
}()

// newFnGen prepares the printing of rule instance r.
func (f *fileGen) newFnGen(r *rule.Rule, pl *matcher.Plan) *fnGen {
	p := r.Pattern
	g := &fnGen{f: f, r: r, p: p, plan: pl, const_: map[rule.Expr]int{},
		opVar: make([]string, len(p.Ops)), valVar: make([]string, len(p.Values)),
		holeVar: make([]string, len(p.Holes)), bound: make([]bool, len(p.Holes)), swapVar: make([]string, len(p.Ops)), userOp: make([]bool, len(p.Ops)),
		binder: make([]int, len(p.Values)), local: names{}, joins: map[int]string{}, b: &strings.Builder{}}
	for name := range reserved {
		g.local[name] = true
	}
	for k := range p.Ops {
		g.opVar[k] = g.local.fresh(opVarName(k))
	}
	for h, v := range p.Values {
		g.valVar[h] = g.local.fresh(ident(v.Name))
	}
	for h, hole := range p.Holes {
		g.holeVar[h] = g.local.fresh(ident(hole.Name))
	}
	var consts []rule.Expr
	g.where, consts = rt.Constraints(f.set.Ctx, r)
	for i, e := range consts {
		g.const_[e] = i
	}
	return g
}

// opVarName names the variable of pattern op k as the plan's dumps do: op and its index.
func opVarName(k int) string { return "op" + strconv.Itoa(k) }

// body prints the function's body: declarations, then the plan.
func (g *fnGen) body() string {
	for _, in := range g.plan.Instrs {
		g.alts = g.alts || in.Code == matcher.ChooseAlt
	}
	g.path(0)
	var decl strings.Builder
	g.declare(&decl)
	return decl.String() + g.b.String()
}

// path prints the plan from instruction pc to the Success that ends its path; a ChooseAlt ends it too, printing
// its branches as paths of their own.
func (g *fnGen) path(pc int) {
	base := g.loops
	for ; ; pc++ {
		in := &g.plan.Instrs[pc]
		switch in.Code {
		case matcher.ChooseAlt:
			g.alternatives(in, base)
			return
		case matcher.Success:
			g.emit(base)
			return
		case matcher.Jump: // the branch continues with the code after its alternatives
			if name, ok := g.joins[in.N]; ok { // a function literal
				g.terms = append(g.terms, term{code: name + "()", newLine: true})
				g.end(base)
				return
			}
			g.flush() // the code after the switch of straight branches
			return
		}
		pc += g.fused(g.plan.Instrs[pc:]) - 1
	}
}

// fused prints the instruction at the start of code, or the run of instructions starting there that one rt helper
// checks, and returns how many it printed: an op's kind with its exact operand and result counts next is one
// rt.Is, with exact operands and at least so many results one rt.IsAtLeast, exact operand and result counts one
// rt.Arity.
func (g *fnGen) fused(code []matcher.Instr) int {
	exact := func(i int, c matcher.Opcode) bool {
		return i < len(code) && code[i].Code == c && code[i].Op == code[0].Op && !code[i].AtLeast
	}
	in := &code[0]
	switch {
	case in.Code == matcher.CheckName && (in.Op != g.p.Root || g.first != "") && exact(1, matcher.CheckOperands) &&
		exact(2, matcher.CheckResults):
		g.term("rt.Is(%s, in.Ops[%d], %d, %d)", g.opVar[in.Op], in.Op, code[1].N, code[2].N)
		return 3
	case in.Code == matcher.CheckName && (in.Op != g.p.Root || g.first != "") && exact(1, matcher.CheckOperands) &&
		len(code) > 2 && code[2].Code == matcher.CheckResults && code[2].Op == in.Op:
		g.term("rt.IsAtLeast(%s, in.Ops[%d], %d, %d)", g.opVar[in.Op], in.Op, code[1].N, code[2].N)
		return 3
	case exact(0, matcher.CheckOperands) && exact(1, matcher.CheckResults):
		g.term("rt.Arity(%s, %d, %d)", g.opVar[in.Op], in.N, code[1].N)
		return 2
	}
	g.instr(in)
	return 1
}

// alternatives prints a ChooseAlt: a loop over its branches that unbinds, each time, what the branches bind, then
// prints the branch's path (in an if per branch); then it ends the path the ChooseAlt is on (entered with base
// loops open). Branches that join print the code after the join once: after a switch over the branches in the loop
// when every branch is a straight chain (no choice point: a failure continues the loop), else in a function literal
// declared before the loop, which each branch calls at its end and which returns whether that code found the match.
func (g *fnGen) alternatives(in *matcher.Instr, base int) {
	av := g.local.fresh("alt" + strconv.Itoa(in.Alt))
	straight := in.Join != 0 && g.straight(in)
	var join string
	if in.Join != 0 && !straight {
		join = g.local.fresh("join" + strconv.Itoa(in.Alt))
		g.joins[in.Join] = join
	}
	var reset, nils []string
	for _, k := range in.Reset {
		reset, nils = append(reset, g.opVar[k]), append(nils, "nil")
	}
	for _, h := range in.ResetVals {
		reset, nils = append(reset, g.valVar[h]), append(nils, "nil")
	}
	for _, h := range in.ResetHoles {
		// After a join a $hole only some branches bind is read as it is (a match leaves it nil, bound(…) tests it):
		// the attempts of earlier branches must not leave it set.
		if in.Join != 0 && g.p.Holes[h].Kind == rule.HoleAttr {
			reset, nils = append(reset, g.holeVar[h]), append(nils, "nil")
		}
	}
	g.flush() // the chain before the choice: its failure leaves the alternative the ChooseAlt is in
	var outer *strings.Builder
	if join != "" { // the literal goes before the loop, printed once the branches have given what they bind
		outer, g.b = g.b, &strings.Builder{}
	}
	g.line("for %s := range %d { // %s = %s.Operand(%d): its alternatives in order", av, len(in.Targets),
		g.valVar[in.Value], g.opVar[in.Op], in.Index)
	g.loops++
	if len(reset) > 0 {
		g.line("%s = %s", strings.Join(reset, ", "), strings.Join(nils, ", "))
	}
	if straight {
		g.line("switch %s {", av)
	}
	bound, swapVar := slices.Clone(g.bound), slices.Clone(g.swapVar)
	union := slices.Clone(g.bound)
	for b, t := range in.Targets {
		if w := &g.plan.Instrs[t]; w.Code == matcher.CheckWhere && w.Path != nil && isFalse(w.Expr) {
			// A branch whose paths a bound(…) constraint rules out: the planner ends it at once (a CheckWhere of
			// the literal false), and there is nothing to run.
			never := "never matches: where " + oneLine(rule.FormatExpr(g.r, g.r.Where[w.Where])) + " is false on its paths"
			if straight {
				g.line("case %d: // %s", b, never)
				g.line("continue")
			} else {
				g.line("// %s == %d %s", av, b, never)
			}
			continue
		}
		copy(g.bound, bound)
		copy(g.swapVar, swapVar)
		if straight {
			g.line("case %d:", b)
			g.path(t)
		} else {
			g.line("if %s == %d {", av, b)
			g.path(t)
			g.line("}")
		}
		for h, x := range g.bound {
			union[h] = union[h] || x
		}
	}
	g.bound = union // for the declarations, and the code after a join
	copy(g.swapVar, swapVar)
	if straight {
		g.line("}")
		g.path(in.Join) // inside the loop: its failures continue it, its success returns
	}
	for ; g.loops > base; g.loops-- {
		g.line("}")
	}
	if base == 0 {
		g.line("return false")
	}
	if join != "" {
		// The code after the join, from the union of what the branches bound, in a function of its own: its
		// failures return false, its success true.
		loop := g.b
		g.b = outer
		loops := g.loops
		g.loops = 0
		g.line("%s := func() bool {", join)
		g.path(in.Join)
		g.line("}")
		g.loops = loops
		g.b.WriteString(loop.String())
	}
}

// straight reports whether every branch of the ChooseAlt in is a straight chain to its Jump (or, ruled out, to its
// Success): no choice point.
func (g *fnGen) straight(in *matcher.Instr) bool {
	for _, t := range in.Targets {
		for pc := t; g.plan.Instrs[pc].Code != matcher.Jump && g.plan.Instrs[pc].Code != matcher.Success; pc++ {
			switch g.plan.Instrs[pc].Code {
			case matcher.ChooseSwap, matcher.ChooseUser, matcher.ChooseAlt, matcher.CollectUsers:
				return false
			}
		}
	}
	return true
}

// flush ends the chain before a choice point or a join: its failure leaves the current alternative. A chain of
// bindings that cannot fail is their assignments.
func (g *fnGen) flush() {
	if len(g.terms) == 0 {
		return
	}
	if !slices.ContainsFunc(g.terms, func(t term) bool { return t.assign == "" }) {
		for _, t := range g.terms {
			g.line("%s", t.assign)
		}
		g.terms = g.terms[:0]
		return
	}
	g.line("if !(%s) {", g.chain())
	g.line("%s", g.fail())
	g.line("}")
}

// instr prints one plan instruction.
func (g *fnGen) instr(in *matcher.Instr) {
	op := g.opVar[in.Op]
	var v string
	if in.Value < len(g.valVar) {
		v = g.valVar[in.Value]
	}
	switch in.Code {
	case matcher.BindRoot:
		// The op the function is called with.
	case matcher.CheckName:
		if in.Op != g.p.Root || g.first != "" { // the root's kind is what the pass dispatched on, not a user's
			g.term("%s.Info() == in.Ops[%d]", op, in.Op)
		}
	case matcher.CheckOperands:
		g.term("%s.NumOperands() %s %d", op, compare(in.AtLeast), in.N)
	case matcher.CheckResults:
		g.term("%s.NumResults() %s %d", op, compare(in.AtLeast), in.N)
	case matcher.BindAttr:
		g.bound[in.Hole] = true
		if g.first != "" {
			g.term("rt.AgreeAttr(%s, &%s, %s)", g.first, g.holeVar[in.Hole], g.attr(in))
			break
		}
		if g.p.Ops[in.Op].Name != "" {
			g.term("rt.BindAttrAt(&%s, %s, %q, in, %d)", g.holeVar[in.Hole], op, in.Name, rt.AttrSlot(g.p, in.Op, in.Name))
			break
		}
		g.term("rt.BindAttr(&%s, %s)", g.holeVar[in.Hole], g.attr(in))
	case matcher.CheckAttr:
		if g.p.Ops[in.Op].Name != "" {
			g.term("rt.AttrEq(%s, %q, in, %d, %s)", op, in.Name, rt.AttrSlot(g.p, in.Op, in.Name), g.holeVar[in.Hole])
			break
		}
		g.term("%s == %s", g.attr(in), g.holeVar[in.Hole])
	case matcher.CheckAttrLit:
		if g.p.Ops[in.Op].Name != "" {
			g.term("rt.AttrIs(%s, %q, in, %d)", op, in.Name, rt.AttrSlot(g.p, in.Op, in.Name))
			break
		}
		g.term("%s == in.Literals[%d]", g.attr(in), rt.AttrSlot(g.p, in.Op, in.Name))
	case matcher.CheckAttrPresent:
		g.term("%s.Attr(%q) != nil", op, in.Name)
	case matcher.BindRestAttrs:
		names := make([]string, len(in.Names))
		for i, n := range in.Names {
			names[i] = strconv.Quote(n)
		}
		rest := fmt.Sprintf("rt.RestAttrs(%s%s)", op, joinPrefixed(names))
		if !g.bound[in.Hole] {
			g.bound[in.Hole] = true
			if g.first != "" {
				g.term("rt.AgreeAttrs(%s, &%s, %s)", g.first, g.holeVar[in.Hole], rest)
				break
			}
			g.set(g.holeVar[in.Hole], rest)
		} else {
			g.term("rt.SameAttrs(%s, %s)", g.holeVar[in.Hole], rest)
		}
	case matcher.CheckUnused:
		g.term("!%s.Result(%d).HasUses()", op, in.Index)
	case matcher.CheckExtraUnused:
		g.term("rt.ResultsUnused(%s, %d)", op, in.N)
	case matcher.BindResult:
		g.binder[in.Value] = in.Op
		g.term("rt.Result(&%s, %s, %d)", v, op, in.Index)
	case matcher.ChooseSwap:
		sw := g.local.fresh("sw" + strconv.Itoa(in.Op))
		g.swapVar[in.Op] = sw
		g.open(fmt.Sprintf("for %s := range 2 { // operands 0 and 1 of %s as written, then swapped", sw, op))
	case matcher.CheckOperand:
		g.term("%s == %s", g.operand(in), v)
	case matcher.CheckConst:
		g.term("rt.SameConst(%s, %s)", v, g.operand(in))
	case matcher.BindOperand:
		g.binder[in.Value] = in.Op
		g.term("rt.Operand(&%s, %s, %s)", v, op, g.operandIndex(in))
	case matcher.BindDef: // an op reached starts a line
		g.terms = append(g.terms, term{code: fmt.Sprintf("rt.Def(&%s, %s, %d)", op, v, in.N), newLine: true})
	case matcher.CheckDistinct:
		parts := make([]string, len(in.Bound))
		for i, b := range in.Bound {
			parts[i] = op + " != " + g.opVar[b]
		}
		g.term("%s", strings.Join(parts, " && "))
	case matcher.CheckNull:
		g.term("%s == nil", g.operand(in))
	case matcher.BindList:
		g.binder[in.Value] = in.Op
		g.set(v, fmt.Sprintf("m.Operands(%s, %d)", op, in.Index))
	case matcher.CheckList:
		g.term("rt.SameOperands(%s, %d, %s)", op, in.Index, v)
	case matcher.CheckType:
		g.term("%s", g.typeCheck(in.Value, in.Type))
	case matcher.ChooseUser:
		if g.alts {
			u := g.local.fresh("u" + strconv.Itoa(in.Op))
			g.open(fmt.Sprintf("for _, %s := range m.Users(%s) {", u, v))
			g.set(op, u)
			break
		}
		g.userOp[in.Op] = true
		g.open(fmt.Sprintf("for _, %s := range m.Users(%s) {", op, v))
	case matcher.BindAlias:
		g.binder[in.Value] = in.Op
		g.set(v, g.valVar[in.Other])
	case matcher.CheckAlias:
		g.term("%s == %s", v, g.valVar[in.Other])
	case matcher.CheckClosure: // the closure checks that follow each other share a term
		if n := len(g.terms) - 1; n >= 0 && g.terms[n].closure {
			g.terms[n].code = strings.TrimSuffix(g.terms[n].code, ")") + ", " + v + ")"
			break
		}
		g.terms = append(g.terms, term{code: fmt.Sprintf("rt.Closed([]*ir.Op{%s}, %s)", strings.Join(g.opVar, ", "), v),
			newLine: true, closure: true})
	case matcher.CheckUses:
		g.term("%s.NumUses() %s %d", v, in.Cmp, in.N)
	case matcher.CheckWhere:
		e := g.where[in.Where]
		if in.Path != nil { // a constraint per alternative: bound(…) decided for the path, as in the plan's Expr
			e = in.Path.Fold(e)
		}
		g.constraint(e, rule.FormatExpr(g.r, in.Expr))
	case matcher.CollectUsers:
		g.collect(in)
	}
}

// collect prints a users group's CollectUsers as one term: the call of m.Collect with the element code, a function
// literal of the element op (shadowing the root's variable) and whether it is the first element, whose chain
// ends in m.Elem with the element's per-element values. The shared $holes the element code binds are bound on the
// first element and compared on the others (rt.Agree).
func (g *fnGen) collect(in *matcher.Instr) {
	outer := g.terms
	g.terms = nil
	g.first = g.local.fresh("first")
	for i := 0; i < len(in.Sub); i += g.fused(in.Sub[i:]) {
	}
	var elems []string
	for _, h := range g.p.Users.Elems { // values, not lists (matcher.NewPlan refuses a list)
		elems = append(elems, g.valVar[h])
	}
	g.term("m.Elem(%s)", strings.Join(elems, ", "))
	op := g.opVar[in.Op]
	code := fmt.Sprintf("m.Collect(in, %s, %s, func(%s *ir.Op, %s bool) bool {\nreturn %s\n})", op, g.valVar[in.Value],
		op, g.first, g.chain())
	g.first = ""
	g.terms = append(outer, term{code: code, newLine: true})
}

func compare(atLeast bool) string {
	if atLeast {
		return ">="
	}
	return "=="
}

// attr is the attribute an instruction reads: the op's, or the schema default of its kind (looked up once, for
// an op whose kind the code checked), or for an op of any kind its own schema's default.
func (g *fnGen) attr(in *matcher.Instr) string {
	if g.p.Ops[in.Op].Name == "" {
		return fmt.Sprintf("%s.AttrOrDefault(%q)", g.opVar[in.Op], in.Name)
	}
	return fmt.Sprintf("rt.AttrOr(%s, %q, in.Defaults[%d])", g.opVar[in.Op], in.Name, rt.AttrSlot(g.p, in.Op, in.Name))
}

// operand is the operand an instruction reads, under the current choice of the op's ChooseSwap.
func (g *fnGen) operand(in *matcher.Instr) string {
	return fmt.Sprintf("%s.Operand(%s)", g.opVar[in.Op], g.operandIndex(in))
}

// operandIndex is the index of the operand an instruction reads, under the current choice of the op's ChooseSwap.
func (g *fnGen) operandIndex(in *matcher.Instr) string {
	if sw := g.swapVar[in.Op]; sw != "" && in.Index < 2 {
		if in.Index == 0 {
			return sw
		}
		return "1-" + sw
	}
	return strconv.Itoa(in.Index)
}

// term adds a term to the chain.
func (g *fnGen) term(format string, args ...any) {
	g.terms = append(g.terms, term{code: fmt.Sprintf(format, args...)})
}

// set adds the term that binds dst to src: it cannot fail.
func (g *fnGen) set(dst, src string) {
	g.terms = append(g.terms, term{code: fmt.Sprintf("rt.Set(&%s, %s)", dst, src), assign: dst + " = " + src})
}

// constraint adds the term of a where constraint: its conjuncts, each true, on a line with the constraint's source
// (a conjunct the catalog decided true goes; one it decided otherwise means the instance never matches).
func (g *fnGen) constraint(e rule.Expr, source string) {
	var conjuncts []string
	var add func(e rule.Expr)
	add = func(e rule.Expr) {
		if b, ok := e.(*rule.Binary); ok && b.Op == "&&" {
			add(b.X)
			add(b.Y)
			return
		}
		if rt.Constant(e) {
			if v, ok := rt.EvalConstant(e); !ok || v != true {
				g.never = true
			}
			return
		}
		conjuncts = append(conjuncts, g.cond(e))
	}
	add(e)
	if len(conjuncts) > 0 {
		g.terms = append(g.terms, term{code: strings.Join(conjuncts, " && "), comment: "where " + oneLine(source),
			newLine: true})
	}
}

// open ends the chain before a choice point (its failure leaves the alternative) and opens the choice's loop.
func (g *fnGen) open(header string) {
	g.flush()
	g.line("%s", header)
	g.loops++
}

// fail is the statement that abandons the current alternative.
func (g *fnGen) fail() string {
	if g.loops == 0 {
		return "return false"
	}
	return "continue"
}

// emit ends a path of the plan, entered with base loops open: the chain, the last term of which emits the match,
// the bindings appended to the match's slices right in the call.
func (g *fnGen) emit(base int) {
	p := g.p
	vals := make([]string, len(p.Values))
	var lists []string
	for h, v := range p.Values {
		vals[h] = g.valVar[h]
		if p.IsElem(h) { // its list is the group's (Emit)
			vals[h] = "nil"
			continue
		}
		if v.List {
			vals[h] = "nil"
			lists = append(lists, g.valVar[h])
		}
	}
	holes := make([]string, len(p.Holes))
	for h := range p.Holes {
		holes[h] = "nil"
		if g.bound[h] {
			holes[h] = g.holeVar[h]
		}
	}
	appendTo := func(slice string, xs []string) string {
		if len(xs) == 0 { // empty, keeping the capacity for the next match this Match holds
			return "m." + slice + "()"
		}
		return "append(m." + slice + "()" + joinPrefixed(xs) + ")"
	}
	code := fmt.Sprintf("m.Emit(in, %s, %s, %s%s)", appendTo("Ops", g.opVar), appendTo("Values", vals),
		appendTo("Holes", holes), joinPrefixed(lists))
	g.terms = append(g.terms, term{code: code, newLine: true})
	g.end(base)
}

// end ends a path, entered with base loops open, whose chain's last term is the match's success: the chain
// returns at once outside every loop, else a true chain returns true and the loops close.
func (g *fnGen) end(base int) {
	if g.loops == 0 {
		g.line("return %s", g.chain())
		return
	}
	g.line("if %s {", g.chain())
	g.line("return true")
	g.line("}")
	for ; g.loops > base; g.loops-- {
		g.line("}")
	}
	if base == 0 {
		g.line("return false")
	}
}

// chain writes the terms as one && expression and empties the chain: terms share lines up to about chainWidth
// columns, an op reached through an operand starts one, and a constraint has a line of its own with its source as
// a comment (constraints come last, before the Emit that ends the plan, so a comment never ends the expression).
func (g *fnGen) chain() string {
	const chainWidth = 120
	var lines []string
	var comments []string
	for i, t := range g.terms {
		last := len(lines) - 1
		if i > 0 && !t.newLine && comments[last] == "" && len(lines[last])+len(t.code)+4 <= chainWidth {
			lines[last] += " && " + t.code
			continue
		}
		lines = append(lines, t.code)
		comments = append(comments, t.comment)
	}
	g.terms = g.terms[:0]
	var b strings.Builder
	for i, l := range lines {
		b.WriteString(l)
		if i < len(lines)-1 {
			b.WriteString(" &&")
		}
		if comments[i] != "" {
			b.WriteString(" // " + comments[i])
		}
		if i < len(lines)-1 {
			b.WriteString("\n")
		}
	}
	return b.String()
}

func (g *fnGen) line(format string, args ...any) { fmt.Fprintf(g.b, format+"\n", args...) }

// declare writes the declarations of the variables the plan binds (those a loop binds are the loop's).
func (g *fnGen) declare(w *strings.Builder) {
	byType := map[string][]string{}
	var order []string
	add := func(typ, name string) {
		if _, ok := byType[typ]; !ok {
			order = append(order, typ)
		}
		byType[typ] = append(byType[typ], name)
	}
	for k, v := range g.opVar {
		if k != g.p.Root && !g.userOp[k] {
			add("*ir.Op", v)
		}
	}
	for h, v := range g.p.Values {
		if v.List {
			add("[]*ir.Value", g.valVar[h])
		} else {
			add("*ir.Value", g.valVar[h])
		}
	}
	for h, hole := range g.p.Holes {
		if g.bound[h] {
			add(holeGoType(hole.Kind), g.holeVar[h])
		}
	}
	if g.usesTT {
		add("*ir.TensorType", "tt")
	}
	for _, typ := range order {
		fmt.Fprintf(w, "var %s %s", strings.Join(byType[typ], ", "), typ)
		if typ == "*ir.Op" && g.r.Instance == "" {
			// The kinds of the ops, for the reader (a family's vary: they are its instances' Ops).
			var kinds []string
			for k, op := range g.p.Ops {
				if k != g.p.Root && !g.userOp[k] && op.Name != "" {
					kinds = append(kinds, g.opVar[k]+" "+op.Name)
				}
			}
			fmt.Fprintf(w, " // %s", strings.Join(kinds, ", "))
		}
		w.WriteString("\n")
	}
}

// isFalse reports whether e is the literal false.
func isFalse(e rule.Expr) bool {
	l, ok := e.(*rule.Lit)
	return ok && l.Value == false
}
