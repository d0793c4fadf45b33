package fileio

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func text(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

func TestReadLimits(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(path, []byte("0123456789"), 0o644))
	tests := []struct {
		limit int64
		err   string
	}{
		{0, ""}, {10, ""}, {100, ""},
		{9, path + ": larger than 9 bytes, the limit for reading it (-max-file-size raises it)"},
	}
	for _, tt := range tests {
		data, err := ReadFile(path, tt.limit)
		if tt.err != "" {
			assert.EqualError(t, err, tt.err)
			var tl *TooLargeError
			assert.ErrorAs(t, err, &tl)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, "0123456789", string(data))
		data, err = ReadAll(strings.NewReader("0123456789"), "<stdin>", tt.limit)
		require.NoError(t, err)
		assert.Equal(t, "0123456789", string(data))
	}
	_, err := ReadAll(strings.NewReader("0123456789"), "<stdin>", 4)
	assert.EqualError(t, err, "<stdin>: larger than 4 bytes, the limit for reading it (-max-file-size raises it)")

	_, err = ReadFile(dir, 0)
	assert.EqualError(t, err, dir+": a folder, not a file")
	_, err = ReadFileFS(os.DirFS(dir), "f", 5)
	assert.ErrorContains(t, err, "f: larger than 5 bytes")
	data, err := ReadFileFS(os.DirFS(dir), "f", 10)
	require.NoError(t, err)
	assert.Equal(t, "0123456789", string(data))
	_, err = ReadFileFS(os.DirFS(dir), ".", 10)
	assert.ErrorContains(t, err, "a folder, not a file")
}

func TestSizes(t *testing.T) {
	for in, want := range map[string]int64{"100": 100, "64M": 64 << 20, "64MiB": 64 << 20, "1G": 1 << 30, "1.5K": 1536, "2T": 2 << 40, "10B": 10} {
		got, err := ParseSize(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "0", "-5", "M", "12X", "1e30"} {
		_, err := ParseSize(in)
		assert.Error(t, err, in)
	}
	for n, want := range map[int64]string{100: "100 bytes", 64 << 20: "64 MiB", 1 << 30: "1 GiB", 1536: "1.5 KiB"} {
		assert.Equal(t, want, FormatSize(n))
	}
}

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.pir")
	require.NoError(t, WriteAtomic(path, text("one")))
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, NewFileMode, info.Mode().Perm())
	require.NoError(t, os.Chmod(path, 0o600))
	boom := errors.New("boom")
	assert.ErrorIs(t, WriteAtomic(path, func(w io.Writer) error { io.WriteString(w, "partial"); return boom }), boom)
	require.NoError(t, WriteAtomic(path, text("two")))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "two", string(data))
	info, err = os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "the mode is kept")
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 1, "no temporary file is left")
	missing := filepath.Join(dir, "no", "such", "out.pir")
	assert.EqualError(t, WriteAtomic(missing, text("x")), "write "+missing+": no such file or directory",
		"the error names the file asked for, not a temporary one")
}

func TestWriteInPlace(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/null")
	}
	require.NoError(t, WriteInPlace(os.DevNull, text("x")))
	assert.Error(t, WriteInPlace(filepath.Join(t.TempDir(), "missing"), text("x")), "never creates")
}
