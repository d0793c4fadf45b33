package pirtext

import "github.com/pirdrr/drr/internal/bgwrite"

// Write's output goes to its writer from a goroutine of its own once the program is larger than one buffer
// (internal/bgwrite), so that formatting the next buffer overlaps the write of the last: writing a large program
// into a file costs the system about twice what formatting it does (copying into the page cache;
// docs/performance.md, "At 1M blocks"), and the printer no longer waits for it. The bytes, their order and the
// error returned are those of writing synchronously; a small program is written by the calling goroutine alone.

// flushSize is the buffered output after which Write hands it to its writer.
const flushSize = 256 << 10

// flush hands the buffered output to the background writer, starting it the first time: a program that fits in
// one buffer never starts a goroutine (end writes it).
func (pr *printer) flush() {
	if pr.w == nil || len(pr.buf) == 0 {
		return
	}
	if pr.flusher == nil {
		pr.flusher = bgwrite.New(pr.w, flushSize+4096)
	}
	pr.buf = pr.flusher.Swap(pr.buf)
}

// end writes what is left in the buffer and waits for the writer; it returns the first error of the writer.
func (pr *printer) end() error {
	if pr.flusher == nil {
		if len(pr.buf) > 0 {
			_, err := pr.w.Write(pr.buf)
			return err
		}
		return nil
	}
	pr.flush()
	return pr.flusher.Finish()
}
