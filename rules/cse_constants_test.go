package rules_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/compare"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rules"
)

// cseProgram wraps body (ops reading the input %0, a 2x2 float32 x) into a program that fetches %out.
func cseProgram(body string) string {
	return `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[2,2],stop_gradient:[true]} : () -> builtin.tensor<2x2xf32>
` + body + `
    (%99) = "pd_op.fetch" (%out) {col:(Int32)0,name:"out"} : (builtin.tensor<2x2xf32>) -> builtin.tensor<2x2xf32>
}`
}

// full returns a pd_op.full op defining %name, a 2x2 float32 of value.
func full(name string, value float64) string {
	return fmt.Sprintf(`    (%%%s) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[2,2],stop_gradient:[true],value:(Double)%g} : () -> builtin.tensor<2x2xf32>
`, name, value)
}

// binary returns a binary op `%res = op(%a, %b)` over 2x2 float32 values.
func binary(op, res, a, b string) string {
	return fmt.Sprintf(`    (%%%s) = "pd_op.%s" (%%%s, %%%s) {} : (builtin.tensor<2x2xf32>, builtin.tensor<2x2xf32>) -> builtin.tensor<2x2xf32>
`, res, op, a, b)
}

// assignValue returns `%res = assign_value_(%dst)` filling %dst's 2x2 float32 buffer with v in place.
func assignValue(res, dst string, v float64) string {
	return fmt.Sprintf(`    (%%%s) = "pd_op.assign_value_" (%%%s) {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(undefined:0),shape:[(Int32)2,(Int32)2],stop_gradient:[true],values:[(Double)%g,(Double)%g,(Double)%g,(Double)%g]} : (builtin.tensor<2x2xf32>) -> builtin.tensor<2x2xf32>
`, res, dst, v, v, v, v)
}

// TestMergeConstants: equal constants of a block become one, through the rewriter, and the program computes what
// it computed (compare.Programs); constants that differ, that live in different blocks, or that an op writes in
// place stay apart. The last case is LLaMA's attention mask (GraphNet facebook_llama-7b), which merging broke:
// two `full 0` buffers filled with 0 and -65504 by assign_value_.
func TestMergeConstants(t *testing.T) {
	tests := []struct {
		name   string
		body   string
		merged int
	}{
		{name: "equal constants", merged: 1,
			body: full("1", 2) + full("2", 2) + binary("add", "3", "0", "1") + binary("multiply", "out", "3", "2")},
		{name: "three equal constants", merged: 2,
			body: full("1", 2) + full("2", 2) + full("3", 2) + binary("add", "4", "1", "2") + binary("add", "out", "4", "3")},
		{name: "different values",
			body: full("1", 2) + full("2", 3) + binary("add", "3", "0", "1") + binary("multiply", "out", "3", "2")},
		{name: "written in place (LLaMA's mask)",
			body: full("1", 0) + assignValue("2", "1", 0) + full("3", 0) + assignValue("4", "3", -65504) +
				binary("add", "5", "0", "2") + binary("add", "out", "5", "4")},
		{name: "one of two written in place",
			body: full("1", 0) + full("3", 0) + assignValue("4", "3", 5) +
				binary("add", "5", "0", "1") + binary("add", "out", "5", "4")},
		{name: "written in place, two more equal", merged: 1,
			body: full("1", 0) + full("2", 0) + full("3", 0) + assignValue("4", "3", 5) +
				binary("add", "5", "1", "2") + binary("add", "6", "5", "4") + binary("add", "out", "6", "0")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := parse(t, cseProgram(tc.body))
			after := parse(t, cseProgram(tc.body))
			l := &erased{}
			n, err := rules.MergeConstants(after, ir.NewRewriter(after.Ctx, l))
			require.NoError(t, err)
			assert.Equal(t, tc.merged, n)
			assert.Equal(t, tc.merged, l.n, "every erase goes through the rewriter")
			require.Empty(t, ir.Verify(after).Errors())
			rep, err := compare.Programs(before, after, compare.Options{Runs: 1})
			require.NoError(t, err, "%v", rep)
		})
	}
}

// TestMergeConstantsBlocks: equal constants of different blocks (the branches of a pd_op.if and the top level) are
// not merged; equal ones within a branch are.
func TestMergeConstantsBlocks(t *testing.T) {
	p := parse(t, `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[2,2],stop_gradient:[true]} : () -> builtin.tensor<2x2xf32>
    (%1) = "pd_op.data" () {dtype:(pd_op.DataType)bool,name:"c",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[1],stop_gradient:[true]} : () -> builtin.tensor<1xb>
`+full("2", 2)+`    (%3) = "pd_op.if" (%1) {} -> builtin.tensor<2x2xf32> {
`+full("4", 2)+full("5", 2)+binary("add", "6", "4", "5")+`        () = "cf.yield" (%6) {} : (builtin.tensor<2x2xf32>) ->
    } else {
`+full("7", 2)+`        () = "cf.yield" (%7) {} : (builtin.tensor<2x2xf32>) ->
    }
`+binary("add", "8", "3", "2")+`    (%9) = "pd_op.fetch" (%8) {col:(Int32)0,name:"out"} : (builtin.tensor<2x2xf32>) -> builtin.tensor<2x2xf32>
}`)
	n, err := rules.MergeConstants(p, ir.NewRewriter(p.Ctx, nil))
	require.NoError(t, err)
	assert.Equal(t, 1, n, "only the then-branch's two constants merge")
	require.Empty(t, ir.Verify(p).Errors())
}

// erased counts the ops a rewriter reports erased.
type erased struct{ n int }

func (l *erased) OpInserted(*ir.Op) {}
func (l *erased) OpModified(*ir.Op) {}
func (l *erased) OpErased(*ir.Op)   { l.n++ }

// TestGPUInferenceKeepsWrittenConstants: the whole gpu_inference pipeline on LLaMA's mask construction (two equal
// constants, each filled in place) computes what the program computed.
func TestGPUInferenceKeepsWrittenConstants(t *testing.T) {
	src := cseProgram(full("1", 0) + assignValue("2", "1", 0) + full("3", 0) + assignValue("4", "3", -65504) +
		binary("add", "5", "0", "2") + binary("add", "out", "5", "4"))
	before, after := parse(t, src), parse(t, src)
	runPasses(t, after, "gpu_inference")
	rep, err := compare.Programs(before, after, compare.Options{Runs: 1})
	require.NoError(t, err, "%v", rep)
}
