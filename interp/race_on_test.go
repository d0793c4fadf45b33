//go:build race

package interp

// raceEnabled reports whether the race detector is on (timings are then meaningless).
const raceEnabled = true
