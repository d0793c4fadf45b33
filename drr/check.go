package drr

import (
	"fmt"
	"hash/maphash"
	"strconv"
	"strings"
	"sync"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/internal/suggest"
	"github.com/pirdrr/drr/ir"
)

// CheckOptions configure Check.
type CheckOptions struct {
	// Unregistered accepts ops no dialect declares (as MLIR's --allow-unregistered-dialect): a rule's own use of such
	// an op defines its arity, and result ops of such ops need explicit result types.
	Unregistered bool
	// Natives, if set, reports whether a native function is registered (rewrite=true for native rewrites); a
	// declared native that is not registered is then an error.
	Natives func(name string, rewrite bool) bool
}

// commonAttrs may appear on any op, registered or not.
var commonAttrs = map[string]bool{
	"stop_gradient": true, "persistable": true, "struct_name": true, "op_callstack": true, "op_role": true,
	"op_dist_attr": true, "kernel_name": true, "op_name": true, "kernel_key": true,
}

// Check checks parsed files against the op schemas of ctx and returns the rule set they define: rules in file
// order (imported files first, in import order), family rules instantiated once per member. Every problem found is
// reported, errors and warnings, sorted by position; the set is nil when there are errors.
func Check(ctx *ir.Context, files []*File, opts CheckOptions) (*rule.Set, diag.Diagnostics) {
	c := &checker{ctx: ctx, opts: opts, families: map[string]*familyInfo{}, natives: map[string]*rule.NativeDecl{},
		rules: map[string]diag.Position{}, params: map[string]*paramInfo{}}
	set := &rule.Set{Ctx: ctx, Natives: c.natives}
	for _, f := range files {
		for _, n := range f.Natives {
			c.native(n)
		}
	}
	for _, f := range files {
		for _, fam := range f.Families {
			c.family(fam)
		}
	}
	for _, f := range files {
		for _, p := range f.Params {
			c.param(p)
		}
	}
	set.Params = c.paramOrder
	var work []*ruleWork
	for _, f := range files {
		for _, r := range f.Rules {
			if w := c.prepare(r); w != nil {
				work = append(work, w)
			}
		}
	}
	checkAll(c, work)
	for _, w := range work {
		set.Rules = append(set.Rules, c.finish(w)...)
	}
	for i, r := range set.Rules {
		r.Index = i
	}
	c.shadowed(set)
	c.unusedParams(files)
	c.diags.Sort()
	if c.diags.HasErrors() {
		return nil, c.diags
	}
	return set, c.diags
}

type checker struct {
	ctx      *ir.Context
	opts     CheckOptions
	diags    diag.Diagnostics
	families map[string]*familyInfo
	natives  map[string]*rule.NativeDecl
	rules    map[string]diag.Position
	seen     map[string]bool // de-duplicates diagnostics of family instances
	// params are the declared rule-set parameters by name, paramOrder in declaration order.
	params     map[string]*paramInfo
	paramOrder []*rule.ParamDecl
	// suggestions holds suggestOp's answer by unknown op name: comparing a name with every schema takes a
	// millisecond, and a file can misspell one op thousands of times. Rules are checked in parallel.
	suggestions sync.Map
}

type familyInfo struct {
	decl    *Family
	members []string // full op names, in order
	err     bool
}

func (c *checker) report(sev diag.Severity, pos diag.Position, format string, args ...any) {
	d := diag.Diagnostic{Pos: pos, Severity: sev, Message: fmt.Sprintf(format, args...)}
	key := pos.String() + sev.String() + d.Message
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	if c.seen[key] {
		return
	}
	c.seen[key] = true
	c.diags = append(c.diags, d)
}

func (c *checker) errorf(pos diag.Position, format string, args ...any) {
	c.report(diag.Error, pos, format, args...)
}

func (c *checker) warnf(pos diag.Position, format string, args ...any) {
	c.report(diag.Warning, pos, format, args...)
}

// ---------------------------------------------------------------------------
// Natives

var nativeTypes = map[string]ir.AttrType{}

func init() {
	for _, k := range []ir.AttrKind{ir.KindBool, ir.KindInt32, ir.KindInt64, ir.KindIndex, ir.KindFloat, ir.KindDouble,
		ir.KindStr, ir.KindType, ir.KindIntArray, ir.KindDataType, ir.KindPlace, ir.KindDataLayout, ir.KindScalar, ir.KindAny} {
		nativeTypes[k.String()] = ir.AttrType{Kind: k}
		nativeTypes[k.String()+"[]"] = ir.AttrType{Kind: k, Array: true}
	}
	nativeTypes["int"] = ir.AttrType{Kind: ir.KindInt64}
	nativeTypes["float"] = ir.AttrType{Kind: ir.KindDouble}
	nativeTypes["string"] = ir.AttrType{Kind: ir.KindStr}
	nativeTypes["list"] = ir.AttrType{Kind: ir.KindAny, Array: true}
}

func (c *checker) native(n *Native) {
	name := n.Name.Name
	if prev, dup := c.natives[name]; dup {
		c.errorf(n.Name.Pos(), "native %s is already declared at %s", name, prev.Pos)
		return
	}
	if _, builtin := rule.LookupBuiltin(name); builtin {
		c.errorf(n.Name.Pos(), "native %s has the name of a builtin function", name)
		return
	}
	d := &rule.NativeDecl{Name: name, Rewrite: n.Kind == NativeRewrite, Pos: n.span().Pos()}
	for _, p := range n.Params {
		tn := ""
		if p.Type != nil {
			tn = p.Type.Name
		}
		switch p.Kind {
		case ValueParam:
			if tn != "" && tn != "value" && tn != "values" {
				c.errorf(p.Pos(), "parameter %%%s of %s: a value parameter has type value or values, not %s", p.Name, name, tn)
			}
			d.Params = append(d.Params, rule.Param{Name: p.Name, Value: true})
		case HoleParam:
			t, ok := nativeTypes[tn]
			if !ok {
				c.errorf(p.Pos(), "parameter $%s of %s: unknown type %q", p.Name, name, tn)
			}
			d.Params = append(d.Params, rule.Param{Name: p.Name, Type: t})
		}
	}
	if n.Result != nil {
		if d.Rewrite {
			switch {
			case n.Result.Name == "value":
				d.Results = 1
			case strings.HasPrefix(n.Result.Name, "values"):
				d.Results = -1
			default:
				c.errorf(n.Result.Pos(), "native rewrite %s returns value or values, not %s", name, n.Result.Name)
			}
		} else if n.Result.Name != "bool" {
			c.errorf(n.Result.Pos(), "native constraint %s returns bool, not %s", name, n.Result.Name)
		}
	}
	if c.opts.Natives != nil && !c.opts.Natives(name, d.Rewrite) {
		c.errorf(n.Name.Pos(), "%s", rule.UnregisteredNative(n.Kind.String(), name))
	}
	c.natives[name] = d
}

// ---------------------------------------------------------------------------
// Families

func (c *checker) family(f *Family) {
	name := f.Name.Name
	if prev, dup := c.families[name]; dup {
		c.errorf(f.Name.Pos(), "family %s is already declared at %s", name, prev.decl.Pos().String())
		return
	}
	info := &familyInfo{decl: f}
	c.families[name] = info
	members, ok := c.familySet(f.Set)
	info.members, info.err = members, !ok
	if ok && len(members) == 0 {
		c.errorf(f.Name.Pos(), "family %s selects no op", name)
		info.err = true
	}
}

func (c *checker) familySet(e FamilyExpr) ([]string, bool) {
	switch e := e.(type) {
	case *FamilyList:
		var out []string
		ok := true
		seen := map[string]bool{}
		for _, op := range e.Ops {
			if c.ctx.Schema(op.Name) == nil && !c.opts.Unregistered {
				c.errorf(op.Pos(), "unknown op %s%s", op.Name, c.suggestOp(op.Name))
				ok = false
				continue
			}
			if seen[op.Name] {
				c.errorf(op.Pos(), "op %s is listed twice", op.Name)
				continue
			}
			seen[op.Name] = true
			out = append(out, op.Name)
		}
		return out, ok
	case *FamilyTrait:
		t, ok := ir.TraitFromName(e.Trait.Name)
		if !ok {
			c.errorf(e.Trait.Pos(), "unknown trait %s (traits: %s)", e.Trait.Name, strings.Join(ir.TraitNames(), ", "))
			return nil, false
		}
		var out []string
		for _, s := range c.ctx.Schemas() {
			if s.Has(t) {
				out = append(out, s.Name)
			}
		}
		return out, true
	case *FamilyRef:
		f, ok := c.families[e.Name.Name]
		if !ok {
			c.errorf(e.Name.Pos(), "unknown family %s", e.Name.Name)
			return nil, false
		}
		return f.members, !f.err
	case *FamilyDiff:
		x, ok1 := c.familySet(e.X)
		y, ok2 := c.familySet(e.Y)
		drop := map[string]bool{}
		for _, n := range y {
			drop[n] = true
		}
		var out []string
		for _, n := range x {
			if !drop[n] {
				out = append(out, n)
			}
		}
		return out, ok1 && ok2
	}
	return nil, false
}

// suggestOp returns ` (did you mean X?)` for a misspelled op name, or "".
func (c *checker) suggestOp(name string) string {
	if s, ok := c.suggestions.Load(name); ok {
		return s.(string)
	}
	s := c.closestOp(name)
	c.suggestions.Store(name, s)
	return s
}

// closestOp is suggestOp without the memory.
func (c *checker) closestOp(name string) string {
	best, bestD := "", 4
	d, op := ir.SplitOpName(name)
	for _, s := range c.ctx.Schemas() {
		sd, sop := ir.SplitOpName(s.Name)
		if d != "" && sd != d {
			continue
		}
		if dist := suggest.Distance(op, sop); dist < bestD {
			best, bestD = s.Name, dist
		}
	}
	if best == "" {
		if d == "" {
			if s := c.ctx.Schema("pd_op." + name); s != nil {
				return " (did you mean pd_op." + name + "?)"
			}
		}
		return ""
	}
	return " (did you mean " + best + "?)"
}

// ---------------------------------------------------------------------------
// Rules

// binding is one instantiation of a rule's family binders: family variable name → op name.
type binding map[string]string

// prepare checks what a rule declaration shares with the others (its name, its families) and expands it into
// the instances to check.
func (c *checker) prepare(r *Rule) *ruleWork {
	name := r.Name.Name
	if prev, dup := c.rules[name]; dup {
		c.errorf(r.Name.Pos(), "rule %s is already declared at %s", name, prev.String())
		return nil
	}
	c.rules[name] = r.Name.Pos()
	if r.Match == nil || r.Rewrite == nil {
		return nil // the parser reported it
	}
	insts := []binding{{}}
	var labels []string
	for _, f := range r.Fors {
		info, ok := c.families[f.Family.Name]
		if !ok {
			c.errorf(f.Family.Pos(), "unknown family %s", f.Family.Name)
			return nil
		}
		if info.err {
			return nil
		}
		var next []binding
		for _, b := range insts {
			for _, m := range info.members {
				nb := binding{}
				for k, v := range b {
					nb[k] = v
				}
				if _, dup := nb[f.Names[0].Name]; dup {
					c.errorf(f.Names[0].Pos(), "family variable %s is bound twice", f.Names[0].Name)
					return nil
				}
				nb[f.Names[0].Name] = m
				if len(f.Names) == 2 {
					s := c.ctx.Schema(m)
					if s == nil || s.Counterpart == nil {
						continue // members without a counterpart are skipped
					}
					nb[f.Names[1].Name] = s.Counterpart.Name
				}
				next = append(next, nb)
			}
		}
		insts = next
	}
	if len(insts) == 0 {
		c.errorf(r.Fors[len(r.Fors)-1].Pos(), "rule %s: no member of its families has a counterpart", name)
		return nil
	}
	if r.Labels != nil {
		for _, l := range r.Labels.Names {
			labels = append(labels, l.Name)
		}
	}
	groups, ok := c.expandEach(r)
	if !ok {
		return nil
	}
	if groups != nil {
		// A rule with a group has no family (expandEach refuses both): one instance per count.
		w := &ruleWork{ast: r, labels: labels}
		for _, g := range groups {
			w.insts = append(w.insts, binding{})
			w.asts = append(w.asts, g.ast)
			w.counts = append(w.counts, g.n)
		}
		return w
	}
	return &ruleWork{ast: r, insts: insts, labels: labels}
}

// finish reports the diagnostics of a rule declaration's instances, in order, and returns the instances that
// passed.
func (c *checker) finish(w *ruleWork) []*rule.Rule {
	r, insts, labels := w.ast, w.insts, w.labels
	if w.counts != nil {
		return c.finishEach(w)
	}
	var out []*rule.Rule
	var firstFail diag.Diagnostics
	for i, b := range insts {
		rc := w.checked[i]
		rr := rc.rule
		rr.Labels = labels
		if len(rc.diags) > 0 {
			if rc.arity && len(r.Fors) > 0 {
				// A family member whose signature does not fit the pattern is skipped.
				if firstFail == nil {
					firstFail = rc.diags
				}
				continue
			}
			for _, d := range rc.diags {
				if len(r.Fors) > 0 && d.Severity == diag.Error {
					d.Message += " (in " + instanceName(b, r.Fors) + ")"
				}
				c.report(d.Severity, d.Pos, "%s", d.Message)
			}
			if hasErrors(rc.diags) {
				continue
			}
		}
		out = append(out, rr)
	}
	if len(out) == 0 && firstFail != nil {
		for _, d := range firstFail {
			c.report(d.Severity, d.Pos, "%s (no member of the family fits the pattern; first: %s)", d.Message, instanceName(insts[0], r.Fors))
		}
	}
	return out
}

func hasErrors(ds diag.Diagnostics) bool {
	for _, d := range ds {
		if d.Severity == diag.Error {
			return true
		}
	}
	return false
}

func instanceName(b binding, fors []*For) string {
	var parts []string
	for _, f := range fors {
		for _, n := range f.Names {
			parts = append(parts, n.Name+"="+b[n.Name])
		}
	}
	return strings.Join(parts, ", ")
}

func instanceID(b binding, fors []*For) string {
	var parts []string
	for _, f := range fors {
		parts = append(parts, b[f.Names[0].Name])
	}
	return strings.Join(parts, ",")
}

// shadowed reports rules that can never fire because an earlier rule with the same benefit is identical.
func (c *checker) shadowed(set *rule.Set) {
	// Rendering every rule was a fifth of the time to check a large file. Only rules with the same fingerprint
	// (a hash of what the rendering shows) can be identical, so only those are rendered.
	seed := maphash.MakeSeed()
	prints := make([]uint64, len(set.Rules))
	count := map[uint64]int{}
	for i, r := range set.Rules {
		prints[i] = fingerprint(seed, r)
		count[prints[i]]++
	}
	seen := map[string]*rule.Rule{}
	for i, r := range set.Rules {
		if count[prints[i]] < 2 {
			continue
		}
		key := strconv.Itoa(r.Benefit) + "\n" + canonical(r)
		if prev, ok := seen[key]; ok && prev.Name != r.Name {
			c.errorf(diag.Position{Filename: r.Pos.Filename, Line: r.Pos.Line, Column: r.Pos.Column},
				"rule %s is shadowed by rule %s at %s: same pattern, constraints and benefit, so it can never fire", r.ID(), prev.ID(), prev.Pos)
			continue
		}
		seen[key] = r
	}
}

// canonical renders a rule's pattern and constraints, for shadowing checks. The rule's name is left out but value and
// hole names are kept, so a copy with renamed values is not reported here; the overlap lint (drrc check) finds it.
func canonical(r *rule.Rule) string {
	var b strings.Builder
	b.WriteString(rule.FormatPattern(r.Pattern))
	for _, w := range r.Where {
		b.WriteString("\nwhere ")
		b.WriteString(rule.FormatExpr(r, w))
	}
	return b.String()
}

// fingerprint hashes the parts of a rule that canonical renders exactly, so that rules with different
// fingerprints cannot have the same canonical form. Parts whose rendering may lose information (floats, attribute
// values) are left out: a collision only costs a rendering.
func fingerprint(seed maphash.Seed, r *rule.Rule) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	n := func(i int) { maphash.WriteComparable(&h, i) }
	n(r.Benefit)
	for _, op := range r.Pattern.Ops {
		h.WriteString(op.Name)
		n(len(op.Operands))
		n(len(op.Results))
		n(len(op.Attrs))
	}
	var expr func(e rule.Expr)
	expr = func(e rule.Expr) {
		switch e := e.(type) {
		case *rule.Lit:
			switch v := e.Value.(type) {
			case int64:
				n(1)
				maphash.WriteComparable(&h, v)
			case string:
				n(2)
				h.WriteString(v)
			case bool:
				n(3)
				maphash.WriteComparable(&h, v)
			default:
				n(4)
			}
		case *rule.HoleRef:
			n(5)
		case *rule.ValueRef:
			n(6)
		case *rule.Unary:
			n(7)
			h.WriteString(e.Op)
			expr(e.X)
		case *rule.Binary:
			n(8)
			h.WriteString(e.Op)
			expr(e.X)
			expr(e.Y)
		case *rule.Cond:
			n(9)
			expr(e.Cond)
			expr(e.Then)
			expr(e.Else)
		case *rule.List:
			n(10)
			n(len(e.Elems))
			for _, x := range e.Elems {
				expr(x)
			}
		case *rule.Index:
			n(11)
			expr(e.X)
			expr(e.Index)
		case *rule.Call:
			n(12)
			h.WriteString(e.Func)
			n(len(e.Args))
			for _, x := range e.Args {
				expr(x)
			}
		}
	}
	for _, w := range r.Where {
		n(-1)
		expr(w)
	}
	return h.Sum64()
}
