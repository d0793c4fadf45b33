package compare

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/feeds"
	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// outputsProgram builds a program over input x [2, 3] whose outputs are given by emit.
func outputsProgram(t *testing.T, emit func(b *progtest.Builder, x *ir.Value)) *ir.Program {
	b := progtest.New(t)
	emit(b, b.Data("x", 2, 3))
	return b.P
}

func TestCompareOutputMatching(t *testing.T) {
	relu := func(b *progtest.Builder, x *ir.Value) *ir.Value { return b.V("pd_op.relu", x) }
	tanh := func(b *progtest.Builder, x *ir.Value) *ir.Value { return b.V("pd_op.tanh", x) }
	tests := []struct {
		name          string
		before, after func(b *progtest.Builder, x *ir.Value)
		ok            bool
		pairs         [][2]string // before name, after name
		unmatched     []string
		problem       string
	}{
		{"fetch by name, reordered", func(b *progtest.Builder, x *ir.Value) {
			b.Fetch(relu(b, x), "r", 0)
			b.Fetch(tanh(b, x), "t", 1)
		}, func(b *progtest.Builder, x *ir.Value) {
			b.Fetch(tanh(b, x), "t", 0)
			b.Fetch(relu(b, x), "r", 1)
		}, true, [][2]string{{"r", "r"}, {"t", "t"}}, nil, ""},
		{"fetch by column when renamed", func(b *progtest.Builder, x *ir.Value) {
			b.Fetch(relu(b, x), "r", 0)
		}, func(b *progtest.Builder, x *ir.Value) {
			b.Fetch(relu(b, x), "renamed", 0)
		}, true, [][2]string{{"r", "renamed"}}, nil, ""},
		{"shadow outputs by output_name", func(b *progtest.Builder, x *ir.Value) {
			b.Shadow(relu(b, x), "r")
			b.Shadow(tanh(b, x), "t")
		}, func(b *progtest.Builder, x *ir.Value) {
			b.Shadow(tanh(b, x), "t")
			b.Shadow(relu(b, x), "r")
		}, true, [][2]string{{"r", "r"}, {"t", "t"}}, nil, ""},
		{"sinks in order", func(b *progtest.Builder, x *ir.Value) {
			relu(b, x)
			b.V("pd_op.exp", x)
		}, func(b *progtest.Builder, x *ir.Value) {
			b.V("pd_op.relu", b.V("pd_op.assign", x))
			b.V("pd_op.exp", x)
		}, true, [][2]string{{"%1 (pd_op.relu at (new op))", "%2 (pd_op.relu at (new op))"},
			{"%2 (pd_op.exp at (new op))", "%3 (pd_op.exp at (new op))"}}, nil, ""},
		{"different kinds matched in order", func(b *progtest.Builder, x *ir.Value) {
			b.Fetch(relu(b, x), "r", 0)
		}, func(b *progtest.Builder, x *ir.Value) {
			b.Shadow(relu(b, x), "out")
		}, true, [][2]string{{"r", "out"}}, nil, ""},
		{"a lost output", func(b *progtest.Builder, x *ir.Value) {
			b.Fetch(relu(b, x), "r", 0)
			b.Fetch(tanh(b, x), "t", 1)
		}, func(b *progtest.Builder, x *ir.Value) {
			b.Fetch(relu(b, x), "r", 0)
		}, false, [][2]string{{"r", "r"}}, []string{`fetch "t" of before has no counterpart after`}, ""},
		{"an extra output", func(b *progtest.Builder, x *ir.Value) {
			b.Shadow(relu(b, x), "r")
		}, func(b *progtest.Builder, x *ir.Value) {
			b.Shadow(relu(b, x), "r")
			b.Shadow(tanh(b, x), "t")
		}, false, [][2]string{{"r", "r"}}, []string{`shadow_output "t" of after has no counterpart before`}, ""},
		{"shape changed", func(b *progtest.Builder, x *ir.Value) {
			b.Fetch(relu(b, x), "r", 0)
		}, func(b *progtest.Builder, x *ir.Value) {
			b.Fetch(b.V("pd_op.reshape", relu(b, x), b.Ints(-1)), "r", 0)
		}, false, [][2]string{{"r", "r"}}, nil, "shape [2 3] before, [6] after"},
		{"element type changed", func(b *progtest.Builder, x *ir.Value) {
			b.Fetch(relu(b, x), "r", 0)
		}, func(b *progtest.Builder, x *ir.Value) {
			b.Fetch(b.VA("pd_op.cast", []*ir.Value{relu(b, x)}, progtest.Attr("dtype", b.Ctx.DataType(ir.DTypeFloat64))), "r", 0)
		}, false, [][2]string{{"r", "r"}}, nil, "element type f32 before, f64 after"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Programs(outputsProgram(t, tc.before), outputsProgram(t, tc.after), Options{Runs: 1})
			require.NotNil(t, rep, "%v", err)
			var pairs [][2]string
			for _, o := range rep.Outputs {
				pairs = append(pairs, [2]string{o.Name, o.AfterName})
			}
			assert.Equal(t, tc.pairs, pairs)
			assert.Equal(t, tc.unmatched, rep.Unmatched)
			assert.Equal(t, tc.ok, rep.OK())
			if tc.ok {
				assert.NoError(t, err)
				return
			}
			assert.ErrorIs(t, err, ErrMismatch)
			if tc.problem != "" {
				assert.Equal(t, tc.problem, rep.Outputs[0].Problem)
				assert.Contains(t, rep.String(), tc.problem)
			}
		})
	}
}

func TestCompareTolerances(t *testing.T) {
	// after computes x·(1+δ): relative error δ.
	scaled := func(delta float64) *ir.Program {
		return outputsProgram(t, func(b *progtest.Builder, x *ir.Value) {
			b.Fetch(b.VA("pd_op.scale", []*ir.Value{x, b.Full([]int64{1}, 1+delta)}), "out", 0)
		})
	}
	before := scaled(0)
	rep, err := Programs(before, scaled(1e-7), Options{})
	require.NoError(t, err)
	assert.InDelta(t, 1e-7, rep.Outputs[0].MaxRel, 1e-9, "relative to the output's scale")

	rep, err = Programs(before, scaled(1e-4), Options{})
	require.ErrorIs(t, err, ErrMismatch)
	assert.InDelta(t, 1e-4, rep.Outputs[0].MaxRel, 1e-6)
	assert.Equal(t, 1e-5, rep.RelTol)

	_, err = Programs(before, scaled(1e-4), Options{RelTol: 1e-3})
	require.NoError(t, err)

	rep, err = Programs(before, scaled(1e-4), Options{AbsTol: 1e-3})
	require.NoError(t, err, "inputs are in [-1, 1): the absolute error is below 1e-4")
	assert.Contains(t, rep.String(), "or abs 0.001: ok")
}

func TestCompareRelativeErrorIsScaleRelative(t *testing.T) {
	// An absolute error of 1e-9 on an element that is itself ~1e-9 is no relative error for an output of scale 1.
	b := progtest.New(t)
	x := b.Data("x", 2)
	b.Fetch(b.V("pd_op.add", x, b.Full([]int64{2}, 0)), "out", 0)
	b2 := progtest.New(t)
	x2 := b2.Data("x", 2)
	off := b2.OpT("pd_op.full", nil, []ir.Type{b2.TensorT(ir.DTypeFloat32, 2)}, progtest.Attr("shape", b2.Ctx.IntArray([]int64{2})),
		progtest.Attr("value", b2.Ctx.Double(1e-9)))
	b2.Fetch(b2.V("pd_op.add", x2, off.Result(0)), "out", 0)
	rep, err := Programs(b.P, b2.P, Options{Runs: 1})
	require.NoError(t, err)
	assert.Less(t, rep.Outputs[0].MaxRel, 1e-8)
}

func TestElemDiff(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct{ x, y, want float64 }{
		{1, 3, 2}, {nan, nan, 0}, {nan, 1, inf}, {1, nan, inf}, {inf, inf, 0}, {inf, -inf, inf}, {inf, 1, inf},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, tensor.ElemDiff(tc.x, tc.y), "%v vs %v", tc.x, tc.y)
	}
}

func TestCompareReportsEvaluationErrors(t *testing.T) {
	good := outputsProgram(t, func(b *progtest.Builder, x *ir.Value) { b.Fetch(b.V("pd_op.relu", x), "r", 0) })
	bad := outputsProgram(t, func(b *progtest.Builder, x *ir.Value) { b.Fetch(b.Unevaluable(x), "r", 0) })
	rep, err := Programs(good, bad, Options{})
	assert.Nil(t, rep)
	assert.EqualError(t, err, "after: cannot evaluate pd_op.decode_jpeg at (new op)")
	_, err = Programs(bad, good, Options{})
	assert.EqualError(t, err, "before: cannot evaluate pd_op.decode_jpeg at (new op)")
}

func TestCompareNaNsAgree(t *testing.T) {
	p := func() *ir.Program {
		return outputsProgram(t, func(b *progtest.Builder, x *ir.Value) { b.Fetch(b.V("pd_op.log", x), "r", 0) })
	}
	rep, err := Programs(p(), p(), Options{Runs: 2})
	require.NoError(t, err, "log of negative inputs is NaN on both sides")
	assert.Zero(t, rep.Outputs[0].MaxAbs)
}

// TestCompareConfirmsFloat32InFloat64: in float32, (x·10⁴ + 10⁹) − 10⁹ loses x·10⁴ to the rounding of 10⁹
// (its ulp is 64) — far beyond the error budget of two roundings — while the rewrite to x·10⁴ is exact. With the
// precision chosen automatically, Compare confirms the float32 mismatch in float64, which agrees: the rewrite is
// right. A wrong rewrite still fails there, and a float32 comparison asked for explicitly is not confirmed.
func TestCompareConfirmsFloat32InFloat64(t *testing.T) {
	cancel := outputsProgram(t, func(b *progtest.Builder, x *ir.Value) {
		big := b.Full([]int64{1}, 1e9)
		y := b.VA("pd_op.scale", []*ir.Value{x, b.Full([]int64{1}, 1e4)}, progtest.Attr("bias", b.Ctx.Float(0)), progtest.Attr("bias_after_scale", b.Ctx.Bool(true)))
		b.Fetch(b.V("pd_op.subtract", b.V("pd_op.add", y, big), big), "y", 0)
	})
	scaled := func(bias float32) *ir.Program {
		return outputsProgram(t, func(b *progtest.Builder, x *ir.Value) {
			b.Fetch(b.VA("pd_op.scale", []*ir.Value{x, b.Full([]int64{1}, 1e4)}, progtest.Attr("bias", b.Ctx.Float(bias)), progtest.Attr("bias_after_scale", b.Ctx.Bool(true))), "y", 0)
		})
	}
	tests := []struct {
		name      string
		after     *ir.Program
		precision interp.Precision
		noConfirm bool
		ok        bool
		confirmed bool // a float32 report is attached
	}{
		{"right rewrite, confirmed in float64", scaled(0), interp.Auto, false, true, true},
		{"wrong rewrite, still wrong in float64", scaled(1), interp.Auto, false, false, true},
		{"float32 asked for: no confirmation", scaled(0), interp.Float32, false, false, false},
		{"confirmation turned off", scaled(0), interp.Auto, true, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Programs(cancel, tc.after, Options{Options: feeds.Options{Options: interp.Options{Precision: tc.precision}}, Runs: 1, NoConfirm: tc.noConfirm})
			require.NotNil(t, rep)
			assert.Equal(t, tc.ok, err == nil, "%v\n%s", err, rep)
			assert.Equal(t, tc.confirmed, rep.Float32 != nil)
			if tc.confirmed {
				assert.Equal(t, interp.Float64, rep.Precision)
				require.Len(t, rep.Float32.Failures(), 1)
				assert.Greater(t, rep.Float32.Failures()[0].MaxRel, 1e-4, "float32 loses the small term")
				assert.Equal(t, interp.Float32, rep.Float32.Precision)
			}
			if !tc.ok {
				assert.ErrorIs(t, err, ErrMismatch)
			}
		})
	}
}

// TestCompareConfirmsOnlyTheFailingRuns: relu((x·10⁴ + 10⁹) − 10⁹) of a one-element x loses the small term in
// float32 where x is positive, while relu(x·10⁴) is exact; a negative x gives 0 on both sides. The runs in which
// x is positive fail in float32 (each run compared alone says which), and only those are evaluated again in
// float64, where they agree.
func TestCompareConfirmsOnlyTheFailingRuns(t *testing.T) {
	program := func(cancel bool) *ir.Program {
		b := progtest.New(t)
		y := b.VA("pd_op.scale", []*ir.Value{b.Data("x", 1), b.Full([]int64{1}, 1e4)}, progtest.Attr("bias", b.Ctx.Float(0)), progtest.Attr("bias_after_scale", b.Ctx.Bool(true)))
		if cancel {
			big := b.Full([]int64{1}, 1e9)
			y = b.V("pd_op.subtract", b.V("pd_op.add", y, big), big)
		}
		b.Fetch(b.V("pd_op.relu", y), "y", 0)
		return b.P
	}
	before, after := program(true), program(false)
	const runs = 8
	var want []int
	for k := range runs {
		_, err := Programs(before, after, Options{Options: feeds.Options{Options: interp.Options{Precision: interp.Float32}}, Runs: 1, Seed: uint64(k)})
		if err != nil {
			require.ErrorIs(t, err, ErrMismatch)
			want = append(want, k)
		}
	}
	require.True(t, len(want) > 0 && len(want) < runs, "the seeds should give positive and negative inputs: failing runs %v", want)
	rep, err := Programs(before, after, Options{Options: feeds.Options{Options: interp.Options{Precision: interp.Auto}}, Runs: runs})
	require.NoError(t, err)
	require.NotNil(t, rep.Float32, "float32 failed, float64 decided")
	assert.Equal(t, interp.Float64, rep.Precision)
	assert.Equal(t, want, rep.Float32.FailedRuns)
	assert.Equal(t, runs, rep.Float32.Runs)
	assert.Nil(t, rep.Float32.Only)
	assert.Equal(t, want, rep.Only, "float64 evaluates the failed runs only")
	assert.Equal(t, len(want), rep.Runs)
	assert.Empty(t, rep.FailedRuns)
	assert.Contains(t, want, rep.Outputs[0].Run)
}

// TestCompareRebatches: a fully static program captured at batch 4 (input [4, 6], the batch baked into a reshape
// shape) is compared at batch 1 — the input and the constant rebatched alike in both programs; a program the
// substitution breaks (a reshape to [-1, 4] of one row of 6) is compared at its captured batch instead, and a
// wrong rewrite fails either way.
func TestCompareRebatches(t *testing.T) {
	prog := func(body func(b *progtest.Builder, x *ir.Value) *ir.Value) *ir.Program {
		b := progtest.New(t)
		x := b.Data("x", 4, 6)
		b.P.Feeds = map[string]*ir.Variable{"x": {Name: "x", Type: x.Type()}} // captured: a sample's shape, no data
		b.Fetch(body(b, x), "y", 0)
		return b.P
	}
	split := func(b *progtest.Builder, x *ir.Value) *ir.Value {
		return b.V("pd_op.reshape", b.V("pd_op.relu", x), b.Ints(4, 2, 3))
	}
	splitAfter := func(b *progtest.Builder, x *ir.Value) *ir.Value {
		return b.V("pd_op.relu", b.V("pd_op.reshape", x, b.Ints(4, 2, 3)))
	}
	splitWrong := func(b *progtest.Builder, x *ir.Value) *ir.Value {
		return b.V("pd_op.tanh", b.V("pd_op.reshape", x, b.Ints(4, 2, 3)))
	}
	// A split's sections [4, 2] are columns, whatever the batch: only shapes are rebatched.
	columns := func(relu bool) func(b *progtest.Builder, x *ir.Value) *ir.Value {
		return func(b *progtest.Builder, x *ir.Value) *ir.Value {
			if relu {
				x = b.V("pd_op.relu", x)
			}
			t := b.TensorT(ir.DTypeFloat32, 4, 4)
			sp := b.OpT("pd_op.split", []*ir.Value{x, b.Ints(4, 2), b.Full([]int64{1}, 1, ir.DTypeInt32)},
				[]ir.Type{b.Ctx.Vector(t, b.TensorT(ir.DTypeFloat32, 4, 2))})
			first := b.OpT("builtin.split", []*ir.Value{sp.Result(0)}, []ir.Type{t, b.TensorT(ir.DTypeFloat32, 4, 2)}).Result(0)
			if !relu {
				first = b.V("pd_op.relu", first)
			}
			return first
		}
	}
	fours := func(b *progtest.Builder, x *ir.Value) *ir.Value {
		return b.V("pd_op.reshape", b.V("pd_op.relu", b.V("pd_op.reshape", x, b.Ints(-1, 4))), b.Ints(4, 6))
	}
	foursAfter := func(b *progtest.Builder, x *ir.Value) *ir.Value {
		return b.V("pd_op.reshape", b.V("pd_op.reshape", b.V("pd_op.relu", x), b.Ints(-1, 4)), b.Ints(4, 6))
	}
	tests := []struct {
		name          string
		before, after func(b *progtest.Builder, x *ir.Value) *ir.Value
		noRebatch     bool
		ok            bool
		rebatched     *feeds.Rebatch
		shape         []int // of the output compared
	}{
		{"rebatched to 1", split, splitAfter, false, true, &feeds.Rebatch{From: 4, To: 1, Inputs: 1, Constants: 1}, []int{1, 2, 3}},
		{"wrong rewrite", split, splitWrong, false, false, nil, []int{4, 2, 3}},
		{"rebatching breaks the program: the captured batch decides", fours, foursAfter, false, true, nil, []int{4, 6}},
		{"rebatching turned off", split, splitAfter, true, true, nil, []int{4, 2, 3}},
		{"split sections are no shape", columns(true), columns(false), false, true, &feeds.Rebatch{From: 4, To: 1, Inputs: 1}, []int{1, 4}},
		{"a program that records no sample keeps its batch", nil, nil, false, true, nil, []int{4, 2, 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var before, after *ir.Program
			if tc.before == nil {
				before, after = prog(split), prog(splitAfter)
				clear(before.Feeds)
				clear(after.Feeds)
			} else {
				before, after = prog(tc.before), prog(tc.after)
			}
			rep, err := Programs(before, after, Options{Runs: 1, NoRebatch: tc.noRebatch})
			require.NotNil(t, rep, "%v", err)
			assert.Equal(t, tc.ok, err == nil, "%v", err)
			assert.Equal(t, tc.rebatched, rep.Rebatched)
			require.Len(t, rep.Outputs, 1)
			assert.Equal(t, tc.shape, rep.Outputs[0].Shape)
		})
	}
}

// TestCompareRebatchesWithoutMultiples: a bias of 8 values on a batch of 4 is no multiple of the batch; rebatched
// as one ([2]) it breaks the add, and the second attempt, which replaces the batch itself only, passes.
func TestCompareRebatchesWithoutMultiples(t *testing.T) {
	prog := func(biasFirst bool) *ir.Program {
		b := progtest.New(t)
		x := b.Data("x", 4, 8)
		b.P.Feeds = map[string]*ir.Variable{"x": {Name: "x", Type: x.Type()}}
		bias := b.Full([]int64{8}, 0.5)
		sum := b.V("pd_op.add", x, bias)
		if biasFirst {
			sum = b.V("pd_op.add", bias, x)
		}
		b.Fetch(b.V("pd_op.relu", sum), "y", 0)
		return b.P
	}
	rep, err := Programs(prog(false), prog(true), Options{Runs: 1})
	require.NoError(t, err)
	assert.Equal(t, &feeds.Rebatch{From: 4, To: 1, Inputs: 1}, rep.Rebatched)
	assert.Equal(t, []int{1, 8}, rep.Outputs[0].Shape)
}

// TestCompareRebatchesRecordedInputs: GraphNet records the data of small inputs. One that holds the batch (a
// shape [4, 6] fed as an input; CLIP feeds the batch size as a scalar for the expand of its class token) holds
// the new batch, and labels recorded per sample ([4, 1]) keep their first row: without either, the rebatched
// evaluation fails or broadcasts back to the captured batch.
func TestCompareRebatchesRecordedInputs(t *testing.T) {
	i64 := func(v ...int64) []byte {
		out := make([]byte, 8*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint64(out[8*i:], uint64(x))
		}
		return out
	}
	prog := func(reluFirst bool) *ir.Program {
		b := progtest.New(t)
		x := b.Data("x", 4, 6)
		s := b.DataT("s", ir.DTypeInt64, 2)
		labels := b.DataT("labels", ir.DTypeInt64, 4, 1)
		b.P.Feeds = map[string]*ir.Variable{
			"x":      {Name: "x", Type: x.Type()},
			"s":      {Name: "s", Type: s.Type(), Data: i64(4, 6)},
			"labels": {Name: "labels", Type: labels.Type(), Data: i64(1, 2, 3, 4)},
		}
		var y *ir.Value
		if reluFirst {
			y = b.V("pd_op.reshape", b.V("pd_op.relu", x), s)
		} else {
			y = b.V("pd_op.relu", b.V("pd_op.reshape", x, s))
		}
		l := b.VA("pd_op.cast", []*ir.Value{labels}, progtest.Attr("dtype", b.Ctx.DataType(ir.DTypeFloat32)))
		b.Fetch(b.V("pd_op.add", y, l), "y", 0)
		return b.P
	}
	before, after := prog(true), prog(false)
	rep, err := Programs(before, after, Options{Runs: 1})
	require.NoError(t, err)
	assert.Equal(t, &feeds.Rebatch{From: 4, To: 1, Inputs: 3}, rep.Rebatched)
	assert.Equal(t, []int{1, 6}, rep.Outputs[0].Shape)
	// The programs' own records are left as they were.
	assert.Equal(t, i64(4, 6), before.Feeds["s"].Data)
	assert.Equal(t, i64(1, 2, 3, 4), after.Feeds["labels"].Data)

	// The first row of the labels is the one kept.
	p, _, o, rb, _ := feeds.RebatchPrograms(feeds.Options{}, before, after, 4, 1, true)
	assert.Equal(t, 3, rb.Inputs, "x, s and labels")
	assert.Equal(t, i64(1), p.Feeds["labels"].Data)
	assert.Equal(t, i64(1, 6), p.Feeds["s"].Data)
	assert.Equal(t, map[string][]int{"x": {1, 6}, "labels": {1, 1}}, o.InputShapes)

	// A recorded vector of B floats is no batch (PicoDet's 8 bins at batch 8): left alone.
	b := progtest.New(t)
	v := b.DataT("bins", ir.DTypeFloat32, 4)
	bins := make([]byte, 4*4)
	b.P.Feeds = map[string]*ir.Variable{"bins": {Name: "bins", Type: v.Type(), Data: bins}}
	p, _, _, rb, _ = feeds.RebatchPrograms(feeds.Options{}, b.P, b.P, 4, 1, true)
	assert.Zero(t, rb.Inputs)
	assert.Equal(t, bins, p.Feeds["bins"].Data)
}

// TestCompareRebatchesMultipleInAfter: a pass may build a shape that is a multiple of the batch by chance (a fused
// weight reshaped to [768, 3, 768] at batch 8). Rebatched with multiples, the after program breaks; the attempt
// without multiples must still be made, though before has no such shape.
func TestCompareRebatchesMultipleInAfter(t *testing.T) {
	prog := func(viaColumn bool) *ir.Program {
		b := progtest.New(t)
		x := b.Data("x", 2, 6)
		b.P.Feeds = map[string]*ir.Variable{"x": {Name: "x", Type: x.Type()}}
		w := b.Param("w", 1, 6)
		if viaColumn {
			w = b.V("pd_op.reshape", b.V("pd_op.reshape", w, b.Ints(6, 1)), b.Ints(1, 6))
		}
		b.Fetch(b.V("pd_op.add", b.V("pd_op.relu", x), w), "y", 0)
		return b.P
	}
	rep, err := Programs(prog(false), prog(true), Options{Runs: 1})
	require.NoError(t, err)
	assert.Equal(t, &feeds.Rebatch{From: 2, To: 1, Inputs: 1}, rep.Rebatched)
	assert.Equal(t, []int{1, 6}, rep.Outputs[0].Shape)
	assert.Nil(t, rep.NotRebatched)
}

// TestCompareSaysWhyNotRebatched: when the rebatched comparison does not stand, the report says why.
func TestCompareSaysWhyNotRebatched(t *testing.T) {
	prog := func() *ir.Program {
		b := progtest.New(t)
		x := b.Data("x", 4, 6)
		b.P.Feeds = map[string]*ir.Variable{"x": {Name: "x", Type: x.Type()}}
		// 24 elements to [-1, 4]: at batch 1 the 6 elements do not fill rows of 4.
		b.Fetch(b.V("pd_op.reshape", b.V("pd_op.relu", b.V("pd_op.reshape", x, b.Ints(-1, 4))), b.Ints(4, 6)), "y", 0)
		return b.P
	}
	rep, err := Programs(prog(), prog(), Options{Runs: 1})
	require.NoError(t, err)
	assert.Nil(t, rep.Rebatched)
	require.NotNil(t, rep.NotRebatched)
	assert.Equal(t, int64(4), rep.NotRebatched.From)
	assert.Equal(t, int64(1), rep.NotRebatched.To)
	assert.Contains(t, rep.NotRebatched.Why, "before: evaluating pd_op.reshape")
}

// TestRandomOutputsAreFlagged: a program compared with itself draws the same numbers in its random ops, and the
// outputs that depend on them are flagged as such (a difference there may be a different draw).
func TestRandomOutputsAreFlagged(t *testing.T) {
	b := progtest.New(t)
	x := b.Data("x", 100)
	u := b.OpT("pd_op.uniform", []*ir.Value{b.Ints(100), b.Full([]int64{1}, -2), b.Full([]int64{1}, 3)}, []ir.Type{x.Type()},
		progtest.Attr("dtype", b.Ctx.DataType(ir.DTypeFloat32)), progtest.Attr("seed", b.Ctx.Int32(0))).Result(0)
	b.Fetch(b.V("pd_op.add", x, u), "noisy", 0)
	b.Fetch(b.V("pd_op.relu", x), "deterministic", 1)
	rep, err := Programs(b.P, b.P.Clone(), Options{})
	require.NoError(t, err)
	for _, o := range rep.Outputs {
		assert.Equal(t, o.Name == "noisy", o.Random, o.Name)
		assert.Zero(t, o.MaxAbs, o.Name)
	}
	assert.Contains(t, rep.String(), "noisy: shape [100] max abs 0 max rel 0")
	assert.Contains(t, rep.String(), "(depends on random ops)")
}
