package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// The garbage collector's pacing for drrc, a short-lived batch process.
//
// What drrc apply allocates is nearly all live: the program it reads is its IR, the rewrite driver recycles what it
// erases, and the writers stream. With the default pacing (GOGC=100) the growing IR is marked again and again as
// the heap doubles (at 4, 8, 16 … MB), which frees almost nothing: at gen.py's 100k-block workload that is a
// quarter of the CPU time, and at 1M blocks (800 MB of IR) the collector marks 1.8 GB in five cycles and makes the
// run 1.5 times slower per op than at 100k. So:
//
//   - the first collection waits until the heap reaches startHeapBytes (128 MB), as the Go compiler's does, or
//     twice the size of the largest file named on the command line if that is more (inputFactor): reading a
//     program is the fastest-growing, garbage-free phase (the IR of a PIR text file is 1.3 times its size), and a
//     collection in its middle marks what it built for nothing, with write barriers on every pointer the reader
//     stores meanwhile. Smaller runs never collect, and drrc apply on gen.py's 1M-block workload (536 MB) not at
//     all;
//   - after each collection, one that freed less than a quarter of the heap sets GOGC to maxPercent (800: the
//     program is building something, let it), and one that freed more than half sets it back to 100. A program
//     that only builds its IR is collected once or twice in all (drrc apply on the 1M-block workload: never); one
//     that makes garbage (verify's interpreter) gets the default pacing back after its first real collection.
//   - The price is an overshoot when garbage starts after a long garbage-free phase: the heap may grow to 9 times
//     the live heap before the collector catches up. A memory limit of three quarters of the machine's memory
//     (Linux) keeps that from exhausting it.
//
// Either way the peak memory of drrc apply stays near its live heap (at 1M blocks 750 MB without any collection,
// 741 MB with one at 128 MB). GOGC or GOMEMLIMIT in the environment turn all this off.
const (
	startHeapBytes = 128 << 20
	inputFactor    = 2
	maxPercent     = 800
)

// batchCommands are the commands whose allocations are nearly all live IR, where the policy pays. The others
// keep Go's default pacing: verify's interpreter makes large short-lived tensors, and with the policy's overshoot
// drrc verify of ernie-m-large (GraphNet) peaked at 5.5 GB instead of 2.0 GB; serve and lsp are long-lived servers.
var batchCommands = map[string]bool{"apply": true, "convert": true, "check": true, "test": true, "explain": true,
	"graph": true, "automaton": true, "fmt": true}

// tunesHeap reports whether the command line args (without the program name) runs a batch command: the first
// argument is the command (drrc has no flags before it); no command at all is drrc's main job, drrc apply on the
// embedded sample.
func tunesHeap(args []string) bool { return len(args) == 0 || batchCommands[args[0]] }

// startHeap applies the policy unless the user configured the collector (GOGC or GOMEMLIMIT) or the command is
// not a batch command (tunesHeap), and returns its tuner (nil if it did not).
func startHeap(getenv func(string) string, args []string) *gcTuner {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" || !tunesHeap(args) {
		return nil
	}
	// The collector's minimum heap is 4 MB times GOGC/100 (the GC guide), so this GOGC puts the first collection
	// at the start heap; after it the tuner sets GOGC.
	debug.SetGCPercent(int(firstCollection(args) / (4 << 20) * 100))
	if ram := totalMemory(); ram > 0 {
		debug.SetMemoryLimit(int64(ram / 4 * 3))
	}
	t := &gcTuner{percent: 100, samples: []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/heap/allocs:bytes"}}}
	t.arm()
	return t
}

// firstCollection returns the heap at which the first collection comes: startHeapBytes, or inputFactor times the size
// of the largest regular file among args if that is more (the program read, or the rules or an existing output:
// all that matters is the order of magnitude of what the command will build).
func firstCollection(args []string) int64 {
	start := int64(startHeapBytes)
	for _, a := range args {
		if fi, err := os.Stat(a); err == nil && fi.Mode().IsRegular() && fi.Size()*inputFactor > start {
			start = fi.Size() * inputFactor
		}
	}
	return start
}

// gcTuner adjusts GOGC after every collection; a sentinel object's finalizer tells it one has happened.
type gcTuner struct {
	percent int
	// live is the live heap after the last collection and allocs the bytes allocated until then, so that the heap
	// a collection started from is live plus what was allocated since.
	live, allocs uint64
	samples      []metrics.Sample
	collections  atomic.Int64 // collections seen, for tests
	stopped      atomic.Bool  // for tests: leave the collector alone from now on
}

// sentinel is an object whose finalization marks a garbage collection. It is 32 bytes, so that it is an
// allocation of its own (finalizers of zero-sized objects, and of tiny ones sharing a block, need not run).
type sentinel struct{ _ [32]byte }

func (t *gcTuner) arm() { runtime.SetFinalizer(new(sentinel), func(*sentinel) { t.collected() }) }

// collected runs after a collection: it sets the next GOGC from what the collection freed, and re-arms.
func (t *gcTuner) collected() {
	if t.stopped.Load() {
		return
	}
	metrics.Read(t.samples)
	live, allocs := t.samples[0].Value.Uint64(), t.samples[1].Value.Uint64()
	t.percent = nextPercent(t.percent, t.live+(allocs-t.allocs), live)
	debug.SetGCPercent(t.percent)
	t.live, t.allocs = live, allocs
	t.collections.Add(1)
	t.arm()
}

// nextPercent returns the GOGC to use after a collection that started from a heap of before bytes and left live
// bytes: maxPercent if it freed less than a quarter, back to 100 if it freed more than half.
func nextPercent(cur int, before, live uint64) int {
	switch {
	case before == 0:
		return cur
	case live*4 > before*3:
		return maxPercent
	case live*2 < before:
		return 100
	}
	return cur
}
