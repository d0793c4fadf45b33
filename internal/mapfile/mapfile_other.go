//go:build !linux

package mapfile

// Open reads the file at path whole (mapfile_linux.go maps it).
func Open(path string) (*Source, error) { return readWhole(path) }

// dontNeed is never called for a source read whole.
func (s *Source) dontNeed(lo, hi int) {}

// Close does nothing for a source read whole.
func (s *Source) Close() {}

// Populator maps pages ahead of a reader on Linux; elsewhere there is none (a nil Populator does nothing).
type Populator struct{}

// NewPopulator returns nil: pages are mapped by the reader's own faults.
func NewPopulator(mem []byte, write bool) *Populator { return nil }

// UpTo does nothing.
func (a *Populator) UpTo(end int) {}

// Stop does nothing.
func (a *Populator) Stop() {}

// Refused reports false.
func (a *Populator) Refused() bool { return false }
