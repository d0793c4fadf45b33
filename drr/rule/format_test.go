package rule

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pirdrr/drr/ir"
)

func TestFormatOp(t *testing.T) {
	ctx := ir.NewContext()
	cases := []struct {
		name  string
		build func(b *Builder)
		want  []string
	}{
		{"conv", func(b *Builder) {
			b.Op("pd_op.conv2d", "%x", "%w").Attr("groups", "$g").Attr("data_format", ctx.Str("NCHW")).Results("%y")
		}, []string{`%y = pd_op.conv2d(%x, %w) {groups: $g, data_format: "NCHW"}`}},
		{"results and label", func(b *Builder) {
			b.Op("pd_op.batch_norm_", "%y", "_", "null").Label("bn").Results("%out", "_", "...")
		}, []string{`@bn = %out, _, ... = pd_op.batch_norm_(%y, _, null)`}},
		{"no results, more", func(b *Builder) {
			b.Op("t.sink", "%x").Results("...")
		}, []string{`... = t.sink(%x)`}},
		{"either, list, rest", func(b *Builder) {
			b.Op("t.add", "%a", "%b", "%c...").Commutative().Attr("k", "_").RestAttrs("$rest").Results("%s")
		}, []string{`%s = t.add(either(%a, %b), %c...) {k: _, $rest...}`}},
		{"any op, quoted name", func(b *Builder) {
			b.Op("", "%x").Results("%y")
			b.Op("add(phi_kernel)", "%y").Attr("weird-key", ctx.Int32(1))
		}, []string{`%y = _(%x)`, `"add(phi_kernel)"(%y) {"weird-key": (Int32)1}`}},
		{"types at first mention", func(b *Builder) {
			b.Op("t.a", "%x").Results("%y")
			b.Op("t.b", "%y", "%x", "%l...")
			b.Type("%x", b.Tensor([]string{"2", "?", "*"}, "f32"))
			b.Type("%y", b.Tensor([]string{"$n"}, "?", ir.ValueTensor))
			b.Type("%l", b.TypeHole("$t"))
		}, []string{`%y: pd_op.v_tensor<$n x ?> = t.a(%x: tensor<2x?x*xf32>)`, `t.b(%y, %x, %l...: $t)`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := NewBuilder(ctx, "r")
			c.build(b)
			r := b.MustBuild()
			var got []string
			for k := range r.Pattern.Ops {
				got = append(got, FormatOp(r.Pattern, k))
			}
			assert.Equal(t, c.want, got)
		})
	}
}

func TestFormatExpr(t *testing.T) {
	ctx := ir.NewContext()
	b := NewBuilder(ctx, "r")
	b.Op("t.a", "%x", "%xs...").Attr("eps", "$eps").Attr("fmt", "$fmt").Results("%y")
	r := b.MustBuild()
	r.NewValues = []*NewValue{{Name: "c"}}
	cases := []struct {
		e    Expr
		want string
	}{
		{Bin("==", b.Uses("%y"), Int(1)), "uses(%y) == 1"},
		{Bin("&&", Bin("in", b.H("$fmt"), ListOf(Str("NCHW"), Str("NHWC"))), Bin("<=", b.H("$eps"), Float(0.001))),
			`$fmt in ["NCHW", "NHWC"] && $eps <= 0.001`},
		{Bin("*", Bin("+", Int(1), Int(2)), Int(3)), "(1 + 2) * 3"},
		{Bin("-", Int(1), Bin("-", Int(2), Int(3))), "1 - (2 - 3)"},
		{Bin("||", Bin("&&", Bool(true), Bool(false)), Not(Bool(true))), "true && false || !true"},
		{Not(Bin("==", Int(1), Int(2))), "!(1 == 2)"},
		{Neg(Float(2)), "-2.0"},
		{CondOf(Bin("==", b.H("$fmt"), Str("NCHW")), ListOf(Int(1), Int(-1)), ListOf()), `$fmt == "NCHW" ? [1, -1] : []`},
		{At(Fn("shape", b.V("%y")), Int(-1)), "shape(%y)[-1]"},
		{NativeFn("aligned", b.V("%y"), Int(8)), "aligned(%y, 8)"},
		{Fn("len", b.V("%xs")), "len(%xs)"},
		{&ValueRef{Ref: Ref{New: true, Index: 0}}, "%c"},
		{&ValueRef{Ref: Ref{New: true, Index: 4}}, "%new4"},
		{LitOf(ir.DTypeFloat16), "float16"},
		{LitOf([]Val{int64(1), "a", 1.5, true}), `[1, "a", 1.5, true]`},
		{LitOf(ctx.Int32(3)), "(Int32)3"},
		{LitOf(nil), "null"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, FormatExpr(r, c.e))
	}
	assert.Equal(t, "$h3", FormatExpr(nil, &HoleRef{Hole: 3}), "without a rule, positional names")
	assert.Equal(t, "%v1", FormatExpr(nil, &ValueRef{Ref: Ref{Index: 1}}))
}

func TestFormatVal(t *testing.T) {
	ctx := ir.NewContext()
	cases := []struct {
		v    Val
		want string
	}{
		{int64(-3), "-3"}, {3, "3"}, {1e-05, "1e-05"}, {2.0, "2.0"}, {"a\"b", `"a\"b"`}, {false, "false"},
		{ir.Place{Type: ir.PlaceCPU}, "Place(cpu)"},
		{ctx.Scalar(ir.DTypeInt64), "i64"},
		{[]ir.NamedAttr{{Name: "k", Value: ctx.Int32(1)}, {Name: "s", Value: ctx.Str("x")}}, `{k: (Int32)1, s: "x"}`},
		{struct{}{}, "<struct {}>"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, FormatVal(c.v))
	}
}

func TestFormatRule(t *testing.T) {
	ctx := ir.NewContext()
	b := NewBuilder(ctx, "conv_relu").Benefit(2).Labels("fusion", "gpu").Instance("pd_op.relu")
	b.Op("pd_op.conv2d", "%x", "%w").Label("conv").Results("%y")
	b.Op("pd_op.relu", "%y").Results("%z")
	b.Where(Bin("==", b.Uses("%y"), Int(1)))
	r := b.MustBuild()
	r.NewValues = []*NewValue{{Name: "f"}}
	r.Actions = []Action{
		&Create{Op: "pd_op.fused", Operands: []RewriteOperand{{Ref: Ref{Index: 0}}, {Null: true}, {Ref: Ref{Index: 1}, List: true}},
			Attrs: []AttrSet{{Name: "act", Value: Str("relu")}}, RestAttrs: -1, Results: []int{0, -1}},
		&Replace{Value: Ref{Index: 3}, With: Ref{New: true, Index: 0}},
		&Replace{Value: Ref{Index: 3}, With: Ref{Index: 0}, Later: true},
		&Erase{Op: 0},
		&Erase{Op: 1},
		&NativeRewrite{Name: "fold", Args: []Expr{b.V("%w")}, Results: []int{0}},
	}
	want := `rule conv_relu[pd_op.relu] {
  benefit 2
  labels fusion, gpu
  match {
    @conv = %y = pd_op.conv2d(%x, %w)
    %z = pd_op.relu(%y)  // root
  }
  where {
    uses(%y) == 1
  }
  rewrite {
    %f, _ = pd_op.fused(%x, null, %w...) {act: "relu"}
    replace %z with %f
    replace later uses of %z with %x
    erase @conv
    erase op 1 (pd_op.relu)
    %f = fold(%w)
  }
}
`
	assert.Equal(t, want, FormatRule(r))
	assert.Equal(t, "@conv = %y = pd_op.conv2d(%x, %w)\n%z = pd_op.relu(%y)\n", FormatPattern(r.Pattern))
	assert.Equal(t, "@conv", OpName(r.Pattern, 0))
	assert.Equal(t, "op 1 (pd_op.relu)", OpName(r.Pattern, 1))
}
