package drr

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/internal/fileio"
	"github.com/pirdrr/drr/ir"
)

// DefaultMaxFileSize is the size limit of a rule file, and of each file it imports, unless LoadOptions.MaxFileSize
// sets another (drrc's -max-file-size): a larger file is an error, as is anything but a regular file (a device such
// as /dev/zero, a FIFO), which could be endless or never end.
const DefaultMaxFileSize = 64 << 20

// LoadOptions configure Load.
type LoadOptions struct {
	CheckOptions
	// FS, if set, is where rule files and their imports are read from (paths are slash-separated and relative to
	// it; an absolute import is relative to its root); otherwise the operating system's files are read.
	FS fs.FS
	// Without FS: Dir, if set, is the directory relative names are read from instead of the working directory, and
	// Files holds files read from memory instead of disk, by the names Load resolves (relative names relative to
	// Dir). drrtest gives an archive's rule files so, with the archive's folder as Dir: an archive's imports of
	// files beside it read the real files, and diagnostics name files as the archive and its imports do.
	Dir   string
	Files map[string][]byte
	// MaxFileSize is the size limit of each rule file read (0: DefaultMaxFileSize).
	MaxFileSize int64
}

// maxFileSize returns the size limit of a rule file.
func (o LoadOptions) maxFileSize() int64 {
	if o.MaxFileSize > 0 {
		return o.MaxFileSize
	}
	return DefaultMaxFileSize
}

// Load reads the rule files at paths and everything they import, checks them against ctx and returns the rule set.
// Imports are resolved relative to the importing file and read once each; imported rules come before the rules of
// the file that imports them. The diagnostics (errors and warnings, sorted) are returned in both cases; the set is
// nil when there are errors.
func Load(ctx *ir.Context, opts LoadOptions, paths ...string) (*rule.Set, diag.Diagnostics) {
	l := &loader{opts: opts, seen: map[string]bool{}, loading: map[string]bool{}}
	for _, p := range paths {
		l.load(p, diag.Position{})
	}
	if l.diags.HasErrors() {
		l.diags.Sort()
		return nil, l.diags
	}
	set, diags := Check(ctx, l.files, opts.CheckOptions)
	return set, append(l.diags, diags...)
}

// LoadSource checks one rule file given as source text (its imports are read as Load reads them).
func LoadSource(ctx *ir.Context, opts LoadOptions, filename string, src []byte) (*rule.Set, diag.Diagnostics) {
	l := &loader{opts: opts, seen: map[string]bool{filename: true}, loading: map[string]bool{}}
	l.parse(filename, src)
	if l.diags.HasErrors() {
		l.diags.Sort()
		return nil, l.diags
	}
	set, diags := Check(ctx, l.files, opts.CheckOptions)
	return set, append(l.diags, diags...)
}

type loader struct {
	opts    LoadOptions
	files   []*File
	diags   diag.Diagnostics
	seen    map[string]bool
	loading map[string]bool
}

// read reads a rule file: a regular file within the size limit.
func (l *loader) read(name string) ([]byte, error) {
	if l.opts.FS != nil {
		return fileio.ReadFileFS(l.opts.FS, name, l.opts.maxFileSize())
	}
	if src, ok := l.opts.Files[name]; ok {
		return src, nil
	}
	if l.opts.Dir != "" && !filepath.IsAbs(name) {
		name = filepath.Join(l.opts.Dir, name)
	}
	return fileio.ReadFile(name, l.opts.maxFileSize())
}

func (l *loader) load(name string, from diag.Position) {
	if l.loading[name] {
		l.diags = append(l.diags, diag.Errorf(from, "import cycle: %s imports itself", name))
		return
	}
	if l.seen[name] {
		return
	}
	l.seen[name] = true
	src, err := l.read(name)
	if err != nil {
		msg := err.Error()
		var pe *fs.PathError
		var tl *fileio.TooLargeError
		var nr *fileio.NotRegularError
		switch {
		case errors.As(err, &pe):
			msg = pe.Err.Error()
		case errors.As(err, &tl):
			msg = fmt.Sprintf("it is larger than %s, the size limit of rule files (-max-file-size raises it)", fileio.FormatSize(tl.Limit))
		case errors.As(err, &nr):
			msg = strings.TrimPrefix(nr.Error(), nr.Name+": ")
		}
		pos := from
		if pos.Filename == "" {
			pos = diag.Position{Filename: name}
		}
		l.diags = append(l.diags, diag.Errorf(pos, "cannot read %s: %s", name, msg))
		return
	}
	l.loading[name] = true
	l.parse(name, src)
	delete(l.loading, name)
}

func (l *loader) parse(name string, src []byte) {
	f, err := Parse(name, src)
	if err != nil {
		var ds diag.Diagnostics
		if errors.As(err, &ds) {
			l.diags = append(l.diags, ds...)
		} else {
			l.diags = append(l.diags, diag.Errorf(diag.Position{Filename: name, Line: 1, Column: 1}, "%v", err))
		}
		return
	}
	// Imports first, so their rules come before this file's.
	l.loading[name] = true
	for _, imp := range f.Imports {
		l.load(l.resolve(name, imp.Path.Value), imp.Pos())
	}
	delete(l.loading, name)
	l.files = append(l.files, f)
}

func (l *loader) resolve(from, imp string) string {
	if l.opts.FS != nil {
		if path.IsAbs(imp) {
			return imp[1:]
		}
		return path.Join(path.Dir(from), imp)
	}
	if filepath.IsAbs(imp) {
		return imp
	}
	return filepath.Join(filepath.Dir(from), imp)
}
