package mapfile

import (
	"os"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// Open opens the file at path for one pass: mapped read-only if it is a regular file that is not empty (read whole
// otherwise, or if the system refuses the mapping). Close releases it.
func Open(path string) (*Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := info.Size()
	if !info.Mode().IsRegular() || size == 0 || int64(int(size)) != size {
		return readWhole(path)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		return readWhole(path)
	}
	_ = syscall.Madvise(data, syscall.MADV_SEQUENTIAL)
	s := &Source{Data: data, mapped: true}
	if len(data) >= PopulateFrom {
		s.ahead = NewPopulator(data, false)
		s.ahead.UpTo(2 * ReleaseStep)
	}
	return s, nil
}

// dontNeed gives the whole pages of Data[lo:hi] back to the system.
func (s *Source) dontNeed(lo, hi int) {
	page := os.Getpagesize()
	lo = (lo + page - 1) / page * page
	hi = hi / page * page
	if lo < hi {
		_ = syscall.Madvise(s.Data[lo:hi], syscall.MADV_DONTNEED)
	}
}

// Close stops the populator and unmaps the file; Data must no longer be used (nothing read from it may be kept
// that is not a copy). Closing again does nothing.
func (s *Source) Close() {
	if !s.mapped {
		return
	}
	s.ahead.Stop()
	_ = syscall.Munmap(s.Data)
	s.Data, s.mapped = nil, false
}

// madvPopulateRead and madvPopulateWrite are Linux's MADV_POPULATE_READ and MADV_POPULATE_WRITE (5.14): map the
// pages of a range at once, for reading (a file's page cache) or for writing (fresh anonymous memory, cleared).
const (
	madvPopulateRead  = 22
	madvPopulateWrite = 23
)

// Populator maps the pages of a large mapping ahead of its reader, on a goroutine of its own, so that the page
// faults the reader would take happen on the other core, a range per madvise call:
//
//   - a mapped source (Open): read through the mapping, a 536 MB file takes a page fault per 64 KiB (the kernel maps
//     16 pages of the page cache at each), 8,400 of them, an eighth of pirtext's 1M-block parse on the parser's
//     core. The reader asks for the next two release steps each time it releases what it has passed, so that the
//     populated part it has not read stays under 17 MB.
//   - fresh anonymous memory to be written (pirtext's value-name arena): each new page is first read (a free slot is
//     nil), which maps the shared zero page, then written, which takes a second fault for a page of its own.
//
// A nil Populator (a small mapping, or a kernel without MADV_POPULATE_*) does nothing.
type Populator struct {
	mem     []byte
	advice  uintptr
	next    int           // the end of what was asked for
	todo    chan [2]int   // ranges to populate
	done    chan struct{} // closed when the goroutine ends
	fails   atomic.Bool   // set when the kernel refused: nothing more is asked
	stopped bool
}

// NewPopulator starts a populator of mem, which is mapped for reading (a file) or, with write, for writing.
func NewPopulator(mem []byte, write bool) *Populator {
	advice := uintptr(madvPopulateRead)
	if write {
		advice = madvPopulateWrite
	}
	a := &Populator{mem: mem, advice: advice, todo: make(chan [2]int, 4), done: make(chan struct{})}
	go a.run()
	return a
}

// UpTo asks for the mapping up to byte end to be populated (what was asked before is not asked again).
func (a *Populator) UpTo(end int) {
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
	default: // the goroutine is behind: the reader's own faults map what it reads meanwhile
	}
}

func (a *Populator) run() {
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

// Stop ends the populator's goroutine and waits for it, so that the mapping can go. Calling it again does nothing.
func (a *Populator) Stop() {
	if a == nil || a.stopped {
		return
	}
	a.stopped = true
	close(a.todo)
	<-a.done
}

// Refused reports whether the kernel refused to populate (before Linux 5.14): what was asked is then not mapped.
// Call it after Stop.
func (a *Populator) Refused() bool { return a != nil && a.fails.Load() }
