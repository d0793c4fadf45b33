//go:build race

package compiled_test

// raceStride samples the GraphNet graphs of the differential tests more sparsely under the race detector, which
// slows them sevenfold (PIRDRR_CORPUS=full still runs all).
const raceStride = 30
