package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStartHeap: without GOGC or GOMEMLIMIT the collector waits for startHeapBytes, and the first collection
// restores the defaults; a user's setting is left alone.
func TestStartHeap(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))

	env := map[string]string{"GOGC": "50"}
	assert.False(t, startHeap(func(k string) string { return env[k] }))
	env = map[string]string{"GOMEMLIMIT": "1GiB"}
	assert.False(t, startHeap(func(k string) string { return env[k] }))
	assert.Equal(t, 100, debug.SetGCPercent(100), "left alone")

	require.True(t, startHeap(func(string) string { return "" }))
	assert.Equal(t, -1, debug.SetGCPercent(-1), "collection is off")
	assert.Equal(t, int64(startHeapBytes), debug.SetMemoryLimit(-1), "until the heap reaches the start")
	runtime.GC()
	deadline := time.Now().Add(5 * time.Second)
	for debug.SetMemoryLimit(-1) != math.MaxInt64 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	assert.Equal(t, int64(math.MaxInt64), debug.SetMemoryLimit(-1), "the first collection lifts the limit")
	assert.Equal(t, 100, debug.SetGCPercent(100), "and restores GOGC=100")
}
