package rulegen

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/rulegen/rt"
)

// recordFS serves rule files from another fs.FS and remembers every file read, to embed them in the generated
// code.
type recordFS struct {
	fsys  fs.FS
	files map[string]string
}

func (r *recordFS) Open(name string) (fs.File, error) {
	data, err := r.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return rt.FilesFS([]rt.File{{Name: name, Text: string(data)}}).Open(name)
}

func (r *recordFS) ReadFile(name string) ([]byte, error) {
	data, err := fs.ReadFile(r.fsys, name)
	if err != nil {
		return nil, err
	}
	r.files[name] = string(data)
	return data, nil
}

// sorted returns the files read: those at paths first, then the others by name.
func (r *recordFS) sorted(paths []string) []rt.File {
	var out []rt.File
	first := map[string]bool{}
	for _, p := range paths {
		if !first[p] {
			first[p] = true
			out = append(out, rt.File{Name: p, Text: r.files[p]})
		}
	}
	var rest []string
	for name := range r.files {
		if !first[name] {
			rest = append(rest, name)
		}
	}
	sort.Strings(rest)
	for _, name := range rest {
		out = append(out, rt.File{Name: name, Text: r.files[name]})
	}
	return out
}

// dirFS reads the operating system's files relative to a folder. Unlike os.DirFS it accepts names that climb out
// of the folder ("../common.drr"), which imports may resolve to.
type dirFS string

func (d dirFS) path(name string) string { return filepath.Join(string(d), filepath.FromSlash(name)) }

func (d dirFS) Open(name string) (fs.File, error) { return os.Open(d.path(name)) }

func (d dirFS) ReadFile(name string) ([]byte, error) {
	data, err := os.ReadFile(d.path(name))
	if err != nil {
		// Name the file as the rule author wrote it, not as this folder sees it.
		if pe, ok := err.(*fs.PathError); ok {
			pe.Path = name
		}
	}
	return data, err
}

// relocate makes diagnostic positions name files as the user named the main file: folder/name.
func relocate(diags drr.Diagnostics, dir string) drr.Diagnostics {
	if dir == "." || dir == "" {
		return diags
	}
	for _, d := range diags {
		if d.Pos.Filename != "" && !filepath.IsAbs(d.Pos.Filename) {
			d.Pos.Filename = filepath.Join(dir, filepath.FromSlash(d.Pos.Filename))
		}
	}
	return diags
}
