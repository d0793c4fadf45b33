package interp_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/compare"
	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/ir"
)

var aliasIn = []float64{-2, -1, 0, 1, 2, 3}

func aliasFeed() *interp.Feed {
	return &interp.Feed{Inputs: map[string]*interp.Tensor{"x": interp.Host([]int{2, 3}, aliasIn...)}}
}

func TestViewSeesInplaceWrite(t *testing.T) {
	b := progtest.New(t)
	a := b.V("pd_op.assign", b.Data("x", 2, 3))
	v := b.V("pd_op.reshape", a, b.Ints(-1))
	b.Fetch(v, "before", 0) // fetch copies now
	y := b.V("pd_op.relu_", a)
	b.Fetch(v, "view", 1)
	b.Fetch(y, "y", 2)
	b.Fetch(a, "a", 3)
	out := interp.Eval(t, b.P, aliasFeed())
	relu := []float64{0, 0, 0, 1, 2, 3}
	assert.Equal(t, aliasIn, out["before"].Data, "fetch copies at the time it runs")
	assert.Equal(t, relu, out["view"].Data, "the view shares a's buffer and sees relu_'s write")
	assert.Equal(t, relu, out["y"].Data)
	assert.Equal(t, relu, out["a"].Data, "relu_ wrote its operand")
	assert.Equal(t, []int{6}, out["view"].Shape)
}

func TestViewChainsAndWritesThroughViews(t *testing.T) {
	b := progtest.New(t)
	a := b.V("pd_op.assign", b.Data("x", 2, 3))
	v1 := b.V("pd_op.unsqueeze", a, b.Ints(0))
	v2 := b.VA("pd_op.flatten", []*ir.Value{v1}, progtest.Attr("start_axis", b.Ctx.Int32(0)), progtest.Attr("stop_axis", b.Ctx.Int32(-1)))
	b.VA("pd_op.scale_", []*ir.Value{v2, b.Full([]int64{1}, 10)})
	b.Fetch(a, "a", 0)
	b.Fetch(b.V("pd_op.squeeze", v1, b.Ints(0)), "sq", 1)
	out := interp.Eval(t, b.P, aliasFeed())
	want := []float64{-20, -10, 0, 10, 20, 30}
	assert.Equal(t, want, out["a"].Data, "a write through a view of a view reaches the base")
	assert.Equal(t, want, out["sq"].Data)
}

func TestCopiesDoNotAlias(t *testing.T) {
	b := progtest.New(t)
	a := b.V("pd_op.assign", b.Data("x", 2, 3))
	tr := b.VA("pd_op.transpose", []*ir.Value{a}, progtest.Attr("perm", b.I32s(1, 0)))
	cp := b.V("pd_op.assign", a)
	tv := b.V("pd_op.to_vtensor", a)
	b.V("pd_op.relu_", a)
	b.Fetch(tr, "tr", 0)
	b.Fetch(cp, "cp", 1)
	b.Fetch(tv, "tv", 2)
	out := interp.Eval(t, b.P, aliasFeed())
	assert.Equal(t, []float64{-2, 1, -1, 2, 0, 3}, out["tr"].Data)
	assert.Equal(t, aliasIn, out["cp"].Data)
	assert.Equal(t, aliasIn, out["tv"].Data)
}

func TestInplaceOnParameterIsSeenByLaterReads(t *testing.T) {
	b := progtest.New(t)
	w := b.Param("w", 3)
	b.VA("pd_op.scale_", []*ir.Value{w, b.Full([]int64{1}, 2)})
	b.Fetch(b.V("pd_op.assign", b.Param("w", 3)), "read1", 0)
	b.OpT(ir.SetParameterOpName, []*ir.Value{b.Full([]int64{3}, 7)}, nil, progtest.Attr("parameter_name", b.Ctx.Str("w")))
	b.Fetch(b.V("pd_op.assign", b.Param("w", 3)), "read2", 1)
	res, err := interp.Evaluate(b.P, &interp.Feed{Params: map[string]*interp.Tensor{"w": interp.Host([]int{3}, 1, 2, 3)}}, interp.Options{})
	require.NoError(t, err)
	require.Len(t, res.Outputs, 3)
	assert.Equal(t, []float64{2, 4, 6}, res.Outputs[0].Value.Data)
	assert.Equal(t, interp.Output{Kind: interp.ParameterOutput, Name: "w", Col: -1, Value: &interp.Tensor{DType: ir.DTypeFloat32, Shape: []int{3}, Data: []float64{7, 7, 7}}}, res.Outputs[1])
	assert.Equal(t, "set_parameter", res.Outputs[1].Kind.String())
	assert.Equal(t, []float64{7, 7, 7}, res.Outputs[2].Value.Data)
}

func TestShadowOutputIsReadAtTheEnd(t *testing.T) {
	b := progtest.New(t)
	a := b.V("pd_op.assign", b.Data("x", 2, 3))
	b.Shadow(a, "out")
	b.Fetch(a, "f", 0)
	b.V("pd_op.relu_", a)
	res, err := interp.Evaluate(b.P, aliasFeed(), interp.Options{})
	require.NoError(t, err)
	require.Len(t, res.Outputs, 2)
	assert.Equal(t, interp.FetchOutput, res.Outputs[0].Kind)
	assert.Equal(t, aliasIn, res.Output("f").Value.Data)
	assert.Equal(t, interp.ShadowOutput, res.Outputs[1].Kind)
	assert.Equal(t, []float64{0, 0, 0, 1, 2, 3}, res.Output("out").Value.Data)
	assert.Nil(t, res.Output("nope"))
}

func TestInplaceBroadcastIntoSmallerOperandFails(t *testing.T) {
	b := progtest.New(t)
	x := b.V("pd_op.assign", b.Data("x", 3))
	y := b.Data("y", 2, 3)
	op := b.OpT("pd_op.add_", []*ir.Value{x, y}, []ir.Type{b.TensorT(ir.DTypeFloat32, 2, 3)})
	b.Fetch(op.Result(0), "out", 0)
	_, err := interp.Evaluate(b.P, &interp.Feed{Inputs: map[string]*interp.Tensor{"x": interp.Host([]int{3}, 1, 2, 3), "y": interp.Host([]int{2, 3}, interp.Seq(6)...)}}, interp.Options{})
	assert.ErrorContains(t, err, "result 0 (shape [2 3]) cannot share the buffer of operand 0 (shape [3])")
}

// inplaceProgram builds a = assign(x); v = reshape(a); y = relu_(a) or relu(a); z = add(A, 1) with A = a or y;
// fetch v and z. With relu_ the view v and the later read of a see the new values.
func inplaceProgram(t *testing.T, inplace, redirect bool) *ir.Program {
	b := progtest.New(t)
	a := b.V("pd_op.assign", b.Data("x", 2, 3))
	v := b.V("pd_op.reshape", a, b.Ints(-1))
	name := "pd_op.relu"
	if inplace {
		name = "pd_op.relu_"
	}
	y := b.V(name, a)
	src := a
	if redirect {
		src = y
	}
	z := b.V("pd_op.add", src, b.Full([]int64{1}, 1))
	b.Fetch(v, "v", 0)
	b.Fetch(z, "z", 1)
	return b.P
}

func TestCompareCatchesWrongDeinplace(t *testing.T) {
	before := inplaceProgram(t, true, false)
	opts := compare.Options{Runs: 2}

	// De-inplacing relu_ while a view of its operand is read later is wrong even with the later uses of a
	// redirected to y: the view v no longer sees the write.
	rep, err := compare.Programs(before, inplaceProgram(t, false, true), opts)
	require.ErrorIs(t, err, compare.ErrMismatch)
	require.NotNil(t, rep)
	require.Len(t, rep.Outputs, 2)
	assert.False(t, rep.Outputs[0].OK, "v differs")
	assert.True(t, rep.Outputs[1].OK, "z is redirected to y and agrees")
	assert.ErrorContains(t, err, `v (max rel`)

	// Without redirecting the later read of a, z differs too.
	rep, err = compare.Programs(before, inplaceProgram(t, false, false), opts)
	require.ErrorIs(t, err, compare.ErrMismatch)
	assert.Len(t, rep.Failures(), 2)
	assert.Contains(t, rep.String(), "FAIL")
}

func TestCompareAcceptsCorrectDeinplace(t *testing.T) {
	// Without the view, b = relu_(a) → b = relu(a) with later uses of a redirected to b is correct.
	build := func(inplace bool) *ir.Program {
		b := progtest.New(t)
		a := b.V("pd_op.assign", b.Data("x", 2, 3))
		name := "pd_op.relu"
		if inplace {
			name = "pd_op.relu_"
		}
		y := b.V(name, a)
		src := a
		if !inplace {
			src = y
		}
		b.Fetch(b.V("pd_op.add", src, b.Full([]int64{1}, 1)), "z", 0)
		b.Fetch(y, "y", 1)
		return b.P
	}
	rep, err := compare.Programs(build(true), build(false), compare.Options{})
	require.NoError(t, err)
	assert.True(t, rep.OK())
	assert.Equal(t, 3, rep.Runs)
	for _, o := range rep.Outputs {
		assert.Zero(t, o.MaxAbs)
	}
}

func TestFeedIsNeverWritten(t *testing.T) {
	for _, prec := range []interp.Precision{interp.Float64, interp.Float32} {
		b := progtest.New(t)
		x := b.Data("x", 2, 3)
		v := b.V("pd_op.reshape", x, b.Ints(-1))
		b.V("pd_op.relu_", x)
		w := b.Param("w", 2)
		b.VA("pd_op.scale_", []*ir.Value{w, b.Full([]int64{1}, 3)})
		b.Fetch(v, "v", 0)
		b.Fetch(b.V("pd_op.assign", b.Param("w", 2)), "w", 1)
		feed := &interp.Feed{Inputs: map[string]*interp.Tensor{"x": interp.Host([]int{2, 3}, aliasIn...)},
			Params: map[string]*interp.Tensor{"w": interp.Host([]int{2}, 1, -1)}}
		res, err := interp.Evaluate(b.P, feed, interp.Options{Precision: prec})
		require.NoError(t, err)
		assert.Equal(t, []float64{0, 0, 0, 1, 2, 3}, res.Output("v").Value.Data, "the view sees the write")
		assert.Equal(t, []float64{3, -3}, res.Output("w").Value.Data)
		assert.Equal(t, aliasIn, feed.Inputs["x"].Data, "%s: the fed input is copied before the write", prec)
		assert.Equal(t, []float64{1, -1}, feed.Params["w"].Data, "%s: the fed parameter is copied before the write", prec)
	}
}
