package rulegen

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/drr/rule"
)

// A rule becomes one method of the matcher that tries it at an op and appends its match. The method follows the
// matcher's plan for the rule (see package matcher, "Exploration order"), so that it finds the binding the
// automaton finds: the root's checks, its results and operands with their producers depth first, then the ops
// reached through the users of bound values, then the closure checks, then the where-constraints. Each choice of
// the plan (the two operand orders of a commutative op, the users of a value) is a loop, in plan order; a failed
// check continues the innermost loop (its next alternative) or, outside every loop, returns false. The first
// binding that passes everything is emitted.

type holeState uint8

const (
	holeUnbound holeState = iota
	holeBound
	holeMaybe // bound when its flag variable says so (a hole first met in the type of a list's elements)
)

type ruleGen struct {
	f *fileGen
	r *rule.Rule
	p *rule.Pattern
	b bytes.Buffer

	boundOp, boundVal []bool
	order             []int // pattern ops in the order they were bound
	opVar, valVar     []string
	hole              []holeState
	holeVar, holeFlag []string
	// opd[k] are the variables holding operands 0 and 1 of commutative op k under the current choice; opdUsed says
	// which are read.
	opd     [][2]string
	opdUsed map[string]bool
	// marks are lines written once the whole body is known (a label is written only if a continue names it, a
	// variable declared only if something reads it).
	marks map[string]func() string

	// uses are the where-constraints `uses(%v) cmp n`, by value hole: checked as soon as the value is bound.
	uses map[int][]rule.Expr

	loops      []*choice // the enclosing choice loops, innermost last
	allChoices []*choice
	plain      int // Go loops opened inside the innermost choice (list element loops)
	local      names
	tmp        int
}

// choice is the loop of one choice point.
type choice struct {
	label string
	used  bool
	// after is what the loop's exhaustion needs (dropping a user list).
	after string
}

// rule generates the method of rule r.
func (f *fileGen) rule(r *rule.Rule) {
	p := r.Pattern
	g := &ruleGen{f: f, r: r, p: p, boundOp: make([]bool, len(p.Ops)), boundVal: make([]bool, len(p.Values)),
		opVar: make([]string, len(p.Ops)), valVar: make([]string, len(p.Values)), hole: make([]holeState, len(p.Holes)),
		holeVar: make([]string, len(p.Holes)), holeFlag: make([]string, len(p.Holes)), opd: make([][2]string, len(p.Ops)),
		local: names{"m": true, "op": true, "mt": true}, opdUsed: map[string]bool{}, marks: map[string]func() string{}}
	for k := range p.Ops {
		g.opVar[k] = g.local.fresh("op" + strconv.Itoa(k))
	}
	for h, v := range p.Values {
		prefix := "v"
		if v.List {
			prefix = "l"
		}
		g.valVar[h] = g.local.fresh(prefix + strconv.Itoa(h) + "_" + ident(v.Name))
	}
	for h, hole := range p.Holes {
		g.holeVar[h] = g.local.fresh("h" + strconv.Itoa(h) + "_" + ident(hole.Name))
	}
	g.uses = map[int][]rule.Expr{}
	for _, e := range r.Where {
		if h, _, _, ok := usesConstraint(p, e); ok {
			g.uses[h] = append(g.uses[h], e)
		}
	}
	name := f.methodNames.fresh("r" + strconv.Itoa(r.Index) + "_" + ident(r.Name))
	f.ruleFunc[r.Index] = name
	g.body()

	root := rootName(r)
	if root == "" {
		root = "op of any kind"
	}
	w := &f.methods
	fmt.Fprintf(w, "// %s tries rule %s (benefit %d, %s) at %s, the root %s.\n", name, r.ID(), r.Benefit, r.Pos, g.opVar[p.Root], root)
	fmt.Fprintf(w, "func (m *%sMatcher) %s(%s *ir.Op) bool {\n", f.prefix, name, g.opVar[p.Root])
	w.Write(g.labels())
	fmt.Fprintf(w, "}\n\n")
}

// markLine is a line of the body written once the whole body is known.
var markLine = regexp.MustCompile(`(?m)^//@mark (\w+)\n`)

// mark writes a line that f will produce at the end.
func (g *ruleGen) mark(f func() string) {
	id := "m" + strconv.Itoa(len(g.marks))
	g.marks[id] = f
	g.line("//@mark %s", id)
}

// labels writes the marked lines.
func (g *ruleGen) labels() []byte {
	return markLine.ReplaceAllFunc(g.b.Bytes(), func(m []byte) []byte {
		s := g.marks[string(markLine.FindSubmatch(m)[1])]()
		if s == "" {
			return nil
		}
		return []byte(s + "\n")
	})
}

func (g *ruleGen) line(format string, args ...any) { fmt.Fprintf(&g.b, format+"\n", args...) }

// temp returns a fresh local variable name.
func (g *ruleGen) temp(base string) string {
	g.tmp++
	return g.local.fresh(base + strconv.Itoa(g.tmp))
}

// fail is the statement that abandons the current alternative.
func (g *ruleGen) fail() string {
	if len(g.loops) == 0 {
		return "return false"
	}
	c := g.loops[len(g.loops)-1]
	if g.plain == 0 {
		return "continue"
	}
	c.used = true
	return "continue " + c.label
}

// check emits: if cond { fail }.
func (g *ruleGen) check(cond string) {
	g.line("if %s {\n%s\n}", cond, g.fail())
}

// open starts a choice loop.
func (g *ruleGen) open(header, after string) {
	c := &choice{label: g.local.fresh("L" + strconv.Itoa(len(g.allChoices)+1)), after: after}
	g.allChoices = append(g.allChoices, c)
	g.mark(func() string {
		if c.used {
			return c.label + ":"
		}
		return ""
	})
	g.line("%s {", header)
	g.loops = append(g.loops, c)
}

// body emits the plan.
func (g *ruleGen) body() {
	p := g.p
	g.boundOp[p.Root] = true
	g.order = append(g.order, p.Root)
	g.visit(p.Root)
	for {
		k, j, h := nextPivot(p, g.boundOp, g.boundVal)
		if k < 0 {
			break
		}
		g.line("// %s: a user of %s (operand %d).", g.opVar[k], rule.ValueName(p, h), j)
		start, end := g.temp("us"), g.temp("ue")
		g.line("%s, %s := m.Users(%s)", start, end, g.valVar[h])
		i := g.temp("u")
		g.open(fmt.Sprintf("for %s := %s; %s < %s; %s++", i, start, i, end, i), "m.PopUsers("+start+")")
		g.line("%s := m.User(%s)", g.opVar[k], i)
		g.check(g.distinct(k))
		g.boundOp[k] = true
		g.order = append(g.order, k)
		g.visit(k)
	}
	for h := range p.Values {
		if isInternal(p, h) {
			ops := make([]string, len(p.Ops))
			copy(ops, g.opVar)
			g.line("// closure: every use of %s is in the match", rule.ValueName(p, h))
			g.check(fmt.Sprintf("!rt.OnlyUsedBy(%s, %s)", g.valVar[h], strings.Join(ops, ", ")))
		}
	}
	for i, e := range g.r.Where {
		g.where(e, i)
	}
	g.emit()
	for i := len(g.loops) - 1; i >= 0; i-- {
		c := g.loops[i]
		g.loops = g.loops[:i]
		g.line("}")
		if c.after != "" {
			g.line("%s", c.after)
		}
	}
	if len(g.allChoices) > 0 {
		g.line("return false")
	}
}

// distinct is the condition that op k is one of the ops bound before it.
func (g *ruleGen) distinct(k int) string {
	var parts []string
	for _, b := range g.order {
		parts = append(parts, g.opVar[k]+" == "+g.opVar[b])
	}
	return strings.Join(parts, " || ")
}

// operand is the expression of pattern operand j of op k (under the current choice, for a commutative op).
func (g *ruleGen) operand(k, j int) string {
	if j < 2 && g.opd[k][0] != "" {
		g.opdUsed[g.opd[k][j]] = true
		return g.opd[k][j]
	}
	return fmt.Sprintf("%s.Operand(%d)", g.opVar[k], j)
}

// visit emits the checks and bindings of op k once it is bound.
func (g *ruleGen) visit(k int) {
	p := g.p
	op := p.Ops[k]
	v := g.opVar[k]
	g.line("// %s", oneLine(rule.FormatOp(p, k)))
	var shape []string
	if op.Name != "" && k != p.Root { // the root's name is what the matcher dispatched on
		shape = append(shape, fmt.Sprintf("%s.Info() != m.%s", v, g.f.opInfoField(op.Name)))
	}
	nopd := len(op.Operands)
	if nopd > 0 && op.Operands[nopd-1].Kind == rule.OperandList {
		shape = append(shape, fmt.Sprintf("%s.NumOperands() < %d", v, nopd-1))
	} else {
		shape = append(shape, fmt.Sprintf("%s.NumOperands() != %d", v, nopd))
	}
	nres := len(op.Results)
	if op.MoreResults {
		shape = append(shape, fmt.Sprintf("%s.NumResults() < %d", v, nres))
	} else {
		shape = append(shape, fmt.Sprintf("%s.NumResults() != %d", v, nres))
	}
	g.check(strings.Join(shape, " || "))

	for ai, a := range op.Attrs {
		get := fmt.Sprintf("%s.AttrOrDefault(%q)", v, a.Name)
		if op.Name != "" && a.Kind != rule.AttrPresent {
			get = fmt.Sprintf("rt.AttrOr(%s, %q, m.%s)", v, a.Name, g.f.defaultField(op.Name, a.Name))
		}
		switch a.Kind {
		case rule.AttrBind:
			hv := g.holeVar[a.Hole]
			if g.hole[a.Hole] == holeUnbound {
				g.hole[a.Hole] = holeBound
				g.line("%s := %s", hv, get)
				g.check(hv + " == nil")
				continue
			}
			t := g.temp("a")
			g.line("%s := %s", t, get)
			g.check(fmt.Sprintf("%s == nil || %s != %s", t, t, hv))
		case rule.AttrEquals:
			lit := g.f.field(fmt.Sprintf("r%d_%s", g.r.Index, ident(a.Name)), "ir.Attribute",
				fmt.Sprintf("rule %s: %s: %s", g.r.ID(), a.Name, a.Literal),
				fmt.Sprintf("set.Rules[%d].Pattern.Ops[%d].Attrs[%d].Literal", g.r.Index, k, ai))
			g.check(fmt.Sprintf("%s != m.%s", get, lit))
		case rule.AttrPresent:
			g.check(fmt.Sprintf("%s.Attr(%q) == nil", v, a.Name))
		}
	}
	if op.RestAttrs >= 0 {
		var names []string
		for _, a := range op.Attrs {
			names = append(names, strconv.Quote(a.Name))
		}
		rest := fmt.Sprintf("rt.RestAttrs(%s%s)", v, joinPrefixed(names))
		hv := g.holeVar[op.RestAttrs]
		if g.hole[op.RestAttrs] == holeUnbound {
			g.hole[op.RestAttrs] = holeBound
			g.line("%s := %s", hv, rest)
		} else {
			g.check(fmt.Sprintf("!rt.SameAttrs(%s, %s)", hv, rest))
		}
	}
	for i, res := range op.Results {
		switch {
		case res.Value < 0:
			g.check(fmt.Sprintf("%s.Result(%d).HasUses()", v, i))
		case !g.boundVal[res.Value]:
			g.line("%s := %s.Result(%d)", g.valVar[res.Value], v, i)
			g.boundVal[res.Value] = true
			g.typeCheck(res.Value)
			g.usesChecks(res.Value)
		}
		// A result bound already is the one op k was reached through: its binding checked it.
	}
	if op.MoreResults {
		g.check(fmt.Sprintf("!rt.ResultsUnused(%s, %d)", v, nres))
	}
	if op.Commutative {
		sw := g.temp("sw")
		g.open(fmt.Sprintf("for %s := 0; %s < 2; %s++", sw, sw, sw), "")
		a, b := g.temp(v+"_a"), g.temp(v+"_b")
		g.mark(func() string {
			x, y := a, b
			if !g.opdUsed[x] {
				x = "_"
			}
			if !g.opdUsed[y] {
				y = "_"
			}
			if x == "_" && y == "_" {
				return ""
			}
			return fmt.Sprintf("%s, %s := %s.Operand(%s), %s.Operand(1-%s) // as written, then swapped", x, y, v, sw, v, sw)
		})
		g.opd[k] = [2]string{a, b}
	}
	for j, o := range op.Operands {
		switch o.Kind {
		case rule.OperandValue:
			h := o.Value
			if g.boundVal[h] {
				g.check(fmt.Sprintf("%s != %s", g.operand(k, j), g.valVar[h]))
				continue
			}
			g.line("%s := %s", g.valVar[h], g.operand(k, j))
			g.check(g.valVar[h] + " == nil")
			g.boundVal[h] = true
			g.typeCheck(h)
			g.usesChecks(h)
			if d := p.Values[h].Def; d >= 0 {
				dv := g.opVar[d]
				g.line("%s := %s.DefiningOp()", dv, g.valVar[h])
				g.check(fmt.Sprintf("%s == nil || %s.Index() != %d || %s", dv, g.valVar[h], p.Values[h].Result, g.distinct(d)))
				g.boundOp[d] = true
				g.order = append(g.order, d)
				g.visit(d)
			}
		case rule.OperandNull:
			g.check(g.operand(k, j) + " != nil")
		case rule.OperandList:
			h := o.Value
			if g.boundVal[h] {
				g.check(fmt.Sprintf("!rt.SameOperands(%s, %d, %s)", v, j, g.valVar[h]))
				continue
			}
			g.line("%s := m.Operands(%s, %d)", g.valVar[h], v, j)
			g.boundVal[h] = true
			g.typeCheck(h)
		}
	}
}

// usesChecks emits the constraints `uses(%v) cmp n` on value hole h, which has just been bound. The automaton
// decides them early too: a where-constraint is a pure function of the match, so checking it before the rest of
// the pattern changes which alternatives are explored, never which match is found.
func (g *ruleGen) usesChecks(h int) {
	for _, e := range g.uses[h] {
		_, cmp, n, _ := usesConstraint(g.p, e)
		g.line("// where %s", oneLine(rule.FormatExpr(g.r, e)))
		g.check(fmt.Sprintf("!(%s.NumUses() %s %d)", g.valVar[h], cmp, n))
	}
}

// emit emits the match and the return.
func (g *ruleGen) emit() {
	p := g.p
	g.line("mt := m.Emit(m.rules[%d])", g.r.Index)
	g.line("mt.Ops = append(mt.Ops[:0], %s)", strings.Join(g.opVar, ", "))
	vals := make([]string, len(p.Values))
	lists := make([]string, len(p.Values))
	for h, v := range p.Values {
		vals[h], lists[h] = g.valVar[h], "nil"
		if v.List {
			vals[h], lists[h] = "nil", "rt.Keep("+g.valVar[h]+")"
		}
	}
	if len(vals) > 0 {
		g.line("mt.Values = append(mt.Values[:0], %s)", strings.Join(vals, ", "))
		g.line("mt.Lists = append(mt.Lists[:0], %s)", strings.Join(lists, ", "))
	} else {
		g.line("mt.Values, mt.Lists = mt.Values[:0], mt.Lists[:0]")
	}
	holes := make([]string, len(p.Holes))
	for h := range p.Holes {
		switch g.hole[h] {
		case holeBound:
			holes[h] = g.holeVar[h]
		case holeUnbound:
			holes[h] = "nil"
		case holeMaybe:
			holes[h] = "rt.Maybe(" + g.holeVar[h] + ", " + g.holeFlag[h] + ")"
		}
	}
	if len(holes) > 0 {
		g.line("mt.Holes = append(mt.Holes[:0], %s)", strings.Join(holes, ", "))
	} else {
		g.line("mt.Holes = mt.Holes[:0]")
	}
	g.line("return true")
}

// nextPivot picks the next op to reach through the users of a bound value: the unbound op with the smallest index
// that has a single-value operand whose hole is bound, and the first such operand (k = -1: none). It is the
// matcher's choice.
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
// by another one, and not Shared. Every use of an internal value must be by an op of the match.
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
