package tensor

import (
	"runtime"
	"sync"
)

// Parallelism. Kernels split their outer dimension (rows of a matrix product, images of a batch, independent
// rows of a normalisation, chunks of an element-wise map) into ranges that goroutines compute at once. Every
// output element is computed by exactly one range, by the same sequential code and in the same order of
// operations whatever the split, so results are bit-for-bit identical for every GOMAXPROCS.

// minParallelWork is the least work (roughly, floating-point operations) worth handing to another goroutine.
const minParallelWork = 1 << 15

// ParallelFor calls f(lo, hi) on disjoint ranges covering [0, n), concurrently, and returns when all are done.
// workPerItem estimates the cost of one index; small jobs run on the calling goroutine. f must write only the
// outputs of its own range. A panic in f is re-raised on the calling goroutine.
func ParallelFor(n, workPerItem int, f func(lo, hi int)) {
	if n <= 0 {
		return
	}
	workers := runtime.GOMAXPROCS(0)
	if workPerItem < 1 {
		workPerItem = 1
	}
	if lim := n * workPerItem / minParallelWork; lim < workers {
		workers = max(lim, 1)
	}
	if workers > n {
		workers = n
	}
	if workers <= 1 {
		f(0, n)
		return
	}
	// More chunks than workers balances uneven ranges; chunk boundaries do not affect the results.
	chunks := min(n, workers*4)
	var wg sync.WaitGroup
	var once sync.Once
	var crash any
	next := make(chan int, chunks)
	for k := range chunks {
		next <- k
	}
	close(next)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					once.Do(func() { crash = r })
				}
			}()
			for k := range next {
				lo, hi := k*n/chunks, (k+1)*n/chunks
				if lo < hi {
					f(lo, hi)
				}
			}
		}()
	}
	wg.Wait()
	if crash != nil {
		// A panic in a worker is raised again on the caller's goroutine, where the interpreter reports it as an
		// internal error instead of crashing the process.
		panic(crash)
	}
}
