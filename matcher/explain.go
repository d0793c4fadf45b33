package matcher

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// Explanation says whether a rule matches at an op: the bindings of its match, or the first check that failed, in
// the rule's terms and with the printed value ids of the program.
type Explanation struct {
	Rule *rule.Rule
	Op   *ir.Op
	// Match is the rule's match at Op, or nil.
	Match *rule.Match
	// Bindings renders Match: what each pattern op, value and hole is bound to.
	Bindings []Binding
	// Failure is the first check that failed in exploration order (nil when the rule matched). When the rule
	// tries alternatives (commutative operand orders, users of a value), each failed alternative stops at one
	// check: Failure is the first alternative's, Others the following ones' (at most MaxOthers).
	Failure *Failure
	Others  []Failure
	// Tried is the number of alternatives explored (1 for a rule without choices).
	Tried int
}

// MaxOthers bounds Explanation.Others.
const MaxOthers = 16

// Binding is one binding of a match, rendered: Name is the rule's name (@label, op k (name), %x, $g) and Value
// what it is bound to (%8 = pd_op.conv2d, %3, (Int32)1, …).
type Binding struct {
	Name, Value string
}

// Failure is a check that failed: where in the rule file, and why.
type Failure struct {
	Pos     diag.Position
	Message string
}

// String renders a failure as "file:line:col: message".
func (f Failure) String() string { return f.Pos.String() + ": " + f.Message }

// String renders the explanation as a few lines of text.
func (e *Explanation) String() string {
	var b strings.Builder
	what := "no match"
	if e.Match != nil {
		what = "match"
	}
	fmt.Fprintf(&b, "rule %s", e.Rule.ID())
	if e.Rule.Pos.Line > 0 {
		fmt.Fprintf(&b, " (%s)", e.Rule.Pos)
	}
	fmt.Fprintf(&b, ": %s\n", what)
	for _, bd := range e.Bindings {
		fmt.Fprintf(&b, "  %s = %s\n", bd.Name, bd.Value)
	}
	if e.Failure != nil {
		fmt.Fprintf(&b, "  %s\n", e.Failure)
	}
	for _, f := range e.Others {
		fmt.Fprintf(&b, "  also: %s\n", f)
	}
	return b.String()
}

// Explain explains, for op, the rule instances named ruleName (Rule.Name or Rule.ID), or when ruleName is "" every
// rule whose root pattern could be op (same name, or any op). Each explanation follows the matcher's semantics and
// exploration order (doc.go) with plain backtracking: it finds the same match as the automaton, or reports the
// first check that failed. num names values (ir.NumberValues of the program's body); nil computes it.
func Explain(set *rule.Set, ruleName string, op *ir.Op, o rule.Oracle, num *ir.Numbering) []Explanation {
	if num == nil {
		num = numberingFor(op)
	}
	rootFits := func(r *rule.Rule) bool {
		if r.Pattern == nil || r.Pattern.Root < 0 || r.Pattern.Root >= len(r.Pattern.Ops) {
			return false
		}
		n := r.Pattern.Ops[r.Pattern.Root].Name
		return n == "" || n == op.Name()
	}
	// The named rule's instances whose root can be op; when none can, all of them, to say so.
	fitting := 0
	for _, r := range set.Rules {
		if ruleName != "" && (r.Name == ruleName || r.ID() == ruleName) && rootFits(r) {
			fitting++
		}
	}
	var out []Explanation
	for _, r := range set.Rules {
		if ruleName != "" {
			if r.Name != ruleName && r.ID() != ruleName || fitting > 0 && !rootFits(r) {
				continue
			}
		} else if !rootFits(r) {
			continue
		}
		out = append(out, explainRule(r, op, o, num))
	}
	return out
}

// numberingFor numbers the values of the program (or outermost block) containing op.
func numberingFor(op *ir.Op) *ir.Numbering {
	top := op
	for p := top.ParentOp(); p != nil; p = p.ParentOp() {
		top = p
	}
	if top != op && top.NumRegions() > 0 && top.Region(0).NumBlocks() > 0 {
		return ir.NumberValues(top.Region(0).Block(0))
	}
	if b := op.Block(); b != nil {
		return ir.NumberValues(b)
	}
	return ir.NumberValues(ir.NewBlock())
}

func explainRule(r *rule.Rule, op *ir.Op, o rule.Oracle, num *ir.Numbering) Explanation {
	ex := Explanation{Rule: r, Op: op}
	pl, err := NewPlan(r)
	if err != nil {
		ex.Failure = &Failure{Pos: r.Pos, Message: "invalid pattern: " + err.Error()}
		return ex
	}
	p := r.Pattern
	e := &explainer{r: r, p: p, plan: pl, num: num, root: op, userOf: make([]string, len(p.Ops)),
		via: make([]string, len(p.Ops)), from: make([]operandRef, len(p.Values)), alt: make([]int, len(p.Alts)),
		bindings: bindings{pat: p, oracle: o, ops: make([]*ir.Op, len(p.Ops)), swap: make([]bool, len(p.Ops)),
			elem: elemMask(p),
			vals: make([]*ir.Value, len(p.Values)), lists: make([][]*ir.Value, len(p.Values)),
			holes: make([]any, len(p.Holes)), holeSet: make([]bool, len(p.Holes))}}
	for g := range e.alt {
		e.alt[g] = -1
	}
	e.run(0)
	ex.Tried = e.tried
	if e.match != nil {
		ex.Match = e.match
		ex.Bindings = e.rendered()
	}
	if len(e.failures) > 0 && e.match == nil {
		ex.Failure = &e.failures[0]
		e.failures = e.failures[1:]
	}
	if len(e.failures) > MaxOthers {
		e.failures = e.failures[:MaxOthers]
	}
	if len(e.failures) > 0 {
		ex.Others = e.failures
	}
	return ex
}

// explainer interprets one rule's plan at an op with recursive backtracking, and says for each alternative why it
// failed: each instruction that can fail has its message, in the rule's terms and the program's value ids. Its
// bindings are the rule.Env of where constraints.
type explainer struct {
	bindings
	r    *rule.Rule
	p    *rule.Pattern
	plan *Plan
	num  *ir.Numbering
	root *ir.Op

	// from says where BindOperand read each value hole; via how BindDef reached each op ("operand 0 of
	// pd_op.add %3"), userOf which value's users ChooseUser took it from.
	from   []operandRef
	via    []string
	userOf []string

	choices []string // the choices made on the current path, for messages
	// pending is the choice of the latest ChooseUser (the user it took), which joins choices once the op's name
	// and distinctness checks passed: a failure of those is said of the user itself.
	pending    string
	pendingFor int
	failures   []Failure
	tried      int
	group      []*ir.Op // the elements of a users group
	match      *rule.Match
	matchSet   []bool // holeSet at the match
	// alt is the branch the current path takes at each group of alternatives, -1 where it takes none: after
	// branches that joined, a constraint per alternative is decided for it, as the plan decides it on a path of
	// its own.
	alt []int
}

// operandRef is the operand a value hole was read from: IR operand index of the op described.
type operandRef struct {
	index int
	op    string
}

// save copies what an alternative may change of the bindings, for restore before the next one.
func (e *explainer) save() bindings {
	return bindings{ops: slices.Clone(e.ops), swap: slices.Clone(e.swap), vals: slices.Clone(e.vals),
		lists: slices.Clone(e.lists), holes: slices.Clone(e.holes), holeSet: slices.Clone(e.holeSet)}
}

func (e *explainer) restore(s bindings) {
	copy(e.ops, s.ops)
	copy(e.swap, s.swap)
	copy(e.vals, s.vals)
	copy(e.lists, s.lists)
	copy(e.holes, s.holes)
	copy(e.holeSet, s.holeSet)
}

// run interprets the plan from instruction pc, and reports whether it found a match.
func (e *explainer) run(pc int) bool {
	for ; ; pc++ {
		in := &e.plan.Instrs[pc]
		if e.pending != "" && !(in.Op == e.pendingFor && (in.Code == CheckName || in.Code == CheckDistinct)) {
			e.choices = append(e.choices, e.pending)
			e.pending = ""
		}
		switch in.Code {
		case ChooseSwap:
			return e.chooseSwap(in, pc)
		case ChooseUser:
			return e.chooseUser(in, pc)
		case ChooseAlt:
			return e.chooseAlt(in)
		case CollectUsers:
			if !e.collect(in) {
				return false
			}
			continue
		case Jump:
			pc = in.N - 1
			continue
		case Success:
			e.succeed()
			return true
		}
		if !e.step(in) {
			return false
		}
	}
}

// chooseSwap tries the rest of the plan with operands 0 and 1 of the op as written, then swapped.
func (e *explainer) chooseSwap(in *Instr, pc int) bool {
	s := e.save()
	if e.run(pc + 1) {
		return true
	}
	e.restore(s)
	e.pending = ""
	e.swap[in.Op] = true
	e.choices = append(e.choices, "operands 0 and 1 of "+e.opDesc(e.ops[in.Op])+" swapped")
	ok := e.run(pc + 1)
	e.choices = e.choices[:len(e.choices)-1]
	return ok
}

// chooseAlt tries each branch of the alternatives in order, its ops unbound at the start; a failure in a branch
// says which alternative it was in.
func (e *explainer) chooseAlt(in *Instr) bool {
	s := e.save()
	a := e.p.Alts[in.Alt]
	from := e.from[in.Value]
	for b, t := range in.Targets {
		e.restore(s)
		for _, k := range in.Reset {
			e.ops[k] = nil
		}
		for _, h := range in.ResetVals {
			e.vals[h], e.lists[h] = nil, nil
		}
		what := e.hv(a.Branches[b].Value)
		if d := e.p.Values[a.Branches[b].Value].Def; d >= 0 && slices.Contains(a.Branches[b].Ops, d) {
			what = e.p.Ops[d].Name
		}
		e.choices = append(e.choices, fmt.Sprintf("alternative %d of operand %d of %s: %s", b+1, from.index, from.op,
			what))
		e.alt[in.Alt] = b
		ok := e.run(t)
		e.alt[in.Alt] = -1
		e.choices = e.choices[:len(e.choices)-1]
		if ok {
			return true
		}
	}
	return false
}

// chooseUser tries the rest of the plan with each user of the value as the op, in program order.
func (e *explainer) chooseUser(in *Instr, pc int) bool {
	v := e.vals[in.Value]
	users := appendUsers(nil, v)
	if len(users) == 0 {
		want := e.p.Ops[in.Op].Name
		if want == "" {
			want = "an op"
		}
		return e.fail(e.p.Ops[in.Op].Pos, "%s (%s) has no users; the rule wants one to be %s", e.hv(in.Value),
			e.val(v), want)
	}
	s := e.save()
	depth := len(e.choices)
	for _, u := range users {
		e.restore(s)
		e.ops[in.Op] = u
		e.userOf[in.Op] = e.hv(in.Value) + " (" + e.val(v) + ") is used by " + e.opDesc(u)
		e.pending, e.pendingFor = rule.OpName(e.p, in.Op)+" = "+e.opDesc(u), in.Op
		ok := e.run(pc + 1)
		e.choices, e.pending = e.choices[:depth], ""
		if ok {
			return true
		}
	}
	return false
}

// collect interprets a users group's CollectUsers as the executor does (exec.collect), and says why it failed:
// the root is not an element (the element code's message), a user before the root agrees (the match is rooted
// there), or too few users agree (with what the first ones that did not disagreed on).
func (e *explainer) collect(in *Instr) bool {
	root, x := e.ops[in.Op], e.vals[in.Value]
	pos := e.p.Users.Pos
	var vals [][]*ir.Value
	element := func(u *ir.Op) bool {
		e.ops[in.Op] = u
		e.inElem = true
		defer func() { e.inElem = false }()
		for i := range in.Sub {
			if !e.step(&in.Sub[i]) {
				return false
			}
		}
		e.group = append(e.group, u)
		row := make([]*ir.Value, len(e.p.Users.Elems))
		for i, h := range e.p.Users.Elems {
			row[i] = e.vals[h]
		}
		vals = append(vals, row)
		return true
	}
	e.group = e.group[:0]
	if !element(root) {
		return false
	}
	var disagreed []string
	before := true
	for _, u := range appendUsers(nil, x) {
		if !before && len(e.group) == in.Max {
			break
		}
		if u == root {
			before = false
			continue
		}
		if u.Block() != root.Block() {
			continue
		}
		n, tried := len(e.failures), e.tried
		ok := element(u)
		if !ok && len(e.failures) > n && len(disagreed) < 3 {
			disagreed = append(disagreed, e.opDesc(u)+": "+e.failures[n].Message)
		}
		e.failures, e.tried = e.failures[:n], tried
		if ok && before {
			e.ops[in.Op] = root
			return e.fail(pos, "%s (%s) is also used by %s, before this op, which agrees with it: the group is matched "+
				"at its first element", e.hv(in.Value), e.val(x), e.opDesc(u))
		}
	}
	e.ops[in.Op] = root
	if len(e.group) < in.N {
		why := ""
		if len(disagreed) > 0 {
			why = "; " + strings.Join(disagreed, "; ")
		}
		return e.fail(pos, "%s of %s (%s) in this block agree with this op; the group wants at least %d%s",
			plural(len(e.group), "user", "users"), e.hv(in.Value), e.val(x), in.N, why)
	}
	for i, h := range e.p.Users.Elems {
		l := make([]*ir.Value, len(vals))
		for k := range vals {
			l[k] = vals[k][i]
		}
		e.lists[h], e.vals[h] = l, nil
	}
	return true
}

// step runs one instruction that is not a choice point, and reports whether it passed; a failure is recorded.
func (e *explainer) step(in *Instr) bool {
	var pat *rule.OpPattern
	var o *ir.Op
	var d string
	switch in.Code {
	case CheckClosure, CheckUses, CheckWhere, CheckType, BindRoot, BindAlias, CheckAlias:
	case BindDef: // binds Ops[Op]
		pat = e.p.Ops[in.Op]
	default:
		pat, o = e.p.Ops[in.Op], e.ops[in.Op]
		d = e.opDesc(o)
	}
	switch in.Code {
	case BindRoot:
		e.ops[in.Op] = e.root
	case CheckName:
		switch {
		case o.Name() == in.Name:
		case in.Op == e.p.Root:
			return e.fail(pat.Pos, "the op at %s is %s; the rule's root is %s", e.opRef(o), o.Name(), in.Name)
		case e.via[in.Op] != "":
			return e.fail(pat.Pos, "%s is defined by %s; the rule wants %s", e.via[in.Op], o.Name(), in.Name)
		default:
			return e.fail(pat.Pos, "%s; the rule wants %s", e.userOf[in.Op], in.Name)
		}
	case CheckDistinct:
		for _, b := range in.Bound {
			if e.ops[b] != o {
				continue
			}
			if e.via[in.Op] != "" {
				return e.fail(pat.Pos, "%s is defined by %s, which the match binds to %s already; pattern ops bind "+
					"distinct ops", e.via[in.Op], d, rule.OpName(e.p, b))
			}
			return e.fail(pat.Pos, "%s, which the match binds to %s already; pattern ops bind distinct ops",
				e.userOf[in.Op], rule.OpName(e.p, b))
		}
	case CheckOperands, CheckResults:
		what, n := "operand", o.NumOperands()
		if in.Code == CheckResults {
			what, n = "result", o.NumResults()
		}
		switch {
		case in.AtLeast && n < in.N:
			return e.fail(pat.Pos, "%s has %s; the rule wants at least %d", d, plural(n, what, what+"s"), in.N)
		case !in.AtLeast && n != in.N:
			return e.fail(pat.Pos, "%s has %s; the rule wants %d", d, plural(n, what, what+"s"), in.N)
		}
	case BindAttr:
		if e.holeSet[in.Hole] { // a later element of a users group: the root bound the shared hole
			check := *in
			check.Code = CheckAttr
			return e.step(&check)
		}
		got := o.AttrOrDefault(in.Name)
		if got == nil {
			return e.fail(pat.Pos, "%s has no attribute %s (and no default); the rule binds it to %s", d, in.Name,
				e.hole(in.Hole))
		}
		e.holes[in.Hole], e.holeSet[in.Hole] = got, true
	case CheckAttr:
		switch got := o.AttrOrDefault(in.Name); {
		case got == nil:
			return e.fail(pat.Pos, "%s has no attribute %s; the rule wants %s = %s", d, in.Name, e.hole(in.Hole),
				e.showHole(e.holes[in.Hole]))
		case got != e.holes[in.Hole]:
			return e.fail(pat.Pos, "attribute %s of %s is %s; the rule wants %s = %s", in.Name, d, got,
				e.hole(in.Hole), e.showHole(e.holes[in.Hole]))
		}
	case CheckAttrLit:
		switch got := o.AttrOrDefault(in.Name); {
		case got == nil:
			return e.fail(pat.Pos, "%s has no attribute %s; the rule wants %s", d, in.Name, in.Literal)
		case got != in.Literal:
			return e.fail(pat.Pos, "attribute %s of %s is %s; the rule wants %s", in.Name, d, got, in.Literal)
		}
	case CheckAttrPresent:
		if o.Attr(in.Name) == nil {
			return e.fail(pat.Pos, "%s does not carry attribute %s; the rule wants it present", d, in.Name)
		}
	case BindRestAttrs:
		if rest := restAttrs(o, in.Names); !e.bindHole(in.Hole, rest) {
			return e.fail(pat.Pos, "the other attributes of %s are %s; the rule wants %s = %s", d,
				rule.FormatVal(rest), e.hole(in.Hole), e.showHole(e.holes[in.Hole]))
		}
	case CheckUnused:
		if r := o.Result(in.Index); r.HasUses() {
			return e.fail(pat.Pos, "result %d of %s (%s) has %s (%s); the rule wants none (_)", in.Index, d,
				e.val(r), plural(r.NumUses(), "use", "uses"), e.usersDesc(appendUsers(nil, r)))
		}
	case CheckExtraUnused:
		for i := in.N; i < o.NumResults(); i++ {
			if r := o.Result(i); r.HasUses() {
				return e.fail(pat.Pos, "result %d of %s (%s) has %s (%s); the rule allows further results only "+
					"when they are unused", i, d, e.val(r), plural(r.NumUses(), "use", "uses"),
					e.usersDesc(appendUsers(nil, r)))
			}
		}
	case BindResult:
		e.vals[in.Value] = o.Result(in.Index)
	case CheckOperand:
		if v := o.Operand(e.operand(in)); v != e.vals[in.Value] {
			got := "absent"
			if v != nil {
				got = e.val(v)
			}
			return e.fail(pat.Pos, "operand %d of %s is %s; the rule wants %s = %s", e.operand(in), d, got,
				e.hv(in.Value), e.val(e.vals[in.Value]))
		}
	case CheckConst:
		if v := o.Operand(e.operand(in)); !SameConstant(e.vals[in.Value], v) {
			got := "absent"
			if v != nil {
				got = e.val(v)
			}
			return e.fail(pat.Pos, "operand %d of %s is %s; the rule wants %s = %s or an equal constant (the same "+
				"op kind, attributes and result types, written in place by no op)", e.operand(in), d, got,
				e.hv(in.Value), e.val(e.vals[in.Value]))
		}
	case BindOperand:
		v := o.Operand(e.operand(in))
		if v == nil {
			return e.fail(pat.Pos, "operand %d of %s is absent; the rule wants %s", e.operand(in), d, e.hv(in.Value))
		}
		e.vals[in.Value] = v
		e.from[in.Value] = operandRef{index: e.operand(in), op: d}
	case BindAlias:
		e.vals[in.Value] = e.vals[in.Other]
		e.from[in.Value] = e.from[in.Other]
	case CheckAlias:
		if v, w := e.vals[in.Value], e.vals[in.Other]; v != w {
			from := e.from[in.Value]
			return e.fail(e.p.Alts[in.Alt].Branches[in.Index].Pos, "operand %d of %s is %s; alternative %d wants %s (%s)",
				from.index, from.op, e.val(v), in.Index+1, e.hv(in.Other), e.val(w))
		}
	case BindDef:
		v, from := e.vals[in.Value], e.from[in.Value]
		want := pat.Name
		if want == "" {
			want = "an op"
		}
		def := v.DefiningOp()
		if def == nil {
			return e.fail(pat.Pos, "operand %d of %s is %s, a block argument; the rule wants %s defined by %s",
				from.index, from.op, e.val(v), e.hv(in.Value), want)
		}
		if v.Index() != in.N {
			return e.fail(pat.Pos, "operand %d of %s is result %d of %s; the rule wants result %d (%s)", from.index,
				from.op, v.Index(), e.opDesc(def), in.N, e.hv(in.Value))
		}
		e.ops[in.Op] = def
		e.via[in.Op] = fmt.Sprintf("operand %d of %s", from.index, from.op)
	case CheckNull:
		if v := o.Operand(e.operand(in)); v != nil {
			return e.fail(pat.Pos, "operand %d of %s is %s; the rule wants it absent (null)", e.operand(in), d, e.val(v))
		}
	case BindList:
		e.lists[in.Value] = operands(o, e.operand(in))
	case CheckList:
		if l := operands(o, e.operand(in)); !slices.Equal(l, e.lists[in.Value]) {
			return e.fail(pat.Pos, "operands %d.. of %s are %s; the rule wants %s... = %s", e.operand(in), d,
				e.valList(l), e.hv(in.Value), e.valList(e.lists[in.Value]))
		}
	case CheckType:
		return e.typeCheck(in.Value, in.Type)
	case CheckClosure:
		v := e.vals[in.Value]
		if v == nil {
			return true // a value of a branch not taken
		}
		var outside []*ir.Op
		n := 0
		for u := v.FirstUse(); u != nil; u = u.Next() {
			if !slices.Contains(e.ops, u.Owner()) {
				n++
				outside = append(outside, u.Owner())
			}
		}
		if n > 0 {
			return e.fail(e.p.Values[in.Value].Pos, "%s (%s) has %s outside the match (%s)", e.hv(in.Value), e.val(v),
				plural(n, "use", "uses"), e.usersDesc(dedupOps(outside)))
		}
	case CheckUses, CheckWhere:
		w := in.Expr
		if in.Path == nil && rule.CallsBound(w) { // after a join: decided for the path taken, as on a path of its own
			w = rule.BindsOnPath(e.p, e.alt).Fold(w)
		}
		if l, ok := w.(*rule.Lit); ok && l.Value == false && rule.CallsBound(e.r.Where[in.Where]) {
			return e.fail(w.At(), "constraint %s is false on this path through the alternatives",
				rule.FormatExpr(e.r, e.r.Where[in.Where]))
		}
		val, err := rule.Eval(w, e)
		if err != nil {
			return e.fail(w.At(), "constraint %s failed: %v", rule.FormatExpr(e.r, w), evalMessage(err))
		}
		if b, ok := val.(bool); !ok {
			return e.fail(w.At(), "constraint %s is %s, not a bool", rule.FormatExpr(e.r, w), rule.Describe(val))
		} else if !b {
			return e.fail(w.At(), "%s", e.whyFalse(w))
		}
	}
	return true
}

// operand returns the IR operand index the instruction's pattern operand reads under the current swap choice.
func (e *explainer) operand(in *Instr) int {
	if in.Index < 2 && e.swap[in.Op] {
		return 1 - in.Index
	}
	return in.Index
}

// operands returns operands j.. of op as a list binding (never nil).
func operands(op *ir.Op, j int) []*ir.Value {
	l := emptyList
	for i := j; i < op.NumOperands(); i++ {
		l = append(l, op.Operand(i))
	}
	return l
}

// succeed records the match the bindings make.
func (e *explainer) succeed() {
	e.tried++
	m := &rule.Match{Rule: e.r, Ops: slices.Clone(e.ops), Values: slices.Clone(e.vals),
		Lists: make([][]*ir.Value, len(e.vals)), Holes: make([]any, len(e.holes))}
	for h, v := range e.p.Values {
		if v.List && e.lists[h] != nil { // nil: a list of an alternative not taken
			m.Values[h], m.Lists[h] = nil, slices.Clone(e.lists[h])
			if len(m.Lists[h]) == 0 {
				m.Lists[h] = emptyList
			}
		}
	}
	for h, set := range e.holeSet {
		if set {
			m.Holes[h] = e.holes[h]
		}
	}
	if g := e.p.Users; g != nil {
		m.Group = slices.Clone(e.group)
		for _, h := range g.Elems {
			m.Values[h], m.Lists[h] = nil, slices.Clone(e.lists[h])
		}
	}
	e.match = m
	e.matchSet = slices.Clone(e.holeSet)
}

// fail records a failed check (the end of one alternative) and returns false.
func (e *explainer) fail(pos diag.Position, format string, args ...any) bool {
	msg := fmt.Sprintf(format, args...)
	if len(e.choices) > 0 {
		msg += " (with " + strings.Join(e.choices, ", ") + ")"
	}
	e.tried++
	e.failures = append(e.failures, Failure{Pos: pos, Message: msg})
	return false
}

// Naming of IR entities in messages.

func (e *explainer) val(v *ir.Value) string { return e.num.Name(v) }

// opDesc names an op as "pd_op.conv2d %8" (its first result), or "pd_op.fetch(%9)" when it has no results.
func (e *explainer) opDesc(o *ir.Op) string {
	if o.NumResults() > 0 {
		return o.Name() + " " + e.num.Name(o.Result(0))
	}
	parts := make([]string, o.NumOperands())
	for i := range parts {
		parts[i] = e.num.Name(o.Operand(i))
	}
	return o.Name() + "(" + strings.Join(parts, ", ") + ")"
}

// opRef names an op by its first result, or describes it when it has none.
func (e *explainer) opRef(o *ir.Op) string {
	if o.NumResults() > 0 {
		return e.num.Name(o.Result(0))
	}
	return e.opDesc(o)
}

func (e *explainer) hv(h int) string { return rule.ValueName(e.p, h) }

func (e *explainer) hole(h int) string { return rule.HoleName(e.p, h) }

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func (e *explainer) usersDesc(users []*ir.Op) string {
	parts := make([]string, len(users))
	for i, u := range users {
		parts[i] = e.opDesc(u)
	}
	return strings.Join(parts, ", ")
}

func (e *explainer) showHole(v any) string {
	switch v := v.(type) {
	case ir.Attribute:
		return v.String()
	case ir.Type:
		return v.String()
	case ir.DType:
		return v.DataTypeName()
	}
	return rule.FormatVal(v)
}

// bindHole binds $hole h to v, or checks that it is v when it is bound already.
func (e *explainer) bindHole(h int, v any) bool {
	if e.holeSet[h] {
		return holeEqual(e.holes[h], v)
	}
	e.holes[h], e.holeSet[h] = v, true
	return true
}

func (e *explainer) valList(l []*ir.Value) string {
	parts := make([]string, len(l))
	for i, v := range l {
		parts[i] = e.val(v)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// typeCheck checks value hole h against its type pattern tp, binding the pattern's holes. The failure is reported
// at the op that bound h.
func (e *explainer) typeCheck(h int, tp *rule.TypePattern) bool {
	pos := e.p.Values[h].Pos
	if k := e.binder(h); k >= 0 {
		pos = e.p.Ops[k].Pos
	}
	if e.p.Values[h].List {
		for i, v := range e.lists[h] {
			what := fmt.Sprintf("element %d of %s...", i, e.hv(h))
			if v == nil {
				return e.fail(pos, "%s is absent; the rule wants a value of type %s", what, rule.FormatType(e.p, tp))
			}
			if !e.checkType(tp, v, what+" ("+e.val(v)+")", pos) {
				return false
			}
		}
		return true
	}
	v := e.vals[h]
	return e.checkType(tp, v, e.hv(h)+" ("+e.val(v)+")", pos)
}

// binder returns the pattern op whose instruction binds value hole h in the plan (-1: none).
func (e *explainer) binder(h int) int {
	for _, in := range e.plan.Instrs {
		switch in.Code {
		case BindResult, BindOperand, BindList, BindAlias:
			if in.Value == h {
				return in.Op
			}
		}
	}
	return -1
}

func (e *explainer) checkType(tp *rule.TypePattern, v *ir.Value, what string, pos diag.Position) bool {
	t := v.Type()
	want := rule.FormatType(e.p, tp)
	switch {
	case tp.Exact != nil:
		if t != tp.Exact {
			return e.fail(pos, "the type of %s is %s; the rule wants %s", what, t, tp.Exact)
		}
	case tp.Tensor != nil:
		tens := tp.Tensor
		tt, ok := t.(*ir.TensorType)
		if !ok {
			return e.fail(pos, "the type of %s is %s; the rule wants %s", what, t, want)
		}
		if len(tens.Spellings) > 0 && !slices.Contains(tens.Spellings, tt.Spelling) {
			return e.fail(pos, "the type of %s is %s; the rule wants %s (spelled %s)", what, t, want,
				strings.Join(tens.Spellings, " or "))
		}
		if !rankOK(tens.Dims, len(tt.Dims)) {
			return e.fail(pos, "the type of %s is %s, of rank %d; the rule wants %s", what, t, len(tt.Dims), want)
		}
		rest := restIndex(tens.Dims)
		for i, dp := range tens.Dims {
			if dp.Kind != rule.DimExact && dp.Kind != rule.DimHole {
				continue
			}
			di := dimIndex(tens.Dims, rest, i, len(tt.Dims))
			got := tt.Dims[di]
			if dp.Kind == rule.DimExact && got != dp.Value {
				return e.fail(pos, "dimension %d of %s is %d; the rule wants %d (%s)", di, what, got, dp.Value, want)
			}
			if dp.Kind == rule.DimHole && !e.bindHole(dp.Hole, got) {
				return e.fail(pos, "dimension %d of %s is %d; the rule wants %s = %s (%s)", di, what, got,
					e.hole(dp.Hole), e.showHole(e.holes[dp.Hole]), want)
			}
		}
		switch {
		case tens.AnyDType:
		case tens.DTypeHole >= 0:
			if !e.bindHole(tens.DTypeHole, tt.DType()) {
				return e.fail(pos, "the dtype of %s is %s; the rule wants %s = %s", what, tt.DType().DataTypeName(),
					e.hole(tens.DTypeHole), e.showHole(e.holes[tens.DTypeHole]))
			}
		case tt.DType() != tens.DType:
			return e.fail(pos, "the dtype of %s is %s; the rule wants %s", what, tt.DType().DataTypeName(),
				tens.DType.DataTypeName())
		}
	case tp.Hole >= 0:
		if !e.bindHole(tp.Hole, t) {
			return e.fail(pos, "the type of %s is %s; the rule wants %s = %s", what, t, e.hole(tp.Hole),
				e.showHole(e.holes[tp.Hole]))
		}
	}
	return true
}

func evalMessage(err error) string {
	if ee, ok := err.(*rule.EvalError); ok {
		return ee.Msg
	}
	return err.Error()
}

// dedupOps removes repeated ops and orders them in program order.
func dedupOps(ops []*ir.Op) []*ir.Op {
	var out []*ir.Op
	for _, o := range ops {
		if !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && before(out[j], out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// whyFalse explains a where constraint that evaluated to false: for a comparison, both sides' values; for &&, the
// first false operand; otherwise the constraint itself.
func (e *explainer) whyFalse(w rule.Expr) string {
	eval := func(x rule.Expr) (rule.Val, error) { return rule.Eval(x, e) }
	switch w := w.(type) {
	case *rule.Binary:
		switch w.Op {
		case "&&":
			if v, err := eval(w.X); err == nil && v != true {
				return e.whyFalse(w.X)
			}
			return e.whyFalse(w.Y)
		case "==", "!=", "<", "<=", ">", ">=", "in":
			x, errX := eval(w.X)
			y, errY := eval(w.Y)
			if errX != nil || errY != nil {
				break
			}
			subject, got, want, op := w.X, x, y, w.Op
			if _, lit := w.X.(*rule.Lit); lit {
				if _, lit2 := w.Y.(*rule.Lit); !lit2 && op != "in" {
					subject, got, want = w.Y, y, x
					if c, ok := parseCmp(op); ok {
						op = c.mirror().String()
					}
				}
			}
			if h, isHole := subject.(*rule.HoleRef); isHole {
				if a, isAttr := e.holes[h.Hole].(ir.Attribute); isAttr && e.holeSet[h.Hole] {
					got = a // show the attribute as the program has it: (Float)0.01, not its float64 value
				}
			}
			wantS := e.show(want)
			switch op {
			case "==":
			case "!=":
				wantS = "anything but " + wantS
			case "in":
				wantS = "one of " + wantS
			default:
				wantS = op + " " + wantS
			}
			return fmt.Sprintf("%s is %s; the rule wants %s", rule.FormatExpr(e.r, subject), e.show(got), wantS)
		}
	case *rule.Unary:
		if w.Op == "!" {
			return fmt.Sprintf("%s is true; the rule wants false", rule.FormatExpr(e.r, w.X))
		}
	}
	return fmt.Sprintf("constraint %s is false", rule.FormatExpr(e.r, w))
}

// show renders an expression value with the program's value ids.
func (e *explainer) show(v rule.Val) string {
	switch v := v.(type) {
	case *ir.Value:
		return e.val(v)
	case []*ir.Value:
		return e.valList(v)
	}
	return rule.FormatVal(v)
}

// rendered renders the match: what each pattern op, value and hole is bound to.
func (e *explainer) rendered() []Binding {
	var out []Binding
	m := e.match
	for k, o := range m.Ops {
		if o == nil {
			continue // an op of an alternative the match did not take
		}
		desc := o.Name()
		if o.NumResults() > 0 {
			desc = e.num.ResultNames(o) + " = " + desc
		} else {
			desc = e.opDesc(o)
		}
		out = append(out, Binding{Name: rule.OpName(e.p, k), Value: desc})
	}
	for h, hv := range e.p.Values {
		if hv.List {
			out = append(out, Binding{Name: e.hv(h) + "...", Value: e.valList(m.Lists[h])})
		} else if m.Values[h] != nil {
			out = append(out, Binding{Name: e.hv(h), Value: e.val(m.Values[h])})
		}
	}
	for h := range e.p.Holes {
		if e.matchSet[h] {
			out = append(out, Binding{Name: e.hole(h), Value: e.showHole(m.Holes[h])})
		}
	}
	return out
}
