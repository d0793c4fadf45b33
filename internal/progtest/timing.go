package progtest

import (
	"fmt"
	"testing"
	"time"
)

// Stopwatch measures wall and CPU time.
type Stopwatch struct {
	wall time.Time
	cpu  time.Duration
}

// StartWatch starts a stopwatch.
func StartWatch() Stopwatch { return Stopwatch{wall: time.Now(), cpu: CPUTime()} }

// String reports the elapsed wall and CPU time.
func (s Stopwatch) String() string {
	return fmt.Sprintf("%v wall, %v CPU", time.Since(s.wall).Round(time.Millisecond), (CPUTime() - s.cpu).Round(time.Millisecond))
}

// Heavy skips a test in -short mode and under the race detector.
func Heavy(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("heavy test skipped in -short mode")
	}
	if RaceEnabled {
		t.Skip("heavy test skipped under the race detector")
	}
}
