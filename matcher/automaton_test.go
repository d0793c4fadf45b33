package matcher

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

func TestChooseRoot(t *testing.T) {
	ctx := ir.NewContext()
	cases := []struct {
		name  string
		build func(b *rule.Builder)
		want  int
	}{
		{"single op", func(b *rule.Builder) { b.Op("t.a", "%x") }, 0},
		{"chain: the consumer", func(b *rule.Builder) {
			b.Op("t.a", "%x").Results("%y")
			b.Op("t.b", "%y").Results("%z")
		}, 1},
		{"consumer written first", func(b *rule.Builder) {
			b.Op("t.b", "%y").Results("%z")
			b.Op("t.a", "%x").Results("%y")
		}, 0},
		{"two outputs: tie, last wins", func(b *rule.Builder) {
			b.Op("t.exp", "%x").Results("%e")
			b.Op("t.log", "%x").Results("%l")
		}, 1},
		{"fewest upward steps", func(b *rule.Builder) {
			// Output op1 reaches op0 downward and op2 upward; output op2 needs two upward steps.
			b.Op("t.a", "%x").Results("%y")
			b.Op("t.b", "%y", "%x").Results("%z")
			b.Op("t.c", "%x")
		}, 1},
		{"diamond", func(b *rule.Builder) {
			b.Op("t.src", "%x").Results("%a")
			b.Op("t.l", "%a").Results("%l")
			b.Op("t.r", "%a").Results("%r")
			b.Op("t.add", "%l", "%r").Results("%s")
		}, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := rule.NewBuilder(ctx, "r")
			c.build(b)
			r := b.MustBuild()
			assert.Equal(t, c.want, ChooseRoot(r.Pattern))
			r.Pattern.Root = ChooseRoot(r.Pattern)
			_, err := Compile(rule.NewSet(ctx, r), Options{})
			assert.NoError(t, err, "the chosen root reaches every op")
		})
	}
	assert.Equal(t, 0, ChooseRoot(&rule.Pattern{}))
	bad := &rule.Pattern{Ops: []*rule.OpPattern{{}, {Operands: []rule.OperandPattern{{Value: 7}}}}}
	assert.Equal(t, 1, ChooseRoot(bad), "malformed: the last op")
}

func TestCompileRejectsMalformedPatterns(t *testing.T) {
	ctx := ir.NewContext()
	valid := func() *rule.Rule {
		b := rule.NewBuilder(ctx, "r")
		b.Op("t.a", "%x").Attr("k", "$k").Results("%y")
		b.Op("t.b", "%y", "%xs...").Results("%z")
		return b.MustBuild()
	}
	cases := []struct {
		name   string
		mutate func(r *rule.Rule)
		err    string
	}{
		{"no ops", func(r *rule.Rule) { r.Pattern.Ops = nil }, "the pattern has no ops"},
		{"root", func(r *rule.Rule) { r.Pattern.Root = 5 }, "root 5 out of range"},
		{"operand index", func(r *rule.Rule) { r.Pattern.Ops[0].Operands[0].Value = 9 }, "value 9 out of range"},
		{"list as value", func(r *rule.Rule) { r.Pattern.Ops[1].Operands[0].Value = 2 }, "%xs is a list"},
		{"value as list", func(r *rule.Rule) { r.Pattern.Ops[1].Operands[1].Value = 0 }, "%x is not a list"},
		{"list not last", func(r *rule.Rule) {
			ops := r.Pattern.Ops[1].Operands
			ops[0], ops[1] = ops[1], ops[0]
		}, "the list operand must be last"},
		{"operand kind", func(r *rule.Rule) { r.Pattern.Ops[0].Operands[0].Kind = 9 }, "unknown operand kind 9"},
		{"commutative", func(r *rule.Rule) { r.Pattern.Ops[1].Commutative = true }, "commutative op needs two single"},
		{"result def", func(r *rule.Rule) { r.Pattern.Values[1].Def = 1 }, "result 0 binds %y, whose definition"},
		{"attr hole kind", func(r *rule.Rule) { r.Pattern.Holes[0].Kind = rule.HoleDim }, "$k has the wrong kind"},
		{"attr literal", func(r *rule.Rule) { r.Pattern.Ops[0].Attrs[0].Kind = rule.AttrEquals }, "nil literal"},
		{"rest attrs", func(r *rule.Rule) { r.Pattern.Ops[0].RestAttrs = 0 }, "rest attributes: $k has the wrong kind"},
		{"unbound value", func(r *rule.Rule) {
			r.Pattern.Values = append(r.Pattern.Values, &rule.ValueHole{Name: "free", Def: -1})
		}, "%free: not bound by the pattern"},
		{"type hole", func(r *rule.Rule) { r.Pattern.Values[0].Type = &rule.TypePattern{Hole: 0} }, "bad hole 0"},
		{"dtype hole zero value", func(r *rule.Rule) {
			r.Pattern.Values[0].Type = &rule.TypePattern{Hole: -1, Tensor: &rule.TensorPattern{DType: ir.DTypeFloat32}}
		}, "bad hole 0"},
		{"disconnected", func(r *rule.Rule) { r.Pattern.Ops[1].Operands[0] = rule.OperandPattern{Kind: rule.OperandAny} },
			"op 0 (t.a) is not connected to the root"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := valid()
			c.mutate(r)
			_, err := Compile(rule.NewSet(ctx, r), Options{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.err)
			assert.True(t, strings.HasPrefix(err.Error(), "rule r: "), err.Error())
			ex := Explain(rule.NewSet(ctx, r), "r", ir.NewProgram(ctx).Module, nil, nil)
			require.Len(t, ex, 1)
			assert.Contains(t, ex[0].Failure.Message, "invalid pattern")
		})
	}
	_, err := Compile(&rule.Set{}, Options{})
	assert.Error(t, err)
}

// A driver passing its previous result back to MatchInto does not allocate.
func TestMatchIntoDoesNotAllocate(t *testing.T) {
	ctx := ir.NewContext()
	p := benchProgram(ctx, 200, 1)
	a, err := Compile(rule.NewSet(ctx, benchRules(ctx)...), Options{})
	require.NoError(t, err)
	ops := allOps(p)
	m := a.NewMatcher()
	var buf []*rule.Match
	matched := 0
	for _, op := range ops {
		buf = m.MatchInto(buf, op, nil)
		matched += len(buf)
	}
	require.Positive(t, matched)
	allocs := testing.AllocsPerRun(5, func() {
		for _, op := range ops {
			buf = m.MatchInto(buf, op, nil)
		}
	})
	assert.Zero(t, allocs)
}

func TestMatchesAreIndependent(t *testing.T) {
	ctx := semCtx(t)
	tp := parseProg(t, ctx, `
%x = t.src()
%w = t.src()
%y = t.concat(%x, %w)
%z = t.concat(%w, %x)`)
	b := rb(ctx, "cat")
	b.Op("t.concat", "%xs...").Results("%r")
	a, err := Compile(rule.NewSet(ctx, b.MustBuild()), Options{})
	require.NoError(t, err)
	m := a.NewMatcher()
	first := m.Match(tp.ops["%y"], nil)
	keep := first[0].Clone()
	buf := m.MatchInto(first, tp.ops["%z"], nil)
	assert.Same(t, first[0], buf[0], "MatchInto reuses the Match")
	assert.Equal(t, []string{"cat{op0=%z %xs...=[%w %x] %r=%z}"}, tp.showAll(buf))
	assert.Equal(t, "cat{op0=%y %xs...=[%x %w] %r=%y}", tp.show(keep), "a clone keeps its bindings")
}

func TestConcurrentMatch(t *testing.T) {
	ctx := ir.NewContext()
	p := benchProgram(ctx, 300, 3)
	set := rule.NewSet(ctx, benchRules(ctx)...)
	a, err := Compile(set, Options{})
	require.NoError(t, err)
	ops := allOps(p)
	want := make([]int, len(ops))
	for i, op := range ops {
		want[i] = len(a.Match(op, nil))
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, op := range ops {
				if got := len(a.MatchInto(nil, op, nil)); got != want[i] {
					t.Errorf("op %d: %d matches, want %d", i, got, want[i])
				}
			}
		}()
	}
	wg.Wait()
}

func TestOtherContextIsNotMisdispatched(t *testing.T) {
	ctx := ir.NewContext()
	ctx.OpInfo("t.filler")
	b := rule.NewBuilder(ctx, "relu")
	b.Op("t.relu", "%x").Results("%y")
	a, err := Compile(rule.NewSet(ctx, b.MustBuild()), Options{})
	require.NoError(t, err)
	// In another Context, make an op kind with the ID t.relu has in ctx.
	other := ir.NewContext()
	id := ctx.OpInfo("t.relu").ID
	name := ""
	for i := 0; name == "" || other.OpInfo(name).ID < id; i++ {
		name = "t.other" + itoa(i)
	}
	require.Equal(t, id, other.OpInfo(name).ID)
	tp := parseProg(t, other, "%x = "+name+"()\n%y = t.relu(%x)")
	assert.Empty(t, a.Match(tp.ops["%x"], nil), "same ID, other Context: not the t.relu tree")
	assert.Empty(t, a.Match(tp.ops["%y"], nil), "ops of another Context are not matched")
}

func TestProgramOrder(t *testing.T) {
	ctx := semCtx(t)
	tp := parseProg(t, ctx, `
%x = t.src()
@a t.use(%x)
@if t.if(%x) [
@b t.use(%x)
@inner t.if(%x) [
@c t.use(%x)
]
@d t.use(%x)
]
@e t.use(%x)`)
	ifOp := tp.ops["@if"]
	names := []string{"@a", "@if", "@b", "@inner", "@c", "@d", "@e"}
	for i, n := range names {
		for j, m := range names {
			assert.Equal(t, i < j, before(tp.ops[n], tp.ops[m]), "%s before %s", n, m)
		}
	}
	users := appendUsers(nil, tp.vals["%x"])
	var got []*ir.Op
	for _, n := range names {
		got = append(got, tp.ops[n])
	}
	assert.Equal(t, got, users)
	assert.Equal(t, []*ir.Op{ifOp}, appendUsers(nil, tp.vals["%x"])[1:2])
	detached := ctx.NewOp(ir.OpSpec{Name: "t.loose"})
	assert.False(t, before(detached, tp.ops["@a"]))
	assert.False(t, before(tp.ops["@a"], detached))
}

func TestFuncsOracle(t *testing.T) {
	f := &Funcs{}
	_, ok, err := f.Builtin("nope", nil)
	assert.False(t, ok)
	assert.NoError(t, err)
	_, err = f.Native("nope", nil)
	assert.EqualError(t, err, "unknown native constraint nope")
	v, ok, err := oracleBuiltin(nil, "immutable", nil)
	assert.Nil(t, v)
	assert.True(t, ok)
	assert.ErrorIs(t, err, ErrUnavailable)
	_, err = oracleNative(nil, "even", nil)
	assert.ErrorIs(t, err, ErrUnavailable)
}

func TestAutomatonStats(t *testing.T) {
	ctx := ir.NewContext()
	a, err := Compile(rule.NewSet(ctx, scalingRules(ctx, 300)...), Options{})
	require.NoError(t, err)
	assert.Same(t, a.set, a.Set())
	// Shared structure: the tree does not grow with the number of distinct literals beyond one success node each.
	assert.Less(t, a.NumNodes(), 300+40)
	assert.Less(t, a.NumQuestions(), 40)
}
