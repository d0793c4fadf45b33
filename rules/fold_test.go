package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/compare"
	"github.com/pirdrr/drr/feeds"
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

// foldPrograms reads the programs of testprograms/fold.txtar by name (NAME.pir), each parsed in a context of its own.
func foldPrograms(t *testing.T) map[string]func() *ir.Program {
	t.Helper()
	a, err := txtar.ParseFile("testprograms/fold.txtar")
	require.NoError(t, err)
	out := map[string]func() *ir.Program{}
	for _, f := range a.Files {
		out[f.Name] = func() *ir.Program {
			ctx, err := ir.NewDefaultContext()
			require.NoError(t, err)
			p, _, err := pirtext.Parse(ctx, f.Name, f.Data, pirtext.ReadOptions{})
			require.NoError(t, err)
			return p
		}
	}
	return out
}

func countOps(p *ir.Program, name string) int {
	n := 0
	for op := range p.Walk() {
		if op.Name() == name {
			n++
		}
	}
	return n
}

// TestFoldConstants folds each program of testprograms/fold.txtar (with random weights where it reads some), checks
// what was folded, and compares the folded program with the original with real numbers.
func TestFoldConstants(t *testing.T) {
	programs := foldPrograms(t)
	tests := []struct {
		name    string
		folded  int
		compare bool
		check   func(t *testing.T, p *ir.Program)
	}{
		{"full_only", 1, true, func(t *testing.T, p *ir.Program) {
			assert.Zero(t, countOps(p, "pd_op.full"))
			assert.Zero(t, countOps(p, "pd_op.multiply"))
			require.Len(t, p.Params, 1)
			v := p.Params[FoldPrefix+"0"]
			require.NotNil(t, v)
			h, err := interp.DecodeData(ir.DTypeFloat32, []int{2}, v.Data)
			require.NoError(t, err)
			assert.Equal(t, []float64{6, 6}, h.Data)
		}},
		{"mutable_attribute_operand", 0, true, func(t *testing.T, p *ir.Program) {
			assert.Equal(t, 1, countOps(p, "pd_op.cast"), "reshape's shape keeps its producer: the type rule reads it")
			assert.Empty(t, p.Params)
		}},
		{"mutable_parameter", 0, true, func(t *testing.T, p *ir.Program) {
			assert.Equal(t, 1, countOps(p, "pd_op.sqrt"), "w is written by relu_: not a constant")
		}},
		{"shared_folded_value", 2, true, func(t *testing.T, p *ir.Program) {
			assert.Len(t, p.Params, 2, "exp(w) and exp(w)² become weights; w is no longer read")
			assert.Equal(t, 2, countOps(p, ir.ParameterOpName))
		}},
		{"unevaluable", 0, false, func(t *testing.T, p *ir.Program) {
			assert.Equal(t, 1, countOps(p, "pd_op.decode_jpeg"))
		}},
		{"inside_a_branch", 2, true, func(t *testing.T, p *ir.Program) {
			// less_than of two fulls folds too; the if keeps reading a (folded) constant condition.
			assert.Zero(t, countOps(p, "pd_op.abs"))
			assert.Zero(t, countOps(p, "pd_op.less_than"))
			assert.Equal(t, 1, countOps(p, "pd_op.if"))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := programs[tt.name+".pir"]()
			_, err := feeds.FillRandomWeights(before, 1, feeds.Options{})
			require.NoError(t, err)
			after := before.Clone()
			n, err := FoldConstants(after, ir.NewRewriter(after.Ctx, nil))
			require.NoError(t, err)
			assert.Equal(t, tt.folded, n)
			require.Empty(t, ir.Verify(after).Errors())
			tt.check(t, after)
			if tt.compare {
				rep, err := compare.Programs(before, after, compare.Options{Runs: 2})
				require.NoError(t, err, "%s", rep)
			}
		})
	}
}

// TestFoldConstantsKeepsDeclaredDTypeAndShape: a folded value takes the element type its op declares (the cast's
// float32, not the float64 weight) and its computed static shape.
func TestFoldConstantsKeepsDeclaredDTypeAndShape(t *testing.T) {
	p := foldPrograms(t)["declared_dtype_and_shape.pir"]()
	raw, err := interp.EncodeData(&interp.Tensor{DType: ir.DTypeFloat64, Shape: []int{4}, Data: []float64{0.1, 2, 3, 4}})
	require.NoError(t, err)
	p.Params["w"].Data = raw
	n, err := FoldConstants(p, nil)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	v := p.Params[FoldPrefix+"0"]
	require.NotNil(t, v)
	assert.Equal(t, "builtin.tensor<4xf32>", v.Type.String())
	h, err := interp.DecodeData(ir.DTypeFloat32, []int{4}, v.Data)
	require.NoError(t, err)
	assert.Equal(t, []float64{float64(float32(0.1 * 0.1)), 4, 9, 16}, h.Data)
	assert.Nil(t, p.Params["w"], "w is no longer read")
}

// recorder counts rewriter notifications.
type recorder struct{ inserted, modified, erased int }

func (r *recorder) OpInserted(*ir.Op) { r.inserted++ }
func (r *recorder) OpModified(*ir.Op) { r.modified++ }
func (r *recorder) OpErased(*ir.Op)   { r.erased++ }

// TestFoldConstantsAfterConvBNFold: the conv+bn fold written as weight ops (what conv_bn_relu's rules leave)
// folds into one filter and one bias parameter, in both layouts, and the program computes what the conv + batch
// norm computed.
func TestFoldConstantsAfterConvBNFold(t *testing.T) {
	programs := foldPrograms(t)
	for _, format := range []string{"NCHW", "NHWC"} {
		t.Run(format, func(t *testing.T) {
			before, after := programs["convbn_"+format+".pir"](), programs["convbn_folded_"+format+".pir"]()
			// Concrete weights: the same seed gives both programs the same data by name.
			n, err := feeds.FillRandomWeights(before, 3, feeds.Options{})
			require.NoError(t, err)
			assert.Equal(t, 5, n)
			_, err = feeds.FillRandomWeights(after, 3, feeds.Options{})
			require.NoError(t, err)
			for name, v := range before.Params {
				assert.Equal(t, v.Data, after.Params[name].Data, name)
			}

			rec := &recorder{}
			folded, err := FoldConstants(after, ir.NewRewriter(after.Ctx, rec))
			require.NoError(t, err)
			assert.Equal(t, 8, folded, "add, sqrt, divide, reshape, multiply on the filter; multiply, subtract, reshape on the bias")
			assert.Empty(t, ir.Verify(after).Errors())
			for _, name := range []string{"pd_op.sqrt", "pd_op.divide", "pd_op.multiply", "pd_op.subtract",
				"pd_op.reshape", "pd_op.full", "pd_op.full_int_array"} {
				assert.Zero(t, countOps(after, name), name)
			}
			assert.Equal(t, 1, countOps(after, "pd_op.conv2d"))
			assert.Equal(t, 1, countOps(after, "pd_op.add"), "the bias add on activations stays")
			assert.Equal(t, 2, countOps(after, ir.ParameterOpName), "the folded filter and the folded bias")
			assert.Len(t, after.Params, 2, "the old weights are no longer read")
			for name, v := range after.Params {
				assert.Contains(t, name, FoldPrefix)
				assert.NotNil(t, v.Data)
				assert.False(t, v.Mutable)
			}
			var conv, add *ir.Op
			for op := range after.Walk() {
				switch op.Name() {
				case "pd_op.conv2d":
					conv = op
				case "pd_op.add":
					add = op
				}
			}
			w := after.ParamOf(conv.Operand(1))
			require.NotNil(t, w)
			assert.Equal(t, "builtin.tensor<8x3x3x3xf32>", w.Type.String())
			bias := after.ParamOf(add.Operand(1))
			require.NotNil(t, bias)
			if format == "NHWC" {
				assert.Equal(t, "builtin.tensor<1x1x1x8xf32>", bias.Type.String())
			} else {
				assert.Equal(t, "builtin.tensor<1x8x1x1xf32>", bias.Type.String())
			}
			assert.Equal(t, 2, rec.inserted)
			assert.Equal(t, folded+8, rec.erased, "the folded ops, full, two full_int_arrays and five old parameters")

			rep, err := compare.Programs(before, after, compare.Options{Runs: 3, Seed: 7, Options: feeds.Options{Batch: 2}})
			require.NoError(t, err, "%s", rep)
			assert.Less(t, rep.Outputs[0].MaxRel, 1e-6)
		})
	}
}

// TestFoldConstantsNeedsData: without weight data only ops on full/full_int_array constants could fold; in the
// folded conv+bn none reads only those.
func TestFoldConstantsNeedsData(t *testing.T) {
	after := foldPrograms(t)["convbn_folded_NCHW.pir"]()
	n, err := FoldConstants(after, nil)
	require.NoError(t, err)
	assert.Zero(t, n)
	assert.Equal(t, 1, countOps(after, "pd_op.sqrt"))
}
