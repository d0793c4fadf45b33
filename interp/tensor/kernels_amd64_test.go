//go:build amd64 && !purego

package tensor

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGeneratedKernelsUpToDate checks that kernels_amd64.s is what gen_kernels.go prints (go generate rewrites it).
func TestGeneratedKernelsUpToDate(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH: cannot run gen_kernels.go")
	}
	out := filepath.Join(t.TempDir(), "kernels_amd64.s")
	cmd := exec.Command(goTool, "run", "gen_kernels.go", "-o", out)
	msg, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", msg)
	want, err := os.ReadFile(out)
	require.NoError(t, err)
	got, err := os.ReadFile("kernels_amd64.s")
	require.NoError(t, err)
	require.True(t, string(want) == string(got), "kernels_amd64.s is stale: run go generate ./interp/tensor")
}

// TestAxpyKernels checks the assembly AXPYs against the portable one at every length around their vector and
// unrolled blocks: the same bits (one fused multiply-add per element) as math.FMA (for float32, math.FMA in float64 rounded to
// float32: double rounding could in principle differ from one rounding to float32; on these fixed inputs it does
// not).
func TestAxpyKernels(t *testing.T) {
	for _, p := range archKernelPaths() {
		t.Run(p.name, func(t *testing.T) {
			for n := range 150 {
				x := randT[float32](t, uint64(n), n+1).Data[:n]
				y := randT[float32](t, uint64(n)+7, n+3).Data
				want := append([]float32(nil), y...)
				for i, v := range x {
					want[i] = float32(math.FMA(float64(float32(0.37)), float64(v), float64(want[i])))
				}
				p.f32.axpy(0.37, x, y)
				require.Equal(t, want, y, "float32 n=%d", n)
				x64 := randT[float64](t, uint64(n), n+1).Data[:n]
				y64 := randT[float64](t, uint64(n)+7, n+3).Data
				want64 := append([]float64(nil), y64...)
				for i, v := range x64 {
					want64[i] = math.FMA(0.37, v, want64[i])
				}
				p.f64.axpy(0.37, x64, y64)
				require.Equal(t, want64, y64, "float64 n=%d", n)
			}
		})
	}
}
