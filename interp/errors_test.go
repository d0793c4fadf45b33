package interp

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/ir"
)

func TestRefusalMessages(t *testing.T) {
	tests := []struct {
		name  string
		build func(b *progtest.Builder)
		want  string
	}{
		{"registered op without kernel, with position", func(b *progtest.Builder) {
			b.P.File = "model.pir"
			x := b.Data("x", 2)
			op := b.Unevaluable(x).DefiningOp()
			op.Loc = ir.Loc{Line: 42, Col: 5}
		}, "cannot evaluate pd_op.decode_jpeg at model.pir:42"},
		{"new op", func(b *progtest.Builder) {
			b.Unevaluable(b.Data("x", 2))
		}, "cannot evaluate pd_op.decode_jpeg at (new op)"},
		{"position without file name", func(b *progtest.Builder) {
			b.Unevaluable(b.Data("x", 2)).DefiningOp().Loc = ir.Loc{Line: 7}
		}, "cannot evaluate pd_op.decode_jpeg at <input>:7"},
		{"unregistered op", func(b *progtest.Builder) {
			b.OpT("custom.frobnicate", []*ir.Value{b.Data("x", 2)}, []ir.Type{b.TensorT(ir.DTypeFloat32, 2)})
		}, "cannot evaluate custom.frobnicate at (new op)"},
		{"inplace op whose base has no kernel", func(b *progtest.Builder) {
			// An optimizer step: training updates are not evaluated.
			w := b.V("pd_op.assign", b.Data("x", 2))
			lr := b.Full([]int64{1}, 0.1)
			b.OpT("pd_op.sgd_", []*ir.Value{w, lr, w, nil}, []ir.Type{w.Type()}, progtest.Attr("multi_precision", b.Ctx.Bool(false)))
		}, "cannot evaluate pd_op.sgd_ at (new op)"},
		{"unknown region op", func(b *progtest.Builder) {
			b.Region("cinn_op.group", nil, nil, 1)
		}, "cannot evaluate cinn_op.group at (new op)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := progtest.New(t)
			tc.build(b)
			_, err := Evaluate(b.P, &Feed{Inputs: map[string]*Tensor{"x": host([]int{2}, 1, 2)}}, Options{})
			require.Error(t, err)
			assert.EqualError(t, err, tc.want)
			assert.ErrorIs(t, err, ErrUnsupported)
			var oe *OpError
			require.True(t, errors.As(err, &oe))
		})
	}
}

func TestEvaluationErrors(t *testing.T) {
	tests := []struct {
		name  string
		build func(b *progtest.Builder)
		feed  *Feed
		opts  Options
		want  string
	}{
		{"input not fed", func(b *progtest.Builder) { b.Data("x", 2) }, &Feed{},
			Options{}, `evaluating pd_op.data at (new op): input "x" is not fed`},
		{"input of the wrong shape", func(b *progtest.Builder) { b.Data("x", 3) },
			&Feed{Inputs: map[string]*Tensor{"x": host([]int{2}, 1, 2)}}, Options{},
			"evaluating pd_op.data at (new op): result 0 has shape [2] but its type is builtin.tensor<3xf32>"},
		{"input of the wrong shape, declared shapes ignored", func(b *progtest.Builder) {
			b.Fetch(b.V("pd_op.relu", b.Data("x", 3)), "out", 0)
		}, &Feed{Inputs: map[string]*Tensor{"x": host([]int{2}, 1, 2)}}, Options{IgnoreDeclaredShapes: true}, ""},
		{"parameter without data", func(b *progtest.Builder) { b.Fetch(b.V("pd_op.relu", b.Param("w", 2)), "out", 0) }, &Feed{}, Options{},
			`evaluating builtin.parameter at (new op): parameter "w" has no data (load weights, set Feed.Params, or draw them: feeds.Random)`},
		{"parameter without data nothing reads", func(b *progtest.Builder) { b.Param("w", 2) }, &Feed{}, Options{}, ""},
		{"parameter data of the wrong size", func(b *progtest.Builder) {
			b.Fetch(b.V("pd_op.relu", b.Param("w", 2)), "out", 0)
			b.P.Params["w"].Data = []byte{1, 2, 3}
		}, &Feed{}, Options{}, `evaluating builtin.parameter at (new op): parameter "w": interp: f32 data for shape [2] needs 8 bytes, got 3`},
		{"a result that contradicts its type", func(b *progtest.Builder) {
			x := b.Data("x", 2)
			b.OpT("pd_op.relu", []*ir.Value{x}, []ir.Type{b.TensorT(ir.DTypeFloat32, 3)})
		}, &Feed{Inputs: map[string]*Tensor{"x": host([]int{2}, 1, 2)}}, Options{},
			"evaluating pd_op.relu at (new op): result 0 has shape [2] but its type is builtin.tensor<3xf32>"},
		{"kernel error", func(b *progtest.Builder) {
			x := b.Data("x", 2)
			y := b.Data("y", 3)
			b.OpT("pd_op.add", []*ir.Value{x, y}, []ir.Type{b.TensorT(ir.DTypeFloat32, 3)})
		}, &Feed{Inputs: map[string]*Tensor{"x": host([]int{2}, 1, 2), "y": host([]int{3}, 1, 2, 3)}}, Options{},
			"evaluating pd_op.add at (new op): tensor: add: tensor: broadcast: shapes [2] and [3] are incompatible (dimension 0: 2 vs 3)"},
		{"conv of a rank-2 input", func(b *progtest.Builder) {
			x := b.Data("x", 2, 2)
			b.OpT("pd_op.conv2d", []*ir.Value{x, x}, []ir.Type{b.TensorT(ir.DTypeFloat32, 2, 2)})
		}, &Feed{Inputs: map[string]*Tensor{"x": host([]int{2, 2}, 1, 2, 3, 4)}}, Options{},
			"evaluating pd_op.conv2d at (new op): tensor: conv2d: input [2 2] and filter [2 2] must both be 4-D"},
		{"missing operand", func(b *progtest.Builder) {
			b.OpT("pd_op.relu", []*ir.Value{nil}, []ir.Type{b.TensorT(ir.DTypeFloat32, 2)})
		}, &Feed{}, Options{}, "evaluating pd_op.relu at (new op): operand 0 is missing"},
		{"use of an uncomputed result", func(b *progtest.Builder) {
			x := b.Data("x", 2)
			rs := b.OpT("pd_op.reshape", []*ir.Value{x, b.Ints(2)}, []ir.Type{b.TensorT(ir.DTypeFloat32, 2), b.TensorT(ir.DTypeFloat32, 2)})
			b.V("pd_op.relu", rs.Result(1))
		}, &Feed{Inputs: map[string]*Tensor{"x": host([]int{2}, 1, 2)}}, Options{},
			"evaluating pd_op.relu at (new op): operand 0 reads a result the interpreter does not compute"},
		{"batch_norm without is_test", func(b *progtest.Builder) {
			x := b.Data("x", 1, 2)
			m := b.Full([]int64{2}, 0)
			b.OpT("pd_op.batch_norm_", []*ir.Value{x, m, m, nil, nil}, []ir.Type{x.Type(), m.Type(), m.Type(), m.Type(), m.Type()})
		}, &Feed{Inputs: map[string]*Tensor{"x": host([]int{1, 2}, 1, 2)}}, Options{},
			"evaluating pd_op.batch_norm_ at (new op): attribute is_test is missing or not a bool"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := progtest.New(t)
			tc.build(b)
			_, err := Evaluate(b.P, tc.feed, tc.opts)
			if tc.want == "" {
				assert.NoError(t, err)
				return
			}
			assert.EqualError(t, err, tc.want)
			assert.NotErrorIs(t, err, ErrUnsupported)
		})
	}
}

// TestLimitErrors: a tensor or an op beyond a size limit is a LimitError that says which limit (drrc verify names
// the flag that raises it), and raising the limit lets the program through.
func TestLimitErrors(t *testing.T) {
	build := func(b *progtest.Builder) {
		x := b.Data("x", 4, 8)
		b.Fetch(b.V("pd_op.matmul", x, b.Data("y", 8, 4)), "out", 0)
	}
	feed := &Feed{Inputs: map[string]*Tensor{"x": host([]int{4, 8}, make([]float64, 32)...),
		"y": host([]int{8, 4}, make([]float64, 32)...)}}
	tests := []struct {
		name string
		opts Options
		want *LimitError
		msg  string
	}{
		{"macs", Options{MaxMACs: 100}, &LimitError{Value: 128, Limit: 100, Option: "MaxMACs"},
			"evaluating pd_op.matmul at (new op): 128 multiply-accumulates, more than Options.MaxMACs (100)"},
		{"elements", Options{MaxElements: 20}, &LimitError{What: `input "x"`, Value: 32, Limit: 20, Option: "MaxElements"},
			`evaluating pd_op.data at (new op): input "x" has 32 elements, more than Options.MaxElements (20)`},
		{"raised", Options{MaxMACs: 128, MaxElements: 32}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := progtest.New(t)
			build(b)
			_, err := Evaluate(b.P, feed, tc.opts)
			if tc.want == nil {
				require.NoError(t, err)
				return
			}
			var lim *LimitError
			require.ErrorAs(t, err, &lim)
			assert.Equal(t, tc.want, lim)
			assert.EqualError(t, err, tc.msg)
		})
	}
}

func TestEvaluateNilProgram(t *testing.T) {
	_, err := Evaluate(nil, nil, Options{})
	assert.EqualError(t, err, "interp: nil program")
}

func TestInternalPanicsBecomeErrors(t *testing.T) {
	b := progtest.New(t)
	b.Data("x", 2)
	reg := registry64
	defer func() { registry64 = reg }()
	registry64 = registry[float64]{"pd_op.data": func(*call[float64]) ([]*value[float64], error) { panic("boom") }}
	_, err := Evaluate(b.P, &Feed{}, Options{})
	assert.EqualError(t, err, "evaluating pd_op.data at (new op): internal error (please report): boom")
}

func TestSupportedOps(t *testing.T) {
	ops := SupportedOps()
	assert.Contains(t, ops, "pd_op.conv2d")
	assert.Contains(t, ops, "builtin.parameter")
	assert.NotContains(t, ops, "pd_op.relu_", "inplace forms use the kernel of their non-inplace op")
	assert.IsNonDecreasing(t, ops)
	assert.Len(t, registry32, len(ops))
}

// TestCorpusOpsHaveKernels lists the ops of the GraphNet samples (the "# dialect.op:" comments of their model.py
// files) and requires a kernel for each: the interpreter can evaluate every op the corpus uses.
func TestCorpusOpsHaveKernels(t *testing.T) {
	if testing.Short() || progtest.RaceEnabled {
		t.Skip("reads 811 model.py files")
	}
	root := sharedCorpus(t, "graphnet_samples")
	re := regexp.MustCompile(`(?m)^\s*# ([a-z_]+\.[a-z0-9_]+):`)
	used := map[string]bool{}
	require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "model.py" {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range re.FindAllSubmatch(src, -1) {
			used[string(m[1])] = true
		}
		return nil
	}))
	var missing []string
	for op := range used {
		_, exact := registry64[op]
		if _, ok := registry64[ir.NonInplaceName(op)]; !ok && !exact {
			missing = append(missing, op)
		}
	}
	slices.Sort(missing)
	t.Logf("%d distinct ops in the GraphNet samples", len(used))
	assert.Empty(t, missing, "ops of the corpus without a kernel")
}
