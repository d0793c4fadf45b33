//go:build amd64 && !purego

package feeds

import (
	"golang.org/x/sys/cpu"

	"github.com/pirdrr/drr/interp/tensor"
)

// roundHalvesF16C rounds n float32 values at xs to float16 precision in place with the F16C conversions (to
// float16 rounding to nearest even, and back): roundHalf's results, eight at a time.
//
//go:noescape
func roundHalvesF16C(xs *float32, n int)

// roundHalvesAsm is roundHalvesF16C on a slice when this machine has F16C and the kernel path in use is not the
// portable one (PIRDRR_KERNELS=go keeps every draw in Go), else nil.
var roundHalvesAsm = func() func(xs []float32) {
	if name, _ := tensor.Kernels(); !cpu.X86.HasF16C || !cpu.X86.HasAVX || name == "go" {
		return nil
	}
	return func(xs []float32) {
		if len(xs) > 0 {
			roundHalvesF16C(&xs[0], len(xs))
		}
	}
}()
