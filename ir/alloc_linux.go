package ir

import (
	"syscall"
	"unsafe"
)

// hugePageRegion is the size and alignment of the heap regions the allocator asks the kernel to back with huge
// pages: the pieces in which Go's runtime maps its heap as it grows (4 MiB on linux/amd64 with Go 1.26; advice
// given before the runtime maps a region is lost, because the mapping replaces the reservation it was given on).
const hugePageRegion = 4 << 20

// hugeAfter is the memory an allocator's chunks take before it asks for huge pages: small programs (a language
// server's, a playground's) stay on 4 KiB pages, where a 2 MiB page for a few chunks would only add to the memory
// a long-lived process holds.
const hugeAfter = 16 << 20

// adviseHuge asks the kernel to back the heap region holding addr, where a chunk of size bytes was just allocated,
// with transparent huge pages, once per region (a.advised is the last one advised) and once the allocator's chunks
// take hugeAfter bytes. A program read into the allocator's chunks touches hundreds of MB of fresh
// memory in order; with 4 KiB pages that is a page fault per 4 KiB (at 1M blocks 209,000 of them while parsing,
// 2–9 µs each on a virtual machine), with 2 MiB pages one per 2 MiB. A region whose first pages something else
// touched already keeps 4 KiB pages in that part.
func (a *Allocator) adviseHuge(addr, size uintptr) {
	if a.chunkBytes += size; a.chunkBytes < hugeAfter {
		return
	}
	base := addr &^ (hugePageRegion - 1)
	if base == a.advised {
		return
	}
	a.advised = base
	madviseHuge(base, hugePageRegion)
}

// adviseHugeSlice asks the kernel to back the memory of s, a large allocation just made and not yet written (the
// runtime hands out fresh memory without touching it), with transparent huge pages.
func adviseHugeSlice[T any](s []T) {
	if n := uintptr(cap(s)) * unsafe.Sizeof(*new(T)); n >= hugePageRegion {
		madviseHuge(uintptr(unsafe.Pointer(unsafe.SliceData(s))), n)
	}
}

// madviseHuge is madvise(MADV_HUGEPAGE) on n bytes at addr (madvise wants a page-aligned address: addr is rounded
// up to the next page). It is only advice: where the kernel has THP off nothing changes, and errors (a
// range the runtime has not mapped yet) are ignored. Memory contents and mappings are not touched, so the collector
// and the race detector see no difference.
func madviseHuge(addr, n uintptr) {
	page := uintptr(syscall.Getpagesize())
	start := (addr + page - 1) &^ (page - 1)
	if start >= addr+n {
		return
	}
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, start, addr+n-start, syscall.MADV_HUGEPAGE)
}
