package paddle

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/matcher"
)

// A rule becomes one class per choice of its plan's ChooseSwap instructions (Paddle has no commutativity: each
// operand order is a pattern of its own, as Paddle's own passes register reverse_add twins). The source pattern
// is printed from the plan, one case per instruction: the op's name and arity, its attributes (a $hole bound the
// first time becomes pat.Attr, a check of a bound hole or of a literal a fresh attribute and a constraint), its
// results and operands, and the checks that Paddle's API has no form for as AddConstraint lambdas. The ops are then
// printed producers first, as Paddle's own passes write them.

// class is one generated pattern class.
type class struct {
	name   string
	params []string // the rule set parameters it takes, in declaration order
	code   string
}

// srcOp is a pattern op as the plan describes it.
type srcOp struct {
	name     string
	varName  string
	attrs    [][2]string // (IR attribute, pattern attribute) in plan order
	operands []string    // tensor names; "" for a null operand
	results  []string
}

// pattern is the printing of one class.
type pattern struct {
	g       *gen
	r       *rule.Rule
	p       *rule.Pattern
	plan    *matcher.Plan
	swapped []bool // per op, whether operands 0 and 1 are swapped in this class
	ops     []*srcOp
	names   map[string]bool // tensor and attribute names in use
	// holeAttr is, per $hole, the pattern attribute it is bound to and the op and attribute it was read from.
	holeAttr []string
	holeFrom [][2]string
	cons     []constraint
	params   map[string]bool
	ok       bool
	notes    []string // differences from drrc's matching, printed with the class
	defs     [][3]int // (op, result, value) of the plan's BindDef instructions
	vars     varNames
	tensors  []string // per value hole, its tensor name (tensor)
	// cut marks the constant ops matched by value: left out of Paddle's pattern, their result a pattern input
	// and their name and attributes checked on its defining op (cut.go).
	cut     []bool
	holeCut []string // per $hole bound by a cut op, the tensor that op defines
	folded  map[*rule.Create]foldedShape
}

// constraint is one AddConstraint lambda: its C++ condition and the source it comes from.
type constraint struct {
	pre           string // a statement before the return
	cond, comment string
	this          bool // it reads a parameter member
}

// rule generates the classes of rule r (one per operand order of its commutative ops).
func (g *gen) rule(r *rule.Rule, pl *matcher.Plan) ([]*class, bool) {
	if r.Benefit < 0 {
		g.refuse(r, r.Pos, "its benefit %d is negative (Paddle's benefit is a uint32_t)", r.Benefit)
		return nil, false
	}
	var swaps []int
	for _, in := range pl.Instrs {
		if in.Code == matcher.ChooseSwap {
			swaps = append(swaps, in.Op)
		}
	}
	if len(swaps) > 3 {
		g.refuse(r, r.Pos, "it has %d commutative ops: %d classes, one per operand order, are too many", len(swaps), 1<<len(swaps))
		return nil, false
	}
	base := camel(r.Name)
	if r.Instance != "" {
		base += camel(strings.NewReplacer("pd_op.", "", "builtin.", "", ",", "_", "=", "").Replace(r.Instance)) // n=3 (a group's count): N3
	}
	if r.Path != nil { // one path of a rule with alternatives: Alt, then the branch taken at each group
		base += "Alt" + strings.NewReplacer(".", "_", "-", "0").Replace(rule.PathName(r))
	}
	var out []*class
	for v := 0; v < 1<<len(swaps); v++ {
		pt := &pattern{g: g, r: r, p: r.Pattern, plan: pl, swapped: make([]bool, len(r.Pattern.Ops)),
			names: map[string]bool{}, params: map[string]bool{}, ok: true}
		suffix := ""
		for i, k := range swaps {
			if v&(1<<i) != 0 {
				pt.swapped[k] = true
				suffix += "Swapped"
				if len(swaps) > 1 {
					suffix += strconv.Itoa(k)
				}
			}
		}
		name := base + suffix + "Pattern"
		for g.classNames[name] {
			name = base + suffix + "Pattern" + strconv.Itoa(len(g.classNames))
		}
		c := pt.class(name, v > 0)
		if !pt.ok {
			return nil, false
		}
		g.classNames[name] = true
		out = append(out, c)
	}
	return out, true
}

// fresh returns an unused name made from base.
func (pt *pattern) fresh(base string) string {
	name := base
	for i := 1; pt.names[name]; i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	pt.names[name] = true
	return name
}

func (pt *pattern) fail(pos diag.Position, format string, args ...any) {
	if pt.ok {
		pt.g.refuse(pt.r, pos, format, args...)
	}
	pt.ok = false
}

// tensor is the Paddle tensor name of value hole h: its name in the rule, or for a value the rule leaves unnamed
// (a nested op's result) the name of its op followed by _out.
func (pt *pattern) tensor(h int) string { return pt.tensors[h] }

// anonymous matches the names the checker gives values a rule leaves unnamed.
var anonymous = regexp.MustCompile(`^%?_[0-9]+$`)

// nameTensors names the value holes.
func (pt *pattern) nameTensors() {
	p := pt.p
	pt.tensors = make([]string, len(p.Values))
	for h, v := range p.Values {
		if !anonymous.MatchString(v.Name) {
			pt.tensors[h] = strings.TrimPrefix(v.Name, "%")
			pt.names[pt.tensors[h]] = true
		}
	}
	for h, v := range p.Values {
		if pt.tensors[h] != "" {
			continue
		}
		base := "value"
		if v.Def >= 0 {
			base = pt.opBase(v.Def) + "_out"
		}
		pt.tensors[h] = pt.fresh(base)
	}
}
func holeName(p *rule.Pattern, h int) string { return strings.TrimPrefix(p.Holes[h].Name, "$") }

// class prints the class.
func (pt *pattern) class(name string, swappedVariant bool) *class {
	p := pt.p
	pt.nameTensors()
	for h := range p.Holes {
		pt.names[holeName(p, h)] = true
	}
	pt.ops = make([]*srcOp, len(p.Ops))
	pt.holeAttr = make([]string, len(p.Holes))
	pt.holeFrom = make([][2]string, len(p.Holes))
	for k, op := range p.Ops {
		pt.ops[k] = &srcOp{name: op.Name}
		if op.Name == "" {
			pt.fail(op.Pos, "an op pattern of any kind: Paddle's pat.Op takes one op name")
		}
	}
	pt.holeCut = make([]string, len(p.Holes))
	pt.findCuts()
	pt.sharedValues()
	pt.guards()
	for i := range pt.plan.Instrs {
		pt.instr(&pt.plan.Instrs[i])
		if !pt.ok {
			return nil
		}
	}
	for _, d := range pt.defs {
		pt.ops[d[0]].results[d[1]] = pt.tensor(d[2])
	}
	pt.twiceRead()
	if !pt.ok {
		return nil
	}
	for k, op := range pt.ops {
		for j, t := range op.operands {
			if t == "\x00" { // an operand the pattern takes whatever it is (_): a tensor no one else names
				op.operands[j] = pt.fresh(fmt.Sprintf("%s_operand%d", pt.opBase(k), j))
			}
		}
	}
	pt.nameOps()
	var b strings.Builder
	doc := strings.TrimSpace(pt.r.Doc)
	if doc != "" {
		for _, l := range strings.Split(doc, "\n") {
			b.WriteString(strings.TrimRight("// "+l, " ") + "\n")
		}
	}
	if swappedVariant {
		b.WriteString("// The same rule with the operands of its commutative ops in the other order.\n")
	}
	for _, n := range pt.notes {
		b.WriteString(wrapComment("Paddle: "+n, 118))
	}
	fmt.Fprintf(&b, "class %s : public paddle::drr::DrrPatternBase {\n public:\n", name)
	params := pt.paramList()
	if len(params) > 0 {
		var args, inits []string
		for _, prm := range params {
			t := paramType(pt.g.paramDecl(prm)).cpp()
			if strings.HasPrefix(t, "std::") { // a class type: by reference
				t = "const " + t + " &"
			} else {
				t += " "
			}
			args = append(args, t+prm)
			inits = append(inits, prm+"_("+prm+")")
		}
		explicit := ""
		if len(params) == 1 {
			explicit = "explicit "
		}
		fmt.Fprintf(&b, "  %s%s(%s)\n      : %s {}\n\n", explicit, name, strings.Join(args, ", "), strings.Join(inits, ", "))
	}
	fmt.Fprintf(&b, "  std::string name() const override { return %q; }\n", name)
	fmt.Fprintf(&b, "  uint32_t benefit() const override { return %d; }\n\n", pt.r.Benefit)
	b.WriteString("  void operator()(paddle::drr::DrrPatternContext *ctx) const override {\n")
	b.WriteString("    paddle::drr::SourcePattern pat = ctx->SourcePattern();\n")
	pt.writeSource(&b)
	for _, c := range pt.cons {
		if c.comment != "" {
			fmt.Fprintf(&b, "    // %s\n", c.comment)
		}
		capture := "[]"
		if c.this {
			capture = "[this]"
		}
		param := "const paddle::drr::MatchContext &"
		if strings.Contains(c.pre+c.cond, "match_ctx") {
			param += "match_ctx"
		}
		pre := ""
		if c.pre != "" {
			pre = "      " + c.pre + "\n"
		}
		fmt.Fprintf(&b, "    pat.AddConstraint(%s(%s) {\n%s      return %s;\n    });\n", capture, param, pre,
			wrapExpr(c.cond, "          ", 84))
	}
	b.WriteString("\n    paddle::drr::ResultPattern res = pat.ResultPattern();\n")
	pt.writeResult(&b)
	if !pt.ok {
		return nil
	}
	b.WriteString("  }\n")
	params = pt.paramList() // the result may read more parameters
	if len(params) > 0 {
		b.WriteString("\n private:\n")
		for _, prm := range params {
			fmt.Fprintf(&b, "  %s %s_;\n", paramType(pt.g.paramDecl(prm)).cpp(), prm)
		}
	}
	b.WriteString("};\n")
	code := b.String()
	if len(params) > 0 && !strings.Contains(code, " "+name+"(") {
		// The result read parameters the constructor was printed without: print the class again.
		return pt.reprint(name, swappedVariant)
	}
	return &class{name: name, params: params, code: code}
}

// reprint prints the class again once every parameter it reads is known.
func (pt *pattern) reprint(name string, swappedVariant bool) *class {
	params := pt.params
	np := &pattern{g: pt.g, r: pt.r, p: pt.p, plan: pt.plan, swapped: pt.swapped, names: map[string]bool{},
		params: params, ok: true}
	return np.class(name, swappedVariant)
}

func (pt *pattern) paramList() []string {
	var out []string
	for _, d := range pt.g.set.Params {
		if pt.params[d.Name] {
			out = append(out, d.Name)
		}
	}
	return out
}

// indentCont indents the continuation lines of a multi-line C++ expression.
func indentCont(s, indent string) string { return strings.ReplaceAll(s, "\n", "\n"+indent) }

// sharedValues checks the internal values the rule lets have readers outside the match: Paddle's matcher counts
// the uses of every internal value (consumers in the pattern == uses in the program). A constant's is a narrowing
// Paddle's own passes share (the pattern then matches only constants no other op reads), noted on the class;
// any other is refused, since the rule states it matches where Paddle cannot.
func (pt *pattern) sharedValues() {
	p := pt.p
	for h, v := range p.Values {
		if !v.Shared || v.Def < 0 || v.List || !pt.usedInside(h) {
			continue
		}
		if pt.cut[v.Def] {
			continue
		}
		if s := pt.g.ctx.Schema(p.Ops[v.Def].Name); s != nil && s.Has(ir.ConstantLike) {
			pt.notes = append(pt.notes, fmt.Sprintf("matches only where nothing outside the pattern reads the %s %q: "+
				"Paddle's matcher counts the uses of every inner value, drrc's exempts constants.",
				p.Ops[v.Def].Name, pt.tensor(h)))
			continue
		}
		pt.fail(v.Pos, "%%%s is an inner value the rule lets other ops read (its where clause counts its uses), and "+
			"Paddle's matcher requires every reader of an inner value to be in the pattern", pt.tensor(h))
	}
}

// usedInside reports whether value hole h is an operand of a pattern op (from the plan: an operand instruction).
func (pt *pattern) usedInside(h int) bool {
	for _, in := range pt.plan.Instrs {
		if (in.Code == matcher.CheckOperand || in.Code == matcher.CheckConst || in.Code == matcher.BindOperand) &&
			in.Value == h &&
			pt.p.Values[h].Def != in.Op {
			return true
		}
	}
	return false
}

// irOperand is the operand of the op that pattern operand j of op k reads in this class.
func (pt *pattern) irOperand(k, j int) int {
	if pt.swapped[k] && j < 2 {
		return 1 - j
	}
	return j
}

// resultCount is the number of results an op has, from the catalog (a pattern with ... leaves it open, Paddle
// needs them all).
func (pt *pattern) resultCount(k int) (int, bool) {
	s := pt.g.ctx.Schema(pt.p.Ops[k].Name)
	if s == nil || s.IsVariadic() {
		return 0, false
	}
	return len(s.Results), true
}

// instr records one plan instruction.
func (pt *pattern) instr(in *matcher.Instr) {
	if pt.cut != nil && pt.cutInstr(in) {
		return
	}
	p := pt.p
	op := pt.ops[in.Op]
	opPos := p.Ops[in.Op].Pos
	switch in.Code {
	case matcher.BindRoot, matcher.CheckName, matcher.ChooseUser, matcher.ChooseSwap, matcher.Success:
		// The op's name is pat.Op's; a user and the swapped order are the pattern graph's and the class's.
	case matcher.CheckDistinct:
		// Paddle's matcher never binds one IR op to two pattern ops either.
	case matcher.CheckClosure:
		// Paddle's matcher checks that every reader of an inner value is in the pattern (a count of uses).
	case matcher.CheckOperands:
		if in.AtLeast {
			pt.fail(opPos, "a variadic operand list (Paddle's pattern ops have a fixed number of operands)")
			return
		}
		op.operands = make([]string, in.N)
		for j := range op.operands {
			op.operands[j] = "\x00"
		}
	case matcher.CheckResults:
		n := in.N
		if in.AtLeast {
			c, ok := pt.resultCount(in.Op)
			if !ok {
				pt.fail(opPos, "the results of %s after ... (Paddle's pattern declares every result; the catalog gives "+
					"no fixed number)", p.Ops[in.Op].Name)
				return
			}
			n = c
		}
		op.results = make([]string, n)
	case matcher.BindAttr:
		name := holeName(p, in.Hole)
		pt.holeAttr[in.Hole] = name
		pt.holeFrom[in.Hole] = [2]string{p.Ops[in.Op].Name, in.Name}
		op.attrs = append(op.attrs, [2]string{in.Name, name})
	case matcher.CheckAttr:
		fresh := pt.fresh(holeName(p, in.Hole) + "_" + pt.opBase(in.Op))
		op.attrs = append(op.attrs, [2]string{in.Name, fresh})
		a, err1 := pt.readType(p.Ops[in.Op].Name, in.Name)
		from := pt.holeFrom[in.Hole]
		b, err2 := pt.readType(from[0], from[1])
		if err1 != nil || err2 != nil {
			pt.fail(opPos, "$%s is read from two attributes, which Paddle binds to the first one only, and "+
				"MatchContext cannot read them to compare: %v", holeName(p, in.Hole), firstErr(err1, err2))
			return
		}
		pt.cons = append(pt.cons, constraint{
			cond: fmt.Sprintf("match_ctx.Attr<%s>(%q) == match_ctx.Attr<%s>(%q)", a, fresh, b,
				pt.holeAttr[in.Hole]),
			comment: fmt.Sprintf("%s of %s is $%s, read before from %s", in.Name, p.Ops[in.Op].Name,
				holeName(p, in.Hole), from[1])})
	case matcher.CheckAttrLit:
		fresh := pt.fresh(pt.opBase(in.Op) + "_" + in.Name)
		op.attrs = append(op.attrs, [2]string{in.Name, fresh})
		t, err := pt.readType(p.Ops[in.Op].Name, in.Name)
		if err != nil {
			pt.fail(opPos, "the literal %s: %v", in.Name, err)
			return
		}
		lit, err := attrLiteral(in.Literal, t)
		if err != nil {
			pt.fail(opPos, "the literal %s: %v", in.Name, err)
			return
		}
		pt.cons = append(pt.cons, constraint{cond: fmt.Sprintf("match_ctx.Attr<%s>(%q) == %s", t, fresh, lit),
			comment: fmt.Sprintf("%s {%s: %s}", p.Ops[in.Op].Name, in.Name, in.Literal)})
	case matcher.CheckAttrPresent:
		// Paddle's matcher fails when an op lacks an attribute the pattern lists.
		op.attrs = append(op.attrs, [2]string{in.Name, pt.fresh(pt.opBase(in.Op) + "_" + in.Name)})
	case matcher.BindRestAttrs:
		pt.fail(opPos, "$%s... binds the attributes an op pattern does not list (Paddle's pattern attributes are named "+
			"one by one)", holeName(p, in.Hole))
	case matcher.CheckUnused:
		t := pt.fresh(fmt.Sprintf("%s_out%d", pt.opBase(in.Op), in.Index))
		op.results[in.Index] = t
		pt.cons = append(pt.cons, constraint{cond: fmt.Sprintf("match_ctx.Tensor(%q).use_empty()", t),
			comment: fmt.Sprintf("result %d of %s is _: unused", in.Index, p.Ops[in.Op].Name)})
	case matcher.CheckExtraUnused:
		for i := in.N; i < len(op.results); i++ {
			t := pt.fresh(fmt.Sprintf("%s_out%d", pt.opBase(in.Op), i))
			op.results[i] = t
			pt.cons = append(pt.cons, constraint{cond: fmt.Sprintf("match_ctx.Tensor(%q).use_empty()", t),
				comment: fmt.Sprintf("result %d of %s is one of its ...: unused", i, p.Ops[in.Op].Name)})
		}
	case matcher.BindResult:
		op.results[in.Index] = pt.tensor(in.Value)
	case matcher.BindDef:
		pt.pendingDef(in)
	case matcher.CheckOperand, matcher.BindOperand:
		op.operands[pt.irOperand(in.Op, in.Index)] = pt.tensor(in.Value)
	case matcher.CheckConst:
		op.operands[pt.irOperand(in.Op, in.Index)] = pt.tensor(in.Value)
		pt.notes = append(pt.notes, fmt.Sprintf("the ops that read the constant %q must read one op's result: "+
			"Paddle's matcher binds tensors by identity, drrc's accepts equal constants.", pt.tensor(in.Value)))
	case matcher.CheckNull:
		op.operands[pt.irOperand(in.Op, in.Index)] = ""
	case matcher.BindList, matcher.CheckList:
		pt.fail(opPos, "a variadic operand list (Paddle's pattern ops have a fixed number of operands)")
	case matcher.CheckType:
		pt.fail(p.Values[in.Value].Pos, "the type pattern of %%%s (Paddle's DRR has none: write it as a where "+
			"constraint on dtype, rank and dim)", pt.tensor(in.Value))
	case matcher.CheckUses:
		pt.cons = append(pt.cons, constraint{
			cond: fmt.Sprintf("static_cast<int64_t>(match_ctx.Tensor(%q).use_count()) %s %d", pt.tensor(in.Value),
				in.Cmp, in.N),
			comment: "where " + oneLine(rule.FormatExpr(pt.r, in.Expr))})
	case matcher.CheckWhere:
		e := newExprGen(pt, "match_ctx")
		cond, err := e.cond(in.Expr)
		if err != nil {
			pt.failExpr(err)
			return
		}
		pt.cons = append(pt.cons, constraint{cond: cond, comment: "where " + oneLine(rule.FormatExpr(pt.r, in.Expr)),
			this: e.this})
	default:
		pt.fail(opPos, "the plan instruction %s has no Paddle form", in.Code)
	}
}

// pendingDef records that value in.Value is result in.N of op in.Op; the op's results are allocated by its
// CheckResults, which the plan emits after BindDef, so the name is filled in when they are.
func (pt *pattern) pendingDef(in *matcher.Instr) {
	pt.defs = append(pt.defs, [3]int{in.Op, in.N, in.Value})
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// readType is the C++ type MatchContext::Attr reads attribute name of op as, from the table (attrtypes.go).
func (pt *pattern) readType(op, name string) (string, error) {
	t, err := AttrType(pt.g.ctx, op, name)
	if err != nil {
		return "", err
	}
	cpp := TypeOf(t).Read
	if cpp == "" {
		return "", fmt.Errorf("%s's %s (%s) cannot be read with Paddle's MatchContext::Attr", op, name, t)
	}
	return cpp, CheckRead(pt.g.ctx, op, name, cpp)
}

// opBase is the base of the C++ variable and of the fresh names of op k: its name without the dialect.
func (pt *pattern) opBase(k int) string {
	n := pt.p.Ops[k].Name
	if i := strings.LastIndex(n, "."); i >= 0 {
		n = n[i+1:]
	}
	count := 0
	for _, op := range pt.p.Ops {
		if op.Name == pt.p.Ops[k].Name {
			count++
		}
	}
	if count > 1 {
		n += "_" + strconv.Itoa(k)
	}
	return n
}

// wrapComment prints text as // comment lines of at most width columns.
func wrapComment(text string, width int) string {
	var b strings.Builder
	line := "//"
	for _, w := range strings.Fields(text) {
		if len(line)+1+len(w) > width && line != "//" {
			b.WriteString(line + "\n")
			line = "//"
		}
		line += " " + w
	}
	b.WriteString(line + "\n")
	return b.String()
}

// twiceRead refuses an inner value one op reads twice: Paddle's matcher compares the number of an inner value's
// consumer ops in the pattern (one) with its number of uses (two), so the pattern could never match.
func (pt *pattern) twiceRead() {
	for k, op := range pt.ops {
		seen := map[string]bool{}
		for _, t := range op.operands {
			for h, v := range pt.p.Values {
				if pt.tensor(h) != t || v.Def < 0 || v.Def == k {
					continue
				}
				if seen[t] {
					pt.fail(pt.p.Ops[k].Pos, "%s reads the inner value %%%s twice, and Paddle's matcher, which compares "+
						"an inner value's consumer ops with its uses, never matches that", pt.p.Ops[k].Name, t)
					return
				}
				seen[t] = true
			}
		}
	}
}
