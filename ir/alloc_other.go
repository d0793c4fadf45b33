//go:build !linux

package ir

// adviseHuge does nothing: huge-page advice is Linux's (alloc_linux.go).
func (a *Allocator) adviseHuge(_, _ uintptr) {}

// adviseHugeSlice does nothing: huge-page advice is Linux's (alloc_linux.go).
func adviseHugeSlice[T any]([]T) {}

// madviseHuge does nothing: huge-page advice is Linux's (alloc_linux.go).
func madviseHuge(_, _ uintptr) {}

// hugePageRegion is the region touchPages advises at once (nothing is advised here).
const hugePageRegion = 4 << 20
