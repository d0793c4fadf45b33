package pirtext

import (
	"errors"
	"io"
)

// Write's output goes to its writer from a goroutine of its own once the program is larger than one buffer, so
// that formatting the next buffer overlaps the write of the last: writing a large program into a file costs the
// system about twice what formatting it does (copying into the page cache; docs/performance.md, "At 1M blocks"),
// and the printer no longer waits for it. The bytes, their order and the error returned are those of writing
// synchronously; a small program is written by the calling goroutine alone.

// flushSize is the buffered output after which Write hands it to its writer.
const flushSize = 256 << 10

// flusher writes the printer's full buffers on its own goroutine, handing each back to be filled again: two
// buffers in all, one being written while the other fills.
type flusher struct {
	w    io.Writer
	full chan []byte // buffers to write, in order; closed by finish
	free chan []byte // buffers written (or skipped after an error), to fill again
	done chan struct{}
	err  error // the first error of w; read after done is closed
	// panicked is what a call of w.Write panicked with, re-raised on the caller's goroutine by finish (a panic on
	// the flusher's goroutine would end the process, where a caller such as a server's handler may recover it).
	panicked any
}

// errWriterPanicked stops the writes after a call of w.Write panicked; finish re-raises the panic.
var errWriterPanicked = errors.New("pirtext: the writer panicked")

func newFlusher(w io.Writer) *flusher {
	f := &flusher{w: w, full: make(chan []byte, 1), free: make(chan []byte, 2), done: make(chan struct{})}
	f.free <- make([]byte, 0, flushSize+4096)
	go f.run()
	return f
}

func (f *flusher) run() {
	defer close(f.done)
	for b := range f.full {
		if f.err == nil {
			f.write(b)
		}
		f.free <- b[:0]
	}
}

// write writes b, recording an error or a panic of w.
func (f *flusher) write(b []byte) {
	defer func() {
		if r := recover(); r != nil {
			f.panicked, f.err = r, errWriterPanicked
		}
	}()
	_, f.err = f.w.Write(b)
}

// swap queues b to be written and returns an empty buffer to fill, waiting for the write before last to end.
func (f *flusher) swap(b []byte) []byte {
	f.full <- b
	return <-f.free
}

// finish waits for every queued buffer to be written and returns the first error; if a write panicked, it panics
// with the same value.
func (f *flusher) finish() error {
	close(f.full)
	<-f.done
	if f.panicked != nil {
		panic(f.panicked)
	}
	return f.err
}

// flush hands the buffered output to the flusher, starting it the first time: a program that fits in one buffer
// never starts a goroutine (end writes it).
func (pr *printer) flush() {
	if pr.w == nil || len(pr.buf) == 0 {
		return
	}
	if pr.flusher == nil {
		pr.flusher = newFlusher(pr.w)
	}
	pr.buf = pr.flusher.swap(pr.buf)
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
	return pr.flusher.finish()
}
