//go:build !race

package drrcli

// raceEnabled reports whether the race detector is on.
const raceEnabled = false
