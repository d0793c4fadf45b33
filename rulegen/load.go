package rulegen

import (
	"errors"
	"io/fs"
	"path/filepath"
	"sort"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/internal/fileio"
	"github.com/pirdrr/drr/rulegen/rt"
)

// recordFS serves rule files from another fs.FS and remembers every file read, to embed them in the generated
// code.
type recordFS struct {
	fsys  fs.FS
	files map[string]string
	limit int64 // the size limit of a rule file (drr.LoadOptions.MaxFileSize)
}

func (r *recordFS) Open(name string) (fs.File, error) {
	data, err := r.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return rt.FilesFS([]rt.File{{Name: name, Text: string(data)}}).Open(name)
}

func (r *recordFS) ReadFile(name string) ([]byte, error) {
	limit := r.limit
	if limit <= 0 {
		limit = drr.DefaultMaxFileSize
	}
	data, err := fileio.ReadFileFS(r.fsys, name, limit) // a regular file within the limit, as drr.Load reads
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

// Open opens a regular file (fileio.Open: a FIFO is refused without waiting for a writer).
func (d dirFS) Open(name string) (fs.File, error) {
	f, _, err := fileio.Open(d.path(name), 0)
	if err != nil {
		// Name the file as the rule author wrote it, not as this folder sees it.
		var pe *fs.PathError
		var nr *fileio.NotRegularError
		switch {
		case errors.As(err, &pe):
			pe.Path = name
		case errors.As(err, &nr):
			nr.Name = name
		}
		return nil, err
	}
	return f, nil
}

// relocate makes diagnostic positions name files as the user named the main file: folder/name.
func relocate(diags diag.Diagnostics, dir string) diag.Diagnostics {
	if dir == "." || dir == "" {
		return diags
	}
	for i, d := range diags {
		if d.Pos.Filename != "" && !filepath.IsAbs(d.Pos.Filename) {
			diags[i].Pos.Filename = filepath.Join(dir, filepath.FromSlash(d.Pos.Filename))
		}
	}
	return diags
}
