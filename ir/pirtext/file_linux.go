package pirtext

import (
	"os"
	"sync/atomic"
	"syscall"
	"unsafe"

	"github.com/pirdrr/drr/ir"
)

// openSource maps the file at path. release(lo, hi) gives the whole pages of src[lo:hi] back to the system (they
// are read from the file again if touched), and done unmaps the file. Files that cannot be mapped (empty, not
// regular) are read whole.
func openSource(path string) (src []byte, release func(lo, hi int), done func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, nil, err
	}
	size := info.Size()
	if !info.Mode().IsRegular() || size == 0 || int64(int(size)) != size {
		src, err := os.ReadFile(path)
		return src, nil, func() {}, err
	}
	src, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		src, err := os.ReadFile(path)
		return src, nil, func() {}, err
	}
	_ = syscall.Madvise(src, syscall.MADV_SEQUENTIAL)
	page := os.Getpagesize()
	ahead := startPopulating(src)
	release = func(lo, hi int) {
		ahead.upTo(hi + releaseKeep + 2*releaseStep)
		lo = (lo + page - 1) / page * page
		hi = hi / page * page
		if lo < hi {
			_ = syscall.Madvise(src[lo:hi], syscall.MADV_DONTNEED)
		}
	}
	return src, release, func() {
		ahead.stop()
		_ = syscall.Munmap(src)
	}, nil
}

// madvPopulateRead and madvPopulateWrite are Linux's MADV_POPULATE_READ and MADV_POPULATE_WRITE (5.14): map the
// pages of a range at once, for reading (a file's page cache) or for writing (fresh anonymous memory, cleared).
const (
	madvPopulateRead  = 22
	madvPopulateWrite = 23
)

// populator maps the pages of a large mapping ahead of the parser, on a goroutine of its own, so that the page
// faults the parser would take happen on the other core, a range per madvise call:
//
//   - the mapped source: read through the mapping, a 536 MB file takes a page fault per 64 KiB (the kernel maps 16
//     pages of the page cache at each), 8,400 of them, an eighth of the 1M-block parse on the parser's core. The
//     parser asks for the next two release steps each time it releases what it has passed, so that the populated
//     part it has not read stays under 17 MB.
//   - the value-name table's arena (slotArena): each new page of slots is first read (a free slot is nil), which maps
//     the shared zero page, then written, which takes a second fault for a page of its own — at 1M blocks a tenth of
//     the parse on the parser's core. The arena asks for the pages of the next 32 slot pages (1 MB) as it hands
//     one out.
//
// A nil populator (a small mapping, or a kernel without MADV_POPULATE_*) does nothing.
type populator struct {
	mem     []byte
	advice  uintptr
	next    int           // the end of what was asked for
	todo    chan [2]int   // ranges to populate
	done    chan struct{} // closed when the goroutine ends
	fails   atomic.Bool   // set when the kernel refused: nothing more is asked
	stopped bool
}

// populateFrom is the source size from which a populator runs (as the allocator's prefaulter, ir.Allocator.Prefault).
const populateFrom = 32 << 20

// startPopulating starts a populator for the mapped source src, with the first two release steps asked for, or
// returns nil for a source under populateFrom.
func startPopulating(src []byte) *populator {
	if len(src) < populateFrom {
		return nil
	}
	a := newPopulator(src, madvPopulateRead)
	a.upTo(2 * releaseStep)
	return a
}

// newPopulator starts a populator of mem with advice.
func newPopulator(mem []byte, advice uintptr) *populator {
	a := &populator{mem: mem, advice: advice, todo: make(chan [2]int, 4), done: make(chan struct{})}
	go a.run()
	return a
}

// upTo asks for the mapping up to byte end to be populated (what was asked before is not asked again).
func (a *populator) upTo(end int) {
	if a == nil || a.fails.Load() {
		return
	}
	end = min(end, len(a.mem))
	if end <= a.next {
		return
	}
	select {
	case a.todo <- [2]int{a.next, end}:
		a.next = end
	default: // the goroutine is behind: the parser's own faults map what it reads meanwhile
	}
}

func (a *populator) run() {
	defer close(a.done)
	page := os.Getpagesize()
	for r := range a.todo {
		lo := r[0] / page * page
		if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, uintptr(unsafe.Pointer(&a.mem[lo])), uintptr(r[1]-lo),
			a.advice); errno != 0 {
			a.fails.Store(true)
			for range a.todo { // drain: nothing more is populated
			}
			return
		}
	}
}

// stop ends the populator's goroutine and waits for it, so that the mapping can go. Calling it again does nothing.
func (a *populator) stop() {
	if a == nil || a.stopped {
		return
	}
	a.stopped = true
	close(a.todo)
	<-a.done
}

// slotArena holds the pages of the parser's value-name table (parser.nums) outside the Go heap, so that the
// table, which nothing needs once the program is read (25 MB at 1M blocks), goes back to the system when the parse
// ends instead of staying resident as garbage until a collection (drrc apply's pacing runs none after parsing a
// large program; see cmd/drrc/gc.go). The pages hold pointers to values the collector does not see there, which is
// safe: every value is also reachable from the program being read, and Go's collector does not move objects.
type slotArena struct {
	mem   []byte
	next  int        // the offset of the next page
	ahead *populator // the pages after the next, made on the other core (nil for a small source)
}

// slotsAhead is how many pages of slots the arena has made ahead of the one it hands out.
const slotsAhead = 32

// newSlotArena reserves room for pages of maxSlots slots in all (address space only: pages become memory when
// first written), or returns nil if the system refuses. From populateFrom slots (a source of that many bytes) a
// populator makes the pages ahead.
func newSlotArena(maxSlots int) *slotArena {
	const pageBytes = slotPage * 8
	n := (maxSlots/slotPage + 1) * pageBytes
	mem, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS|syscall.MAP_NORESERVE)
	if err != nil {
		return nil
	}
	// The pages are the system's size (no huge-page advice: see ir's touchPages). The arena is at most 8 bytes per
	// source byte.
	a := &slotArena{mem: mem}
	if maxSlots >= populateFrom {
		a.ahead = newPopulator(mem, madvPopulateWrite)
	}
	return a
}

// page returns a zeroed page of the arena, or nil when it is used up.
func (a *slotArena) page() *[slotPage]*ir.Value {
	const pageBytes = slotPage * 8
	if a.next+pageBytes > len(a.mem) {
		return nil
	}
	pg := (*[slotPage]*ir.Value)(unsafe.Pointer(&a.mem[a.next]))
	a.next += pageBytes
	a.ahead.upTo(a.next + slotsAhead*pageBytes)
	return pg
}

// free gives the arena back to the system; its pages must no longer be referenced.
func (a *slotArena) free() {
	a.ahead.stop()
	_ = syscall.Munmap(a.mem)
}
