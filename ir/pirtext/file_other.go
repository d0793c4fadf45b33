//go:build !linux

package pirtext

import "github.com/pirdrr/drr/ir"

// slotArena is the Linux parser's off-heap memory for its value-name table (file_linux.go); elsewhere the table's
// pages are allocated on the heap.
type slotArena struct{}

func newSlotArena(int) *slotArena             { return nil }
func (*slotArena) page() *[slotPage]*ir.Value { return nil }
func (*slotArena) free()                      {}
