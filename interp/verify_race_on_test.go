//go:build race

package interp_test

// underRace reports whether the race detector is on (the corpus tests then run fewer and smaller checks).
const underRace = true
