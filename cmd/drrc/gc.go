package main

import (
	"math"
	"runtime"
	"runtime/debug"
)

// startHeapBytes is the heap the first garbage collection waits for.
//
// drrc is a short-lived batch process, and what drrc apply allocates is nearly all live: the program it reads is
// its IR, the rewrite driver recycles what it erases, and the writers stream. With the collector's default
// (GOGC=100) the growing IR is marked again and again as the heap doubles (at 4, 8, 16, 32, 64 MB …), which on gen.py's
// 100k-block workload is a quarter of the process's CPU time, and frees almost nothing. So the first collection
// waits until the heap reaches 128 MB: smaller runs never collect, larger ones start from there. After the first
// collection the default pacing (GOGC=100) applies, so the peak stays near the live heap for programs of any size,
// and commands that do make garbage (verify's interpreter) are collected as usual once past 128 MB.
const startHeapBytes = 128 << 20

// startHeap applies the start-heap policy unless the user configured the collector (GOGC or GOMEMLIMIT).
func startHeap(getenv func(string) string) bool {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return false
	}
	// No collection until the heap reaches the limit; the first collection then restores the defaults (the
	// sentinel's finalizer runs after the first cycle that finds it unreachable).
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(startHeapBytes)
	runtime.SetFinalizer(new(sentinel), func(*sentinel) {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	})
	return true
}

// sentinel is an object whose finalization marks the first garbage collection. It is 32 bytes, so that it is an
// allocation of its own (finalizers of zero-sized objects, and of tiny ones sharing a block, need not run).
type sentinel struct{ _ [32]byte }
