package pirtext

import (
	"os"
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
	release = func(lo, hi int) {
		lo = (lo + page - 1) / page * page
		hi = hi / page * page
		if lo < hi {
			_ = syscall.Madvise(src[lo:hi], syscall.MADV_DONTNEED)
		}
	}
	return src, release, func() { _ = syscall.Munmap(src) }, nil
}

// slotArena holds the pages of the parser's value-name table (parser.nums) outside the Go heap, so that the
// table, which nothing needs once the program is read (25 MB at 1M blocks), goes back to the system when the parse
// ends instead of staying resident as garbage until a collection (drrc apply's pacing runs none after parsing a
// large program; see cmd/drrc/gc.go). The pages hold pointers to values the collector does not see there, which is
// safe: every value is also reachable from the program being read, and Go's collector does not move objects.
type slotArena struct {
	mem  []byte
	next int // the offset of the next page
}

// newSlotArena reserves room for pages of maxSlots slots in all (address space only: pages become memory when
// first written), or returns nil if the system refuses.
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
	return &slotArena{mem: mem}
}

// page returns a zeroed page of the arena, or nil when it is used up.
func (a *slotArena) page() *[slotPage]*ir.Value {
	const pageBytes = slotPage * 8
	if a.next+pageBytes > len(a.mem) {
		return nil
	}
	pg := (*[slotPage]*ir.Value)(unsafe.Pointer(&a.mem[a.next]))
	a.next += pageBytes
	return pg
}

// free gives the arena back to the system; its pages must no longer be referenced.
func (a *slotArena) free() { _ = syscall.Munmap(a.mem) }
