package ir

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseTarget: drrc's -target spellings, what they mean, and that a target prints as it is parsed.
func TestParseTarget(t *testing.T) {
	for _, tc := range []struct {
		in    string
		want  Target
		print string
		table string
		sm    int64
	}{
		{in: "", want: Target{}, print: "", table: "", sm: 0},
		{in: "cpu", want: CPU(), print: "cpu", table: "cpu", sm: 0},
		{in: "gpu:sm80", want: GPU(80), print: "gpu:sm80", table: "gpu", sm: 80},
		{in: "gpu:sm_86", want: GPU(86), print: "gpu:sm86", table: "gpu", sm: 86},
		{in: "gpu:sm70", want: GPU(70), print: "gpu:sm70", table: "gpu", sm: 70},
		{in: "gpu:sm120", want: GPU(120), print: "gpu:sm120", table: "gpu", sm: 120},
	} {
		got, err := ParseTarget(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
		assert.Equal(t, tc.print, got.String(), tc.in)
		assert.Equal(t, tc.table, got.KernelTable(), tc.in)
		assert.Equal(t, tc.sm, got.SMVersion(), tc.in)
		assert.Equal(t, tc.in == "", got.IsZero(), tc.in)
		again, err := ParseTarget(got.String())
		require.NoError(t, err)
		assert.Equal(t, got, again, "a printed target reads back")
	}
}

// TestParseTargetErrors: every malformed target is an error that says what was wrong and how to write one.
func TestParseTargetErrors(t *testing.T) {
	for _, tc := range []struct{ in, err string }{
		{"gpu", `target "gpu" names no GPU architecture: write gpu:smNN (gpu:sm80 for an A100)`},
		{"tpu", `unknown target "tpu": write ` + TargetSyntax},
		{"GPU:sm80", `unknown target "GPU:sm80": write ` + TargetSyntax},
		{"cpu:avx2", `unknown target "cpu:avx2": write ` + TargetSyntax},
		{"gpu:80", `target "gpu:80": the GPU architecture is written smNN (gpu:sm80), not "80"`},
		{"gpu:smx", `target "gpu:smx": the GPU architecture is written smNN with NN the compute capability in digits (gpu:sm80)`},
		{"gpu:sm", `target "gpu:sm": the GPU architecture is written smNN with NN the compute capability in digits (gpu:sm80)`},
		{"gpu:sm+80", `target "gpu:sm+80": the GPU architecture is written smNN with NN the compute capability in digits (gpu:sm80)`},
		{"gpu:sm81", `target "gpu:sm81": sm81 is not the compute capability of an NVIDIA GPU (known: sm50, sm52, sm53, sm60, sm61, sm62, sm70, sm72, sm75, sm80, sm86, sm87, sm89, sm90, sm100, sm101, sm103, sm120, sm121)`},
	} {
		_, err := ParseTarget(tc.in)
		assert.EqualError(t, err, tc.err, tc.in)
	}
}
