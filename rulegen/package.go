package rulegen

import (
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
)

// GeneratePackage generates a Go package of rule passes: one pass per rule file at paths (each read from fsys with
// its imports, named by its file, with the factory DefaultFunc names), and the index listing them. It returns the
// package's files by name: the pass's name followed by ".go", and IndexFile. The passes share the functions of the
// rules they import from each other's files (Shared): a rule's function is written once, in the pass of the file
// that declares it. cfg's Name and Func are set per file. Nothing is returned when a file has errors; the
// diagnostics are every file's.
func GeneratePackage(ctx *ir.Context, fsys fs.FS, paths []string, cfg Config) (map[string][]byte, diag.Diagnostics) {
	cfg.Shared = NewShared()
	configs := make([]Config, len(paths))
	for i, p := range paths {
		configs[i] = cfg
		configs[i].Name = strings.TrimSuffix(path.Base(p), ".drr")
		configs[i].Func = DefaultFunc(configs[i].Name)
	}
	// The first round records every pass's functions; a pass written before the pass of a file it imports would
	// otherwise write its own copies. Its diagnostics are the second round's.
	for i, p := range paths {
		Generate(ctx, fsys, []string{p}, configs[i])
	}
	files := map[string][]byte{}
	funcs := map[string]string{}
	var diags diag.Diagnostics
	failed := false
	for i, p := range paths {
		code, d := Generate(ctx, fsys, []string{p}, configs[i])
		diags = append(diags, d...)
		if d.HasErrors() {
			failed = true
			continue
		}
		name := configs[i].Name
		if name+".go" == IndexFile {
			return nil, append(diags, diag.Errorf(diag.Position{Filename: p}, "the rule file's pass would be written "+
				"over the index %s: rename it", IndexFile))
		}
		files[name+".go"] = code
		funcs[name] = configs[i].Func
	}
	if failed {
		return nil, diags
	}
	index, err := Index(cfg.Package, funcs)
	if err != nil {
		return nil, append(diags, diag.Errorf(diag.Position{}, "%v", err))
	}
	files[IndexFile] = index
	return files, diags
}

// GenerateDir is GeneratePackage for the rule files of the operating system's folder dir named by names;
// diagnostics name the files as dir does.
func GenerateDir(ctx *ir.Context, dir string, names []string, cfg Config) (map[string][]byte, diag.Diagnostics) {
	for _, n := range names {
		if n != filepath.Base(n) {
			return nil, diag.Diagnostics{diag.Errorf(diag.Position{}, "%s: not a file name of the folder %s", n, dir)}
		}
	}
	files, diags := GeneratePackage(ctx, dirFS(dir), names, cfg)
	return files, relocate(diags, dir)
}
