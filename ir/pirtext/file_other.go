//go:build !linux

package pirtext

import (
	"os"

	"github.com/pirdrr/drr/ir"
)

// openSource reads the file at path whole (see file_linux.go for the mapped version).
func openSource(path string) (src []byte, release func(lo, hi int), done func(), err error) {
	src, err = os.ReadFile(path)
	return src, nil, func() {}, err
}

// slotArena is the Linux parser's off-heap memory for its value-name table (file_linux.go); elsewhere the table's
// pages are allocated on the heap.
type slotArena struct{}

func newSlotArena(int) *slotArena             { return nil }
func (*slotArena) page() *[slotPage]*ir.Value { return nil }
func (*slotArena) free()                      {}
