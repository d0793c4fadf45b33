package lsp

import (
	"context"
	"sync"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/lint"
	"github.com/pirdrr/drr/lsp/jsonrpc2"
	"github.com/pirdrr/drr/lsp/protocol"
)

// snapshot is one version of a document and what is known of it. The parse (incremental, a few milliseconds) is
// made on first use; the check (the checker and the lint, as drrc check runs them) on a goroutine of its own,
// which requests wait for with their context, so that a cancelled request does not wait and the check is still
// done once. A document checks one snapshot at a time; a snapshot that a newer version replaced before its check
// could start is not checked at all, and whoever waits for it is told the content was modified (the protocol's
// ContentModified: the client asks again), so that a burst of changes during a long check costs one more check,
// not one per change.
type snapshot struct {
	doc     *document
	version int32
	text    string
	lines   *lineIndex

	parseOnce  sync.Once
	file       *drr.File
	parseDiags diag.Diagnostics // syntax errors

	indexOnce sync.Once
	idx       *index

	tokOnce sync.Once
	toks    []drr.Token

	checkOnce sync.Once
	checkDone chan struct{}
	check     *checkResult // nil when the snapshot was replaced before its check started
}

// errContentModified answers a request that waited for the check of a version a newer one replaced.
var errContentModified = jsonrpc2.Errorf(jsonrpc2.CodeContentModified, "the document changed; ask again")

// checkResult is what drrc check reports on a version, and what the checker built.
type checkResult struct {
	diags diag.Diagnostics // sorted, errors and warnings, lint included
	set   *rule.Set        // nil when there are errors
	files []*drr.File      // the files checked: imports first, then the document's
}

func newSnapshot(d *document, version int32, text string, enc protocol.PositionEncodingKind) *snapshot {
	return &snapshot{doc: d, version: version, text: text, lines: newLineIndex(text, enc), checkDone: make(chan struct{})}
}

// parsed returns the document's syntax tree (with syntax errors, the declarations that parse) and its syntax
// errors.
func (s *snapshot) parsed() (*drr.File, diag.Diagnostics) {
	s.parseOnce.Do(func() {
		var f *drr.File
		var err error
		if s.doc.srv.testFullParse {
			f, err = drr.Parse(s.doc.name, []byte(s.text))
		} else {
			f, err = s.doc.reparser.Parse([]byte(s.text))
		}
		s.file = f
		if ds, ok := err.(diag.Diagnostics); ok {
			s.parseDiags = ds
		} else if err != nil {
			s.parseDiags = diag.Diagnostics{{Pos: diag.Position{Filename: s.doc.name, Line: 1, Column: 1}, Message: err.Error()}}
		}
	})
	return s.file, s.parseDiags
}

// index returns the symbol index of the document's syntax tree.
func (s *snapshot) index() *index {
	s.indexOnce.Do(func() {
		f, _ := s.parsed()
		s.idx = buildIndex(f, s.text)
	})
	return s.idx
}

// checked returns the check of this version, waiting for it (or for ctx).
func (s *snapshot) checked(ctx context.Context) (*checkResult, error) {
	s.checkOnce.Do(func() {
		go func() {
			defer close(s.checkDone)
			s.check = s.runCheck()
		}()
	})
	select {
	case <-s.checkDone:
		if s.check == nil {
			return nil, errContentModified
		}
		return s.check, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// checkedNow returns the check of this version if it is done (and was made), or nil.
func (s *snapshot) checkedNow() *checkResult {
	select {
	case <-s.checkDone:
		return s.check
	default:
		return nil
	}
}

// runCheck checks the document as drrc check does: syntax errors alone if there are any; otherwise the checker's
// diagnostics with its imports, and, when the rules check, the lint's findings as warnings.
func (s *snapshot) runCheck() (res *checkResult) {
	srv := s.doc.srv
	s.doc.checkMu.Lock()
	defer s.doc.checkMu.Unlock()
	if s.doc.current() != s {
		return nil // replaced while an older version was being checked: not worth checking
	}
	defer func() {
		if r := recover(); r != nil {
			srv.opts.Logf("internal error checking %s: %v", s.doc.name, r)
			res = &checkResult{diags: diag.Diagnostics{{Pos: diag.Position{Filename: s.doc.name, Line: 1, Column: 1},
				Message: "internal error in the checker (see the server's log)"}}}
		}
	}()
	if srv.testHookCheck != nil {
		srv.testHookCheck(s.version)
	}
	f, perr := s.parsed()
	if len(perr) > 0 {
		return &checkResult{diags: perr}
	}
	set, files, diags := drr.LoadFile(srv.opts.Context, drr.LoadOptions{CheckOptions: srv.opts.Check, FS: srv.opts.FS,
		MaxFileSize: srv.opts.MaxFileSize}, f)
	if set != nil && !srv.opts.NoLint {
		diags = append(diags, lint.Diagnostics(set)...)
		diags.Sort()
	}
	return &checkResult{diags: diags, set: set, files: files}
}
