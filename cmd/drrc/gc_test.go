package main

import (
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNextPercent(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		name         string
		cur          int
		before, live uint64
		want         int
	}{
		{"freed nothing: let the heap grow", 100, 128 * mb, 120 * mb, maxPercent},
		{"freed nothing again", maxPercent, 1000 * mb, 990 * mb, maxPercent},
		{"freed most: back to the default", maxPercent, 1000 * mb, 100 * mb, 100},
		{"freed some: unchanged", maxPercent, 100 * mb, 60 * mb, maxPercent},
		{"no heap before: unchanged", 100, 0, 10 * mb, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, nextPercent(tc.cur, tc.before, tc.live))
		})
	}
}

// TestStartHeap: without GOGC or GOMEMLIMIT the collector waits for startHeapBytes, and the tuner sets GOGC after
// each collection (here of a heap that is all live: raised); a memory limit guards the machine; a user's setting
// is left alone.
func TestStartHeap(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))

	env := map[string]string{"GOGC": "50"}
	assert.Nil(t, startHeap(func(k string) string { return env[k] }, nil))
	env = map[string]string{"GOMEMLIMIT": "1GiB"}
	assert.Nil(t, startHeap(func(k string) string { return env[k] }, nil))
	assert.Nil(t, startHeap(func(string) string { return "" }, []string{"verify", "m.pir"}), "verify keeps the default pacing")
	assert.Equal(t, 100, debug.SetGCPercent(100), "left alone")

	tuner := startHeap(func(string) string { return "" }, []string{"apply", "m.pir"})
	require.NotNil(t, tuner)
	defer tuner.stopped.Store(true)
	assert.Equal(t, int64(startHeapBytes/(4<<20)*100), gogc(), "the first collection waits for the start heap")
	keep := make([][]byte, 0, 64)
	deadline := time.Now().Add(10 * time.Second)
	for gogc() != maxPercent && time.Now().Before(deadline) {
		keep = append(keep, make([]byte, 1<<20)) // live, not garbage
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	runtime.KeepAlive(keep)
	assert.Equal(t, int64(maxPercent), gogc(), "collections that free nothing raise GOGC")
	if ram := totalMemory(); ram > 0 {
		assert.Equal(t, int64(ram/4*3), debug.SetMemoryLimit(-1), "three quarters of the machine's memory")
	}
}

// TestFirstCollection: the first collection waits for startHeapBytes, or for inputFactor times the largest file
// named if that is more; names that are not regular files (flags, directories, absent files) do not count.
func TestFirstCollection(t *testing.T) {
	dir := t.TempDir()
	sized := func(name string, size int64) string {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		require.NoError(t, err)
		require.NoError(t, f.Truncate(size)) // sparse: no disk space
		require.NoError(t, f.Close())
		return path
	}
	small, big, bigger := sized("small.pir", 1<<20), sized("big.pir", 100<<20), sized("bigger.pir", 300<<20)
	for _, tc := range []struct {
		name string
		args []string
		want int64
	}{
		{"no files", []string{"apply", "-timing"}, startHeapBytes},
		{"a small input", []string{"apply", small}, startHeapBytes},
		{"an input of half the start heap or more", []string{"apply", "-rules", small, big}, 200 << 20},
		{"the largest file counts", []string{"apply", bigger, "-o", big}, 600 << 20},
		{"absent files and directories do not", []string{"apply", filepath.Join(dir, "absent.pir"), dir}, startHeapBytes},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, firstCollection(tc.args))
		})
	}
}

// TestTunesHeap: the batch commands (and drrc alone, its main job) are tuned; verify, serve and lsp are not.
func TestTunesHeap(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, true},
		{[]string{"apply", "-o", "x.pir", "m.pir"}, true},
		{[]string{"convert", "m.json", "-o", "m.pir"}, true},
		{[]string{"-h"}, false},
		{[]string{"verify", "m.pir"}, false},
		{[]string{"serve"}, false},
		{[]string{"lsp"}, false},
		{[]string{"help"}, false},
	} {
		assert.Equal(t, tc.want, tunesHeap(tc.args), "%q", tc.args)
	}
}

// gogc returns the collector's current GOGC (-1: off).
func gogc() int64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}
