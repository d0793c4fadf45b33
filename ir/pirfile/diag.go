package pirfile

import (
	"errors"
	"os"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
)

// diagnoser is an error that carries positioned diagnostics (pirtext.Error, pirjson.Error).
type diagnoser interface {
	error
	Diagnostics() diag.Diagnostics
}

// DiagnosticsOf returns the diagnostics an error of a reader carries (also when wrapped): a positioned error of
// pirtext or pirjson, or any error with a `Diagnostics() diag.Diagnostics` method. ok is false for other errors
// (a file that cannot be opened, …).
func DiagnosticsOf(err error) (ds diag.Diagnostics, ok bool) {
	if err == nil {
		return nil, false
	}
	if d, isDiags := err.(diag.Diagnostics); isDiags {
		return d, true
	}
	var d diagnoser
	if errors.As(err, &d) {
		return d.Diagnostics(), true
	}
	return nil, false
}

// Sources returns the contents of the files diagnostics point into, reading each from disk once; known gives the
// contents of names that are not files ("<stdin>") or that were read already. A file that cannot be read has no
// contents (its diagnostics print without a source line).
func Sources(known map[string][]byte) func(file string) []byte {
	cache := map[string][]byte{}
	for k, v := range known {
		cache[k] = v
	}
	return func(file string) []byte {
		if src, ok := cache[file]; ok {
			return src
		}
		src, _ := os.ReadFile(file)
		cache[file] = src
		return src
	}
}

// Render renders program diagnostics as drrc prints them: each one as file:line:col: severity: message, the source
// line and a caret under the column (diag.Diagnostic.Render). Where a diagnostic names no path and its file's format
// can Locate positions, the path of the element is added: the JSON Pointer of the op in a PIR JSON file, whose one
// line says little by itself. source gives the contents of a file (see Sources).
func (r *Registry) Render(ds diag.Diagnostics, source func(file string) []byte) string {
	ds = r.Locate(ds, source)
	var b strings.Builder
	lines := map[string]*diag.Lines{} // one index a file: a malformed program can have thousands of diagnostics
	for _, d := range ds {
		if d.Pos.Filename == "" || !d.Pos.IsValid() {
			b.WriteString(d.Render(nil))
			continue
		}
		l := lines[d.Pos.Filename]
		if l == nil {
			l = diag.NewLines(source(d.Pos.Filename))
			lines[d.Pos.Filename] = l
		}
		b.WriteString(d.RenderLines(l))
	}
	return b.String()
}

// Locate returns ds with Path set, where it was empty, to the element each position falls in, for files whose
// format has Locate. ds is not changed.
func (r *Registry) Locate(ds diag.Diagnostics, source func(file string) []byte) diag.Diagnostics {
	out := append(diag.Diagnostics(nil), ds...)
	byFile := map[string][]int{}
	var files []string
	for i, d := range out {
		if file := d.Pos.Filename; d.Path == "" && file != "" && d.Pos.IsValid() {
			if _, seen := byFile[file]; !seen {
				files = append(files, file)
			}
			byFile[file] = append(byFile[file], i)
		}
	}
	for _, file := range files {
		src := source(file)
		f := r.DetectContent(file, src)
		if f == nil || f.Locate == nil || len(src) == 0 {
			continue
		}
		idx := byFile[file]
		locs := make([]ir.Loc, len(idx))
		for k, i := range idx {
			locs[k] = ir.Loc{Line: int32(out[i].Pos.Line), Col: int32(out[i].Pos.Column)}
		}
		for k, path := range f.Locate(src, locs) {
			out[idx[k]].Path = path
		}
	}
	return out
}

// Render renders program diagnostics with the standard formats (see Registry.Render).
func Render(ds diag.Diagnostics, source func(file string) []byte) string {
	return std().Render(ds, source)
}
