//go:build !race

package compiled_test

// raceStride is 0 without the race detector: the GraphNet graphs are sampled as internal/corpus does by default.
const raceStride = 0
