package ir

import "syscall"

// hugePageRegion is the size and alignment of the heap regions the allocator asks the kernel to back with huge
// pages: the pieces in which Go's runtime maps its heap as it grows (4 MiB on linux/amd64 with Go 1.26; advice
// given before the runtime maps a region is lost, because the mapping replaces the reservation it was given on).
const hugePageRegion = 4 << 20

// adviseHuge asks the kernel to back the heap arena holding addr with transparent huge pages (MADV_HUGEPAGE), once
// per arena (a.advised is the last one advised). A program read into the allocator's chunks touches hundreds of MB
// of fresh memory in order; with 4 KiB pages that is a page fault per 4 KiB (at 1M blocks 185,000 of them, 2–9 µs
// each on a virtual machine), with 2 MiB pages one per 2 MiB. It is only advice: where the kernel has THP off, or
// the arena's pages are in use already, nothing changes, and errors (a range the runtime has not mapped yet) are
// ignored. Memory contents and mappings are not touched, so the collector and the race detector see no difference.
func (a *Allocator) adviseHuge(addr uintptr) {
	base := addr &^ (hugePageRegion - 1)
	if base == a.advised {
		return
	}
	a.advised = base
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, base, hugePageRegion, syscall.MADV_HUGEPAGE)
}
