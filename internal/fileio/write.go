package fileio

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// NewFileMode is the mode of a file WriteAtomic creates; a file it replaces keeps its own.
const NewFileMode fs.FileMode = 0o644

// tmpMarker is in the name of every temporary file WriteAtomic makes: .NAME.drrc-PID-RANDOM.tmp.
const tmpMarker = ".drrc-"

// WriteAtomic writes the regular file at path (which must not be a symbolic link: resolve it first) with what
// write produces, through a buffered writer. The content goes into a temporary file in the same folder, renamed
// over path only when write succeeded, so that a failure leaves path as it was; the file keeps its mode (a new one
// gets NewFileMode). A file with several hard links is rewritten in place once write has produced the whole
// content, so that the links keep sharing it. Temporary files of path that a killed drrc left behind are removed.
func WriteAtomic(path string, write func(io.Writer) error) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	removeStale(dir, base)
	perm := NewFileMode
	if info, err := os.Stat(path); err == nil {
		perm = info.Mode().Perm()
		if links(info) > 1 {
			return writeLinked(path, write)
		}
	}
	tmp, err := os.CreateTemp(dir, "."+base+tmpMarker+strconv.Itoa(os.Getpid())+"-*.tmp")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = &fs.PathError{Op: "write", Path: path, Err: pe.Err} // the user's file, not our temporary name
		}
		return err
	}
	name := tmp.Name()
	if err := writeBuffered(tmp, write); err != nil {
		tmp.Close()
		os.Remove(name)
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return err
	}
	if err := os.Chmod(name, perm); err != nil {
		os.Remove(name)
		return err
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return err
	}
	return nil
}

// writeLinked rewrites a file with several hard links in place, after write has produced all of it.
func writeLinked(path string, write func(io.Writer) error) error {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	if _, err := f.Write(b.Bytes()); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// WriteInPlace writes a file that must not be replaced (a device such as /dev/null, a FIFO): opened for writing,
// never created or renamed.
func WriteInPlace(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if err := writeBuffered(f, write); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func writeBuffered(w io.Writer, write func(io.Writer) error) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	if err := write(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// removeStale removes the temporary files of dir/base that WriteAtomic made in processes that no longer run.
func removeStale(dir, base string) {
	prefix := "." + base + tmpMarker
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok || !strings.HasSuffix(name, ".tmp") || !e.Type().IsRegular() {
			continue
		}
		pid, _, ok := strings.Cut(rest, "-")
		n, err := strconv.Atoi(pid)
		if !ok || err != nil || n <= 0 || n == os.Getpid() || running(n) {
			continue
		}
		_ = os.Remove(filepath.Join(dir, name)) // another drrc may have removed it first
	}
}
