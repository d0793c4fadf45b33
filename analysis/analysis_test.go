package analysis

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

type progBuilder struct {
	t   *testing.T
	c   *ir.Context
	p   *ir.Program
	b   *ir.Builder
	f32 ir.Type
}

func newProg(t *testing.T) *progBuilder {
	c, err := ir.NewDefaultContext()
	require.NoError(t, err)
	p := ir.NewProgram(c)
	b := ir.NewBuilder(c)
	b.SetInsertionPointToEnd(p.Body())
	return &progBuilder{t: t, c: c, p: p, b: b, f32: c.Tensor(ir.DenseTensor, []int64{4}, c.Scalar(ir.DTypeFloat32))}
}

func (pb *progBuilder) op(name string, nres int, attrs []ir.NamedAttr, operands ...*ir.Value) *ir.Op {
	ts := make([]ir.Type, nres)
	for i := range ts {
		ts[i] = pb.f32
	}
	return pb.b.Create(ir.OpSpec{Name: name, Operands: operands, Results: ts, Attrs: attrs})
}

func (pb *progBuilder) param(name string) *ir.Value {
	return pb.op(ir.ParameterOpName, 1, []ir.NamedAttr{{Name: "parameter_name", Value: pb.c.Str(name)}}).Result(0)
}

func (pb *progBuilder) data() *ir.Value {
	return pb.op("pd_op.data", 1, []ir.NamedAttr{{Name: "name", Value: pb.c.Str("x")}}).Result(0)
}

func (pb *progBuilder) bn(training bool, x, mean, variance *ir.Value) *ir.Op {
	return pb.op("pd_op.batch_norm_", 6, []ir.NamedAttr{
		{Name: "is_test", Value: pb.c.Bool(!training)}, {Name: "use_global_stats", Value: pb.c.Bool(false)}},
		x, mean, variance, nil, nil)
}

func TestWrites(t *testing.T) {
	pb := newProg(t)
	x := pb.data()
	relu := pb.op("pd_op.relu_", 1, nil, x)
	add := pb.op("pd_op.add", 1, nil, x, x)
	unknown := pb.op("my.op", 1, nil, x, x)
	m, v := pb.param("m"), pb.param("v")
	infer := pb.bn(false, x, m, v)
	train := pb.bn(true, x, m, v)
	assert.True(t, Writes(relu, 0))
	assert.False(t, Writes(add, 0) || Writes(add, 1))
	assert.True(t, Writes(unknown, 0) && Writes(unknown, 1))
	assert.False(t, Writes(infer, 0) || Writes(infer, 1) || Writes(infer, 2), "inference batch_norm_ leaves its statistics alone")
	assert.False(t, Writes(train, 0))
	assert.True(t, Writes(train, 1) && Writes(train, 2))
}

func TestAliasedAndMutated(t *testing.T) {
	pb := newProg(t)
	a := pb.data()
	shape := pb.op("pd_op.full_int_array", 1, []ir.NamedAttr{{Name: "value", Value: pb.c.Int64s(4)}}).Result(0)
	b := pb.op("pd_op.relu_", 1, nil, a).Result(0)
	view := pb.op("pd_op.reshape", 1, nil, b, shape).Result(0)
	pb.op("pd_op.relu", 1, nil, view)

	assert.True(t, Aliased(a), "b aliases a")
	assert.False(t, Aliased(a, b), "nothing but b (and b's own views) aliases a")
	assert.ElementsMatch(t, []*ir.Value{a, b, view}, Buffer(a))
	assert.True(t, Mutated(a), "relu_ writes a")
	assert.True(t, Mutated(view), "view shares the buffer relu_ writes")
	assert.False(t, Mutated(shape))

	// A view of a taken before the inplace op: a is aliased by more than b.
	pb2 := newProg(t)
	a2 := pb2.data()
	s2 := pb2.op("pd_op.full_int_array", 1, []ir.NamedAttr{{Name: "value", Value: pb2.c.Int64s(4)}}).Result(0)
	early := pb2.op("pd_op.reshape", 1, nil, a2, s2).Result(0)
	b2 := pb2.op("pd_op.relu_", 1, nil, a2).Result(0)
	pb2.op("pd_op.relu", 1, nil, early)
	assert.True(t, Aliased(a2, b2))

	// Copies do not alias.
	pb3 := newProg(t)
	x := pb3.data()
	v := pb3.op("pd_op.to_vtensor", 1, nil, x).Result(0)
	tt := pb3.op("pd_op.to_tensor", 1, nil, v).Result(0)
	assert.False(t, Aliased(x) || Aliased(v) || Aliased(tt))
	assert.False(t, Mutated(tt))
	pb3.op("pd_op.scale_", 1, nil, tt, nil)
	assert.True(t, Mutated(tt))
	assert.False(t, Mutated(v), "the copy protects v")
}

func TestImmutableAndParams(t *testing.T) {
	pb := newProg(t)
	x := pb.data()
	w := pb.param("w")
	mean, variance := pb.param("mean"), pb.param("var")
	tm, tv := pb.param("tmean"), pb.param("tvar")
	s := pb.param("s")
	pb.op("pd_op.conv2d", 1, nil, x, w)
	pb.bn(false, x, mean, variance)
	pb.bn(true, x, tm, tv)
	pb.b.Create(ir.OpSpec{Name: ir.SetParameterOpName, Operands: []*ir.Value{x}, Attrs: []ir.NamedAttr{{Name: "parameter_name", Value: pb.c.Str("s")}}})
	pb.p.CollectParams()

	assert.True(t, Immutable(pb.p, w))
	assert.True(t, Immutable(pb.p, mean) && Immutable(pb.p, variance), "inference batch norm")
	assert.False(t, Immutable(pb.p, tm) || Immutable(pb.p, tv), "training batch norm updates its statistics")
	assert.False(t, Immutable(pb.p, s), "set_parameter writes s")
	assert.False(t, Immutable(pb.p, x), "not a parameter")
	assert.True(t, IsInput(x))
	assert.False(t, IsInput(w))
	assert.Equal(t, "w", ParamName(w))

	meanOut := pb.p.Body().Last().Prev().Result(1)
	assert.Contains(t, Buffer(tm), meanOut, "tmean and the training bn's mean_out share a buffer")
	assert.NotContains(t, Buffer(w), x)
}

func TestDiesAt(t *testing.T) {
	pb := newProg(t)
	a := pb.data()
	r1 := pb.op("pd_op.relu", 1, nil, a)
	r2 := pb.op("pd_op.relu", 1, nil, a)
	r3 := pb.op("pd_op.relu", 1, nil, r1.Result(0))
	assert.False(t, DiesAt(a, r1), "r2 reads a later")
	assert.True(t, DiesAt(a, r2))
	assert.True(t, DiesAt(r1.Result(0), r3))
}

// TestOracle: the program builtins of rule.Builtins, answered through rule.NewOracle from Facts.
func TestOracle(t *testing.T) {
	pb := newProg(t)
	x := pb.data()
	w := pb.param("w")
	b := pb.op("pd_op.relu_", 1, nil, x).Result(0)
	o := rule.NewOracle(NewFacts(pb.p), nil)
	tests := []struct {
		name string
		args []any
		want any
	}{
		{"immutable", []any{w}, true},
		{"immutable", []any{w, x}, false},
		{"is_param", []any{w}, true},
		{"param_name", []any{w}, "w"},
		{"is_input", []any{x}, true},
		{"aliased", []any{x}, true},
		{"aliased", []any{x, b}, false},
		{"mutated", []any{x}, true},
		{"dies_at", []any{x, b}, true},
		{"constant", []any{w}, true},
		{"constant", []any{x}, false},
		{"inplace_op", []any{"pd_op.relu_", int64(0), int64(0)}, true},
		{"inplace_op", []any{"pd_op.relu", int64(0), int64(0)}, false},
	}
	for _, tt := range tests {
		got, ok, err := o.Builtin(tt.name, tt.args)
		require.NoError(t, err, tt.name)
		require.True(t, ok, tt.name)
		assert.Equal(t, tt.want, got, "%s%v", tt.name, tt.args)
	}
	_, ok, _ := o.Builtin("nosuch", nil)
	assert.False(t, ok)
	_, ok, _ = o.Builtin("rank", []any{x})
	assert.False(t, ok, "pure builtins are evaluated by rule.Eval, not by the oracle")
	_, _, err := o.Builtin("is_param", []any{int64(1)})
	assert.EqualError(t, err, "needs a value, got int 1")
	_, _, err = o.Builtin("inplace_op", []any{"pd_op.relu_"})
	assert.EqualError(t, err, "needs an op name and two ints")
	_, err = o.Native("mine", nil)
	assert.EqualError(t, err, "native constraint mine is not available")
}
