package fileio

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pattern returns n bytes that differ from their neighbours, so that a chunk written twice or out of order shows.
func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/251)
	}
	return b
}

// TestWriteBufferedContent: whatever the sizes of the writes, w receives the content in order, once.
func TestWriteBufferedContent(t *testing.T) {
	tests := []struct {
		name  string
		size  int
		piece int // the size of each Write call
	}{
		{"empty", 0, 1},
		{"small", 1000, 100},
		{"one chunk", backgroundChunk, 64 << 10},
		{"one chunk and a byte", backgroundChunk + 1, 64 << 10},
		{"pieces across chunks", 3*backgroundChunk + 12345, 70001},
		{"one large write", 5*backgroundChunk + 3, 5*backgroundChunk + 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := pattern(tt.size)
			var got bytes.Buffer
			err := WriteBuffered(&got, func(w io.Writer) error {
				for rest := want; len(rest) > 0; {
					k := min(tt.piece, len(rest))
					n, err := w.Write(rest[:k])
					if err != nil {
						return err
					}
					assert.Equal(t, k, n)
					rest = rest[k:]
				}
				return nil
			})
			require.NoError(t, err)
			assert.True(t, bytes.Equal(want, got.Bytes()), "content differs: %d bytes written, %d wanted", got.Len(), len(want))
		})
	}
}

// failingWriter accepts limit bytes, then fails.
type failingWriter struct {
	n, limit int
}

var errDiskFull = errors.New("disk full")

func (f *failingWriter) Write(p []byte) (int, error) {
	if f.n+len(p) > f.limit {
		return 0, errDiskFull
	}
	f.n += len(p)
	return len(p), nil
}

// TestWriteBufferedErrors: the writer's first error ends the write and is returned, whether it comes while the
// content is produced or when the rest is written; the producer's own error wins and drops the unwritten rest.
func TestWriteBufferedErrors(t *testing.T) {
	big := pattern(4 * backgroundChunk)
	produce := func(data []byte, fail error) func(io.Writer) error {
		return func(w io.Writer) error {
			for rest := data; len(rest) > 0; rest = rest[min(len(rest), 64<<10):] {
				if _, err := w.Write(rest[:min(len(rest), 64<<10)]); err != nil {
					return err
				}
			}
			return fail
		}
	}
	errProducer := errors.New("printer failed")
	tests := []struct {
		name    string
		limit   int
		data    []byte
		fail    error
		want    error
		written int // bytes the writer accepted, -1: any
	}{
		{"writer fails mid-way", backgroundChunk + 10, big, nil, errDiskFull, backgroundChunk},
		{"writer fails on the last small write", 10, pattern(100), nil, errDiskFull, 0},
		{"producer fails: the partial chunk is dropped", 1 << 30, pattern(backgroundChunk + 500), errProducer,
			errProducer, backgroundChunk},
		{"producer fails before a chunk is full", 1 << 30, pattern(500), errProducer, errProducer, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fw := &failingWriter{limit: tt.limit}
			err := WriteBuffered(fw, produce(tt.data, tt.fail))
			require.ErrorIs(t, err, tt.want)
			assert.Equal(t, tt.written, fw.n)
		})
	}
}

// signalWriter reports its first Write on started and holds it until release is closed (or, when nobody can
// close it because the producer waits for this very write, for ten seconds, noting that it was in series).
type signalWriter struct {
	started  chan struct{}
	release  chan struct{}
	inSeries bool
	got      bytes.Buffer
}

func (s *signalWriter) Write(p []byte) (int, error) {
	if s.got.Len() == 0 {
		close(s.started)
		select {
		case <-s.release:
		case <-time.After(10 * time.Second):
			s.inSeries = true
		}
	}
	return s.got.Write(p)
}

// TestWriteBufferedOverlaps: the first full chunk is written while the producer is still producing, which is the
// point of the background writer (with a writer in series, the producer waits in its Write, which the signalWriter
// holds until it gives up).
func TestWriteBufferedOverlaps(t *testing.T) {
	sw := &signalWriter{started: make(chan struct{}), release: make(chan struct{})}
	data := pattern(3 * backgroundChunk)
	err := WriteBuffered(sw, func(w io.Writer) error {
		if _, err := w.Write(data[:backgroundChunk]); err != nil {
			return err
		}
		<-sw.started
		close(sw.release)
		_, err := w.Write(data[backgroundChunk:])
		return err
	})
	require.NoError(t, err)
	assert.False(t, sw.inSeries, "the first chunk was written in series with its producer")
	assert.True(t, bytes.Equal(data, sw.got.Bytes()))
}
