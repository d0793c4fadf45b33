//go:build !race

package playground

// raceEnabled says whether the tests run under the race detector (the load test is cut short then).
const raceEnabled = false
