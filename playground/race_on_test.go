//go:build race

package playground

const raceEnabled = true
