package drr

import (
	"fmt"
	"strconv"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/internal/suggest"
	"github.com/pirdrr/drr/ir"
)

// ruleChecker checks one instance of a rule (one binding of its family variables) and builds its rule.Rule.
type ruleChecker struct {
	c     *checker
	s     *ruleScratch // the worker's tables and slabs
	ast   *Rule
	bind  binding
	count int // the element count of this instance of a rule with a variadic group (0 without one)
	diags diag.Diagnostics
	// arity is set when the instance failed because a family member's signature does not fit the pattern.
	arity bool

	r *rule.Rule
	p *rule.Pattern
	*ruleMaps
	untyped []untypedCreate
	anon    int
	depth   int // of the expression being checked (rule.MaxExprDepth)
	// resultTypes is set while a rewrite's result types ("-> …") are checked: only they may compute dimensions.
	resultTypes bool
	// partialVal, partialHole and partialOp are what alternatives leave unbound on some path (partials).
	partialVal, partialHole, partialOp map[int]bool
	// guardVal and guardHole count, for each value hole and $hole, the bound(…) calls guarding the expression being
	// checked (check_bound.go): a name some alternatives leave unbound may be used where it is guarded.
	guardVal, guardHole map[int]int
	// users is the rule's users group (`each(min, max) %x` as an operand; language.md §4.10), or nil; inSpread is set
	// while the x of a spread `[x...]` is checked, where its per-element values are single values.
	users    *rule.UsersGroup
	inSpread bool
	// optionals are the groups of alternatives the optional statements made, to be attached to their readers.
	optionals []int
}

// ruleMaps are a rule instance's lookup tables. A worker reuses one set for all its rules, clearing it in between:
// allocating thirteen maps per rule was a tenth of the time to check a large rule file.
type ruleMaps struct {
	values    map[string]int // match value name → index in p.Values
	valuePos  map[int]diag.Position
	holes     map[string]int
	holeUses  map[int]int // mentions in the match
	holeRefs  map[int]bool
	labels    map[string]int
	opPos     map[int]diag.Position
	resultPos map[[2]int]diag.Position // (op, result) → position of the result in the statement
	operandOf map[int]bool             // value holes used as operands by pattern ops
	newValues map[string]int
	replaced  map[int]diag.Position
	erased    map[int]bool
	unusedOK  map[int]bool // values the where clause requires to have no uses
}

func newRuleMaps() *ruleMaps {
	return &ruleMaps{
		values: map[string]int{}, valuePos: map[int]diag.Position{}, holes: map[string]int{},
		holeUses: map[int]int{}, holeRefs: map[int]bool{}, labels: map[string]int{}, opPos: map[int]diag.Position{},
		resultPos: map[[2]int]diag.Position{}, operandOf: map[int]bool{}, newValues: map[string]int{},
		replaced: map[int]diag.Position{}, erased: map[int]bool{}, unusedOK: map[int]bool{},
	}
}

func (m *ruleMaps) reset() {
	clear(m.values)
	clear(m.valuePos)
	clear(m.holes)
	clear(m.holeUses)
	clear(m.holeRefs)
	clear(m.labels)
	clear(m.opPos)
	clear(m.resultPos)
	clear(m.operandOf)
	clear(m.newValues)
	clear(m.replaced)
	clear(m.erased)
	clear(m.unusedOK)
}

func (rc *ruleChecker) errorf(pos diag.Position, format string, args ...any) {
	rc.diags = append(rc.diags, diag.Diagnostic{Pos: pos, Severity: diag.Error, Message: fmt.Sprintf(format, args...)})
}

func (rc *ruleChecker) warnf(pos diag.Position, format string, args ...any) {
	rc.diags = append(rc.diags, diag.Diagnostic{Pos: pos, Severity: diag.Warning, Message: fmt.Sprintf(format, args...)})
}

// arityErrorf reports an operand/result count mismatch; for a family variable op it marks the instance as a
// member that does not fit.
func (rc *ruleChecker) arityErrorf(family bool, pos diag.Position, format string, args ...any) {
	if family {
		rc.arity = true
	}
	rc.errorf(pos, format, args...)
}

func (rc *ruleChecker) check() *rule.Rule {
	a := rc.ast
	rc.r = &rule.Rule{Name: a.Name.Name, Doc: a.Doc.Text(), Pos: a.Name.span().Pos()}
	if len(a.Fors) > 0 {
		rc.r.Instance = instanceID(rc.bind, a.Fors)
	}
	if rc.count > 0 {
		rc.r.Instance = "n=" + strconv.Itoa(rc.count)
	}
	rc.p = &rule.Pattern{}
	rc.r.Pattern = rc.p
	rc.s.maps.reset()
	rc.ruleMaps = rc.s.maps
	rc.users, rc.inSpread = nil, false

	rc.pattern(a.Match)
	rc.usersGroup()
	rc.shareConstants()
	if n := rule.PathCount(rc.p); n > rule.MaxPaths {
		rc.errorf(a.Match.Pos(), "the alternatives of this pattern make more than %d ways to match it (each is planned apart): split the rule", rule.MaxPaths)
		return rc.r
	}
	rc.partials()
	if hasErrors(rc.diags) {
		// The where clause and the rewrite refer to the pattern; checking them against a broken one only adds noise.
		// Only the names they use that nothing binds are reported: an unknown op must not hide an unbound %bias.
		rc.unboundNames(a.Match, a.Where, a.Rewrite)
		return rc.r
	}
	if a.Where != nil {
		rc.where(a.Where)
	}
	rc.elemWhere()
	rc.rewrite(a.Rewrite)
	rc.typesFromReplacements()
	if a.Benefit != nil {
		n, err := strconv.Atoi(a.Benefit.Value.Text)
		if err != nil || n < 0 {
			rc.errorf(a.Benefit.Pos(), "benefit must be a non-negative integer")
		}
		rc.r.Benefit = n
	} else {
		// The ops a match binds: with alternatives, those of the largest path.
		for _, pr := range rule.Paths(rc.r) {
			rc.r.Benefit = max(rc.r.Benefit, len(pr.Pattern.Ops))
		}
	}
	if len(rc.p.Alts) > 0 && !hasErrors(rc.diags) && len(rule.Paths(rc.r)) == 0 {
		rc.errorf(a.Pos(), "the rule never matches: its bound(…) constraints are false on every path through the alternatives")
	}
	if !hasErrors(rc.diags) {
		rc.lint()
	}
	return rc.r
}

// shareConstants marks the constant-like pattern ops — no operands, an op kind with the catalog's ConstantLike
// trait (pd_op.full, pd_op.full_int_array, builtin.constant) — as matching by value (rule.OpPattern.Constant,
// language.md §8.1), and exempts their results from the closure check: a constant computes the same value for
// every reader, so another reader outside the match cannot observe the rewrite, and the driver keeps the constant
// while it has readers. Paddle's programs share constants between ops (one full_int_array feeds the q, k and v
// reshapes of every attention layer; half of the GraphNet corpus's constants have several readers) and programs
// built op by op do not, so a pattern that names a constant's value — an attention's reshape shape, an rms_norm's
// epsilon — matches both: written inline twice or named once, it binds one program op or several equal ones.
func (rc *ruleChecker) shareConstants() {
	for _, op := range rc.p.Ops {
		if op == nil || len(op.Operands) > 0 {
			continue
		}
		if s := rc.c.ctx.Schema(op.Name); s != nil && s.Has(ir.ConstantLike) && len(s.Operands) == 0 {
			op.Constant = true
		}
	}
	for _, v := range rc.p.Values {
		if v == nil || v.Def < 0 || v.Def >= len(rc.p.Ops) || rc.p.Ops[v.Def] == nil {
			continue
		}
		if rc.p.Ops[v.Def].Constant {
			v.Shared = true
		}
	}
}

// ---------------------------------------------------------------------------
// Holes and values

func (rc *ruleChecker) hole(name string, kind rule.HoleKind, t ir.AttrType, pos diag.Position) int {
	if i, ok := rc.holes[name]; ok {
		h := rc.p.Holes[i]
		if h.Kind != kind {
			rc.errorf(pos, "$%s is %s here but %s at %s", name, article(holeKindName(kind)), article(holeKindName(h.Kind)), h.Pos)
		} else if kind == rule.HoleAttr && h.Type.Kind != ir.KindAny && t.Kind != ir.KindAny && h.Type != t {
			rc.errorf(pos, "$%s binds %s here but %s at %s: the two can never be equal", name, article(t.String()), article(h.Type.String()), h.Pos)
		}
		rc.holeUses[i]++
		return i
	}
	if p, isParam := rc.c.params[name]; isParam {
		rc.errorf(pos, "$%s is a parameter of the rule set (declared at %s); a pattern cannot bind it: bind another hole and compare it with $%s in the where clause",
			name, p.ast.Pos(), name)
	}
	i := len(rc.p.Holes)
	rc.p.Holes = append(rc.p.Holes, newNode(&rc.s.nodes.hole, rule.Hole{Name: name, Kind: kind, Type: t, Pos: pos}))
	rc.holes[name] = i
	rc.holeUses[i] = 1
	return i
}

func holeKindName(k rule.HoleKind) string {
	switch k {
	case rule.HoleAttrs:
		return "list of attributes"
	case rule.HoleDim:
		return "dimension"
	case rule.HoleDType:
		return "dtype"
	case rule.HoleType:
		return "type"
	}
	return "attribute"
}

// value returns the index of the match value named name, creating it (an input, until a statement binds it).
func (rc *ruleChecker) value(name string, pos diag.Position) int {
	if i, ok := rc.values[name]; ok {
		return i
	}
	i := len(rc.p.Values)
	rc.p.Values = append(rc.p.Values, newNode(&rc.s.nodes.valueHole, rule.ValueHole{Name: name, Def: -1, Pos: pos}))
	rc.values[name] = i
	rc.valuePos[i] = pos
	return i
}

func (rc *ruleChecker) anonValue(pos diag.Position) int {
	rc.anon++
	return rc.value(anonName(rc.anon), pos)
}

// ---------------------------------------------------------------------------
// Match block

func (rc *ruleChecker) pattern(m *MatchBlock) {
	if len(m.Stmts) == 0 {
		rc.errorf(m.Pos(), "empty match block")
		return
	}
	// Pass 1: the values each statement binds, so operands may refer to values bound later.
	type boundResult struct {
		stmt, res int
	}
	bound := map[int]boundResult{}
	for si, st := range m.Stmts {
		for ri, r := range st.Results {
			if r.Kind != ResultValue {
				continue
			}
			if r.Spread {
				rc.errorf(r.Pos(), "%%%s... binds every result of an op the rewrite creates; a match names its results one by one", r.Name)
			}
			v := rc.value(r.Name, r.Pos())
			if prev, dup := bound[v]; dup {
				rc.errorf(r.Pos(), "%%%s is bound twice (also by statement %d)", r.Name, prev.stmt+1)
				continue
			}
			bound[v] = boundResult{si, ri}
		}
		if st.Label != nil {
			if _, dup := rc.labels[st.Label.Name]; dup {
				rc.errorf(st.Label.Pos(), "@%s is used twice", st.Label.Name)
			}
			rc.labels[st.Label.Name] = -1
		}
	}
	// Pass 2: the op patterns, producers (nested ops) before their consumers.
	stmtOp := make([]int, len(m.Stmts))
	for si, st := range m.Stmts {
		if st.Optional {
			// Its value is the group's, bound by whichever alternative is taken: no op defines it.
			stmtOp[si] = -1
			if len(st.Results) == 1 && st.Results[0].Kind == ResultValue && len(st.Op.Operands) > 0 {
				rc.optionalStmt(st, rc.value(st.Results[0].Name, st.Results[0].Pos()))
			}
			continue
		}
		k := rc.opPattern(st.Op, st.Results, true)
		stmtOp[si] = k
		if st.Label != nil && k >= 0 {
			rc.labels[st.Label.Name] = k
			rc.p.Ops[k].Label = st.Label.Name
		}
	}
	for v, b := range bound {
		if k := stmtOp[b.stmt]; k >= 0 {
			rc.p.Values[v].Def = k
			rc.p.Values[v].Result = b.res
		}
	}
	rc.readOptionals()
	if hasErrors(rc.diags) {
		return
	}
	// Cycles: an op must not consume its own (transitive) result.
	rc.checkAcyclic()
	rc.p.Root = rc.chooseRoot()
	rc.checkConnected()
}

// opPattern translates one op pattern (and its nested operands); it returns the op's index, or -1.
func (rc *ruleChecker) opPattern(op *OpPattern, results []*Result, top bool) int {
	name, family, ok := rc.resolveOp(op.Name)
	if !ok {
		return -1
	}
	schema := rc.c.ctx.Schema(name)
	p := newNode(&rc.s.nodes.opPattern, rule.OpPattern{Name: name, RestAttrs: -1, Pos: op.span().Pos()})

	// Operands (nested ops first, so producers precede consumers in Ops).
	operands, commutative := flattenEither(op.Operands)
	if commutative && (len(operands) < 2 || !isEitherFirst(op.Operands)) {
		rc.errorf(op.Pos(), "either(…) must wrap the first two operands of %s", name)
	}
	p.Commutative = commutative
	p.Operands = make([]rule.OperandPattern, 0, len(operands))
	sigIn := []TypePattern(nil)
	if op.Sig != nil {
		sigIn = op.Sig.Inputs
	}
	list := false
	for i, o := range operands {
		var t TypePattern
		if i < len(sigIn) {
			if _, any := sigIn[i].(*AnyTypes); any {
				sigIn = nil
			} else {
				t = sigIn[i]
			}
		}
		switch o := o.(type) {
		case *ValueOperand:
			v := rc.value(o.Name, o.Pos())
			rc.operandOf[v] = true
			rc.setType(v, o.Type, o.Pos())
			rc.setType(v, t, o.Pos())
			p.Operands = append(p.Operands, rule.OperandPattern{Kind: rule.OperandValue, Value: v})
		case *VariadicOperand:
			if i != len(operands)-1 {
				rc.errorf(o.Pos(), "%%%s... must be the last operand", o.Name)
			}
			v := rc.value(o.Name, o.Pos())
			rc.p.Values[v].List = true
			rc.operandOf[v] = true
			list = true
			p.Operands = append(p.Operands, rule.OperandPattern{Kind: rule.OperandList, Value: v})
		case *WildcardOperand:
			p.Operands = append(p.Operands, rule.OperandPattern{Kind: rule.OperandAny})
		case *NullOperand:
			if schema != nil && i < len(schema.Operands) && !schema.Operands[i].Optional && !schema.Operands[i].Variadic {
				rc.errorf(o.Pos(), "operand %d (%s) of %s is not optional, so it is never absent", i, schema.Operands[i].Name, name)
			}
			p.Operands = append(p.Operands, rule.OperandPattern{Kind: rule.OperandNull})
		case *CombineOperand:
			v := rc.combine(o)
			rc.operandOf[v] = true
			rc.setType(v, t, o.Pos())
			p.Operands = append(p.Operands, rule.OperandPattern{Kind: rule.OperandValue, Value: v})
		case *OpPattern:
			v := rc.nestedOp(o, t)
			if v < 0 {
				return -1
			}
			p.Operands = append(p.Operands, rule.OperandPattern{Kind: rule.OperandValue, Value: v})
		case *EachOperand:
			// expandEach let only a users group through: a statement's operand each(min, max) %x.
			vo := o.Elem.(*ValueOperand)
			v := rc.value(vo.Name, vo.Pos())
			rc.operandOf[v] = true
			rc.setType(v, vo.Type, vo.Pos())
			rc.setType(v, t, vo.Pos())
			rc.users = &rule.UsersGroup{Operand: len(p.Operands), Value: v, Min: o.Min, Max: o.Max, Pos: o.span().Pos()}
			p.Operands = append(p.Operands, rule.OperandPattern{Kind: rule.OperandValue, Value: v})
		case *EitherOperand:
			rc.errorf(o.Pos(), "either(…) cannot be nested")
		case *AltOperand:
			v, ok := rc.alternatives(o, len(p.Operands))
			if !ok {
				return -1
			}
			rc.setType(v, t, o.Pos())
			p.Operands = append(p.Operands, rule.OperandPattern{Kind: rule.OperandAlt, Value: v, Alt: len(rc.p.Alts) - 1})
		}
	}
	// An op with the Commutative trait matches its first two operands in either order, as if written either(…).
	if !p.Commutative && schema != nil && schema.Has(ir.Commutative) && len(p.Operands) >= 2 &&
		p.Operands[0].Kind != rule.OperandList && p.Operands[1].Kind != rule.OperandList {
		p.Commutative = true
	}
	if schema != nil {
		n := len(p.Operands)
		fits := schema.OperandCountOK(n)
		if list {
			fits = n-1 <= len(schema.Operands) || schema.IsVariadic()
		}
		if !fits {
			rc.arityErrorf(family, op.Pos(), "%s takes %s; the pattern gives %d", name, operandCount(schema), n)
		}
	}

	// Results.
	k := len(rc.p.Ops)
	rc.p.Ops = append(rc.p.Ops, p)
	for j, o := range p.Operands {
		if o.Kind == rule.OperandAlt {
			rc.p.Alts[o.Alt].Op, rc.p.Alts[o.Alt].Operand = k, j
		}
	}
	rc.opPos[k] = op.Pos()
	if top {
		rc.results(p, k, results, schema, name, family, op)
	} else {
		// A nested op gives its consumer its first result; any others must be unused.
		p.Results = []rule.ResultPattern{{Value: -1}} // set by the consumer to its anonymous operand value
		p.MoreResults = true
		if schema != nil && len(schema.Results) == 0 {
			rc.errorf(op.Pos(), "%s has no result to use as an operand", name)
		}
	}

	// Attributes.
	if op.Attrs != nil {
		rc.matchAttrs(p, op.Attrs, schema, name)
	}
	// Result types from the signature.
	if op.Sig != nil && top {
		for i, t := range op.Sig.Outputs {
			if _, any := t.(*AnyTypes); any {
				break
			}
			if i < len(p.Results) && p.Results[i].Value >= 0 {
				rc.setType(p.Results[i].Value, t, t.Pos())
			}
		}
	}
	return k
}

func flattenEither(ops []Operand) ([]Operand, bool) {
	var out []Operand
	either := false
	for _, o := range ops {
		if e, ok := o.(*EitherOperand); ok {
			either = true
			out = append(out, e.Operands...)
			continue
		}
		out = append(out, o)
	}
	return out, either
}

func isEitherFirst(ops []Operand) bool {
	if len(ops) == 0 {
		return false
	}
	e, ok := ops[0].(*EitherOperand)
	return ok && len(e.Operands) == 2
}

func operandCount(s *ir.OpSchema) string {
	n := len(s.Operands)
	if s.IsVariadic() {
		return fmt.Sprintf("at least %d operands", n-1)
	}
	if n == 1 {
		return "1 operand"
	}
	return fmt.Sprintf("%d operands", n)
}

func resultCount(s *ir.OpSchema) string {
	n := len(s.Results)
	if n == 1 {
		return "1 result"
	}
	return fmt.Sprintf("%d results", n)
}

// nestedOp checks an op pattern written as an operand (of type pattern t, nil for none) and returns the anonymous
// value of its first result, or -1.
func (rc *ruleChecker) nestedOp(o *OpPattern, t TypePattern) int {
	k := rc.opPattern(o, nil, false)
	if k < 0 {
		return -1
	}
	v := rc.anonValue(o.Pos())
	rc.p.Values[v].Def = k
	rc.p.Values[v].Result = 0
	rc.p.Ops[k].Results[0].Value = v
	rc.resultPos[[2]int{k, 0}] = o.Pos()
	rc.operandOf[v] = true
	rc.setType(v, t, o.Pos())
	if o.Sig != nil && len(o.Sig.Outputs) == 1 {
		if _, any := o.Sig.Outputs[0].(*AnyTypes); !any {
			rc.setType(v, o.Sig.Outputs[0], o.Sig.Outputs[0].Pos())
		}
	}
	return v
}

// combine translates [a, b, …] in a match into a builtin.combine op pattern; it returns the vector value.
func (rc *ruleChecker) combine(o *CombineOperand) int {
	p := newNode(&rc.s.nodes.opPattern, rule.OpPattern{Name: "builtin.combine", RestAttrs: -1, Pos: o.span().Pos()})
	for i, e := range o.Elems {
		switch e := e.(type) {
		case *ValueOperand:
			v := rc.value(e.Name, e.Pos())
			rc.operandOf[v] = true
			rc.setType(v, e.Type, e.Pos())
			p.Operands = append(p.Operands, rule.OperandPattern{Kind: rule.OperandValue, Value: v})
		case *VariadicOperand:
			if i != len(o.Elems)-1 {
				rc.errorf(e.Pos(), "%%%s... must be the last element", e.Name)
			}
			v := rc.value(e.Name, e.Pos())
			rc.p.Values[v].List = true
			rc.operandOf[v] = true
			p.Operands = append(p.Operands, rule.OperandPattern{Kind: rule.OperandList, Value: v})
		case *WildcardOperand:
			p.Operands = append(p.Operands, rule.OperandPattern{Kind: rule.OperandAny})
		case *OpPattern:
			// The elements of a variadic group, written out (check_each.go), or an op pattern written in the list.
			v := rc.nestedOp(e, nil)
			if v < 0 {
				continue
			}
			p.Operands = append(p.Operands, rule.OperandPattern{Kind: rule.OperandValue, Value: v})
		default:
			rc.errorf(e.Pos(), "a combine list holds values (%%x, %%xs..., _) or op patterns")
		}
	}
	k := len(rc.p.Ops)
	rc.p.Ops = append(rc.p.Ops, p)
	rc.opPos[k] = o.Pos()
	v := rc.anonValue(o.Pos())
	rc.p.Values[v].Def = k
	p.Results = []rule.ResultPattern{{Value: v}}
	return v
}

// resolveOp returns the full op name a pattern or rewrite names, and whether it is a family variable.
func (rc *ruleChecker) resolveOp(n *OpName) (string, bool, bool) {
	if n.IsBare() {
		m, ok := rc.bind[n.Name]
		if !ok {
			rc.errorf(n.Pos(), "%s is not a family variable of this rule (ops are written with their dialect: pd_op.%s)", n.Name, n.Name)
			return "", false, false
		}
		return m, true, true
	}
	if rc.c.ctx.Schema(n.Name) == nil && !rc.c.opts.Unregistered {
		rc.errorf(n.Pos(), "unknown op %s%s", n.Name, rc.c.suggestOp(n.Name))
		return "", false, false
	}
	return n.Name, false, true
}

// results binds the results written in a statement.
func (rc *ruleChecker) results(p *rule.OpPattern, k int, results []*Result, schema *ir.OpSchema, name string, family bool, op *OpPattern) {
	for i, r := range results {
		switch r.Kind {
		case ResultValue:
			v := rc.values[r.Name]
			p.Results = append(p.Results, rule.ResultPattern{Value: v})
			rc.resultPos[[2]int{k, len(p.Results) - 1}] = r.Pos()
		case ResultWildcard:
			p.Results = append(p.Results, rule.ResultPattern{Value: -1})
			rc.resultPos[[2]int{k, len(p.Results) - 1}] = r.Pos()
		case ResultEllipsis:
			if i != len(results)-1 {
				rc.errorf(r.Pos(), "... must come last among the results")
			}
			p.MoreResults = true
		}
	}
	if schema == nil {
		return
	}
	n := len(p.Results)
	switch {
	case p.MoreResults:
		if n > len(schema.Results) && !schema.IsVariadic() {
			rc.arityErrorf(family, op.Pos(), "%s has %s; the pattern binds %d", name, resultCount(schema), n)
		}
	case len(results) == 0:
		// A statement without results: every result must be unused.
		p.MoreResults = true
	case schema.ResultCountOK(n):
		if n < len(schema.Results) {
			p.MoreResults = true // the optional results left out must be unused
		}
	default:
		rc.arityErrorf(family, op.Pos(), "%s has %s; the pattern binds %d (write ... after the results to ignore the rest)", name, resultCount(schema), n)
	}
}

// setType attaches a type pattern to a value hole.
func (rc *ruleChecker) setType(v int, t TypePattern, pos diag.Position) {
	if t == nil {
		return
	}
	tp := rc.typePattern(t)
	if tp == nil {
		return
	}
	h := rc.p.Values[v]
	if h.Type != nil && rule.FormatType(rc.p, h.Type) != rule.FormatType(rc.p, tp) {
		rc.errorf(pos, "%%%s is given two different types", h.Name)
		return
	}
	h.Type = tp
}

// typePattern translates a type pattern; nil means "any type".
func (rc *ruleChecker) typePattern(t TypePattern) *rule.TypePattern {
	ctx := rc.c.ctx
	switch t := t.(type) {
	case *AnyType, *AnyTypes:
		return nil
	case *NullType:
		return &rule.TypePattern{Exact: ctx.NullType(), Hole: -1}
	case *NamedType:
		d, ok := ir.DTypeFromText(t.Name)
		if !ok {
			rc.errorf(t.Pos(), "unknown type %s", t.Name)
			return nil
		}
		return &rule.TypePattern{Exact: ctx.Scalar(d), Hole: -1}
	case *HoleType:
		return &rule.TypePattern{Hole: rc.hole(t.Name, rule.HoleType, ir.AttrType{}, t.Pos())}
	case *TensorType:
		tp := &rule.TensorPattern{DTypeHole: -1}
		switch t.Name {
		case "tensor":
			tp.Spellings = []string{ir.DenseTensor, ir.LegacyTensor, ir.BareTensor}
		case "v_tensor", ir.ValueTensor:
			tp.Spellings = []string{ir.ValueTensor}
		case "pd_op.tensor_array", "pd_op.selectedrows":
			rc.errorf(t.Pos(), "%s type patterns are not supported; use $t to bind the type", t.Name)
			return nil
		default:
			tp.Spellings = []string{t.Name}
		}
		stars := 0
		for _, d := range t.Dims {
			switch d.Kind {
			case DimInt:
				n, err := strconv.ParseInt(d.Text, 10, 64)
				if err != nil || n < -1 {
					rc.errorf(d.Pos(), "bad dimension %s", d.Text)
				}
				tp.Dims = append(tp.Dims, rule.DimPattern{Kind: rule.DimExact, Value: n})
			case DimAny:
				tp.Dims = append(tp.Dims, rule.DimPattern{Kind: rule.DimAny})
			case DimHole:
				tp.Dims = append(tp.Dims, rule.DimPattern{Kind: rule.DimHole, Hole: rc.hole(d.Text, rule.HoleDim, ir.AttrType{}, d.Pos())})
			case DimStar:
				stars++
				if stars > 1 {
					rc.errorf(d.Pos(), "* may appear once in a tensor type")
				}
				tp.Dims = append(tp.Dims, rule.DimPattern{Kind: rule.DimRest})
			case DimExpr:
				if !rc.resultTypes {
					rc.errorf(d.Pos(), "a dimension expression computes a result type after ->; a match binds the "+
						"dimension to a hole ($d) and constrains it in where")
					continue
				}
				x, st := rc.expr(d.Expr, exprScope{})
				if st != stInt && st != stAny {
					rc.errorf(d.Pos(), "a dimension must be an integer; this expression is %s", st)
				}
				tp.Dims = append(tp.Dims, rule.DimPattern{Kind: rule.DimExpr, Expr: x})
			}
		}
		if t.Dtype != nil {
			switch t.Dtype.Kind {
			case DtypeScalar:
				d, ok := ir.DTypeFromText(t.Dtype.Name)
				if !ok {
					rc.errorf(t.Dtype.Pos(), "unknown element type %s", t.Dtype.Name)
				}
				tp.DType = d
			case DtypeHole:
				tp.DTypeHole = rc.hole(t.Dtype.Name, rule.HoleDType, ir.AttrType{}, t.Dtype.Pos())
			case DtypeAny:
				tp.AnyDType = true
			}
		} else {
			tp.AnyDType = true
		}
		return &rule.TypePattern{Tensor: tp, Hole: -1}
	case *VecType:
		elems := make([]ir.Type, 0, len(t.Elems))
		for _, e := range t.Elems {
			et := rc.concreteType(e)
			if et == nil {
				rc.errorf(e.Pos(), "vec[…] type patterns must be concrete; use $t to bind the type")
				return nil
			}
			elems = append(elems, et)
		}
		return &rule.TypePattern{Exact: ctx.Vector(elems...), Hole: -1}
	case *TypeOf:
		rc.errorf(t.Pos(), "type(%%%s) is for result types of a rewrite", t.Value)
		return nil
	}
	return nil
}

// concreteType returns the ir.Type a fully concrete type pattern denotes, or nil.
func (rc *ruleChecker) concreteType(t TypePattern) ir.Type {
	ctx := rc.c.ctx
	switch t := t.(type) {
	case *NamedType:
		if d, ok := ir.DTypeFromText(t.Name); ok {
			return ctx.Scalar(d)
		}
	case *NullType:
		return ctx.NullType()
	case *TensorType:
		if t.Dtype == nil || t.Dtype.Kind != DtypeScalar || t.Name == "tensor" {
			return nil
		}
		dims := make([]int64, 0, len(t.Dims))
		for _, d := range t.Dims {
			if d.Kind != DimInt {
				return nil
			}
			n, err := strconv.ParseInt(d.Text, 10, 64)
			if err != nil {
				return nil
			}
			dims = append(dims, n)
		}
		dt, ok := ir.DTypeFromText(t.Dtype.Name)
		if !ok {
			return nil
		}
		name := t.Name
		if name == "v_tensor" {
			name = ir.ValueTensor
		}
		return ctx.Tensor(name, dims, ctx.Scalar(dt))
	case *VecType:
		var elems []ir.Type
		for _, e := range t.Elems {
			et := rc.concreteType(e)
			if et == nil {
				return nil
			}
			elems = append(elems, et)
		}
		return ctx.Vector(elems...)
	}
	return nil
}

// listsAttr reports whether entries list the attribute name. Ops have few attributes: a scan beats a map.
func listsAttr(entries []*AttrEntry, name string) bool {
	for _, e := range entries {
		if e.Key.Name == name {
			return true
		}
	}
	return false
}

// matchAttrs translates the attribute map of an op pattern.
func (rc *ruleChecker) matchAttrs(p *rule.OpPattern, m *AttrMap, schema *ir.OpSchema, name string) {
	p.Attrs = make([]rule.AttrPattern, 0, len(m.Entries))
	for i, e := range m.Entries {
		key := e.Key.Name
		if listsAttr(m.Entries[:i], key) {
			rc.errorf(e.Key.Pos(), "attribute %s is listed twice", key)
			continue
		}
		spec := rc.attrSpec(schema, name, key, e.Key.Pos())
		t := ir.AttrType{Kind: ir.KindAny}
		if spec != nil {
			t = spec.Type
		}
		switch v := e.Value.(type) {
		case *HoleExpr:
			h := rc.hole(v.Name, rule.HoleAttr, t, v.Pos())
			p.Attrs = append(p.Attrs, rule.AttrPattern{Name: key, Kind: rule.AttrBind, Hole: h})
		case *WildcardExpr:
			p.Attrs = append(p.Attrs, rule.AttrPattern{Name: key, Kind: rule.AttrPresent})
		default:
			a, err := rc.literalAttr(e.Value, t)
			if err != nil {
				rc.errorf(e.Value.Pos(), "attribute %s of %s: %v", key, name, err)
				continue
			}
			p.Attrs = append(p.Attrs, rule.AttrPattern{Name: key, Kind: rule.AttrEquals, Literal: a})
		}
	}
	if m.Rest != nil {
		p.RestAttrs = rc.hole(m.Rest.Name, rule.HoleAttrs, ir.AttrType{}, m.Rest.Pos())
	}
}

// attrSpec returns the schema's spec of an attribute, reporting unknown attributes of registered ops.
func (rc *ruleChecker) attrSpec(schema *ir.OpSchema, name, key string, pos diag.Position) *ir.AttrSpec {
	if schema == nil || commonAttrs[key] {
		return nil
	}
	spec := schema.Attr(key)
	if spec == nil {
		rc.errorf(pos, "%s has no attribute %s%s", name, key, suggestAttr(schema, key))
	}
	return spec
}

func suggestAttr(s *ir.OpSchema, key string) string {
	if i := s.OperandIndex(key); i >= 0 {
		// Paddle's yaml attribute that PIR made an operand (mean's axis, reshape's shape, scale's scale).
		how := "write it among the operands"
		switch s.Operands[i].Mutable {
		case ir.KindIntArray:
			how += ", e.g. pd_op.full_int_array() {value: [-1]}"
		case ir.KindScalar:
			how += ", e.g. pd_op.full() {shape: [1], value: 1.0}"
		}
		attrs := "none"
		if len(s.Attrs) > 0 {
			names := make([]string, len(s.Attrs))
			for i, a := range s.Attrs {
				names[i] = a.Name
			}
			attrs = joinNames(names)
		}
		return fmt.Sprintf(": %s is operand %d of %s (%s); its attributes are %s", key, i, s.Name, how, attrs)
	}
	best, bestD := "", 3
	for _, a := range s.Attrs {
		if d := suggest.Distance(key, a.Name); d < bestD {
			best, bestD = a.Name, d
		}
	}
	if best == "" {
		if len(s.Attrs) == 0 {
			return " (it has none)"
		}
		names := make([]string, len(s.Attrs))
		for i, a := range s.Attrs {
			names[i] = a.Name
		}
		return " (it has " + joinNames(names) + ")"
	}
	return " (did you mean " + best + "?)"
}

func joinNames(names []string) string {
	s := ""
	for i, n := range names {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

// checkAcyclic reports a pattern whose ops consume their own results.
func (rc *ruleChecker) checkAcyclic() {
	state := make([]int, len(rc.p.Ops)) // 0 new, 1 visiting, 2 done
	// An optional statement's value is no op's result: reading it reads its branches' values.
	stands := map[int][]int{}
	for _, a := range rc.p.Alts {
		if a.Statement {
			for _, br := range a.Branches {
				stands[a.Value] = append(stands[a.Value], br.Value)
			}
		}
	}
	var visit func(k int) bool
	var reads func(h, depth int) bool
	reads = func(h, depth int) bool {
		if d := rc.p.Values[h].Def; d >= 0 && !visit(d) {
			return false
		}
		for _, w := range stands[h] {
			if w == h || depth > len(rc.p.Alts) || !reads(w, depth+1) {
				return false
			}
		}
		return true
	}
	visit = func(k int) bool {
		if state[k] == 1 {
			return false
		}
		if state[k] == 2 {
			return true
		}
		state[k] = 1
		for _, o := range rc.p.Ops[k].Operands {
			for _, h := range rc.p.Reads(o) {
				if !reads(h, 0) {
					return false
				}
			}
		}
		state[k] = 2
		return true
	}
	for k := range rc.p.Ops {
		if !visit(k) {
			rc.errorf(rc.opPos[k], "the pattern is cyclic: %s consumes its own result", rc.p.Ops[k].Name)
			return
		}
	}
}

// chooseRoot picks the op the matcher starts from: among the ops whose results no pattern op uses, the last one
// written (the output of the last statement).
func (rc *ruleChecker) chooseRoot() int {
	used := make([]bool, len(rc.p.Ops))
	for _, p := range rc.p.Ops {
		for _, o := range p.Operands {
			for _, h := range rc.p.Reads(o) {
				if d := rc.p.Values[h].Def; d >= 0 {
					used[d] = true
				}
			}
		}
	}
	root := len(rc.p.Ops) - 1
	for k := len(rc.p.Ops) - 1; k >= 0; k-- {
		if !used[k] {
			return k
		}
	}
	return root
}

// checkConnected reports ops that share no value with the rest of the pattern (the matcher could not find them).
func (rc *ruleChecker) checkConnected() {
	n := len(rc.p.Ops)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	union := func(a, b int) { parent[find(a)] = find(b) }
	userOf := map[int][]int{}
	for k, p := range rc.p.Ops {
		for _, o := range p.Operands {
			for _, h := range rc.p.Reads(o) {
				if d := rc.p.Values[h].Def; d >= 0 {
					union(k, d)
				}
				userOf[h] = append(userOf[h], k)
			}
		}
	}
	for _, users := range userOf {
		for _, u := range users[1:] {
			union(users[0], u)
		}
	}
	root := find(rc.p.Root)
	for k := range rc.p.Ops {
		if find(k) != root {
			rc.errorf(rc.opPos[k], "%s shares no value with the rest of the pattern", rc.p.Ops[k].Name)
		}
	}
}

// unboundNames reports the values and holes the where clause and the rewrite use that the match does not bind (nor,
// for values, an earlier statement of the rewrite define), for a rule whose pattern has errors.
func (rc *ruleChecker) unboundNames(match *MatchBlock, where *WhereBlock, rewrite *RewriteBlock) {
	if match == nil || len(match.Stmts) == 0 {
		return // nothing is bound: every name would be reported
	}
	// The names the match writes, including those of the ops it could not check.
	defined, holes := map[string]bool{}, map[string]bool{}
	{
		Inspect(match, func(n Node) bool {
			switch n := n.(type) {
			case *Result:
				defined[n.Name] = true
			case *ValueOperand:
				defined[n.Name] = true
			case *VariadicOperand:
				defined[n.Name] = true
			case *HoleExpr:
				holes[n.Name] = true
			case *HoleType:
				holes[n.Name] = true
			case *RestAttrs:
				holes[n.Name] = true
			case *Dim:
				if n.Kind == DimHole {
					holes[n.Text] = true
				}
			case *Dtype:
				if n.Kind == DtypeHole {
					holes[n.Name] = true
				}
			}
			return true
		})
	}
	scan := func(n Node, rewrite bool) {
		Inspect(n, func(n Node) bool {
			switch n := n.(type) {
			case *ValueExpr:
				if _, ok := rc.values[n.Name]; !ok && !defined[n.Name] {
					rc.valueRef(n.Name, n.Pos(), !rewrite)
				}
			case *HoleExpr:
				if _, ok := rc.holes[n.Name]; !ok && !holes[n.Name] {
					rc.paramRef(n, n.span().Pos())
				}
			}
			return true
		})
	}
	if where != nil {
		for _, e := range where.Constraints {
			scan(e, false)
		}
	}
	if rewrite == nil {
		return
	}
	for _, st := range rewrite.Stmts {
		scan(st, true)
		if as, ok := st.(*AssignStmt); ok {
			for _, r := range as.Results {
				if r.Kind == ResultValue {
					defined[r.Name] = true
				}
			}
		}
	}
}
