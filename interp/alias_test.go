package interp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

var aliasIn = []float64{-2, -1, 0, 1, 2, 3}

func aliasFeed() *Feed {
	return &Feed{Inputs: map[string]*Tensor{"x": host([]int{2, 3}, aliasIn...)}}
}

func TestViewSeesInplaceWrite(t *testing.T) {
	b := newBuilder(t)
	a := b.v("pd_op.assign", b.data("x", 2, 3))
	v := b.v("pd_op.reshape", a, b.ints(-1))
	b.fetch(v, "before", 0) // fetch copies now
	y := b.v("pd_op.relu_", a)
	b.fetch(v, "view", 1)
	b.fetch(y, "y", 2)
	b.fetch(a, "a", 3)
	out := eval(t, b.p, aliasFeed())
	relu := []float64{0, 0, 0, 1, 2, 3}
	assert.Equal(t, aliasIn, out["before"].Data, "fetch copies at the time it runs")
	assert.Equal(t, relu, out["view"].Data, "the view shares a's buffer and sees relu_'s write")
	assert.Equal(t, relu, out["y"].Data)
	assert.Equal(t, relu, out["a"].Data, "relu_ wrote its operand")
	assert.Equal(t, []int{6}, out["view"].Shape)
}

func TestViewChainsAndWritesThroughViews(t *testing.T) {
	b := newBuilder(t)
	a := b.v("pd_op.assign", b.data("x", 2, 3))
	v1 := b.v("pd_op.unsqueeze", a, b.ints(0))
	v2 := b.va("pd_op.flatten", []*ir.Value{v1}, attr("start_axis", b.ctx.Int32(0)), attr("stop_axis", b.ctx.Int32(-1)))
	b.va("pd_op.scale_", []*ir.Value{v2, b.full([]int64{1}, 10)})
	b.fetch(a, "a", 0)
	b.fetch(b.v("pd_op.squeeze", v1, b.ints(0)), "sq", 1)
	out := eval(t, b.p, aliasFeed())
	want := []float64{-20, -10, 0, 10, 20, 30}
	assert.Equal(t, want, out["a"].Data, "a write through a view of a view reaches the base")
	assert.Equal(t, want, out["sq"].Data)
}

func TestCopiesDoNotAlias(t *testing.T) {
	b := newBuilder(t)
	a := b.v("pd_op.assign", b.data("x", 2, 3))
	tr := b.va("pd_op.transpose", []*ir.Value{a}, attr("perm", b.i32s(1, 0)))
	cp := b.v("pd_op.assign", a)
	tv := b.v("pd_op.to_vtensor", a)
	b.v("pd_op.relu_", a)
	b.fetch(tr, "tr", 0)
	b.fetch(cp, "cp", 1)
	b.fetch(tv, "tv", 2)
	out := eval(t, b.p, aliasFeed())
	assert.Equal(t, []float64{-2, 1, -1, 2, 0, 3}, out["tr"].Data)
	assert.Equal(t, aliasIn, out["cp"].Data)
	assert.Equal(t, aliasIn, out["tv"].Data)
}

func TestInplaceOnParameterIsSeenByLaterReads(t *testing.T) {
	b := newBuilder(t)
	w := b.param("w", 3)
	b.va("pd_op.scale_", []*ir.Value{w, b.full([]int64{1}, 2)})
	b.fetch(b.v("pd_op.assign", b.param("w", 3)), "read1", 0)
	b.opT(ir.SetParameterOpName, []*ir.Value{b.full([]int64{3}, 7)}, nil, attr("parameter_name", b.ctx.Str("w")))
	b.fetch(b.v("pd_op.assign", b.param("w", 3)), "read2", 1)
	res, err := Evaluate(b.p, &Feed{Params: map[string]*Tensor{"w": host([]int{3}, 1, 2, 3)}}, Options{})
	require.NoError(t, err)
	require.Len(t, res.Outputs, 3)
	assert.Equal(t, []float64{2, 4, 6}, res.Outputs[0].Value.Data)
	assert.Equal(t, Output{Kind: ParameterOutput, Name: "w", Col: -1, Value: &Tensor{DType: ir.DTypeFloat32, Shape: []int{3}, Data: []float64{7, 7, 7}}}, res.Outputs[1])
	assert.Equal(t, "set_parameter", res.Outputs[1].Kind.String())
	assert.Equal(t, []float64{7, 7, 7}, res.Outputs[2].Value.Data)
}

func TestShadowOutputIsReadAtTheEnd(t *testing.T) {
	b := newBuilder(t)
	a := b.v("pd_op.assign", b.data("x", 2, 3))
	b.shadow(a, "out")
	b.fetch(a, "f", 0)
	b.v("pd_op.relu_", a)
	res, err := Evaluate(b.p, aliasFeed(), Options{})
	require.NoError(t, err)
	require.Len(t, res.Outputs, 2)
	assert.Equal(t, FetchOutput, res.Outputs[0].Kind)
	assert.Equal(t, aliasIn, res.Output("f").Value.Data)
	assert.Equal(t, ShadowOutput, res.Outputs[1].Kind)
	assert.Equal(t, []float64{0, 0, 0, 1, 2, 3}, res.Output("out").Value.Data)
	assert.Nil(t, res.Output("nope"))
}

func TestInplaceBroadcastIntoSmallerOperandFails(t *testing.T) {
	b := newBuilder(t)
	x := b.v("pd_op.assign", b.data("x", 3))
	y := b.data("y", 2, 3)
	op := b.opT("pd_op.add_", []*ir.Value{x, y}, []ir.Type{b.tensorT(ir.DTypeFloat32, 2, 3)})
	b.fetch(op.Result(0), "out", 0)
	_, err := Evaluate(b.p, &Feed{Inputs: map[string]*Tensor{"x": host([]int{3}, 1, 2, 3), "y": host([]int{2, 3}, seq(6)...)}}, Options{})
	assert.ErrorContains(t, err, "result 0 (shape [2 3]) cannot share the buffer of operand 0 (shape [3])")
}

// inplaceProgram builds a = assign(x); v = reshape(a); y = relu_(a) or relu(a); z = add(A, 1) with A = a or y;
// fetch v and z. With relu_ the view v and the later read of a see the new values.
func inplaceProgram(t *testing.T, inplace, redirect bool) *ir.Program {
	b := newBuilder(t)
	a := b.v("pd_op.assign", b.data("x", 2, 3))
	v := b.v("pd_op.reshape", a, b.ints(-1))
	name := "pd_op.relu"
	if inplace {
		name = "pd_op.relu_"
	}
	y := b.v(name, a)
	src := a
	if redirect {
		src = y
	}
	z := b.v("pd_op.add", src, b.full([]int64{1}, 1))
	b.fetch(v, "v", 0)
	b.fetch(z, "z", 1)
	return b.p
}

func TestCompareCatchesWrongDeinplace(t *testing.T) {
	before := inplaceProgram(t, true, false)
	opts := CompareOptions{Runs: 2}

	// De-inplacing relu_ while a view of its operand is read later is wrong even with the later uses of a
	// redirected to y: the view v no longer sees the write.
	rep, err := Compare(before, inplaceProgram(t, false, true), opts)
	require.ErrorIs(t, err, ErrMismatch)
	require.NotNil(t, rep)
	require.Len(t, rep.Outputs, 2)
	assert.False(t, rep.Outputs[0].OK, "v differs")
	assert.True(t, rep.Outputs[1].OK, "z is redirected to y and agrees")
	assert.ErrorContains(t, err, `v (max rel`)

	// Without redirecting the later read of a, z differs too.
	rep, err = Compare(before, inplaceProgram(t, false, false), opts)
	require.ErrorIs(t, err, ErrMismatch)
	assert.Len(t, rep.Failures(), 2)
	assert.Contains(t, rep.String(), "FAIL")
}

func TestCompareAcceptsCorrectDeinplace(t *testing.T) {
	// Without the view, b = relu_(a) → b = relu(a) with later uses of a redirected to b is correct.
	build := func(inplace bool) *ir.Program {
		b := newBuilder(t)
		a := b.v("pd_op.assign", b.data("x", 2, 3))
		name := "pd_op.relu"
		if inplace {
			name = "pd_op.relu_"
		}
		y := b.v(name, a)
		src := a
		if !inplace {
			src = y
		}
		b.fetch(b.v("pd_op.add", src, b.full([]int64{1}, 1)), "z", 0)
		b.fetch(y, "y", 1)
		return b.p
	}
	rep, err := Compare(build(true), build(false), CompareOptions{})
	require.NoError(t, err)
	assert.True(t, rep.OK())
	assert.Equal(t, 3, rep.Runs)
	for _, o := range rep.Outputs {
		assert.Zero(t, o.MaxAbs)
	}
}

func TestFeedIsNeverWritten(t *testing.T) {
	for _, prec := range []Precision{Float64, Float32} {
		b := newBuilder(t)
		x := b.data("x", 2, 3)
		v := b.v("pd_op.reshape", x, b.ints(-1))
		b.v("pd_op.relu_", x)
		w := b.param("w", 2)
		b.va("pd_op.scale_", []*ir.Value{w, b.full([]int64{1}, 3)})
		b.fetch(v, "v", 0)
		b.fetch(b.v("pd_op.assign", b.param("w", 2)), "w", 1)
		feed := &Feed{Inputs: map[string]*Tensor{"x": host([]int{2, 3}, aliasIn...)},
			Params: map[string]*Tensor{"w": host([]int{2}, 1, -1)}}
		res, err := Evaluate(b.p, feed, Options{Precision: prec})
		require.NoError(t, err)
		assert.Equal(t, []float64{0, 0, 0, 1, 2, 3}, res.Output("v").Value.Data, "the view sees the write")
		assert.Equal(t, []float64{3, -3}, res.Output("w").Value.Data)
		assert.Equal(t, aliasIn, feed.Inputs["x"].Data, "%s: the fed input is copied before the write", prec)
		assert.Equal(t, []float64{1, -1}, feed.Params["w"].Data, "%s: the fed parameter is copied before the write", prec)
	}
}
