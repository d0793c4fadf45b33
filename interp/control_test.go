package interp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/ir"
)

// ifProgram is corpus 23: y = 2·i; if i < 5 { y + y } else { y − y }; mean.
func ifProgram(t *testing.T) *progtest.Builder {
	b := progtest.New(t)
	i := b.Data("i", 1)
	y := b.VA("pd_op.scale", []*ir.Value{i, b.Full([]int64{1}, 2)})
	cond := b.V("pd_op.less_than", i, b.Full([]int64{}, 5))
	f32 := b.TensorT(ir.DTypeFloat32, 1)
	ifop := b.Region("pd_op.if", []*ir.Value{cond}, []ir.Type{f32}, 2)
	then := b.At(ifop.Region(0).Block(0))
	then.OpT("cf.yield", []*ir.Value{then.V("pd_op.add", y, y)}, nil)
	els := b.At(ifop.Region(1).Block(0))
	els.OpT("cf.yield", []*ir.Value{els.V("pd_op.subtract", y, y)}, nil)
	b.Fetch(b.V("pd_op.mean", ifop.Result(0), b.Ints()), "out", 0)
	return b
}

func TestIf(t *testing.T) {
	b := ifProgram(t)
	for _, tc := range []struct{ in, want float64 }{{3, 12}, {7, 0}, {5, 0}} {
		out := eval(t, b.P, &Feed{Inputs: map[string]*Tensor{"i": host([]int{1}, tc.in)}})
		assert.Equal(t, []float64{tc.want}, out["out"].Data, "i = %v", tc.in)
		assert.Equal(t, []int{}, out["out"].Shape)
	}
}

func TestIfResultAliasesYieldedValue(t *testing.T) {
	b := progtest.New(t)
	a := b.V("pd_op.assign", b.Data("x", 2))
	cond := b.V("pd_op.greater_than", b.Full([]int64{1}, 1), b.Full([]int64{1}, 0))
	ifop := b.Region("pd_op.if", []*ir.Value{cond}, []ir.Type{a.Type()}, 2)
	b.At(ifop.Region(0).Block(0)).OpT("cf.yield", []*ir.Value{a}, nil)
	els := b.At(ifop.Region(1).Block(0))
	els.OpT("cf.yield", []*ir.Value{els.V("pd_op.assign", a)}, nil)
	b.V("pd_op.relu_", ifop.Result(0))
	b.Fetch(a, "a", 0)
	out := eval(t, b.P, &Feed{Inputs: map[string]*Tensor{"x": host([]int{2}, -1, 1)}})
	assert.Equal(t, []float64{0, 1}, out["a"].Data, "the if result shares the buffer of the yielded outer value")
}

// whileProgram is corpus 11 with an accumulator: i = 0; s = x; while i < n { i = i + 1; s = s·2 }.
func whileProgram(t *testing.T, limit float64) *progtest.Builder {
	b := progtest.New(t)
	x := b.Data("x", 2)
	zero := b.Full([]int64{1}, 0, ir.DTypeInt64)
	one := b.Full([]int64{1}, 1, ir.DTypeInt64)
	n := b.Full([]int64{1}, limit, ir.DTypeInt64)
	two := b.Full([]int64{1}, 2) // defined outside, used inside
	cond := b.V("pd_op.less_than", zero, n)
	w := b.Region("pd_op.while", []*ir.Value{cond, zero, x}, []ir.Type{zero.Type(), x.Type()}, 1)
	blk := w.Region(0).Block(0)
	i := blk.AddArg(zero.Type())
	s := blk.AddArg(x.Type())
	body := b.At(blk)
	i2 := body.V("pd_op.add", i, one)
	s2 := body.V("pd_op.multiply", s, two)
	body.OpT("cf.yield", []*ir.Value{body.V("pd_op.less_than", i2, n), i2, s2}, nil)
	b.Fetch(w.Result(0), "i", 0)
	b.Fetch(w.Result(1), "s", 1)
	return b
}

func TestWhile(t *testing.T) {
	b := whileProgram(t, 10)
	out := eval(t, b.P, &Feed{Inputs: map[string]*Tensor{"x": host([]int{2}, 1, -3)}})
	assert.Equal(t, []float64{10}, out["i"].Data)
	assert.Equal(t, ir.DTypeInt64, out["i"].DType)
	assert.Equal(t, []float64{1024, -3072}, out["s"].Data)

	b = whileProgram(t, 0)
	out = eval(t, b.P, &Feed{Inputs: map[string]*Tensor{"x": host([]int{2}, 1, -3)}})
	assert.Equal(t, []float64{0}, out["i"].Data, "the body never runs")
	assert.Equal(t, []float64{1, -3}, out["s"].Data)
}

func TestWhileIterationLimit(t *testing.T) {
	b := whileProgram(t, 1000)
	_, err := Evaluate(b.P, &Feed{Inputs: map[string]*Tensor{"x": host([]int{2}, 1, 1)}}, Options{MaxLoopIterations: 50})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "did not end within 50 iterations")
}

func TestNestedIfInWhile(t *testing.T) {
	// s counts odd i in 0..5 through an if inside the loop body.
	b := progtest.New(t)
	i64 := ir.DTypeInt64
	zero, one := b.Full([]int64{1}, 0, i64), b.Full([]int64{1}, 1, i64)
	two, n := b.Full([]int64{1}, 2, i64), b.Full([]int64{1}, 5, i64)
	cond := b.V("pd_op.less_than", zero, n)
	w := b.Region("pd_op.while", []*ir.Value{cond, zero, zero}, []ir.Type{zero.Type(), zero.Type()}, 1)
	blk := w.Region(0).Block(0)
	i, s := blk.AddArg(zero.Type()), blk.AddArg(zero.Type())
	body := b.At(blk)
	half := body.V("pd_op.divide", i, two)
	odd := body.V("pd_op.not_equal", body.V("pd_op.multiply", half, two), i)
	ifop := body.Region("pd_op.if", []*ir.Value{odd}, []ir.Type{zero.Type()}, 2)
	th := b.At(ifop.Region(0).Block(0))
	th.OpT("cf.yield", []*ir.Value{th.V("pd_op.add", s, one)}, nil)
	b.At(ifop.Region(1).Block(0)).OpT("cf.yield", []*ir.Value{s}, nil)
	i2 := body.V("pd_op.add", i, one)
	body.OpT("cf.yield", []*ir.Value{body.V("pd_op.less_than", i2, n), i2, ifop.Result(0)}, nil)
	b.Fetch(w.Result(1), "s", 0)
	out := eval(t, b.P, nil)
	assert.Equal(t, []float64{2}, out["s"].Data, "i = 1 and 3 are odd")
}

func TestConditionMustHaveOneElement(t *testing.T) {
	b := progtest.New(t)
	cond := b.V("pd_op.less_than", b.Data("x", 2), b.Full([]int64{1}, 0))
	b.Region("pd_op.if", []*ir.Value{cond}, nil, 2)
	_, err := Evaluate(b.P, &Feed{Inputs: map[string]*Tensor{"x": host([]int{2}, 1, 2)}}, Options{})
	assert.EqualError(t, err, "evaluating pd_op.if at (new op): the condition must hold one element, has shape [2]")
}
