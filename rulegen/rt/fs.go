package rt

import (
	"bytes"
	"io/fs"
	"time"
)

// File is one rule file of a generated program: its name, relative to the main file's folder as the rules were
// loaded (imports resolve against it), and its text.
type File struct {
	Name string
	Text string
}

// filesFS serves a program's files to drr.Load. Unlike testing/fstest.MapFS it accepts the names imports resolve
// to even when they climb out of the main file's folder ("../common.drr"): they are keys, not paths.
type filesFS []File

func (f filesFS) find(name string) (*File, bool) {
	for i := range f {
		if f[i].Name == name {
			return &f[i], true
		}
	}
	return nil, false
}

// ReadFile implements fs.ReadFileFS.
func (f filesFS) ReadFile(name string) ([]byte, error) {
	file, ok := f.find(name)
	if !ok {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	return []byte(file.Text), nil
}

// Open implements fs.FS.
func (f filesFS) Open(name string) (fs.File, error) {
	file, ok := f.find(name)
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &openFile{File: file, Reader: bytes.NewReader([]byte(file.Text))}, nil
}

type openFile struct {
	*File
	*bytes.Reader
}

func (o *openFile) Stat() (fs.FileInfo, error) { return fileInfo{o.File}, nil }
func (o *openFile) Close() error               { return nil }

type fileInfo struct{ f *File }

func (i fileInfo) Name() string       { return i.f.Name }
func (i fileInfo) Size() int64        { return int64(len(i.f.Text)) }
func (i fileInfo) Mode() fs.FileMode  { return 0o444 }
func (i fileInfo) ModTime() time.Time { return time.Time{} }
func (i fileInfo) IsDir() bool        { return false }
func (i fileInfo) Sys() any           { return nil }

// FilesFS returns an fs.FS serving files by name, as a Program serves its files to drr.Load.
func FilesFS(files []File) fs.FS { return filesFS(files) }
