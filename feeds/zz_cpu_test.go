package feeds

import (
	"syscall"
	"testing"
	"time"

	"github.com/pirdrr/drr/ir"
)

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_THREAD, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestZZCPU(t *testing.T) {
	dst := make([]float32, 1<<22)
	d := distribution{kind: distNormal, lo: -1, hi: 1, std: 0.02}
	for _, name := range []string{"go", "lanes", "go", "lanes"} {
		l := drawLanes
		if name == "go" {
			drawLanes = nil
		}
		best := time.Hour
		for i := range 15 {
			t0 := cpuNow()
			drawInto(dst, uint64(i), ir.DTypeFloat32, d)
			best = min(best, cpuNow()-t0)
		}
		drawLanes = l
		t.Logf("%s: %.2f ns/number (best CPU of 15)", name, float64(best)/float64(len(dst)))
	}
}
