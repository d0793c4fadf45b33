// Package bgwrite writes a producer's output on a goroutine of its own, so that producing the next buffer overlaps
// writing the last: the program printers (PIR text, PIR JSON) format hundreds of MB, and writing them into a file
// costs the system about what formatting them costs the printer (copying into the page cache).
//
// A Writer holds two buffers: the producer fills one while the goroutine writes the other. The bytes, their order
// and the error returned are those of writing synchronously; a panic of the underlying writer is re-raised on the
// producer's goroutine by Finish (on the writer's goroutine it would end the process, where a caller such as a
// server's handler may recover it).
package bgwrite

import (
	"errors"
	"io"
)

// Writer writes full buffers to an io.Writer on its own goroutine, handing each back to be filled again.
type Writer struct {
	w    io.Writer
	full chan []byte // buffers to write, in order; closed by Finish
	free chan []byte // buffers written (or skipped after an error), to fill again
	done chan struct{}
	err  error // the first error of w; read after done is closed
	// panicked is what a call of w.Write panicked with.
	panicked any
}

// errPanicked stops the writes after a call of w.Write panicked; Finish re-raises the panic.
var errPanicked = errors.New("bgwrite: the writer panicked")

// New starts a Writer to w whose second buffer has capacity size (the producer's first buffer is its own).
func New(w io.Writer, size int) *Writer {
	f := &Writer{w: w, full: make(chan []byte, 1), free: make(chan []byte, 2), done: make(chan struct{})}
	f.free <- make([]byte, 0, size)
	go f.run()
	return f
}

func (f *Writer) run() {
	defer close(f.done)
	for b := range f.full {
		if f.err == nil {
			f.write(b)
		}
		f.free <- b[:0]
	}
}

// write writes b, recording an error or a panic of w.
func (f *Writer) write(b []byte) {
	defer func() {
		if r := recover(); r != nil {
			f.panicked, f.err = r, errPanicked
		}
	}()
	_, f.err = f.w.Write(b)
}

// Swap queues b to be written and returns an empty buffer to fill, waiting for the write before last to end. The
// producer must not touch b afterwards.
func (f *Writer) Swap(b []byte) []byte {
	f.full <- b
	return <-f.free
}

// Finish waits for every queued buffer to be written and returns the first error of w; if a write panicked, it
// panics with the same value. The Writer is not used afterwards.
func (f *Writer) Finish() error {
	close(f.full)
	<-f.done
	if f.panicked != nil {
		panic(f.panicked)
	}
	return f.err
}
