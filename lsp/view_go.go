package lsp

import (
	"context"
	"io/fs"
	"path"
	"path/filepath"

	"github.com/pirdrr/drr/rulegen"
	"github.com/pirdrr/drr/rulegen/rt"
)

// renderGo is drrc gen: the Go code of the document's rules as a compiled pass (package rules), generated from
// the text in the editor, with its imports read as the checker reads them.
func renderGo(ctx context.Context, snap *snapshot, res *checkResult) (string, error) {
	srv := snap.doc.srv
	name := snap.doc.name
	dir, base := path.Dir(name), path.Base(name)
	if srv.opts.FS == nil {
		dir, base = filepath.Split(name)
	}
	docs := &documentFS{srv: srv, dir: dir, base: base, text: snap.text}
	code, diags := rulegen.Generate(srv.opts.Context, docs, []string{base}, rulegen.Config{
		Package:      "rules",
		Unregistered: srv.opts.Check.Unregistered,
		Command:      "drrc gen (the view of the language server)",
	})
	if diags.HasErrors() {
		return "", diags
	}
	return string(code), nil
}

// documentFS serves the document being viewed, as it is in the editor, under its base name, and the files it
// imports from where the server reads them (Options.FS or the operating system, relative to the document).
type documentFS struct {
	srv       *Server
	dir, base string
	text      string
}

func (d *documentFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) { // no "..", no absolute path: imports stay below the document's folder
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	text := d.text
	if name != d.base {
		var full string
		if d.srv.opts.FS != nil {
			full = path.Join(d.dir, name)
		} else {
			full = filepath.Join(d.dir, filepath.FromSlash(name))
		}
		data, err := d.srv.readFile(full)
		if err != nil {
			return nil, err
		}
		text = string(data)
	}
	return rt.FilesFS([]rt.File{{Name: name, Text: text}}).Open(name)
}
