package fileio

import (
	"io"
	"sync"
)

// backgroundChunk is the size of the chunks a backgroundWriter hands to its writer goroutine. Large enough that a
// 500 MB program is a few hundred write calls, small enough that the printer is never far ahead of the file.
const backgroundChunk = 1 << 20

// backgroundWriter buffers what it is given into chunks and writes each full chunk to w on a goroutine of its own,
// so that the printer producing the content and the kernel copying it into the file's pages run at the same time
// (a printed program is formatted at about 2 GB/s, and written at a third of that on this project's machines: in
// series the write was two thirds of the print phase). Two chunks are in flight at most: one being filled, one
// being written (and one queued), so memory stays a few megabytes whatever the size of the file.
//
// The first error of w is returned by every later Write and by Close; the content after it is dropped. Close writes
// what is left and waits for the goroutine; it must be called once, also after an error (with discard), and the
// writer is not used after it.
type backgroundWriter struct {
	buf   []byte
	full  chan []byte // chunks to write, in order
	free  chan []byte // chunks written, to fill again
	done  chan struct{}
	mu    sync.Mutex
	err   error
	start sync.Once
	w     io.Writer
}

func newBackgroundWriter(w io.Writer) *backgroundWriter {
	return &backgroundWriter{w: w, buf: make([]byte, 0, backgroundChunk)}
}

// run writes the chunks it is handed until full is closed, recording the first error.
func (b *backgroundWriter) run() {
	defer close(b.done)
	for c := range b.full {
		if b.failed() == nil {
			if _, err := b.w.Write(c); err != nil {
				b.mu.Lock()
				b.err = err
				b.mu.Unlock()
			}
		}
		b.free <- c[:0]
	}
}

func (b *backgroundWriter) failed() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

// Write copies p into the current chunk, handing full chunks to the writer goroutine.
func (b *backgroundWriter) Write(p []byte) (int, error) {
	if err := b.failed(); err != nil {
		return 0, err
	}
	n := len(p)
	for len(p) > 0 {
		k := copy(b.buf[len(b.buf):cap(b.buf)], p)
		b.buf = b.buf[:len(b.buf)+k]
		p = p[k:]
		if len(b.buf) == cap(b.buf) {
			b.handOver()
		}
	}
	return n, nil
}

// handOver queues the current chunk for writing and takes an empty one: a new one while fewer than three exist,
// else the next one the goroutine has written.
func (b *backgroundWriter) handOver() {
	b.start.Do(func() {
		b.full = make(chan []byte, 1)
		b.free = make(chan []byte, 3)
		b.done = make(chan struct{})
		b.free <- make([]byte, 0, backgroundChunk)
		b.free <- make([]byte, 0, backgroundChunk)
		go b.run()
	})
	b.full <- b.buf
	b.buf = <-b.free
}

// Close writes the rest (unless discard: the content failed, and what is not handed over yet is dropped) and waits
// until everything handed over is written; it returns the first error of w.
func (b *backgroundWriter) Close(discard bool) error {
	if discard {
		b.buf = b.buf[:0]
	}
	if b.full == nil {
		// Smaller than one chunk: written here, no goroutine was started.
		if len(b.buf) > 0 {
			_, err := b.w.Write(b.buf)
			return err
		}
		return nil
	}
	if len(b.buf) > 0 {
		b.full <- b.buf
	}
	b.buf = nil
	close(b.full)
	<-b.done
	return b.failed()
}
