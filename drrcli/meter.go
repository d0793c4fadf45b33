package drrcli

import (
	"runtime/debug"
	"time"
)

// meter measures what one program costs while a command runs programs one after another: wall time, the process's
// CPU time, and its peak resident set.
//
// The peak is the kernel's VmHWM (/proc/self/status), which is the process's high-water mark: to attribute it to
// one program, the meter first returns the freed heap to the system (debug.FreeOSMemory) and resets the mark
// (writing 5 to /proc/self/clear_refs, Linux 4.0 and later), so that the mark read at the end is the peak of the
// program's run, on top of what the process holds between programs. Where the mark cannot be reset, the peak is
// not reported: the process's peak so far would name earlier programs' memory.
type meter struct {
	start time.Time
	cpu   time.Duration
	reset bool
}

// startMeter starts measuring a program's run.
func startMeter() *meter {
	debug.FreeOSMemory()
	m := &meter{reset: resetPeakRSS()}
	m.cpu = cpuTime()
	m.start = time.Now()
	return m
}

// stop fills the record's times and peak.
func (m *meter) stop(r *resultRecord) {
	r.WallNS = time.Since(m.start).Nanoseconds()
	if cpu := cpuTime(); cpu > 0 {
		r.CPUNS = (cpu - m.cpu).Nanoseconds()
	}
	if m.reset {
		if peak := peakRSS(); peak > 0 {
			r.PeakRSS, r.PeakRSSFrom = peak, "VmHWM reset per program"
		}
	}
}
