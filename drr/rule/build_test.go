package rule

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
)

func TestBuilderConvBN(t *testing.T) {
	ctx := ir.NewContext()
	b := NewBuilder(ctx, "conv_bn").Benefit(3).Doc("fold bn").Labels("fusion")
	b.Op("pd_op.conv2d", "%x", "%w").Label("@conv").Attr("groups", "$g").Attr("data_format", ctx.Str("NCHW")).
		Results("%y")
	b.Op("pd_op.batch_norm_", "%y", "%mean", "%var", "%scale", "%bias").Attr("data_format", "_").
		Attr("epsilon", "$eps").Results("%out", "_", "...")
	b.Where(Bin("==", b.Uses("%y"), Int(1)))
	r, err := b.Build()
	require.NoError(t, err)

	p := r.Pattern
	assert.Equal(t, 1, p.Root, "the last op by default")
	assert.Equal(t, 3, r.Benefit)
	assert.Equal(t, []string{"fusion"}, r.Labels)
	require.Len(t, p.Ops, 2)
	conv, bn := p.Ops[0], p.Ops[1]
	assert.Equal(t, "conv", conv.Label)
	assert.Equal(t, -1, conv.RestAttrs)
	assert.Equal(t, []OperandPattern{{Kind: OperandValue, Value: 0}, {Kind: OperandValue, Value: 1}}, conv.Operands)
	assert.Equal(t, []ResultPattern{{Value: 2}}, conv.Results)
	assert.Equal(t, []AttrPattern{{Name: "groups", Kind: AttrBind, Hole: 0},
		{Name: "data_format", Kind: AttrEquals, Hole: -1, Literal: ctx.Str("NCHW")}}, conv.Attrs)
	assert.Equal(t, []ResultPattern{{Value: 7}, {Value: -1}}, bn.Results)
	assert.True(t, bn.MoreResults)
	assert.Equal(t, AttrPresent, bn.Attrs[0].Kind)

	var names []string
	for _, v := range p.Values {
		names = append(names, v.Name)
	}
	assert.Equal(t, []string{"x", "w", "y", "mean", "var", "scale", "bias", "out"}, names)
	assert.Equal(t, 0, p.Values[2].Def)
	assert.Equal(t, 0, p.Values[2].Result)
	assert.Equal(t, 1, p.Values[7].Def)
	assert.Equal(t, -1, p.Values[0].Def)
	require.Len(t, p.Holes, 2)
	assert.Equal(t, Hole{Name: "g", Kind: HoleAttr, Pos: diag.Position{Filename: "conv_bn.drr", Line: 2, Column: 3}}, *p.Holes[0])

	assert.Equal(t, diag.Position{Filename: "conv_bn.drr", Line: 1, Column: 1}, r.Pos)
	assert.Equal(t, diag.Position{Filename: "conv_bn.drr", Line: 3, Column: 3}, bn.Pos)
	assert.Equal(t, diag.Position{Filename: "conv_bn.drr", Line: 4, Column: 3}, r.Where[0].At())
	call := r.Where[0].(*Binary).X.(*Call)
	assert.Equal(t, diag.Position{Filename: "conv_bn.drr", Line: 4, Column: 3}, call.Args[0].At(), "subexpressions get the position")
}

func TestBuilderNestedAndLists(t *testing.T) {
	ctx := ir.NewContext()
	b := NewBuilder(ctx, "nested")
	inner := b.Op("t.conv", "%x", "_", "null")
	b.Op("t.concat", inner, "%x", "%rest...").Commutative().RestAttrs("$others")
	r, err := b.Build()
	require.NoError(t, err)
	p := r.Pattern
	assert.Equal(t, []ResultPattern{{Value: 1}}, p.Ops[0].Results, "a nested op gets one anonymous result")
	assert.Equal(t, "_1", p.Values[1].Name)
	assert.Equal(t, []OperandPattern{{Kind: OperandValue, Value: 0}, {Kind: OperandAny}, {Kind: OperandNull}},
		p.Ops[0].Operands)
	assert.Equal(t, []OperandPattern{{Kind: OperandValue, Value: 1}, {Kind: OperandValue, Value: 0},
		{Kind: OperandList, Value: 2}}, p.Ops[1].Operands)
	assert.True(t, p.Values[2].List)
	assert.True(t, p.Ops[1].Commutative)
	assert.Equal(t, 0, p.Ops[1].RestAttrs)
	assert.Equal(t, HoleAttrs, p.Holes[0].Kind)
}

func TestBuilderTypes(t *testing.T) {
	ctx := ir.NewContext()
	b := NewBuilder(ctx, "types")
	b.Op("t.add", "%a", "%b", "%c").Results("%r")
	f32 := ctx.Tensor(ir.DenseTensor, []int64{2}, ctx.Scalar(ir.DTypeFloat32))
	b.Type("%a", b.Tensor([]string{"1", "?", "$c", "*", "-1"}, "float16"))
	b.Type("%b", b.TypeHole("$t"))
	b.Type("%c", b.ExactType(f32))
	b.Type("%r", b.Tensor(nil, "$dt", ir.ValueTensor))
	r, err := b.Build()
	require.NoError(t, err)
	p := r.Pattern
	ta := p.Values[0].Type.Tensor
	assert.Equal(t, []string{ir.DenseTensor, ir.LegacyTensor, ir.BareTensor}, ta.Spellings)
	assert.Equal(t, []DimPattern{{Kind: DimExact, Value: 1, Hole: -1}, {Kind: DimAny, Hole: -1},
		{Kind: DimHole, Hole: 0}, {Kind: DimRest, Hole: -1}, {Kind: DimExact, Value: -1, Hole: -1}}, ta.Dims)
	assert.Equal(t, ir.DTypeFloat16, ta.DType)
	assert.Equal(t, -1, ta.DTypeHole)
	assert.Equal(t, &TypePattern{Hole: 1}, p.Values[1].Type)
	assert.Equal(t, &TypePattern{Exact: f32, Hole: -1}, p.Values[2].Type)
	assert.Equal(t, 2, p.Values[3].Type.Tensor.DTypeHole)
	assert.Equal(t, []string{ir.ValueTensor}, p.Values[3].Type.Tensor.Spellings)
	var kinds []HoleKind
	for _, h := range p.Holes {
		kinds = append(kinds, h.Kind)
	}
	assert.Equal(t, []HoleKind{HoleDim, HoleType, HoleDType}, kinds)
}

func TestBuilderRoot(t *testing.T) {
	ctx := ir.NewContext()
	b := NewBuilder(ctx, "root")
	first := b.Op("t.a", "%x").Results("%y")
	b.Op("t.b", "%y").Results("%z")
	b.Root(first)
	r := b.MustBuild()
	assert.Equal(t, 0, r.Pattern.Root)

	b = NewBuilder(ctx, "chosen")
	b.ChooseRoot = func(p *Pattern) int { return 0 }
	b.Op("t.a", "%x").Results("%y")
	b.Op("t.b", "%y").Results("%z")
	assert.Equal(t, 0, b.MustBuild().Pattern.Root)
}

func TestBuilderErrors(t *testing.T) {
	ctx := ir.NewContext()
	cases := []struct {
		name  string
		build func(b *Builder)
		err   string
	}{
		{"empty", func(b *Builder) {}, "rule r: the pattern has no ops"},
		{"list not last", func(b *Builder) { b.Op("t.a", "%xs...", "%y") }, "list operand %xs... must be last"},
		{"bad operand", func(b *Builder) { b.Op("t.a", "x") }, `bad operand "x"`},
		{"bad operand type", func(b *Builder) { b.Op("t.a", 3) }, "bad operand of type int"},
		{"defined twice", func(b *Builder) {
			b.Op("t.a").Results("%y")
			b.Op("t.b").Results("%y")
		}, "%y is defined twice"},
		{"list and value", func(b *Builder) { b.Op("t.a", "%x", "%x...") }, "%x is used both as a value and as a list"},
		{"hole kinds", func(b *Builder) {
			b.Op("t.a", "%x").Attr("k", "$h").RestAttrs("$h")
		}, "$h is used as an attribute and as an attribute list"},
		{"unused result as operand", func(b *Builder) {
			b.Op("t.b", b.Op("t.a").Results("_"))
		}, "result 0 is _ and cannot be an operand"},
		{"results twice", func(b *Builder) { b.Op("t.a").Results("%y").Results("%z") }, "results declared twice"},
		{"bad result", func(b *Builder) { b.Op("t.a").Results("y") }, `bad result "y"`},
		{"more not last", func(b *Builder) { b.Op("t.a").Results("...", "%y") }, "... must be the last result"},
		{"bad attr", func(b *Builder) { b.Op("t.a").Attr("k", "g") }, `attribute k: bad value "g"`},
		{"bad attr type", func(b *Builder) { b.Op("t.a").Attr("k", 3) }, "attribute k: bad value of type int"},
		{"unknown value", func(b *Builder) {
			b.Op("t.a", "%x")
			b.Where(b.Uses("%nope"))
		}, "unknown value %nope"},
		{"unknown hole", func(b *Builder) {
			b.Op("t.a", "%x")
			b.Where(b.H("$nope"))
		}, "unknown hole $nope"},
		{"shared unknown", func(b *Builder) { b.Op("t.a", "%x"); b.Shared("%y") }, "Shared: unknown value %y"},
		{"type unknown", func(b *Builder) { b.Op("t.a", "%x"); b.Type("%y", nil) }, "Type: unknown value %y"},
		{"bad dim", func(b *Builder) {
			b.Op("t.a", "%x")
			b.Type("%x", b.Tensor([]string{"q"}, "f32"))
		}, `Tensor: bad dimension "q"`},
		{"two stars", func(b *Builder) {
			b.Op("t.a", "%x")
			b.Type("%x", b.Tensor([]string{"*", "*"}, "f32"))
		}, "* may appear once"},
		{"bad dtype", func(b *Builder) {
			b.Op("t.a", "%x")
			b.Type("%x", b.Tensor(nil, "f99"))
		}, `unknown dtype "f99"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := NewBuilder(ctx, "r")
			c.build(b)
			_, err := b.Build()
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.err)
			assert.Panics(t, func() { b.MustBuild() })
		})
	}
}

func TestNewSetNumbers(t *testing.T) {
	ctx := ir.NewContext()
	r1 := NewBuilder(ctx, "a").Op("t.a", "%x").Builder().MustBuild()
	r2 := NewBuilder(ctx, "b").Op("t.b", "%x").Builder().MustBuild()
	s := NewSet(ctx, r1, r2)
	assert.Equal(t, 0, r1.Index)
	assert.Equal(t, 1, r2.Index)
	assert.Same(t, ctx, s.Ctx)
	assert.NotNil(t, s.Natives)
}

func TestBuilderLookups(t *testing.T) {
	ctx := ir.NewContext()
	b := NewBuilder(ctx, "r")
	op := b.Op("t.a", "%x").Attr("k", "$k").At(7, 5)
	assert.Equal(t, 0, b.ValueIndex("%x"))
	assert.Equal(t, 0, b.ValueIndex("x"))
	assert.Equal(t, -1, b.ValueIndex("%y"))
	assert.Equal(t, 0, b.HoleIndex("$k"))
	assert.Equal(t, -1, b.HoleIndex("$z"))
	assert.Equal(t, 0, op.Index())
	assert.Same(t, b.Pattern(), b.MustBuild().Pattern)
	assert.Equal(t, diag.Position{Filename: "r.drr", Line: 7, Column: 5}, b.Pattern().Ops[0].Pos)
}

func TestExprDepth(t *testing.T) {
	chain := func(n int) Expr {
		var x Expr = Int(0)
		for i := 0; i < n; i++ {
			x = Bin("+", x, Int(1))
		}
		return x
	}
	tests := []struct {
		name string
		e    Expr
		want int
	}{
		{"literal", Int(1), 1},
		{"binary", Bin("==", Int(1), Int(2)), 2},
		{"nested", CondOf(Bool(true), ListOf(Neg(Int(1))), At(ListOf(Int(1)), Int(0))), 4},
		{"call", Fn("max", Fn("abs", Int(1)), Int(2)), 3},
		{"chain", chain(MaxExprDepth), MaxExprDepth + 1},
		{"very long chain", chain(1_000_000), 1_000_001},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, ExprDepth(tt.e))
		})
	}
}

// TestBuilderRefusesDeepExpressions: a where expression built in Go deeper than MaxExprDepth is an error of
// Build, before anything walks it recursively (the .drr parser and checker refuse them in rule files).
func TestBuilderRefusesDeepExpressions(t *testing.T) {
	for _, n := range []int{MaxExprDepth - 3, MaxExprDepth - 2, 1_000_000} {
		b := NewBuilder(ir.NewContext(), "deep")
		b.Op("pd_op.relu", "%x").Results("%y")
		var x = b.Uses("%y")
		for i := 0; i < n; i++ {
			x = Bin("+", x, Int(1))
		}
		b.Where(Bin("==", x, Int(1)))
		_, err := b.Build()
		if n == MaxExprDepth-3 {
			assert.NoError(t, err, "uses(%%y) + 1 … == 1 with %d additions is %d levels deep", n, n+3)
			continue
		}
		require.Error(t, err)
		assert.Contains(t, err.Error(), "more than 1000 (MaxExprDepth)")
	}
}
