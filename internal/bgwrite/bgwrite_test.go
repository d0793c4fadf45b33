package bgwrite

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// failingWriter fails its nth write (from 1) and every later one, keeping what it accepted.
type failingWriter struct {
	bytes.Buffer
	n, calls int
	panics   bool
}

func (w *failingWriter) Write(b []byte) (int, error) {
	w.calls++
	if w.n > 0 && w.calls >= w.n {
		if w.panics {
			panic("disk on fire")
		}
		return 0, errors.New("disk full")
	}
	return w.Buffer.Write(b)
}

// produce writes count buffers of distinct content through a Writer and returns what was meant to be written.
func produce(f *Writer, count int) []byte {
	var want []byte
	buf := make([]byte, 0, 64)
	for i := range count {
		buf = fmt.Appendf(buf, "buffer %d;", i)
		want = append(want, buf...)
		buf = f.Swap(buf)
		if len(buf) != 0 {
			panic("Swap returned a buffer that is not empty")
		}
	}
	return want
}

func TestWriterKeepsTheOrder(t *testing.T) {
	var out bytes.Buffer
	f := New(&out, 64)
	want := produce(f, 1000)
	require.NoError(t, f.Finish())
	assert.Equal(t, string(want), out.String())
}

func TestWriterReturnsTheFirstError(t *testing.T) {
	w := &failingWriter{n: 3}
	f := New(w, 64)
	produce(f, 10)
	require.EqualError(t, f.Finish(), "disk full")
	assert.Equal(t, 3, w.calls, "no write after the first failure")
	assert.Equal(t, "buffer 0;buffer 1;", w.String())
}

func TestWriterReraisesAPanic(t *testing.T) {
	w := &failingWriter{n: 2, panics: true}
	f := New(w, 64)
	produce(f, 5)
	assert.PanicsWithValue(t, "disk on fire", func() { _ = f.Finish() })
	assert.Equal(t, 2, w.calls)
}
