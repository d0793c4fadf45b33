//go:build !race

package progtest

// RaceEnabled reports whether the race detector is on (timings are then meaningless).
const RaceEnabled = false
