//go:build unix

package fileio

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadRefusesDevicesAndFIFOs: /dev/zero would be read forever, a FIFO without a writer would block forever.
func TestReadRefusesDevicesAndFIFOs(t *testing.T) {
	_, err := ReadFile("/dev/zero", 1<<30)
	assert.EqualError(t, err, "/dev/zero: a device, not a regular file")
	fifo := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	_, err = ReadFile(fifo, 0)
	assert.EqualError(t, err, fifo+": a FIFO, not a regular file")
}

// TestWriteAtomicHardLinks: a file with another hard link is rewritten in place, so both names see the new content
// (a rename would leave the other link with the old one).
func TestWriteAtomicHardLinks(t *testing.T) {
	dir := t.TempDir()
	path, link := filepath.Join(dir, "rules.drr"), filepath.Join(dir, "link.drr")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
	require.NoError(t, os.Link(path, link))
	require.NoError(t, WriteAtomic(path, text("new")))
	for _, p := range []string{path, link} {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		assert.Equal(t, "new", string(data), p)
	}
	boom := errors.New("boom")
	assert.ErrorIs(t, WriteAtomic(path, func(w io.Writer) error { io.WriteString(w, "partial"); return boom }), boom)
	data, _ := os.ReadFile(link)
	assert.Equal(t, "new", string(data), "a failed write leaves the linked file alone")
}

// TestStaleTemporariesRemoved: the temporary file of a drrc killed while writing (kill -9) is removed by the next
// write of the same file; one of a live process, and other hidden files, are not.
func TestStaleTemporariesRemoved(t *testing.T) {
	dir := t.TempDir()
	// A process that has exited: its id is free (until reused, which the check then respects).
	cmd := exec.Command("true")
	require.NoError(t, cmd.Run())
	dead := cmd.Process.Pid
	stale := filepath.Join(dir, ".out.pir.drrc-"+strconv.Itoa(dead)+"-123.tmp")
	live := filepath.Join(dir, ".out.pir.drrc-1-456.tmp") // pid 1 runs
	other := filepath.Join(dir, ".out.pir.swp")
	for _, p := range []string{stale, live, other} {
		require.NoError(t, os.WriteFile(p, []byte("partial"), 0o600))
	}
	require.NoError(t, WriteAtomic(filepath.Join(dir, "out.pir"), text("x")))
	assert.NoFileExists(t, stale)
	assert.FileExists(t, live)
	assert.FileExists(t, other)
}
