//go:build !linux

package drrcli

// resetPeakRSS reports false: only Linux resets the peak resident set, so elsewhere no peak is attributed to a
// program.
func resetPeakRSS() bool { return false }

// peakRSS returns 0: unknown.
func peakRSS() int64 { return 0 }
