package fileio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// TooLargeError reports a file or stream larger than the limit its reader set.
type TooLargeError struct {
	Name  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: larger than %s, the limit for reading it (-max-file-size raises it)", e.Name, FormatSize(e.Limit))
}

// NotRegularError reports a path that is not a regular file: a device, a FIFO, a socket or a folder.
type NotRegularError struct {
	Name string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	what := "not a regular file"
	switch t := e.Mode.Type(); {
	case t&fs.ModeDir != 0:
		what = "a folder, not a file"
	case t&fs.ModeDevice != 0:
		what = "a device, not a regular file"
	case t&fs.ModeNamedPipe != 0:
		what = "a FIFO, not a regular file"
	case t&fs.ModeSocket != 0:
		what = "a socket, not a regular file"
	}
	return e.Name + ": " + what
}

// Open opens the regular file at path (following symbolic links) for reading, and returns it with its size. Any
// other kind of file is a *NotRegularError, a file larger than limit (> 0) a *TooLargeError.
func Open(path string, limit int64) (*os.File, int64, error) {
	// O_NONBLOCK: opening a FIFO for reading must not wait for a writer before it can be refused.
	f, err := os.OpenFile(path, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, 0, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, 0, &NotRegularError{Name: path, Mode: info.Mode()}
	}
	if limit > 0 && info.Size() > limit {
		f.Close()
		return nil, 0, &TooLargeError{Name: path, Limit: limit}
	}
	return f, info.Size(), nil
}

// ReadFile reads the regular file at path, of at most limit bytes (limit <= 0: no limit). A file that grows past
// the limit while it is read is refused too.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, size, err := Open(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, 0, size+1)
	return readAll(buf, f, path, limit)
}

// ReadAll reads r (standard input, an upload) to its end, failing with a *TooLargeError naming name past limit
// bytes (limit <= 0: no limit).
func ReadAll(r io.Reader, name string, limit int64) ([]byte, error) {
	return readAll(nil, r, name, limit)
}

func readAll(buf []byte, r io.Reader, name string, limit int64) ([]byte, error) {
	if limit > 0 {
		r = io.LimitReader(r, limit+1)
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if limit > 0 && int64(len(buf)) > limit {
			return nil, &TooLargeError{Name: name, Limit: limit}
		}
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// ReadFileFS is ReadFile on a file system (fs.FS): only regular files, of at most limit bytes.
func ReadFileFS(fsys fs.FS, name string, limit int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &NotRegularError{Name: name, Mode: info.Mode()}
	}
	if limit > 0 && info.Size() > limit {
		return nil, &TooLargeError{Name: name, Limit: limit}
	}
	return readAll(make([]byte, 0, info.Size()+1), f, name, limit)
}

// FormatSize writes a byte count as people read it: 64 MiB, 1 GiB, 1.5 KiB, 100 bytes.
func FormatSize(n int64) string {
	units := []string{"KiB", "MiB", "GiB", "TiB"}
	if n < 1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	v, u := float64(n)/1024, 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d %s", int64(v), units[u])
	}
	return fmt.Sprintf("%.1f %s", v, units[u])
}

// ParseSize reads a size as drrc's -max-file-size takes it: a number of bytes, with an optional unit K, M, G or T
// (powers of 1024; KiB, MB and the like are read the same way).
func ParseSize(s string) (int64, error) {
	num, unit := s, int64(1)
	for i, c := range s {
		if (c < '0' || c > '9') && c != '.' {
			num, unit = s[:i], 0
			switch u := s[i:]; u {
			case "", "B", "b":
				unit = 1
			case "K", "k", "KB", "kB", "KiB":
				unit = 1 << 10
			case "M", "MB", "MiB":
				unit = 1 << 20
			case "G", "GB", "GiB":
				unit = 1 << 30
			case "T", "TB", "TiB":
				unit = 1 << 40
			}
			break
		}
	}
	var v float64
	if _, err := fmt.Sscanf(num, "%g", &v); err != nil || unit == 0 || v <= 0 || num == "" {
		return 0, fmt.Errorf("%q is not a size (a positive number of bytes, with K, M, G or T)", s)
	}
	n := v * float64(unit)
	if n > float64(1<<62) {
		return 0, fmt.Errorf("%q is too large a size", s)
	}
	return int64(n), nil
}
