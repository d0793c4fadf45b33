//go:build !race

package matcher

const raceEnabled = false
