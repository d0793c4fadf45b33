package rules_test

import (
	"testing"

	"github.com/pirdrr/drr/compare"
	"github.com/pirdrr/drr/drrtest"
)

// The golden archives of the gpu_inference rule sets are under testdata/gpu_inference, one folder per Paddle pass,
// modeled on Paddle's tests of that pass (test/ir/pir/fused_pass/): the positive cases they fuse and the negative
// cases they refuse, plus the cases where a rule deliberately differs from Paddle (each archive says which).
// Regenerate with go test ./rules -run GPU -update, and read every changed output before committing it.
const gpuGoldenDir = "testdata/gpu_inference"

func TestGPUInferenceGoldens(t *testing.T) {
	drrtest.Run(t, gpuGoldenDir, drrtest.Options{Update: *update})
}

// TestGPUGoldensPreserveValues runs every gpu_inference archive's input and expected output in the reference
// interpreter on random inputs and weights: each fusion must compute what the ops it replaced computed.
func TestGPUGoldensPreserveValues(t *testing.T) {
	for _, a := range goldenArchives(t, gpuGoldenDir) {
		t.Run(a.name, func(t *testing.T) {
			before, after := parse(t, a.input), parse(t, a.output)
			rep, err := compare.Programs(before, after, compare.Options{Runs: 2})
			if err != nil {
				if rep != nil {
					t.Fatalf("%v\n%s", err, rep)
				}
				t.Fatal(err)
			}
			if len(rep.Outputs) == 0 {
				t.Fatalf("no outputs compared")
			}
		})
	}
}
