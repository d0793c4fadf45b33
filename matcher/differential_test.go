package matcher

import (
	"fmt"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// The differential test: seeded random programs × random rule sets; the automaton (with and without its decision
// tree), Explain and the reference matcher must produce identical match lists (rules and every binding) at every
// op.

// gen generates random programs and rules over a small alphabet of unregistered ops (plus r.conv, registered
// with attribute defaults).
type gen struct {
	rng *rand.Rand
	// alt draws the alternatives withAlternatives adds, apart from rng, so that the rest is generated as before.
	alt *rand.Rand
	// usr draws the users groups ruleSet adds, apart from rng and alt.
	usr   *rand.Rand
	ctx   *ir.Context
	types []ir.Type
}

func newGen(seed int64, ctx *ir.Context) *gen {
	f32, f16, i64 := ctx.Scalar(ir.DTypeFloat32), ctx.Scalar(ir.DTypeFloat16), ctx.Scalar(ir.DTypeInt64)
	return &gen{rng: rand.New(rand.NewSource(seed)), alt: rand.New(rand.NewSource(seed + 1<<40)),
		usr: rand.New(rand.NewSource(seed + 2<<40)), ctx: ctx, types: []ir.Type{
			ctx.Tensor(ir.DenseTensor, []int64{2, 3}, f32),
			ctx.Tensor(ir.DenseTensor, []int64{2, 3}, f16),
			ctx.Tensor(ir.DenseTensor, []int64{3}, f32),
			ctx.Tensor(ir.ValueTensor, []int64{2, 3}, f32),
			ctx.Tensor(ir.DenseTensor, []int64{2, -1, 3}, i64),
			ctx.Vector(ctx.Tensor(ir.DenseTensor, []int64{2, 3}, f32)),
		}}
}

func (g *gen) chance(p float64) bool { return g.rng.Float64() < p }
func (g *gen) pick(n int) int        { return g.rng.Intn(n) }

// opKind describes an op of the alphabet: operand count range, result count range, whether operands may be null.
type opKind struct {
	name             string
	minOpd, maxOpd   int
	minRes, maxRes   int
	nullable, region bool
}

var alphabet = []opKind{
	{name: "t.src", minOpd: 0, maxOpd: 0, minRes: 1, maxRes: 1},
	{name: "t.a", minOpd: 1, maxOpd: 1, minRes: 1, maxRes: 1},
	{name: "t.a", minOpd: 1, maxOpd: 1, minRes: 1, maxRes: 1},
	{name: "t.b", minOpd: 2, maxOpd: 2, minRes: 1, maxRes: 1},
	{name: "t.b", minOpd: 2, maxOpd: 2, minRes: 1, maxRes: 1},
	{name: "t.c", minOpd: 0, maxOpd: 3, minRes: 1, maxRes: 1, nullable: true},
	{name: "t.m", minOpd: 1, maxOpd: 2, minRes: 2, maxRes: 3},
	{name: "t.n", minOpd: 2, maxOpd: 2, minRes: 1, maxRes: 1, nullable: true},
	{name: "t.sink", minOpd: 1, maxOpd: 2, minRes: 0, maxRes: 0},
	{name: "r.conv", minOpd: 2, maxOpd: 2, minRes: 1, maxRes: 1},
	{name: "r.k", minOpd: 0, maxOpd: 0, minRes: 1, maxRes: 1}, // ConstantLike: patterns match it by value
	{name: "t.if", minOpd: 1, maxOpd: 1, minRes: 1, maxRes: 1, region: true},
}

func (g *gen) attrs(opName string) []ir.NamedAttr {
	var out []ir.NamedAttr
	if opName == "r.k" { // two values, so that equal constants are common
		return []ir.NamedAttr{{Name: "value", Value: g.ctx.Int32(int32(g.pick(2)))}}
	}
	if g.chance(0.8) {
		out = append(out, ir.NamedAttr{Name: "k", Value: g.ctx.Int32(int32(g.pick(3)))})
	}
	if g.chance(0.5) {
		out = append(out, ir.NamedAttr{Name: "s", Value: g.ctx.Str([]string{"x", "y"}[g.pick(2)])})
	}
	if g.chance(0.3) {
		out = append(out, ir.NamedAttr{Name: "f", Value: g.ctx.Bool(g.chance(0.5))})
	}
	if opName == "r.conv" && g.chance(0.5) {
		out = append(out, ir.NamedAttr{Name: "data_format", Value: g.ctx.Str([]string{"NCHW", "NHWC"}[g.pick(2)])})
	}
	g.rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// motifOp is one op of a motif: a kind, attributes, and per operand the index of an earlier motif op whose
// result 0 it reads (-1: a value from outside the motif).
type motifOp struct {
	kind  opKind
	nres  int
	attrs []ir.NamedAttr
	from  []int
	types []ir.Type
}

// motif generates a small connected piece of program that program() instantiates several times, so that
// multi-op patterns find repeated structure (like the conv→bn→relu chains of real models).
func (g *gen) motif() []motifOp {
	var m []motifOp
	for i := 1 + g.pick(4); i > 0; i-- {
		k := alphabet[1+g.pick(len(alphabet)-2)] // neither sources nor regions
		mo := motifOp{kind: k, attrs: g.attrs(k.name), nres: k.minRes + g.pick(k.maxRes-k.minRes+1)}
		for j := k.minOpd + g.pick(k.maxOpd-k.minOpd+1); j > 0; j-- {
			from := -1
			if len(m) > 0 && g.chance(0.7) {
				from = len(m) - 1 - g.pick(min(2, len(m)))
				if m[from].nres == 0 {
					from = -1
				}
			}
			mo.from = append(mo.from, from)
		}
		for j := 0; j < mo.nres; j++ {
			mo.types = append(mo.types, g.types[g.pick(len(g.types))])
		}
		m = append(m, mo)
	}
	return m
}

// program generates a random program of about n ops (nested regions included): random ops mixed with repeated
// motifs.
func (g *gen) program(n int) *ir.Program {
	p := ir.NewProgram(g.ctx)
	b := ir.NewBuilder(g.ctx)
	motifs := [][]motifOp{g.motif(), g.motif()}
	pickValue := func(scope []*ir.Value) *ir.Value {
		if g.chance(0.6) {
			return scope[len(scope)-1-g.pick(min(4, len(scope)))]
		}
		return scope[g.pick(len(scope))]
	}
	var fill func(blk *ir.Block, scope []*ir.Value, budget int, depth int)
	fill = func(blk *ir.Block, scope []*ir.Value, budget int, depth int) {
		scope = slices.Clone(scope)
		for i := 0; i < budget; i++ {
			b.SetInsertionPointToEnd(blk)
			if len(scope) > 0 && g.chance(0.35) {
				m := motifs[g.pick(len(motifs))]
				var made []*ir.Op
				for _, mo := range m {
					spec := ir.OpSpec{Name: mo.kind.name, Attrs: mo.attrs, Results: mo.types}
					if g.chance(0.2) {
						spec.Attrs = g.attrs(mo.kind.name)
					}
					for _, f := range mo.from {
						if f >= 0 {
							spec.Operands = append(spec.Operands, made[f].Result(0))
						} else {
							spec.Operands = append(spec.Operands, pickValue(scope))
						}
					}
					op := b.Create(spec)
					made = append(made, op)
					i++
				}
				for _, op := range made {
					scope = append(scope, op.Results()...)
				}
				continue
			}
			k := alphabet[g.pick(len(alphabet))]
			if len(scope) == 0 || i < 2 && depth == 0 {
				k = alphabet[0]
			}
			if k.region && depth >= 2 {
				k = alphabet[1]
			}
			nopd := k.minOpd + g.pick(k.maxOpd-k.minOpd+1)
			spec := ir.OpSpec{Name: k.name, Attrs: g.attrs(k.name)}
			for j := 0; j < nopd; j++ {
				if k.nullable && j > 0 && g.chance(0.25) {
					spec.Operands = append(spec.Operands, nil)
					continue
				}
				if g.chance(0.15) { // a constant of its own for this reader, as programs built op by op have
					c := b.Create(ir.OpSpec{Name: "r.k", Attrs: g.attrs("r.k"), Results: []ir.Type{g.types[0]}})
					spec.Operands = append(spec.Operands, c.Result(0))
					continue
				}
				spec.Operands = append(spec.Operands, pickValue(scope))
			}
			nres := k.minRes + g.pick(k.maxRes-k.minRes+1)
			for j := 0; j < nres; j++ {
				spec.Results = append(spec.Results, g.types[g.pick(len(g.types))])
			}
			if k.region {
				spec.Regions = 1
			}
			op := b.Create(spec)
			if k.region {
				inner := op.Region(0).AddBlock()
				innerScope := slices.Clone(scope)
				if g.chance(0.5) {
					innerScope = append(innerScope, inner.AddArg(g.types[g.pick(len(g.types))]))
				}
				fill(inner, innerScope, 1+g.pick(4), depth+1)
			}
			scope = append(scope, op.Results()...)
		}
	}
	fill(p.Body(), nil, n, 0)
	return p
}

// ruleGen builds random rules from ops of a template program: it takes a connected piece of the template around a
// root op (producers, and sometimes users for multi-root patterns), then generalizes and perturbs it.
type ruleGen struct {
	*gen
	b        *rule.Builder
	names    map[*ir.Value]string
	nval     int
	attrHole map[string]string
	valHoles []string // value holes (not lists) created
	lists    []string
	attrs    []string // attribute holes created
	intAttrs []string // attribute holes bound to integer attributes (k)
	// constRead marks the internal values a pattern op read already (for second reads of constants).
	constRead map[*ir.Value]bool
}

func (g *gen) rule(name string, tmpl []*ir.Op) *rule.Rule {
	rg := &ruleGen{gen: g, names: map[*ir.Value]string{}, attrHole: map[string]string{}, constRead: map[*ir.Value]bool{}}
	b := rule.NewBuilder(g.ctx, name)
	rg.b = b
	b.Benefit(1 + g.pick(3))
	root := tmpl[g.pick(len(tmpl))]
	included := []*ir.Op{root}
	has := func(o *ir.Op) bool { return slices.Contains(included, o) }
	size := 1 + g.pick(4)
	for tries := 0; len(included) < size && tries < 10; tries++ {
		x := included[g.pick(len(included))]
		if g.chance(0.25) {
			// Multi-root: a user of a value the piece reads or defines.
			var vals []*ir.Value
			for _, o := range included {
				vals = append(vals, o.Results()...)
				for i := 0; i < o.NumOperands(); i++ {
					if v := o.Operand(i); v != nil {
						vals = append(vals, v)
					}
				}
			}
			if len(vals) == 0 {
				continue
			}
			users := vals[g.pick(len(vals))].Users()
			if len(users) > 0 {
				if u := users[g.pick(len(users))]; !has(u) {
					included = append(included, u)
				}
			}
			continue
		}
		if x.NumOperands() == 0 {
			continue
		}
		if v := x.Operand(g.pick(x.NumOperands())); v != nil && v.DefiningOp() != nil && !has(v.DefiningOp()) {
			included = append(included, v.DefiningOp())
		}
	}
	g.rng.Shuffle(len(included), func(i, j int) { included[i], included[j] = included[j], included[i] })
	// A constant equal to one included before it is sometimes left out, its readers naming the first one's result:
	// the pattern then names one constant that, in the program, several equal ops give (matched by value).
	var consts []*ir.Op
	included = slices.DeleteFunc(included, func(o *ir.Op) bool {
		if o.Name() != "r.k" || o.NumResults() != 1 {
			return false
		}
		for _, c := range consts {
			if c.Attr("value") == o.Attr("value") && c.Result(0).Type() == o.Result(0).Type() && g.chance(0.5) {
				rg.names[o.Result(0)] = rg.valueName(c.Result(0))
				return true
			}
		}
		consts = append(consts, o)
		return false
	})
	// Values read by included ops from included ops must be holes defined by results.
	internal := map[*ir.Value]bool{}
	var internalOrder []*ir.Value // for deterministic iteration
	for _, o := range included {
		for i := 0; i < o.NumOperands(); i++ {
			if v := o.Operand(i); v != nil && v.DefiningOp() != nil && has(v.DefiningOp()) && !internal[v] {
				internal[v] = true
				internalOrder = append(internalOrder, v)
			}
		}
	}
	var opBuilders []*rule.OpBuilder
	for _, o := range included {
		opBuilders = append(opBuilders, rg.op(o, internal))
	}
	// Types, sharing, constraints.
	for _, h := range rg.valHoles {
		if g.chance(0.15) {
			rg.typePattern(h)
		}
	}
	for _, h := range rg.lists {
		if g.chance(0.2) {
			rg.typePattern(h)
		}
	}
	for _, v := range internalOrder {
		if g.chance(0.5) {
			b.Shared(rg.names[v])
		}
	}
	for i := g.pick(3); i > 0; i-- {
		if w := rg.where(); w != nil {
			b.Where(w)
		}
	}
	if g.chance(0.3) {
		b.Root(opBuilders[g.pick(len(opBuilders))])
	} else {
		b.ChooseRoot = ChooseRoot
	}
	r, err := b.Build()
	if err != nil {
		panic(err)
	}
	if _, err := compileRule(r, g.ctx, newTables()); err != nil {
		// A root from which the piece is not connected: use the deterministic choice.
		r.Pattern.Root = ChooseRoot(r.Pattern)
		if _, err := compileRule(r, g.ctx, newTables()); err != nil {
			return nil // the piece fell apart (wildcards cut it); try again
		}
	}
	return r
}

func (rg *ruleGen) valueName(v *ir.Value) string {
	if n, ok := rg.names[v]; ok {
		return n
	}
	rg.nval++
	n := "%v" + strconv.Itoa(rg.nval)
	rg.names[v] = n
	return n
}

func (rg *ruleGen) op(o *ir.Op, internal map[*ir.Value]bool) *rule.OpBuilder {
	g := rg.gen
	name := o.Name()
	switch {
	case g.chance(0.1):
		name = ""
	case g.chance(0.04):
		name = alphabet[g.pick(len(alphabet))].name
	}
	var operands []any
	for i := 0; i < o.NumOperands(); i++ {
		v := o.Operand(i)
		switch {
		case v == nil && g.chance(0.7):
			operands = append(operands, "null")
		case v == nil:
			operands = append(operands, "_")
		case internal[v] && v.DefiningOp().Name() == "r.k" && rg.constRead[v] && g.chance(0.5):
			// A constant read again is written as a second pattern op: both may bind the one program op.
			rg.nval++
			n := "%k" + strconv.Itoa(rg.nval)
			rg.b.Op("r.k").Attr("value", v.DefiningOp().Attr("value")).Results(n).Constant()
			operands = append(operands, n)
		case internal[v]:
			operands = append(operands, rg.valueName(v))
			rg.constRead[v] = true
		case g.chance(0.15):
			operands = append(operands, "_")
		case g.chance(0.04) && len(rg.valHoles) > 0:
			operands = append(operands, rg.valHoles[g.pick(len(rg.valHoles))]) // a wrong repetition
		default:
			n := rg.valueName(v)
			operands = append(operands, n)
			if !slices.Contains(rg.valHoles, n) {
				rg.valHoles = append(rg.valHoles, n)
			}
		}
	}
	if g.chance(0.15) {
		// A list tail from a cut point, unless it would swallow an internal value.
		cut := g.pick(len(operands) + 1)
		ok := true
		for i := cut; i < o.NumOperands(); i++ {
			if v := o.Operand(i); v != nil && internal[v] {
				ok = false
			}
		}
		if ok {
			rg.nval++
			l := "%l" + strconv.Itoa(rg.nval)
			rg.lists = append(rg.lists, l)
			operands = append(operands[:cut:cut], l+"...")
		}
	}
	if g.chance(0.03) && !(len(operands) > 0 && strings.HasSuffix(fmt.Sprint(operands[len(operands)-1]), "...")) {
		operands = append(operands, "_") // a wrong arity
	}
	ob := rg.b.Op(name, operands...)
	if name == "r.k" && len(operands) == 0 {
		ob.Constant()
	}
	if len(operands) >= 2 && g.chance(0.3) {
		s0, ok0 := operands[0].(string)
		s1, ok1 := operands[1].(string)
		if ok0 && ok1 && !strings.HasSuffix(s0, "...") && !strings.HasSuffix(s1, "...") {
			ob.Commutative()
		}
	}
	// Results: internal values must be bound; others are outputs, _ or cut off with "...".
	lastNeeded := -1
	for i := 0; i < o.NumResults(); i++ {
		if internal[o.Result(i)] {
			lastNeeded = i
		}
	}
	var results []string
	cut := o.NumResults()
	if o.NumResults() > 0 && g.chance(0.2) {
		cut = lastNeeded + 1 + g.pick(o.NumResults()-lastNeeded)
	}
	for i := 0; i < cut; i++ {
		r := o.Result(i)
		if internal[r] || r.HasUses() && g.chance(0.9) || g.chance(0.5) {
			n := rg.valueName(r)
			results = append(results, n)
			rg.valHoles = append(rg.valHoles, n)
		} else {
			results = append(results, "_")
		}
	}
	if cut < o.NumResults() || g.chance(0.05) {
		results = append(results, "...")
	}
	if len(results) > 0 {
		ob.Results(results...)
	}
	// Names dropped by a list cut never reached the builder.
	rg.valHoles = slices.DeleteFunc(rg.valHoles, func(n string) bool { return rg.b.ValueIndex(n) < 0 })
	for _, a := range o.Attrs() {
		if !g.chance(0.6) {
			continue
		}
		switch x := g.rng.Float64(); {
		case x < 0.45:
			h, ok := rg.attrHole[a.Name]
			if !ok || g.chance(0.3) {
				h = "$" + a.Name + strconv.Itoa(len(rg.attrs))
				rg.attrHole[a.Name] = h
			}
			ob.Attr(a.Name, h)
			if !slices.Contains(rg.attrs, h) {
				rg.attrs = append(rg.attrs, h)
				if a.Name == "k" {
					rg.intAttrs = append(rg.intAttrs, h)
				}
			}
		case x < 0.8:
			ob.Attr(a.Name, a.Value)
		case x < 0.9:
			ob.Attr(a.Name, rg.otherAttr(a))
		default:
			ob.Attr(a.Name, "_")
		}
	}
	if g.chance(0.1) {
		if g.chance(0.5) {
			ob.Attr("data_format", "$df")
		} else {
			ob.Attr("zz", "_")
		}
	}
	if g.chance(0.1) {
		rg.nval++
		ob.RestAttrs("$rest" + strconv.Itoa(rg.nval))
	}
	return ob
}

func (rg *ruleGen) otherAttr(a ir.NamedAttr) ir.Attribute {
	ctx := rg.ctx
	switch a.Name {
	case "k":
		return ctx.Int32(int32(rg.pick(3)))
	case "s":
		return ctx.Str("y")
	case "f":
		return ctx.Bool(true)
	}
	return ctx.Str("NHWC")
}

func (rg *ruleGen) typePattern(h string) {
	g, b := rg.gen, rg.b
	switch x := g.rng.Float64(); {
	case x < 0.3:
		b.Type(h, b.ExactType(g.types[g.pick(len(g.types))]))
	case x < 0.5:
		b.Type(h, b.TypeHole("$t"+strconv.Itoa(g.pick(2))))
	default:
		var dims []string
		for i := g.pick(4); i > 0; i-- {
			switch y := g.rng.Float64(); {
			case y < 0.3:
				dims = append(dims, []string{"2", "3", "-1"}[g.pick(3)])
			case y < 0.55:
				dims = append(dims, "?")
			case y < 0.8:
				dims = append(dims, "$d"+strconv.Itoa(g.pick(2)))
			default:
				if !slices.Contains(dims, "*") {
					dims = append(dims, "*")
				}
			}
		}
		dtype := []string{"f32", "f16", "?", "$dt"}[g.pick(4)]
		var spellings []string
		if g.chance(0.2) {
			spellings = []string{ir.ValueTensor}
		}
		b.Type(h, b.Tensor(dims, dtype, spellings...))
	}
}

func (rg *ruleGen) where() rule.Expr {
	g, b := rg.gen, rg.b
	cmps := []string{"==", "!=", "<", "<=", ">", ">="}
	switch x := g.pick(9); {
	case x <= 2 && len(rg.valHoles) > 0:
		u := b.Uses(rg.valHoles[g.pick(len(rg.valHoles))])
		if g.chance(0.3) {
			return rule.Bin(cmps[g.pick(len(cmps))], rule.Int(int64(g.pick(3))), u)
		}
		return rule.Bin(cmps[g.pick(len(cmps))], u, rule.Int(int64(g.pick(3))))
	case x == 3 && len(rg.attrs) >= 2:
		return rule.Bin("==", b.H(rg.attrs[0]), b.H(rg.attrs[1]))
	case x == 4 && len(rg.intAttrs) > 0:
		return rule.Bin("<", b.H(rg.intAttrs[g.pick(len(rg.intAttrs))]), rule.Int(int64(g.pick(3))))
	case x == 5 && len(rg.valHoles) > 0:
		v := b.V(rg.valHoles[g.pick(len(rg.valHoles))])
		if g.chance(0.5) {
			return rule.Bin("==", rule.Fn("rank", v), rule.Int(2))
		}
		return rule.Fn("immutable", v)
	case x == 6 && len(rg.lists) > 0:
		return rule.Bin(">=", rule.Fn("len", b.V(rg.lists[0])), rule.Int(1))
	case x == 7 && len(rg.intAttrs) > 0:
		return rule.NativeFn("even", b.H(rg.intAttrs[0]))
	case x == 8 && len(rg.attrs) > 0:
		return rule.Bin("<", b.H(rg.attrs[0]), rule.Str("a")) // an error unless the attribute is a string
	}
	return nil
}

// ruleSet generates a set of rules; their roots come from a few template ops, so rules share roots and prefixes.
func (g *gen) ruleSet(tmpl *ir.Program, n int) *rule.Set {
	ops := allOps(tmpl)
	var roots []*ir.Op
	for i := 0; i < 4; i++ {
		roots = append(roots, ops[g.pick(len(ops))])
	}
	var rules []*rule.Rule
	for i := 0; i < n; i++ {
		var from []*ir.Op
		if g.chance(0.7) {
			from = []*ir.Op{roots[g.pick(len(roots))]}
		} else {
			from = ops
		}
		var r *rule.Rule
		for r == nil {
			r = g.rule("r"+strconv.Itoa(i), from)
		}
		if g.alt.Float64() < 0.3 {
			r = g.withAlternatives(r)
		}
		rules = append(rules, r)
	}
	for i := 0; i < 2; i++ {
		if g.usr.Float64() < 0.5 {
			if r := g.usersRule("u"+strconv.Itoa(i), ops[g.usr.Intn(len(ops))]); r != nil {
				rules = append(rules, r)
			}
		}
	}
	return rule.NewSet(g.ctx, rules...)
}

// usersRule returns a users group (rule.UsersGroup) made from template op u: its op, each of min to max users of
// one of its operands %x, the other operands per element, some attributes bound to shared $holes or literals, and
// sometimes a per-element constraint (immutable), a group one (uses(%x)) and a group one on the lists (len); nil
// when u has no results or no operand.
func (g *gen) usersRule(name string, u *ir.Op) *rule.Rule {
	var present []int
	for i := 0; i < u.NumOperands(); i++ {
		if u.Operand(i) != nil {
			present = append(present, i)
		}
	}
	if len(present) == 0 || u.NumResults() == 0 {
		return nil
	}
	rng := g.usr
	j := present[rng.Intn(len(present))]
	b := rule.NewBuilder(g.ctx, name)
	b.Benefit(1 + rng.Intn(3))
	lo := 1 + rng.Intn(3)
	var elemWhere []int
	var where []rule.Expr
	operands := make([]any, u.NumOperands())
	for i := range operands {
		switch {
		case i == j:
			operands[i] = "%x"
		case u.Operand(i) == nil:
			operands[i] = "null"
		case rng.Float64() < 0.2:
			operands[i] = "_"
		default:
			operands[i] = "%a" + strconv.Itoa(i)
		}
	}
	b.Users("%x", lo, lo+rng.Intn(4))
	ob := b.Op(u.Name(), operands...)
	results := make([]string, u.NumResults())
	for i := range results {
		results[i] = "%r" + strconv.Itoa(i)
	}
	ob.Results(results...)
	for _, a := range u.Attrs() {
		switch x := rng.Float64(); {
		case x < 0.4:
			ob.Attr(a.Name, "$"+a.Name)
		case x < 0.6:
			ob.Attr(a.Name, a.Value)
		}
	}
	for i, o := range operands {
		if s, ok := o.(string); ok && s == "%a"+strconv.Itoa(i) && rng.Float64() < 0.3 {
			elemWhere = append(elemWhere, len(where))
			where = append(where, rule.Fn("immutable", b.V(s)))
			break
		}
	}
	if rng.Float64() < 0.3 {
		where = append(where, &rule.Binary{Op: ">=", X: b.Uses("%x"), Y: rule.Int(int64(1 + rng.Intn(3)))})
	}
	if rng.Float64() < 0.3 {
		where = append(where, &rule.Binary{Op: "<=", X: rule.Fn("len", b.V("%r0")), Y: rule.Int(int64(1 + rng.Intn(4)))})
	}
	b.Where(where...)
	b.Pattern().Users.ElemWhere = elemWhere
	r, err := b.Build()
	if err != nil {
		return nil
	}
	return r
}

// withAlternatives returns r with one operand made alternatives (when one fits): an operand that reads the result
// of a producer subtree only it reads becomes `subtree | %x`, or `%x | subtree`, where %x is another value of the
// pattern or a new input. Its where clause goes (it may name what only the subtree binds).
func (g *gen) withAlternatives(r *rule.Rule) *rule.Rule {
	p := r.Pattern
	readers := make([][][2]int, len(p.Values)) // value → (op, operand) reading it
	for k, op := range p.Ops {
		for j, o := range op.Operands {
			if o.Kind == rule.OperandValue || o.Kind == rule.OperandList {
				readers[o.Value] = append(readers[o.Value], [2]int{k, j})
			}
		}
	}
	type cand struct{ k, j, h, d int }
	var cands []cand
	// stmt makes the group an optional statement's: the subtree's value has several readers, which all read the
	// group's value.
	stmt := g.alt.Float64() < 0.4
	for k, op := range p.Ops {
		for j, o := range op.Operands {
			if o.Kind != rule.OperandValue {
				continue
			}
			h := o.Value
			if d := p.Values[h].Def; d >= 0 && d != p.Root && !p.Ops[d].Constant && !p.Values[h].Shared &&
				(len(readers[h]) == 1) != stmt && (!stmt || slices.Index(readers[h], [2]int{k, j}) == 0) {
				cands = append(cands, cand{k, j, h, d})
			}
		}
	}
	if len(cands) == 0 {
		return r
	}
	c := cands[g.alt.Intn(len(cands))]
	// The subtree: d and the producers only it reaches.
	in := map[int]bool{c.d: true}
	onlyIn := func(e int) bool {
		for _, res := range p.Ops[e].Results {
			if res.Value < 0 {
				continue
			}
			for _, rd := range readers[res.Value] {
				if !in[rd[0]] {
					return false
				}
			}
		}
		return true
	}
	for grew := true; grew; {
		grew = false
		for k := range in {
			for _, o := range p.Ops[k].Operands {
				if o.Kind != rule.OperandValue {
					continue
				}
				if e := p.Values[o.Value].Def; e >= 0 && !in[e] && e != p.Root && e != c.k && onlyIn(e) {
					in[e], grew = true, true
				}
			}
		}
	}
	// No op outside reads a value the subtree defines, but for the operand made alternatives (and, for a
	// statement, the other readers of its value).
	for k := range p.Ops {
		if in[k] {
			continue
		}
		for j, o := range p.Ops[k].Operands {
			if (o.Kind == rule.OperandValue || o.Kind == rule.OperandList) && p.Values[o.Value].Def >= 0 &&
				in[p.Values[o.Value].Def] && !(k == c.k && j == c.j) && !(stmt && o.Kind == rule.OperandValue && o.Value == c.h) {
				return r
			}
		}
	}
	q := &rule.Pattern{Root: p.Root, Holes: p.Holes, Values: slices.Clone(p.Values)}
	for _, op := range p.Ops {
		o := *op
		o.Operands = slices.Clone(op.Operands)
		q.Ops = append(q.Ops, &o)
	}
	// The other alternative: a value of the rest of the pattern, or a new input.
	var others []int
	for h, v := range p.Values {
		if h != c.h && !v.List && (v.Def < 0 || !in[v.Def]) && len(readers[h]) > 0 {
			others = append(others, h)
		}
	}
	x := -1
	if len(others) > 0 && g.alt.Float64() < 0.6 {
		x = others[g.alt.Intn(len(others))]
	} else {
		x = len(q.Values)
		q.Values = append(q.Values, &rule.ValueHole{Name: "alt_x", Def: -1})
	}
	a := len(q.Values)
	q.Values = append(q.Values, &rule.ValueHole{Name: "alt", Def: -1})
	var ops []int
	for k := range p.Ops {
		if in[k] {
			ops = append(ops, k)
		}
	}
	branches := []rule.AltBranch{{Value: c.h, Ops: ops}, {Value: x}}
	if g.alt.Float64() < 0.5 {
		branches[0], branches[1] = branches[1], branches[0]
	}
	q.Alts = []*rule.AltGroup{{Op: c.k, Operand: c.j, Value: a, Branches: branches}}
	q.Ops[c.k].Operands[c.j] = rule.OperandPattern{Kind: rule.OperandAlt, Value: a, Alt: 0}
	if stmt {
		// An optional statement's group (language.md §4.8, `%a = subtree?`): the other readers of the subtree's
		// value read the group's value, so that every reader reads the one value the alternatives chose.
		for _, rd := range readers[c.h] {
			if rd != [2]int{c.k, c.j} {
				q.Ops[rd[0]].Operands[rd[1]] = rule.OperandPattern{Kind: rule.OperandValue, Value: a}
			}
		}
		q.Alts[0].Statement = true
	}
	out := *r
	out.Pattern, out.Where = q, nil
	if _, err := NewPlan(&out); err != nil {
		return r
	}
	return &out
}

// sameMatches compares two match lists exactly: rules, ops, values, lists and holes (attributes, types, dims,
// dtypes by ==, attribute lists element-wise).
func sameMatches(a, b []*rule.Match) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Rule != y.Rule || !slices.Equal(x.Ops, y.Ops) || !slices.Equal(x.Values, y.Values) ||
			len(x.Lists) != len(y.Lists) || len(x.Holes) != len(y.Holes) {
			return false
		}
		for j := range x.Lists {
			if (x.Lists[j] == nil) != (y.Lists[j] == nil) || !slices.Equal(x.Lists[j], y.Lists[j]) {
				return false
			}
		}
		for j := range x.Holes {
			if (x.Holes[j] == nil) != (y.Holes[j] == nil) || x.Holes[j] != nil && !holeEqual(x.Holes[j], y.Holes[j]) {
				return false
			}
			if fmt.Sprintf("%T", x.Holes[j]) != fmt.Sprintf("%T", y.Holes[j]) {
				return false
			}
		}
	}
	return true
}

type diffStats struct {
	programs, ops, rules, matches, explained int
	perRule                                  map[string]int
	// features counts matches by the pattern features they exercise.
	features map[string]int
}

// countFeatures records which features a match exercises.
func (st *diffStats) countFeatures(m *rule.Match) {
	p := m.Rule.Pattern
	add := func(f string) { st.features[f]++ }
	if p.Users != nil {
		add("users group")
		if len(m.Group) > 1 {
			add("users group: several elements")
		}
	}
	if len(p.Ops) > 1 {
		add("several ops")
	}
	if _, ok := upwardSteps(p, p.Root); ok {
		if n, _ := upwardSteps(p, p.Root); n > 0 {
			add("multi-root (users)")
		}
	}
	for k, op := range p.Ops {
		if op.Name == "" {
			add("any-op")
		}
		if m.Ops[k] == nil {
			continue // an op of an alternative not taken
		}
		if op.Commutative {
			add("commutative")
			if m.Ops[k].NumOperands() >= 2 && op.Operands[0].Kind == rule.OperandValue {
				if v := m.Values[op.Operands[0].Value]; v != nil && v == m.Ops[k].Operand(1) && v != m.Ops[k].Operand(0) {
					add("commutative swapped")
				}
			}
		}
		if op.MoreResults {
			add("more results")
		}
		if op.RestAttrs >= 0 {
			add("rest attrs")
		}
		for _, o := range op.Operands {
			switch o.Kind {
			case rule.OperandList:
				add("list operand")
			case rule.OperandNull:
				add("null operand")
			}
		}
		for _, r := range op.Results {
			if r.Value < 0 {
				add("_ result")
			}
		}
		for _, a := range op.Attrs {
			add("attr kind " + strconv.Itoa(int(a.Kind)))
		}
	}
	for g, a := range p.Alts {
		taken := 0 // the branch whose value the operand is
		for b, br := range a.Branches {
			if m.Values[br.Value] == m.Values[a.Value] {
				taken = b
				break
			}
		}
		add("alternatives")
		if taken > 0 {
			add("alternatives: a later one")
		}
		if d := p.Values[a.Branches[taken].Value].Def; d >= 0 && slices.Contains(a.Branches[taken].Ops, d) {
			add("alternatives: an op")
		}
		if a.Statement {
			add("alternatives: statement")
		}
		_ = g
	}
	for k, op := range p.Ops {
		if !op.Constant || m.Ops[k] == nil {
			continue
		}
		for b := k + 1; b < len(p.Ops); b++ {
			if p.Ops[b].Constant && m.Ops[b] == m.Ops[k] {
				add("constants: two patterns, one op")
			}
		}
		for _, r := range op.Results {
			if r.Value < 0 {
				continue
			}
			for j, user := range p.Ops {
				for i, o := range user.Operands {
					if o.Kind == rule.OperandValue && o.Value == r.Value && m.Ops[j] != nil && i < m.Ops[j].NumOperands() {
						if w := m.Ops[j].Operand(i); w != m.Values[r.Value] && (i > 1 || w != m.Ops[j].Operand(1-i)) {
							add("constants: equal ops")
						}
					}
				}
			}
		}
	}
	for h, v := range p.Values {
		if v.Type != nil {
			add("type pattern")
		}
		if isInternal(p, h) {
			add("closure")
		}
		if v.Shared {
			add("shared")
		}
	}
	if len(m.Rule.Where) > 0 {
		add("where")
	}
}

// runDifferential checks one seed: a program and a rule set; explain says whether to run Explain too.
func runDifferential(t *testing.T, seed int64, explain bool, st *diffStats) {
	ctx := semCtx(t)
	g := newGen(seed, ctx)
	prog := g.program(20 + g.pick(40))
	tmpl := prog
	if g.chance(0.4) {
		tmpl = g.program(20 + g.pick(30))
	}
	set := g.ruleSet(tmpl, 5+g.pick(20))
	auto, err := Compile(set, Options{})
	require.NoError(t, err, "seed %d", seed)
	linear, err := Compile(set, Options{NoTree: true})
	require.NoError(t, err)
	ref := newRef()
	num := ir.NumberValues(prog.Body())
	name := func(v *ir.Value) string { return num.Name(v) }
	m := auto.NewMatcher()
	var buf []*rule.Match
	st.programs++
	st.rules += len(set.Rules)
	for _, op := range allOps(prog) {
		st.ops++
		want := ref.match(set, op, testOracle)
		buf = m.MatchInto(buf, op, testOracle)
		got := buf
		if !sameMatches(want, got) {
			var ws, gs []string
			for _, x := range want {
				ws = append(ws, showMatch(x, name))
			}
			for _, x := range got {
				gs = append(gs, showMatch(x, name))
			}
			var rules strings.Builder
			for _, r := range set.Rules {
				rules.WriteString(rule.FormatRule(r))
			}
			var dump strings.Builder
			_ = auto.Dump(&dump)
			require.FailNowf(t, "automaton and reference differ", "seed %d at %s\nreference: %v\nautomaton: %v\n%s",
				seed, num.Describe(op), ws, gs, rules.String())
		}
		if lin := linear.Match(op, testOracle); !sameMatches(want, lin) {
			require.FailNowf(t, "NoTree automaton and reference differ", "seed %d at %s", seed, num.Describe(op))
		}
		st.matches += len(want)
		for _, x := range want {
			st.perRule[x.Rule.ID()]++
			st.countFeatures(x)
		}
		if explain {
			var ex []*rule.Match
			for _, e := range Explain(set, "", op, testOracle, num) {
				st.explained++
				if e.Match != nil {
					ex = append(ex, e.Match)
				} else if e.Failure == nil {
					require.FailNowf(t, "explanation without match or failure", "seed %d rule %s", seed, e.Rule.ID())
				}
			}
			sortMatches(ex)
			if !sameMatches(want, ex) {
				require.FailNowf(t, "Explain and reference differ", "seed %d at %s", seed, num.Describe(op))
			}
		}
	}
}

// differentialSeeds is the number of random programs (each with its own random rule set).
const differentialSeeds = 3000

func TestDifferential(t *testing.T) {
	n := differentialSeeds
	if testing.Short() || raceEnabled {
		n = 300
	}
	const chunks = 4
	stats := make([]*diffStats, chunks)
	t.Run("seeds", func(t *testing.T) {
		for c := 0; c < chunks; c++ {
			st := &diffStats{perRule: map[string]int{}, features: map[string]int{}}
			stats[c] = st
			t.Run(fmt.Sprintf("chunk%d", c), func(t *testing.T) {
				t.Parallel()
				for seed := int64(1 + c); seed <= int64(n); seed += chunks {
					runDifferential(t, seed, seed%5 == 0, st)
				}
			})
		}
	})
	st := &diffStats{features: map[string]int{}}
	for _, s := range stats {
		st.programs += s.programs
		st.ops += s.ops
		st.rules += s.rules
		st.matches += s.matches
		st.explained += s.explained
		for f, c := range s.features {
			st.features[f] += c
		}
	}
	t.Logf("%d programs, %d ops, %d rules, %d matches, %d explanations", st.programs, st.ops, st.rules, st.matches,
		st.explained)
	var feats []string
	for f, c := range st.features {
		feats = append(feats, fmt.Sprintf("%s: %d", f, c))
	}
	slices.Sort(feats)
	t.Logf("matches by feature: %s", strings.Join(feats, ", "))
	// The generator must produce matches exercising every feature, or the test proves little.
	require.Equal(t, n, st.programs)
	require.Greater(t, st.matches, st.ops/6)
	for _, f := range []string{"several ops", "multi-root (users)", "any-op", "commutative", "commutative swapped",
		"more results", "rest attrs", "list operand", "null operand", "_ result", "type pattern", "closure",
		"shared", "where", "attr kind 0", "attr kind 1", "attr kind 2", "constants: two patterns, one op",
		"constants: equal ops", "alternatives", "alternatives: a later one", "alternatives: an op",
		"alternatives: statement", "users group",
		"users group: several elements"} {
		require.Greater(t, st.features[f], n/100, "too few matches with %s", f)
	}
}
