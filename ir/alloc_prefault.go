package ir

import "unsafe"

// Reading a large program writes hundreds of MB of fresh memory (245 bytes per op), and the kernel zeroes each
// page when it is first written: at 1M blocks a fifth of drrc apply's samples were the kernel clearing the pages
// of the op records the reader was filling (clear_page_erms under Op.fill; docs/performance.md, "Two cores for
// fresh memory"). A prefaulter moves that work to another core: a goroutine allocates the allocator's next chunks ahead
// of it and writes a byte of each of their pages, so that the reader takes chunks whose pages are there. The
// records are the same and filled the same way; only where the page faults happen changes.

// prefaultAhead is how many chunks of each kind the prefaulter keeps ready: about 3 MB in all, so that the reader
// does not overtake it where a page takes long to come (a virtual machine's host backing it).
const prefaultAhead = 24

// prefaulter allocates op and operand-record chunks on a goroutine of its own and hands them over, pages
// written, through buffered channels.
type prefaulter struct {
	ops  chan *[allocChunk]Op
	uses chan *[allocChunk]Use
	stop chan struct{}
	done chan struct{}
}

// Prefault starts a prefaulter for a and returns the function that stops it, which the caller must call before
// it uses a again from another goroutine or drops it; the chunks the prefaulter had ready when stopped are kept
// for a's later records. Readers call it for sources large enough to pay for a goroutine (pirtext: 32 MB); on a
// single core it costs a channel operation per chunk and saves nothing. Calling it again while one runs does
// nothing more.
func (a *Allocator) Prefault() (stop func()) {
	if a.pre != nil {
		return func() {}
	}
	f := &prefaulter{
		ops:  make(chan *[allocChunk]Op, prefaultAhead),
		uses: make(chan *[allocChunk]Use, prefaultAhead),
		stop: make(chan struct{}),
		done: make(chan struct{}),
	}
	a.pre = f
	go f.run()
	return func() {
		close(f.stop)
		<-f.done
		close(f.ops)
		close(f.uses)
		for c := range f.ops {
			a.spareOps = append(a.spareOps, c)
		}
		for c := range f.uses {
			a.spareUses = append(a.spareUses, c)
		}
		a.pre = nil
	}
}

func (f *prefaulter) run() {
	defer close(f.done)
	var op *[allocChunk]Op
	var use *[allocChunk]Use
	for {
		if op == nil {
			op = new([allocChunk]Op)
			touchPages(unsafe.Pointer(op), unsafe.Sizeof(*op))
		}
		if use == nil {
			use = new([allocChunk]Use)
			touchPages(unsafe.Pointer(use), unsafe.Sizeof(*use))
		}
		select {
		case f.ops <- op:
			op = nil
		case f.uses <- use:
			use = nil
		case <-f.stop:
			return
		}
	}
}

// touchPages writes a zero byte to each 4 KiB page of the size bytes at p, which were just allocated and hold
// zeros: the kernel provides and clears the pages now, on this goroutine. The bytes keep their value, so what the
// collector or another reader could see does not change.
//
// The pages are the system's own size: asking for transparent huge pages (madvise MADV_HUGEPAGE) made the reader
// slower where it matters. On a virtual machine that gives freed memory back to its host (a balloon device with
// free page reporting, as this project's machines have), huge pages come from exactly the blocks given back, and
// each first touch then waits for the host: at gen.py's 1M blocks the parse took 0.90–1.18 s after a pause
// against 0.70–0.74 s on 4 KiB pages, for 0.05 s saved when the same memory had just been freed (docs/
// performance.md, "Check apart from print, and cold memory"). The Go runtime leaves them to the system's setting
// too.
func touchPages(p unsafe.Pointer, size uintptr) {
	for off := uintptr(0); off < size; off += 4096 {
		*(*byte)(unsafe.Add(p, off)) = 0
	}
}

// takeOpChunk returns a chunk for op records: a prefaulted or spare one if there is one, else a new one.
func (a *Allocator) takeOpChunk() *[allocChunk]Op {
	var ready chan *[allocChunk]Op
	if a.pre != nil {
		ready = a.pre.ops
	}
	return takeChunk(a, ready, &a.spareOps)
}

// takeUseChunk is takeOpChunk for operand records.
func (a *Allocator) takeUseChunk() *[allocChunk]Use {
	var ready chan *[allocChunk]Use
	if a.pre != nil {
		ready = a.pre.uses
	}
	return takeChunk(a, ready, &a.spareUses)
}

// takeChunk returns a chunk from ready (a running prefaulter's, nil if none) if one is there, else from spares, else
// a new one.
func takeChunk[T any](a *Allocator, ready chan *[allocChunk]T, spares *[]*[allocChunk]T) *[allocChunk]T {
	select {
	case c := <-ready: // never ready when nil
		return c
	default:
	}
	if n := len(*spares); n > 0 {
		c := (*spares)[n-1]
		*spares = (*spares)[:n-1]
		return c
	}
	return new([allocChunk]T)
}
