package lsp

import (
	"encoding/json"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/lsp/protocol"
)

// publishLoop publishes the diagnostics of document d: after each change, once no further change has come for the
// debounce delay, it checks the latest version and publishes its diagnostics, unless a newer version arrived
// meanwhile (that version is checked next). It ends when the document is closed or the server stops.
func (s *Server) publishLoop(d *document) {
	for {
		select {
		case <-d.kick:
		case <-d.closed:
			return
		case <-s.ctx.Done():
			return
		}
		t := time.NewTimer(s.opts.Debounce)
	debounce:
		for {
			select {
			case <-d.kick:
				t.Reset(s.opts.Debounce)
			case <-t.C:
				break debounce
			case <-d.closed:
				t.Stop()
				return
			case <-s.ctx.Done():
				t.Stop()
				return
			}
		}
		snap := d.current()
		res, err := snap.checked(s.ctx)
		if err == errContentModified {
			continue // replaced before its check started: the newer version's change is pending
		}
		if err != nil {
			return // the server stops
		}
		select {
		case <-d.closed:
			return
		default:
		}
		if d.current() != snap {
			continue // stale: the newer version's change is pending
		}
		version := snap.version
		s.notify(protocol.MethodPublishDiagnostics, &protocol.PublishDiagnosticsParams{
			URI: d.uri, Version: &version, Diagnostics: snap.protocolDiagnostics(res.diags)})
	}
}

// diagnosticData is what a diagnostic carries for its quick fix: the text that replaces the diagnostic's range.
type diagnosticData struct {
	Replace string `json:"replace"`
}

// protocolDiagnostics converts drrc check's diagnostics to the protocol's. A diagnostic's range is the token it
// points at. A diagnostic in an imported file is shown at the import that brings the file in, with the place in
// that file as related information.
func (s *snapshot) protocolDiagnostics(ds diag.Diagnostics) []protocol.Diagnostic {
	out := []protocol.Diagnostic{}
	for _, d := range ds {
		pd := protocol.Diagnostic{Severity: severity(d.Severity), Source: "drrc", Message: d.Message}
		if d.Pos.Filename == s.doc.name || d.Pos.Filename == "" {
			start := s.diagOffset(d.Pos)
			pd.Range = s.lines.rng(start, s.tokenEnd(start))
			if fix, ok := suggestion(d.Message); ok {
				pd.Data, _ = json.Marshal(diagnosticData{Replace: fix})
			}
		} else {
			pd.Range = s.importRange(d.Pos.Filename)
			pd.Message = "in " + d.Error()
			pd.RelatedInformation = []protocol.DiagnosticRelatedInformation{{
				Location: protocol.Location{URI: pathToURI(d.Pos.Filename), Range: s.doc.srv.otherFileRange(d.Pos)},
				Message:  d.Message,
			}}
		}
		out = append(out, pd)
	}
	return out
}

func severity(s diag.Severity) protocol.DiagnosticSeverity {
	switch s {
	case diag.Warning:
		return protocol.SeverityWarning
	case diag.Note:
		return protocol.SeverityInformation
	}
	return protocol.SeverityError
}

// diagOffset returns the byte offset of a diagnostic position of this document. Positions of the parser and the
// checker have an offset; those of the lint only a line and a column (in bytes).
func (s *snapshot) diagOffset(p diag.Position) int {
	if p.Line == 0 {
		return 0
	}
	if p.Offset > 0 && p.Offset <= len(s.text) {
		return p.Offset
	}
	return s.lines.fromLineCol(p.Line, p.Column)
}

// importRange returns the range of the import declaration that brings in file name (directly, or through the
// files it imports: then the first import).
func (s *snapshot) importRange(name string) protocol.Range {
	f, _ := s.parsed()
	if f == nil || len(f.Imports) == 0 {
		return s.lines.rng(0, 0)
	}
	imp := f.Imports[0]
	for _, i := range f.Imports {
		if i.Path != nil && s.doc.srv.resolveImport(s.doc.name, i.Path.Value) == filepath.Clean(name) {
			imp = i
			break
		}
	}
	return s.lines.rng(imp.Pos().Offset, imp.End().Offset)
}

// resolveImport resolves an import path as drr.Load does: relative to the importing file (in Options.FS when it is
// set).
func (srv *Server) resolveImport(from, imp string) string {
	if srv.opts.FS != nil {
		if path.IsAbs(imp) {
			return imp[1:]
		}
		return path.Join(path.Dir(from), imp)
	}
	if filepath.IsAbs(imp) {
		return filepath.Clean(imp)
	}
	return filepath.Join(filepath.Dir(from), imp)
}

// otherFileRange returns the range of a diagnostic in a file that is not the document (an import).
func (srv *Server) otherFileRange(p diag.Position) protocol.Range {
	src, err := srv.readFile(p.Filename)
	if err != nil || p.Line == 0 {
		line := uint32(max(p.Line-1, 0))
		return protocol.Range{Start: protocol.Position{Line: line}, End: protocol.Position{Line: line}}
	}
	li := newLineIndex(string(src), protocol.UTF16)
	off := li.fromLineCol(p.Line, p.Column)
	return li.rng(off, off)
}

// tokens returns the lexical tokens of the document (made once per version).
func (s *snapshot) tokens() []drr.Token {
	s.tokOnce.Do(func() { s.toks = drr.Tokens(s.doc.name, []byte(s.text)) })
	return s.toks
}

// tokenAt returns the index of the token that contains byte offset off (start <= off < end), or -1.
func (s *snapshot) tokenAt(off int) int {
	toks := s.tokens()
	i := sort.Search(len(toks), func(i int) bool { return toks[i].Pos.Offset > off }) - 1
	if i >= 0 && off < toks[i].End().Offset {
		return i
	}
	return -1
}

// tokenEnd returns the end of the token that starts at (or contains) off, or of the character at off when no
// token does; the end of the line when off is at it.
func (s *snapshot) tokenEnd(off int) int {
	if i := s.tokenAt(off); i >= 0 {
		return s.tokens()[i].End().Offset
	}
	if off < len(s.text) && s.text[off] != '\n' && s.text[off] != '\r' {
		return off + 1
	}
	return off
}

var (
	didYouMeanRe = regexp.MustCompile(`did you mean '?([^'?]+)'?\?`)
	dialectRe    = regexp.MustCompile(`ops are written with their dialect: ([A-Za-z_][\w.]*)\)`)
)

// suggestion returns the replacement a diagnostic suggests ("… (did you mean pd_op.relu?)"), if it has one.
func suggestion(msg string) (string, bool) {
	if m := didYouMeanRe.FindStringSubmatch(msg); m != nil {
		return strings.TrimSpace(m[1]), true
	}
	if m := dialectRe.FindStringSubmatch(msg); m != nil {
		return m[1], true
	}
	return "", false
}
