package interp

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// host builds a host tensor (float32 elements unless stated).
func host(shape []int, data ...float64) *Tensor {
	return &Tensor{DType: ir.DTypeFloat32, Shape: shape, Data: data}
}

// eval evaluates p in float64 and returns its outputs by name.
func eval(t testing.TB, p *ir.Program, feed *Feed) map[string]*Tensor {
	t.Helper()
	res, err := Evaluate(p, feed, Options{})
	require.NoError(t, err)
	out := map[string]*Tensor{}
	for _, o := range res.Outputs {
		out[o.Name] = o.Value
	}
	return out
}

// setData stores host tensor data in a parameter's Variable.
func setData(t testing.TB, p *ir.Program, name string, h *Tensor) {
	t.Helper()
	raw, err := EncodeData(h)
	require.NoError(t, err)
	p.Params[name].Data = raw
}

// stopwatch measures wall and CPU time.
type stopwatch struct {
	wall time.Time
	cpu  time.Duration
}

func startWatch() stopwatch { return stopwatch{wall: time.Now(), cpu: cpuTime()} }

// String reports the elapsed wall and CPU time.
func (s stopwatch) String() string {
	return fmt.Sprintf("%v wall, %v CPU", time.Since(s.wall).Round(time.Millisecond), (cpuTime() - s.cpu).Round(time.Millisecond))
}

// heavy skips a test in -short mode and under the race detector.
func heavy(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("heavy test skipped in -short mode")
	}
	if raceEnabled {
		t.Skip("heavy test skipped under the race detector")
	}
}
