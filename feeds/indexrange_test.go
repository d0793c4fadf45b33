package feeds

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

// TestFusedEmbeddingIds: the ids of fused_embedding_eltwise_layernorm, element i of a combine, are bounded by the
// rows of table i; Random draws them there, and recorded statistics are kept where they meet the bound.
func TestFusedEmbeddingIds(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	src := `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)int64,name:"a",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[1,64],stop_gradient:[true]} : () -> builtin.tensor<1x64xi64>
    (%1) = "pd_op.data" () {dtype:(pd_op.DataType)int64,name:"b",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[1,64],stop_gradient:[true]} : () -> builtin.tensor<1x64xi64>
    (%2) = "builtin.parameter" () {parameter_name:"w1"} : () -> builtin.tensor<300x8xf32>
    (%3) = "builtin.parameter" () {parameter_name:"w2"} : () -> builtin.tensor<2x8xf32>
    (%4) = "builtin.parameter" () {parameter_name:"s"} : () -> builtin.tensor<8xf32>
    (%5) = "builtin.parameter" () {parameter_name:"c"} : () -> builtin.tensor<8xf32>
    (%6) = "builtin.combine" (%0, %1) {} : (builtin.tensor<1x64xi64>, builtin.tensor<1x64xi64>) -> vec[builtin.tensor<1x64xi64>,builtin.tensor<1x64xi64>]
    (%7) = "builtin.combine" (%2, %3) {} : (builtin.tensor<300x8xf32>, builtin.tensor<2x8xf32>) -> vec[builtin.tensor<300x8xf32>,builtin.tensor<2x8xf32>]
    (%8) = "pd_op.fused_embedding_eltwise_layernorm" (%6, %7, %5, %4) {epsilon:(Float)1e-05} : (vec[builtin.tensor<1x64xi64>,builtin.tensor<1x64xi64>], vec[builtin.tensor<300x8xf32>,builtin.tensor<2x8xf32>], builtin.tensor<8xf32>, builtin.tensor<8xf32>) -> builtin.tensor<1x64x8xf32>
    (%9) = "pd_op.fetch" (%8) {col:(Int32)0,name:"out"} : (builtin.tensor<1x64x8xf32>) -> builtin.tensor<1x64x8xf32>
}
`
	p, _, err := pirtext.Parse(ctx, "p.pir", []byte(src), pirtext.ReadOptions{})
	require.NoError(t, err)
	p.Feeds = map[string]*ir.Variable{"a": {Name: "a", Stats: &ir.TensorStats{Min: 100, Max: 1000}}}
	f, err := Random(3, Options{}, p)
	require.NoError(t, err)
	for _, v := range f.Inputs["a"].Data {
		require.True(t, v >= 100 && v < 300, "a: %v is in the recorded range [100, 1000] and below the 300 rows", v)
	}
	for _, v := range f.Inputs["b"].Data {
		require.True(t, v == 0 || v == 1, "b: %v of a 2-row table", v)
	}
	_, err = interp.Evaluate(p, f, interp.Options{})
	require.NoError(t, err, "the fused embedding evaluates")
}

// TestBoundInts: a recorded range is kept where it meets [0, bound); otherwise, and without a record, the draw
// covers [0, bound).
func TestBoundInts(t *testing.T) {
	ints := func(lo, hi float64) distribution { return distribution{kind: distInts, lo: lo, hi: hi} }
	assert.Equal(t, ints(0, 1), boundInts(ints(0, 7), 2, false))
	assert.Equal(t, ints(0, 29), boundInts(ints(0, 7), 30, false), "all rows, not {0, …, 7}")
	assert.Equal(t, ints(5, 9), boundInts(ints(5, 20), 10, true))
	assert.Equal(t, ints(0, 9), boundInts(ints(50, 70), 10, true), "a recorded range beyond the table")
	assert.Equal(t, ints(3, 4), boundInts(ints(3, 4), 0, true), "no bound")
	uniform := distribution{kind: distUniform, lo: -1, hi: 1}
	assert.Equal(t, uniform, boundInts(uniform, 5, false), "floats are no index")
}
