//go:build race

package drr

// raceEnabled reports whether the race detector is on.
const raceEnabled = true
