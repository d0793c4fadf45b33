//go:build !race

package verify_test

// underRace reports whether the race detector is on (the corpus tests then run fewer and smaller checks).
const underRace = false
