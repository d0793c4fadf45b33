package pirfile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/pirdrr/drr/internal/fileio"
	"github.com/pirdrr/drr/ir"
)

// Write writes p to w in format f (a file format).
func Write(w io.Writer, p *ir.Program, f *Format, opts Options) error {
	if f.Write == nil {
		if f.Dir {
			return fmt.Errorf("%s programs are folders: they cannot be written to a stream", f.Name)
		}
		return fmt.Errorf("pirdrr does not write %s (%s)", f.Name, f.Doc)
	}
	return f.Write(w, p, opts)
}

// Marshal returns p in format f (a file format).
func Marshal(p *ir.Program, f *Format, opts Options) ([]byte, error) {
	var b bytes.Buffer
	if err := Write(&b, p, f, opts); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Save writes p to path in format f: a file format streams into WriteFileFunc, a folder format writes its files into
// the folder path (see WriteDirFunc). "-" writes standard output (file formats only). An empty opts.Name becomes
// the path's base name without its extension.
func Save(p *ir.Program, path string, f *Format, opts Options) error {
	if opts.Name == "" && path != "-" {
		base := filepath.Base(filepath.Clean(path))
		opts.Name = strings.TrimSuffix(base, filepath.Ext(base))
	}
	if f.Dir {
		if f.WriteDir == nil {
			return fmt.Errorf("pirdrr does not write %s (%s)", f.Name, f.Doc)
		}
		return WriteDirFunc(path, f.SniffDir, func(dir string) error { return f.WriteDir(dir, p, opts) })
	}
	if f.Write == nil {
		return fmt.Errorf("pirdrr does not write %s (%s)", f.Name, f.Doc)
	}
	opts.Streamed = writesAtomically(path)
	return WriteFileFunc(path, func(w io.Writer) error { return f.Write(w, p, opts) })
}

// writesAtomically reports whether WriteFileFunc writes path through a temporary file renamed on success: a new
// file or a regular one, not standard output, a device or a FIFO.
func writesAtomically(path string) bool {
	if path == "-" {
		return false
	}
	_, info, err := resolve(path)
	return err == nil && (info == nil || info.Mode().IsRegular())
}

// WriteFile writes data to path as WriteFileFunc does.
func WriteFile(path string, data []byte) error {
	return WriteFileFunc(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFileFunc writes path with what write produces (through a buffered writer). "-" writes standard output.
//
// A regular file, or a path that does not exist, is written atomically: into a temporary file in the same folder,
// renamed over path only when write succeeded, so a failure never leaves a partial file, and the file keeps its
// permissions (0644 for a new file); temporary files a killed drrc left behind are removed, and a file with several
// hard links is rewritten in place instead, once its whole content is ready, so that its links keep sharing it
// (see internal/fileio). Anything else is not replaced: a symbolic link is followed to the file it names, a device
// such as /dev/null, a FIFO or a socket is opened and written in place, and a directory is an error.
func WriteFileFunc(path string, write func(io.Writer) error) error {
	if path == "-" {
		return writeBuffered(os.Stdout, write)
	}
	target, info, err := resolve(path)
	if err != nil {
		return err
	}
	switch {
	case info == nil:
		return fileio.WriteAtomic(target, write)
	case info.IsDir():
		return &fs.PathError{Op: "write", Path: path, Err: errors.New("is a directory")}
	case !info.Mode().IsRegular():
		return fileio.WriteInPlace(target, write)
	}
	return fileio.WriteAtomic(target, write)
}

func writeBuffered(w io.Writer, write func(io.Writer) error) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	if err := write(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// resolve follows symbolic links from path to the file they name, and returns that path and its information
// (nil if it does not exist: a new file, or a dangling link, is created where the link points).
func resolve(path string) (string, fs.FileInfo, error) {
	for hops := 0; ; hops++ {
		info, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil, nil
		}
		if err != nil {
			return "", nil, err
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			return path, info, nil
		}
		if hops == 40 {
			return "", nil, &fs.PathError{Op: "write", Path: path, Err: errors.New("too many levels of symbolic links")}
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", nil, err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
}

// WriteDirFunc writes a program folder at path: write puts the files of the folder's format into it (each
// atomically, keeping the modes of the files it replaces: see Format.WriteDir) and leaves every other file of the
// folder as it is — a GraphNet graph folder keeps the user's notes, results and graph_hash.txt. A path that does not
// exist is created, and removed again when write fails; an existing path must be a folder that is empty or that
// claims accepts (a program folder of the same format; nil: none is accepted). A symbolic link is followed. "-",
// and a path that is a file, are errors.
func WriteDirFunc(path string, claims func(dir string) bool, write func(dir string) error) error {
	if path == "-" {
		return errors.New("a program folder cannot be written to standard output")
	}
	target, info, err := resolve(path)
	if err != nil {
		return err
	}
	if info == nil {
		if err := os.Mkdir(target, 0o755); err != nil {
			return err
		}
		if err := write(target); err != nil {
			os.RemoveAll(target) // the folder is ours: made above
			return err
		}
		return nil
	}
	if !info.IsDir() {
		return &fs.PathError{Op: "write", Path: path, Err: errors.New("exists and is not a folder")}
	}
	entries, err := os.ReadDir(target)
	if err != nil {
		return err
	}
	if len(entries) > 0 && (claims == nil || !claims(target)) {
		return &fs.PathError{Op: "write", Path: path, Err: errors.New("is a folder that holds other files, and not a program of this format: nothing written")}
	}
	return write(target)
}
