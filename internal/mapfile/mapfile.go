// Package mapfile gives a reader that goes through a large file once (the PIR text and PIR JSON readers) the file's
// bytes without holding them: where the system can map files (Linux), the file is mapped read-only, the pages the
// reader has passed are handed back as it goes (Source.Passed), and a goroutine maps the pages ahead of it (a
// Populator), so that a 500 MB program costs the memory of its IR and not that of its text too, and the page
// faults of reading it happen on another core; elsewhere, and for what cannot be mapped, the file is read whole.
//
// A mapped file that shrinks while it is read makes the reader fault; readers turn the fault into a panic
// (debug.SetPanicOnFault) and the panic into an error, see Source.Mapped.
package mapfile

import "os"

// The reader hands the source back in steps of ReleaseStep bytes, keeping the last ReleaseKeep bytes it read
// (error messages look back a little; anything further back is read again from the file if needed).
const (
	ReleaseStep = 8 << 20
	ReleaseKeep = 1 << 20
)

// PopulateFrom is the size from which a mapping is populated ahead of its reader: below it, a goroutine costs more
// than the page faults it moves.
const PopulateFrom = 32 << 20

// Source is a file opened for one pass of a reader.
type Source struct {
	// Data is the file's content: mapped (Mapped), or read whole.
	Data     []byte
	mapped   bool
	ahead    *Populator // nil unless mapped and at least PopulateFrom bytes
	released int        // how far Data was handed back (Released)
}

// Mapped reports whether Data is a mapping of the file (not a copy): a fault while reading it means that the file
// shrank under the reader.
func (s *Source) Mapped() bool { return s.mapped }

// Passed tells s that its reader is at byte pos: once pos is ReleaseStep past the last release (and ReleaseKeep
// more), the pages before pos−ReleaseKeep go back to the system (they are read from the file again if touched),
// and the populator is asked for the pages two steps ahead. It does nothing for a source read whole. The check is
// inlined and cheap enough to call after every op.
func (s *Source) Passed(pos int) {
	if s.mapped && pos-s.released >= ReleaseStep+ReleaseKeep {
		s.release(pos - ReleaseKeep)
	}
}

// Released returns how far the source has been handed back: Data[:Released()] was released.
func (s *Source) Released() int { return s.released }

// release is Passed's release up to upTo.
//
//go:noinline
func (s *Source) release(upTo int) {
	s.ahead.UpTo(upTo + ReleaseKeep + 2*ReleaseStep)
	s.dontNeed(s.released, upTo)
	s.released = upTo
}

// readWhole is Open for a file that is not mapped: its content, read whole.
func readWhole(path string) (*Source, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return &Source{Data: data}, nil
}
