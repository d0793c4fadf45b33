package pirtext

import (
	"syscall"
	"unsafe"

	"github.com/pirdrr/drr/internal/mapfile"
	"github.com/pirdrr/drr/ir"
)

// slotArena holds the pages of the parser's value-name table (parser.nums) outside the Go heap, so that the
// table, which nothing needs once the program is read (25 MB at 1M blocks), goes back to the system when the parse
// ends instead of staying resident as garbage until a collection (drrc apply's pacing runs none after parsing a
// large program; see cmd/drrc/gc.go). The pages hold pointers to values the collector does not see there, which is
// safe: every value is also reachable from the program being read, and Go's collector does not move objects.
type slotArena struct {
	mem   []byte
	next  int                // the offset of the next page
	ahead *mapfile.Populator // the pages after the next, made on the other core (nil for a small source)
}

// slotsAhead is how many pages of slots the arena has made ahead of the one it hands out.
const slotsAhead = 32

// newSlotArena reserves room for pages of maxSlots slots in all (address space only: pages become memory when
// first written), or returns nil if the system refuses. From mapfile.PopulateFrom slots (a source of that many
// bytes) a populator makes the pages ahead.
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
	if maxSlots >= mapfile.PopulateFrom {
		a.ahead = mapfile.NewPopulator(mem, true)
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
	a.ahead.UpTo(a.next + slotsAhead*pageBytes)
	return pg
}

// free gives the arena back to the system; its pages must no longer be referenced.
func (a *slotArena) free() {
	a.ahead.Stop()
	_ = syscall.Munmap(a.mem)
}
