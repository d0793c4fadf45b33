package lsp

import (
	"context"
	"sync"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/lsp/protocol"
)

func init() {
	methods[protocol.MethodDidOpen] = on(didOpen)
	methods[protocol.MethodDidChange] = on(didChange)
	methods[protocol.MethodDidClose] = on(didClose)
	methods[protocol.MethodDidSave] = on(func(s *Server, ctx context.Context, p *protocol.DidSaveTextDocumentParams) (any, error) {
		// An imported file may have been saved: check the open documents again, reading their imports anew.
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, d := range s.docs {
			d.mu.Lock()
			d.snap = newSnapshot(d, d.snap.version, d.snap.text, d.snap.lines.enc)
			d.mu.Unlock()
			d.recheck()
		}
		return nil, nil
	})
}

// document is a .drr file the client has open. Its text and version change with every didChange; each version
// is a snapshot, analysed on demand. A goroutine per document publishes the diagnostics of the latest version a
// short while (the debounce) after the changes stop.
type document struct {
	srv      *Server
	uri      protocol.DocumentURI
	name     string // the file name of diagnostics and imports
	reparser *drr.Reparser

	mu   sync.Mutex
	snap *snapshot

	checkMu sync.Mutex // held while a snapshot of the document is checked: one check at a time

	kick   chan struct{} // a change to check (buffered: one pending check is enough)
	closed chan struct{}
	once   sync.Once
}

func didOpen(s *Server, ctx context.Context, p *protocol.DidOpenTextDocumentParams) (any, error) {
	uri := p.TextDocument.URI
	name, _ := uriToPath(uri)
	s.mu.Lock()
	if old := s.docs[uri]; old != nil {
		old.close()
	}
	d := &document{srv: s, uri: uri, name: name, reparser: drr.NewReparser(name),
		kick: make(chan struct{}, 1), closed: make(chan struct{})}
	d.snap = newSnapshot(d, p.TextDocument.Version, p.TextDocument.Text, s.enc)
	s.docs[uri] = d
	s.mu.Unlock()
	go s.publishLoop(d)
	d.recheck()
	return nil, nil
}

func didChange(s *Server, ctx context.Context, p *protocol.DidChangeTextDocumentParams) (any, error) {
	d := s.document(p.TextDocument.URI)
	if d == nil {
		return nil, errorf("%s is not open", p.TextDocument.URI)
	}
	d.mu.Lock()
	text := d.snap.text
	for _, c := range p.ContentChanges {
		if c.Range == nil {
			text = c.Text
			continue
		}
		li := newLineIndex(text, d.snap.lines.enc)
		start, end := li.offset(c.Range.Start), li.offset(c.Range.End)
		if end < start {
			start, end = end, start
		}
		text = text[:start] + c.Text + text[end:]
	}
	d.snap = newSnapshot(d, p.TextDocument.Version, text, d.snap.lines.enc)
	d.mu.Unlock()
	d.recheck()
	return nil, nil
}

func didClose(s *Server, ctx context.Context, p *protocol.DidCloseTextDocumentParams) (any, error) {
	s.mu.Lock()
	d := s.docs[p.TextDocument.URI]
	delete(s.docs, p.TextDocument.URI)
	delete(s.lastApplied, p.TextDocument.URI)
	s.mu.Unlock()
	if d != nil {
		d.close()
		// The problems of a closed file are no longer shown.
		s.notify(protocol.MethodPublishDiagnostics, &protocol.PublishDiagnosticsParams{URI: d.uri, Diagnostics: []protocol.Diagnostic{}})
	}
	return nil, nil
}

// document returns the open document with the given URI, or nil.
func (s *Server) document(uri protocol.DocumentURI) *document {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.docs[uri]
}

// snapshot returns the latest version of an open document.
func (s *Server) snapshot(uri protocol.DocumentURI) (*snapshot, error) {
	d := s.document(uri)
	if d == nil {
		return nil, errorf("%s is not open", uri)
	}
	return d.current(), nil
}

// current returns the document's latest snapshot.
func (d *document) current() *snapshot {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.snap
}

// recheck asks for the document's diagnostics to be published again.
func (d *document) recheck() {
	select {
	case d.kick <- struct{}{}:
	default: // a check is pending already; it will see the latest version
	}
}

func (d *document) close() {
	d.once.Do(func() { close(d.closed) })
}
