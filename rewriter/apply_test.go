package rewriter

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

type pb struct {
	t   *testing.T
	c   *ir.Context
	p   *ir.Program
	b   *ir.Builder
	f32 ir.Type
}

func newPB(t *testing.T) *pb {
	c, err := ir.NewDefaultContext()
	require.NoError(t, err)
	p := ir.NewProgram(c)
	b := ir.NewBuilder(c)
	b.SetInsertionPointToEnd(p.Body())
	return &pb{t: t, c: c, p: p, b: b, f32: c.Tensor(ir.DenseTensor, []int64{1, 8, 4, 4}, c.Scalar(ir.DTypeFloat32))}
}

func (x *pb) op(name string, nres int, attrs []ir.NamedAttr, operands ...*ir.Value) *ir.Op {
	ts := make([]ir.Type, nres)
	for i := range ts {
		ts[i] = x.f32
	}
	return x.b.Create(ir.OpSpec{Name: name, Operands: operands, Results: ts, Attrs: attrs})
}

func (x *pb) data() *ir.Value {
	return x.op("pd_op.data", 1, []ir.NamedAttr{{Name: "name", Value: x.c.Str("x")}, {Name: "shape", Value: x.c.IntArray([]int64{1, 8, 4, 4})},
		{Name: "dtype", Value: x.c.DataType(ir.DTypeFloat32)}, {Name: "place", Value: x.c.Place(ir.Place{})}}).Result(0)
}

func (x *pb) fetch(v *ir.Value) *ir.Op {
	return x.op("pd_op.fetch", 1, []ir.NamedAttr{{Name: "name", Value: x.c.Str("out")}, {Name: "col", Value: x.c.Int32(0)}}, v)
}

func (x *pb) names() []string {
	var out []string
	for op := range x.p.Walk() {
		out = append(out, op.Name())
	}
	return out
}

// siluRule is multiply(x, sigmoid(x)) -> swish(x).
func siluRule() *rule.Rule {
	return &rule.Rule{
		Name: "silu", Benefit: 2,
		Pattern: &rule.Pattern{
			Ops: []*rule.OpPattern{
				{Name: "pd_op.sigmoid", Operands: []rule.OperandPattern{{Value: 0}}, Results: []rule.ResultPattern{{Value: 1}}, RestAttrs: -1},
				{Name: "pd_op.multiply", Operands: []rule.OperandPattern{{Value: 0}, {Value: 1}}, Results: []rule.ResultPattern{{Value: 2}}, RestAttrs: -1},
			},
			Root: 1,
			Values: []*rule.ValueHole{
				{Name: "x", Def: -1}, {Name: "s", Def: 0}, {Name: "m", Def: 1},
			},
		},
		NewValues: []*rule.NewValue{{Name: "n"}},
		Actions: []rule.Action{
			&rule.Create{Op: "pd_op.swish", Operands: []rule.RewriteOperand{{Ref: rule.Ref{Index: 0}}}, Results: []int{0}, RestAttrs: -1},
			&rule.Replace{Value: rule.Ref{Index: 2}, With: rule.Ref{New: true, Index: 0}},
		},
	}
}

func TestApplyBuildsReplacesAndErases(t *testing.T) {
	x := newPB(t)
	in := x.data()
	sig := x.op("pd_op.sigmoid", 1, nil, in)
	mul := x.op("pd_op.multiply", 1, []ir.NamedAttr{{Name: "stop_gradient", Value: x.c.Bools(true)}}, in, sig.Result(0))
	x.fetch(mul.Result(0))

	r := siluRule()
	m := rule.NewMatch(r)
	m.Ops = []*ir.Op{sig, mul}
	m.Values = []*ir.Value{in, sig.Result(0), mul.Result(0)}
	a := &Applier{Rewriter: ir.NewRewriter(x.c, nil), Program: x.p}
	created, err := a.Apply(m)
	require.NoError(t, err)
	require.Len(t, created, 1)
	assert.Equal(t, []string{"pd_op.data", "pd_op.swish", "pd_op.fetch"}, x.names())
	assert.Same(t, x.c.Bools(true), created[0].Attr("stop_gradient"), "the replacing op inherits stop_gradient")
	assert.Equal(t, x.f32, created[0].Result(0).Type(), "result type from the schema's rule")
	assert.Empty(t, ir.Verify(x.p))
}

func TestApplyKeepsProgramOnFailure(t *testing.T) {
	x := newPB(t)
	in := x.data()
	sig := x.op("pd_op.sigmoid", 1, nil, in)
	mul := x.op("pd_op.multiply", 1, nil, in, sig.Result(0))
	x.fetch(mul.Result(0))
	before := x.p.Clone()

	r := siluRule()
	// An unregistered result op without explicit types cannot be built.
	r.Actions[0].(*rule.Create).Op = "my.fused"
	m := rule.NewMatch(r)
	m.Ops = []*ir.Op{sig, mul}
	m.Values = []*ir.Value{in, sig.Result(0), mul.Result(0)}
	a := &Applier{Rewriter: ir.NewRewriter(x.c, nil), Program: x.p}
	_, err := a.Apply(m)
	var ae *ApplyError
	require.ErrorAs(t, err, &ae)
	assert.False(t, ae.Committed)
	assert.EqualError(t, err, "rule silu: my.fused: unregistered op: no result-type rule")
	require.NoError(t, ir.Equal(before, x.p, ir.EqualOptions{AttrOrder: true}))
	assert.Equal(t, 2, in.NumUses(), "the detached op's operand uses were released")
}

func TestApplyAttributes(t *testing.T) {
	x := newPB(t)
	in := x.data()
	wt := x.c.Tensor(ir.DenseTensor, []int64{8, 1, 3, 3}, x.c.Scalar(ir.DTypeFloat32))
	w := x.b.Create(ir.OpSpec{Name: ir.ParameterOpName, Results: []ir.Type{wt}, Attrs: []ir.NamedAttr{{Name: "parameter_name", Value: x.c.Str("w")}}}).Result(0)
	conv := x.op("pd_op.depthwise_conv2d", 1, []ir.NamedAttr{
		{Name: "groups", Value: x.c.Int32(8)}, {Name: "data_format", Value: x.c.Str("NCHW")}, {Name: "strides", Value: x.c.Int32s(1, 1)}}, in, w)
	x.fetch(conv.Result(0))

	r := &rule.Rule{
		Name: "dw_to_conv",
		Pattern: &rule.Pattern{
			Ops: []*rule.OpPattern{{Name: "pd_op.depthwise_conv2d", Operands: []rule.OperandPattern{{Value: 0}, {Value: 1}},
				Results: []rule.ResultPattern{{Value: 2}}, RestAttrs: -1,
				Attrs: []rule.AttrPattern{{Name: "groups", Hole: 0}, {Name: "data_format", Hole: 1}}}},
			Values: []*rule.ValueHole{{Name: "x", Def: -1}, {Name: "w", Def: -1}, {Name: "y", Def: 0}},
			Holes:  []*rule.Hole{{Name: "g"}, {Name: "fmt"}},
		},
		NewValues: []*rule.NewValue{{Name: "c"}},
		Actions: []rule.Action{
			&rule.Create{Op: "pd_op.conv2d", Operands: []rule.RewriteOperand{{Ref: rule.Ref{Index: 0}}, {Ref: rule.Ref{Index: 1}}},
				Attrs: []rule.AttrSet{
					{Name: "data_format", Value: &rule.HoleRef{Hole: 1}},
					{Name: "groups", Value: &rule.Binary{Op: "*", X: &rule.HoleRef{Hole: 0}, Y: &rule.Lit{Value: int64(1)}}},
					{Name: "paddings", Value: &rule.List{Elems: []rule.Expr{&rule.Lit{Value: int64(1)}, &rule.Lit{Value: int64(1)}}}},
				},
				Results: []int{0}, RestAttrs: -1},
			&rule.Replace{Value: rule.Ref{Index: 2}, With: rule.Ref{New: true}},
		},
	}
	m := rule.NewMatch(r)
	m.Ops = []*ir.Op{conv}
	m.Values = []*ir.Value{in, w, conv.Result(0)}
	m.Holes = []any{x.c.Int32(8), x.c.Str("NCHW")}
	a := &Applier{Rewriter: ir.NewRewriter(x.c, nil), Program: x.p}
	created, err := a.Apply(m)
	require.NoError(t, err)
	var names []string
	for _, at := range created[0].Attrs() {
		names = append(names, at.Name+"="+at.Value.String())
	}
	assert.Equal(t, []string{
		"strides=[(Int32)1,(Int32)1]", "paddings=[(Int32)1,(Int32)1]", `padding_algorithm="EXPLICIT"`,
		"dilations=[(Int32)1,(Int32)1]", "groups=(Int32)8", `data_format="NCHW"`,
	}, names, "schema order, defaults filled, computed attributes converted to the schema's kinds")
	assert.Equal(t, "builtin.tensor<1x8x4x4xf32>", created[0].Result(0).Type().String(), "conv2d's type rule, with the new paddings")
}

func TestApplyReplaceLaterUses(t *testing.T) {
	x := newPB(t)
	a := x.data()
	early := x.op("pd_op.relu", 1, nil, a)
	inplace := x.op("pd_op.relu_", 1, []ir.NamedAttr{{Name: "stop_gradient", Value: x.c.Bools(false)}}, a)
	late := x.op("pd_op.add", 1, nil, a, inplace.Result(0))
	x.fetch(late.Result(0))
	x.fetch(early.Result(0))

	r := &rule.Rule{
		Name: "deinplace",
		Pattern: &rule.Pattern{
			Ops:    []*rule.OpPattern{{Name: "pd_op.relu_", Operands: []rule.OperandPattern{{Value: 0}}, Results: []rule.ResultPattern{{Value: 1}}, RestAttrs: 0}},
			Values: []*rule.ValueHole{{Name: "a", Def: -1}, {Name: "b", Def: 0}},
			Holes:  []*rule.Hole{{Name: "attrs", Kind: rule.HoleAttrs}},
		},
		NewValues: []*rule.NewValue{{Name: "n"}},
		Actions: []rule.Action{
			&rule.Create{Op: "pd_op.relu", Operands: []rule.RewriteOperand{{Ref: rule.Ref{Index: 0}}}, Results: []int{0}, RestAttrs: 0},
			&rule.Replace{Value: rule.Ref{Index: 1}, With: rule.Ref{New: true}},
			&rule.Replace{Value: rule.Ref{Index: 0}, With: rule.Ref{New: true}, Later: true},
		},
	}
	m := rule.NewMatch(r)
	m.Ops = []*ir.Op{inplace}
	m.Values = []*ir.Value{a, inplace.Result(0)}
	m.Holes = []any{inplace.Attrs()}
	ap := &Applier{Rewriter: ir.NewRewriter(x.c, nil), Program: x.p}
	created, err := ap.Apply(m)
	require.NoError(t, err)
	n := created[0].Result(0)
	assert.Same(t, a, early.Operand(0), "uses before the root keep a")
	assert.Same(t, n, late.Operand(0), "later uses of a read the new value")
	assert.Same(t, n, late.Operand(1))
	assert.Same(t, a, created[0].Operand(0))
	assert.Same(t, x.c.Bools(false), created[0].Attr("stop_gradient"))
	assert.Empty(t, ir.Verify(x.p))
}

func TestInsertionPointBeforeFirstUserOfReplacedValue(t *testing.T) {
	// %s = sigmoid(%x); %u = relu(%s) [outside the pattern]; %m = multiply(%x, %s): replacing %s must put the new op
	// before relu, not before multiply.
	x := newPB(t)
	in := x.data()
	sig := x.op("pd_op.sigmoid", 1, nil, in)
	user := x.op("pd_op.relu", 1, nil, sig.Result(0))
	mul := x.op("pd_op.multiply", 1, nil, in, sig.Result(0))
	x.fetch(mul.Result(0))
	x.fetch(user.Result(0))
	r := siluRule()
	r.Pattern.Values[1].Shared = true
	r.NewValues = append(r.NewValues, &rule.NewValue{Name: "s2"})
	r.Actions = append(r.Actions,
		&rule.Create{Op: "pd_op.sigmoid", Operands: []rule.RewriteOperand{{Ref: rule.Ref{Index: 0}}}, Results: []int{1}, RestAttrs: -1},
		&rule.Replace{Value: rule.Ref{Index: 1}, With: rule.Ref{New: true, Index: 1}})
	m := rule.NewMatch(r)
	m.Ops = []*ir.Op{sig, mul}
	m.Values = []*ir.Value{in, sig.Result(0), mul.Result(0)}
	ap := &Applier{Rewriter: ir.NewRewriter(x.c, nil), Program: x.p}
	_, err := ap.Apply(m)
	require.NoError(t, err)
	assert.Equal(t, []string{"pd_op.data", "pd_op.swish", "pd_op.sigmoid", "pd_op.relu", "pd_op.fetch", "pd_op.fetch"}, x.names())
	assert.Empty(t, ir.Verify(x.p))
}

// TestAttrLayoutIsGeneralOrder: the precomputed layout of a rule that copies no matched attributes gives the
// attributes the general construction gives: duplicates (last value, first place), names the schema does not
// declare after its own, defaults filled in schema order.
func TestAttrLayoutIsGeneralOrder(t *testing.T) {
	x := newPB(t)
	c := &rule.Create{Op: "pd_op.conv2d", RestAttrs: -1, Attrs: []rule.AttrSet{
		{Name: "my_extra", Value: &rule.Lit{Value: "a"}},
		{Name: "groups", Value: &rule.Lit{Value: int64(2)}},
		{Name: "data_format", Value: &rule.HoleRef{Hole: 0}},
		{Name: "my_other", Value: &rule.Lit{Value: int64(7)}},
		{Name: "groups", Value: &rule.Binary{Op: "+", X: &rule.Lit{Value: int64(1)}, Y: &rule.Lit{Value: int64(2)}}},
	}}
	m := &rule.Match{Holes: []any{x.c.Str("NHWC")}}
	env := &matchEnv{m: m}
	a := &Applier{Rewriter: ir.NewRewriter(x.c, nil), Program: x.p}
	plan := a.plan(c)
	require.NotNil(t, plan.layout)
	fast, err := a.attrs(c, env, plan)
	require.NoError(t, err)
	fast = slices.Clone(fast)
	general := *plan
	general.layout = nil
	slow, err := a.attrs(c, env, &general)
	require.NoError(t, err)
	assert.Equal(t, slow, fast)
	assert.Equal(t, "groups", fast[4].Name)
	assert.Equal(t, x.c.Int32(3), fast[4].Value, "the last value of a name set twice")
	assert.Equal(t, []string{"my_extra", "my_other"}, []string{fast[len(fast)-2].Name, fast[len(fast)-1].Name})
}
