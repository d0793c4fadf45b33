//go:build unix

package progtest

import (
	"syscall"
	"time"
)

// CPUTime returns the CPU time (user + system) the process has used, which unlike wall time does not grow when
// other processes compete for the machine.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
