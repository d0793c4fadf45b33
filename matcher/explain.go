package matcher

import (
	"fmt"
	"strconv"
	"strings"

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
	Pos     rule.Pos
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
	var named []*rule.Rule
	fitting := 0
	for _, r := range set.Rules {
		if ruleName != "" && (r.Name == ruleName || r.ID() == ruleName) {
			named = append(named, r)
			if rootFits(r) {
				fitting++
			}
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
		out = append(out, explainRule(set.Ctx, r, op, o, num))
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

func explainRule(ctx *ir.Context, r *rule.Rule, op *ir.Op, o rule.Oracle, num *ir.Numbering) Explanation {
	ex := Explanation{Rule: r, Op: op}
	if err := validate(r); err != nil {
		ex.Failure = &Failure{Pos: r.Pos, Message: "invalid pattern: " + err.Error()}
		return ex
	}
	if _, err := compileRule(r, ctx, newTables()); err != nil {
		ex.Failure = &Failure{Pos: r.Pos, Message: "invalid pattern: " + err.Error()}
		return ex
	}
	p := r.Pattern
	e := &explainer{r: r, p: p, num: num, oracle: o,
		ops: make([]*ir.Op, len(p.Ops)), opSet: make([]bool, len(p.Ops)), swap: make([]bool, len(p.Ops)),
		vals: make([]*ir.Value, len(p.Values)), lists: make([][]*ir.Value, len(p.Values)),
		valSet: make([]bool, len(p.Values)), holes: make([]any, len(p.Holes)), holeSet: make([]bool, len(p.Holes))}
	e.root(op)
	ex.Tried = e.tried
	if e.match != nil {
		ex.Match = e.match
		ex.Bindings = e.bindings()
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

// explainer is a recursive backtracking matcher for one rule that records why each alternative failed. It
// implements rule.Env for where constraints.
type explainer struct {
	r        *rule.Rule
	p        *rule.Pattern
	num      *ir.Numbering
	oracle   rule.Oracle
	ops      []*ir.Op
	opSet    []bool
	swap     []bool
	vals     []*ir.Value
	lists    [][]*ir.Value
	valSet   []bool
	holes    []any
	holeSet  []bool
	trail    []int
	choices  []string // the choices made on the current path, for messages
	failures []Failure
	tried    int
	match    *rule.Match
	matchSet []bool // holeSet at the match (bindings are undone while unwinding)
}

// fail records a failed check (the end of one alternative) and returns false.
func (e *explainer) fail(pos rule.Pos, format string, args ...any) bool {
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

func showAttr(a ir.Attribute) string {
	if a == nil {
		return "absent"
	}
	return a.String()
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

// Binding with undo.

func (e *explainer) bindHole(h int, v any) bool {
	if e.holeSet[h] {
		return holeEqual(e.holes[h], v)
	}
	e.holes[h], e.holeSet[h] = v, true
	e.trail = append(e.trail, h)
	return true
}

func (e *explainer) undo(mark int) {
	for len(e.trail) > mark {
		h := e.trail[len(e.trail)-1]
		e.trail = e.trail[:len(e.trail)-1]
		e.holes[h], e.holeSet[h] = nil, false
	}
}

// root matches the rule's root against op, then everything else.
func (e *explainer) root(op *ir.Op) {
	k := e.p.Root
	pat := e.p.Ops[k]
	if pat.Name != "" && pat.Name != op.Name() {
		e.fail(pat.Pos, "the op at %s is %s; the rule's root is %s", e.opRef(op), op.Name(), pat.Name)
		return
	}
	e.ops[k], e.opSet[k] = op, true
	e.visit(k, "", e.upward)
}

// visit checks op k, bound to e.ops[k], and its operands, then calls cont. via says how the op was reached
// (for the name check): "" for the root and ops reached through users, which checked their names already.
func (e *explainer) visit(k int, via string, cont func() bool) bool {
	pat := e.p.Ops[k]
	o := e.ops[k]
	if via != "" && pat.Name != "" && o.Name() != pat.Name {
		return e.fail(pat.Pos, "%s is defined by %s; the rule wants %s", via, o.Name(), pat.Name)
	}
	d := e.opDesc(o)
	nopd := len(pat.Operands)
	if nopd > 0 && pat.Operands[nopd-1].Kind == rule.OperandList {
		if o.NumOperands() < nopd-1 {
			return e.fail(pat.Pos, "%s has %s; the rule wants at least %d", d,
				plural(o.NumOperands(), "operand", "operands"), nopd-1)
		}
	} else if o.NumOperands() != nopd {
		return e.fail(pat.Pos, "%s has %s; the rule wants %d", d, plural(o.NumOperands(), "operand", "operands"), nopd)
	}
	nres := len(pat.Results)
	if pat.MoreResults {
		if o.NumResults() < nres {
			return e.fail(pat.Pos, "%s has %s; the rule wants at least %d", d,
				plural(o.NumResults(), "result", "results"), nres)
		}
	} else if o.NumResults() != nres {
		return e.fail(pat.Pos, "%s has %s; the rule wants %d", d, plural(o.NumResults(), "result", "results"), nres)
	}
	mark := len(e.trail)
	defer e.undo(mark)
	for _, a := range pat.Attrs {
		switch a.Kind {
		case rule.AttrBind:
			got := o.AttrOrDefault(a.Name)
			switch {
			case got == nil && e.holeSet[a.Hole]:
				return e.fail(pat.Pos, "%s has no attribute %s; the rule wants %s = %s", d, a.Name, e.hole(a.Hole),
					e.showHole(e.holes[a.Hole]))
			case got == nil:
				return e.fail(pat.Pos, "%s has no attribute %s (and no default); the rule binds it to %s", d, a.Name,
					e.hole(a.Hole))
			case !e.bindHole(a.Hole, got):
				return e.fail(pat.Pos, "attribute %s of %s is %s; the rule wants %s = %s", a.Name, d, got,
					e.hole(a.Hole), e.showHole(e.holes[a.Hole]))
			}
		case rule.AttrEquals:
			if got := o.AttrOrDefault(a.Name); got != a.Literal {
				if got == nil {
					return e.fail(pat.Pos, "%s has no attribute %s; the rule wants %s", d, a.Name, a.Literal)
				}
				return e.fail(pat.Pos, "attribute %s of %s is %s; the rule wants %s", a.Name, d, got, a.Literal)
			}
		case rule.AttrPresent:
			if o.Attr(a.Name) == nil {
				return e.fail(pat.Pos, "%s does not carry attribute %s; the rule wants it present", d, a.Name)
			}
		}
	}
	if pat.RestAttrs >= 0 {
		names := make([]string, len(pat.Attrs))
		for i, a := range pat.Attrs {
			names[i] = a.Name
		}
		rest := restAttrs(o, names)
		if !e.bindHole(pat.RestAttrs, rest) {
			return e.fail(pat.Pos, "the other attributes of %s are %s; the rule wants %s = %s", d,
				rule.FormatVal(rest), e.hole(pat.RestAttrs), e.showHole(e.holes[pat.RestAttrs]))
		}
	}
	var bound []int
	defer func() {
		for _, h := range bound {
			e.valSet[h], e.vals[h] = false, nil
		}
	}()
	for i, res := range pat.Results {
		r := o.Result(i)
		switch {
		case res.Value < 0:
			if r.HasUses() {
				return e.fail(pat.Pos, "result %d of %s (%s) has %s (%s); the rule wants none (_)", i, d, e.val(r),
					plural(r.NumUses(), "use", "uses"), e.usersDesc(appendUsers(nil, r)))
			}
		case !e.valSet[res.Value]:
			e.vals[res.Value], e.valSet[res.Value] = r, true
			bound = append(bound, res.Value)
			if !e.typeCheck(res.Value, pat.Pos) {
				return false
			}
		}
	}
	if pat.MoreResults {
		for i := nres; i < o.NumResults(); i++ {
			if r := o.Result(i); r.HasUses() {
				return e.fail(pat.Pos, "result %d of %s (%s) has %s (%s); the rule allows further results only "+
					"when they are unused", i, d, e.val(r), plural(r.NumUses(), "use", "uses"),
					e.usersDesc(appendUsers(nil, r)))
			}
		}
	}
	if !pat.Commutative {
		return e.operands(k, 0, cont)
	}
	if e.operands(k, 0, cont) {
		return true
	}
	e.swap[k] = true
	e.choices = append(e.choices, "operands 0 and 1 of "+d+" swapped")
	ok := e.operands(k, 0, cont)
	e.choices = e.choices[:len(e.choices)-1]
	e.swap[k] = false
	return ok
}

// operands matches operands j.. of op k, then calls cont.
func (e *explainer) operands(k, j int, cont func() bool) bool {
	pat := e.p.Ops[k]
	if j == len(pat.Operands) {
		return cont()
	}
	o := e.ops[k]
	d := e.opDesc(o)
	idx := j
	if pat.Commutative && j < 2 && e.swap[k] {
		idx = 1 - j
	}
	next := func() bool { return e.operands(k, j+1, cont) }
	opnd := pat.Operands[j]
	switch opnd.Kind {
	case rule.OperandAny:
		return next()
	case rule.OperandNull:
		if v := o.Operand(idx); v != nil {
			return e.fail(pat.Pos, "operand %d of %s is %s; the rule wants it absent (null)", idx, d, e.val(v))
		}
		return next()
	case rule.OperandList:
		var l []*ir.Value
		for i := idx; i < o.NumOperands(); i++ {
			l = append(l, o.Operand(i))
		}
		if l == nil {
			l = emptyList
		}
		h := opnd.Value
		if e.valSet[h] {
			if !sameValues(l, e.lists[h]) {
				return e.fail(pat.Pos, "operands %d.. of %s are %s; the rule wants %s... = %s", idx, d, e.valList(l),
					e.hv(h), e.valList(e.lists[h]))
			}
			return next()
		}
		e.lists[h], e.valSet[h] = l, true
		defer func() { e.lists[h], e.valSet[h] = nil, false }()
		if !e.typeCheck(h, pat.Pos) {
			return false
		}
		return next()
	}
	h := opnd.Value
	v := o.Operand(idx)
	if e.valSet[h] {
		if v != e.vals[h] {
			got := "absent"
			if v != nil {
				got = e.val(v)
			}
			return e.fail(pat.Pos, "operand %d of %s is %s; the rule wants %s = %s", idx, d, got, e.hv(h),
				e.val(e.vals[h]))
		}
		return next()
	}
	if v == nil {
		return e.fail(pat.Pos, "operand %d of %s is absent; the rule wants %s", idx, d, e.hv(h))
	}
	hv := e.p.Values[h]
	e.vals[h], e.valSet[h] = v, true
	defer func() { e.vals[h], e.valSet[h] = nil, false }()
	mark := len(e.trail)
	defer e.undo(mark)
	if !e.typeCheck(h, pat.Pos) {
		return false
	}
	if hv.Def < 0 {
		return next()
	}
	dk := hv.Def
	dpat := e.p.Ops[dk]
	want := dpat.Name
	if want == "" {
		want = "an op"
	}
	def := v.DefiningOp()
	if def == nil {
		return e.fail(dpat.Pos, "operand %d of %s is %s, a block argument; the rule wants %s defined by %s", idx, d,
			e.val(v), e.hv(h), want)
	}
	if v.Index() != hv.Result {
		return e.fail(dpat.Pos, "operand %d of %s is result %d of %s; the rule wants result %d (%s)", idx, d,
			v.Index(), e.opDesc(def), hv.Result, e.hv(h))
	}
	for b, set := range e.opSet {
		if set && e.ops[b] == def {
			return e.fail(dpat.Pos, "operand %d of %s is defined by %s, which the match binds to %s already; "+
				"pattern ops bind distinct ops", idx, d, e.opDesc(def), rule.OpName(e.p, b))
		}
	}
	e.ops[dk], e.opSet[dk] = def, true
	defer func() { e.ops[dk], e.opSet[dk] = nil, false }()
	return e.visit(dk, fmt.Sprintf("operand %d of %s", idx, d), next)
}

func sameValues(a, b []*ir.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func (e *explainer) valList(l []*ir.Value) string {
	parts := make([]string, len(l))
	for i, v := range l {
		parts[i] = e.val(v)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// typeCheck checks the type pattern of value hole h (just bound), binding its holes (undone by the caller's mark).
func (e *explainer) typeCheck(h int, pos rule.Pos) bool {
	hv := e.p.Values[h]
	tp := hv.Type
	if tp == nil {
		return true
	}
	if hv.List {
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

func (e *explainer) checkType(tp *rule.TypePattern, v *ir.Value, what string, pos rule.Pos) bool {
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
		if len(tens.Spellings) > 0 && !contains(tens.Spellings, tt.Spelling) {
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

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// upward binds the next op reached through users (nextPivot), or finishes the match.
func (e *explainer) upward() bool {
	k, _, h := nextPivot(e.p, e.opSet, e.valSet)
	if k < 0 {
		return e.finish()
	}
	pat := e.p.Ops[k]
	v := e.vals[h]
	users := appendUsers(nil, v)
	want := pat.Name
	if want == "" {
		want = "an op"
	}
	if len(users) == 0 {
		return e.fail(pat.Pos, "%s (%s) has no users; the rule wants one to be %s", e.hv(h), e.val(v), want)
	}
	for _, u := range users {
		if pat.Name != "" && u.Name() != pat.Name {
			e.fail(pat.Pos, "%s (%s) is used by %s; the rule wants %s", e.hv(h), e.val(v), e.opDesc(u), pat.Name)
			continue
		}
		dup := -1
		for b, set := range e.opSet {
			if set && e.ops[b] == u {
				dup = b
			}
		}
		if dup >= 0 {
			e.fail(pat.Pos, "%s (%s) is used by %s, which the match binds to %s already; pattern ops bind distinct "+
				"ops", e.hv(h), e.val(v), e.opDesc(u), rule.OpName(e.p, dup))
			continue
		}
		e.ops[k], e.opSet[k] = u, true
		e.choices = append(e.choices, rule.OpName(e.p, k)+" = "+e.opDesc(u))
		ok := e.visit(k, "", e.upward)
		e.choices = e.choices[:len(e.choices)-1]
		e.ops[k], e.opSet[k] = nil, false
		if ok {
			return true
		}
	}
	return false
}

// finish checks closure and the where constraints of a complete structural binding.
func (e *explainer) finish() bool {
	for h, hv := range e.p.Values {
		if !isInternal(e.p, h) {
			continue
		}
		v := e.vals[h]
		n := 0
		var outside []*ir.Op
		for u := v.FirstUse(); u != nil; u = u.Next() {
			if !e.bound(u.Owner()) {
				n++
				outside = append(outside, u.Owner())
			}
		}
		if n > 0 {
			return e.fail(hv.Pos, "%s (%s) has %s outside the match (%s)", e.hv(h), e.val(v),
				plural(n, "use", "uses"), e.usersDesc(dedupOps(outside)))
		}
	}
	for _, w := range e.r.Where {
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
	e.tried++
	x := &exec{p: &program{r: e.r, isList: make([]bool, len(e.p.Values))}, ops: e.ops, vals: e.vals,
		lists: e.lists, holes: e.holes, holeSet: e.holeSet}
	for i, v := range e.p.Values {
		x.p.isList[i] = v.List
		x.p.hasLists = x.p.hasLists || v.List
	}
	e.match = &rule.Match{}
	x.fill(e.match)
	e.matchSet = append([]bool(nil), e.holeSet...)
	return true
}

func evalMessage(err error) string {
	if ee, ok := err.(*rule.EvalError); ok {
		return ee.Msg
	}
	return err.Error()
}

func (e *explainer) bound(op *ir.Op) bool {
	for k, set := range e.opSet {
		if set && e.ops[k] == op {
			return true
		}
	}
	return false
}

// dedupOps removes repeated ops and orders them in program order.
func dedupOps(ops []*ir.Op) []*ir.Op {
	var out []*ir.Op
	for _, o := range ops {
		if !contains2(out, o) {
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

func contains2(ops []*ir.Op, o *ir.Op) bool {
	for _, x := range ops {
		if x == o {
			return true
		}
	}
	return false
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

// bindings renders the match.
func (e *explainer) bindings() []Binding {
	var out []Binding
	m := e.match
	for k, o := range m.Ops {
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
		} else {
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

// rule.Env

// Hole implements rule.Env.
func (e *explainer) Hole(i int) (any, bool) {
	if i < 0 || i >= len(e.holes) || !e.holeSet[i] {
		return nil, false
	}
	return e.holes[i], true
}

// Value implements rule.Env.
func (e *explainer) Value(r rule.Ref) *ir.Value {
	if r.New || r.Index < 0 || r.Index >= len(e.vals) || e.p.Values[r.Index].List {
		return nil
	}
	return e.vals[r.Index]
}

// List implements rule.Env.
func (e *explainer) List(r rule.Ref) []*ir.Value {
	if r.New || r.Index < 0 || r.Index >= len(e.vals) || !e.p.Values[r.Index].List {
		return nil
	}
	return e.lists[r.Index]
}

// Builtin implements rule.Env.
func (e *explainer) Builtin(name string, args []rule.Val) (rule.Val, bool, error) {
	return oracleBuiltin(e.oracle, name, args)
}

// Native implements rule.Env.
func (e *explainer) Native(name string, args []rule.Val) (rule.Val, error) {
	return oracleNative(e.oracle, name, args)
}

// Param implements rule.ParamSource: the rule-set parameters the oracle gives (rule.WithParams).
func (e *explainer) Param(name string) (rule.Val, bool) { return rule.OracleParam(e.oracle, name) }
