//go:build race

package cost_test

// raceEnabled reports whether the race detector is on.
const raceEnabled = true
