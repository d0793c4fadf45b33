package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/golden"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/lsp/jsonrpc2"
	"github.com/pirdrr/drr/lsp/protocol"
)

func init() { golden.Register() }

// testCtx is the op catalog the tests check rules against (loaded once).
var testCtx = sync.OnceValue(func() *ir.Context {
	ctx := ir.NewContext()
	if err := ctx.LoadDefaultDialects(); err != nil {
		panic(err)
	}
	return ctx
})

// client drives a Server through the protocol over pipes, as an editor does.
type client struct {
	t     testing.TB
	srv   *Server
	conn  *jsonrpc2.Conn
	raw   io.Writer // the server's input, for malformed messages
	dir   string    // where the test's documents live
	done  chan error
	logMu sync.Mutex
	logs  []string // the server's log
	// clientLogs is what the client's connection logged (responses to requests sent raw, with the raw method).
	clientLogs []string
	mu         sync.Mutex
	diags      map[protocol.DocumentURI][]protocol.PublishDiagnosticsParams
	notes      []protocol.ShowMessageParams
	newMsg     chan struct{}
	calls      []string // methods the server called on the client
}

// startServer starts a server with the given options (Context defaults to the catalogs) and initializes it.
func startServer(t testing.TB, opts Options, configure ...func(*Server)) *client {
	c := newClient(t, opts, configure...)
	var res protocol.InitializeResult
	c.call(protocol.MethodInitialize, protocol.InitializeParams{}, &res)
	c.notify(protocol.MethodInitialized, struct{}{})
	return c
}

// newClient starts a server and connects a client to it, without initializing it.
func newClient(t testing.TB, opts Options, configure ...func(*Server)) *client {
	if opts.Context == nil {
		opts.Context = testCtx()
	}
	c := &client{t: t, dir: t.TempDir(), done: make(chan error, 1),
		diags: map[protocol.DocumentURI][]protocol.PublishDiagnosticsParams{}, newMsg: make(chan struct{}, 1)}
	opts.Logf = func(format string, args ...any) {
		c.logMu.Lock()
		defer c.logMu.Unlock()
		c.logs = append(c.logs, strings.SplitN(fmt.Sprintf(format, args...), "\n", 2)[0])
	}
	c.srv = NewServer(opts)
	for _, f := range configure {
		f(c.srv)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c.raw = inW
	go func() {
		err := c.srv.Serve(context.Background(), inR, outW)
		outW.Close()
		c.done <- err
	}()
	c.conn = jsonrpc2.NewConn(outR, inW, func(format string, args ...any) {
		c.logMu.Lock()
		defer c.logMu.Unlock()
		c.clientLogs = append(c.clientLogs, fmt.Sprintf(format, args...))
	})
	go c.conn.Serve(context.Background(), c.handle)
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-c.done:
		case <-time.After(10 * time.Second):
			t.Error("the server did not stop")
		}
	})
	return c
}

// handle receives what the server sends the client.
func (c *client) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch req.Method {
	case protocol.MethodPublishDiagnostics:
		var p protocol.PublishDiagnosticsParams
		if err := json.Unmarshal(req.Params, &p); err != nil {
			return nil, err
		}
		c.diags[p.URI] = append(c.diags[p.URI], p)
	case protocol.MethodShowMessage:
		var p protocol.ShowMessageParams
		if err := json.Unmarshal(req.Params, &p); err != nil {
			return nil, err
		}
		c.notes = append(c.notes, p)
	default:
		c.calls = append(c.calls, req.Method)
	}
	select {
	case c.newMsg <- struct{}{}:
	default:
	}
	return nil, nil
}

func (c *client) call(method string, params, result any) {
	c.t.Helper()
	require.NoError(c.t, c.callErr(method, params, result), method)
}

func (c *client) callErr(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return c.conn.Call(ctx, method, params, result)
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	require.NoError(c.t, c.conn.Notify(method, params))
}

// uri returns the URI of a document of the test.
func (c *client) uri(name string) protocol.DocumentURI { return pathToURI(filepath.Join(c.dir, name)) }

// path returns the file name of a document of the test.
func (c *client) path(name string) string { return filepath.Join(c.dir, name) }

// write writes a file of the test to disk (imports, programs).
func (c *client) write(name, text string) string {
	c.t.Helper()
	p := c.path(name)
	require.NoError(c.t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(c.t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

func (c *client) open(name, text string) protocol.DocumentURI {
	c.t.Helper()
	uri := c.uri(name)
	c.notify(protocol.MethodDidOpen, protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: uri, LanguageID: "drr", Version: 1, Text: text}})
	return uri
}

// replace sends a change that replaces the whole text.
func (c *client) replace(uri protocol.DocumentURI, version int32, text string) {
	c.t.Helper()
	c.notify(protocol.MethodDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{URI: uri, Version: version},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: text}}})
}

// edit sends an incremental change.
func (c *client) edit(uri protocol.DocumentURI, version int32, r protocol.Range, text string) {
	c.t.Helper()
	c.notify(protocol.MethodDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{URI: uri, Version: version},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Range: &r, Text: text}}})
}

// diagnostics waits for the diagnostics of a version of a document.
func (c *client) diagnostics(uri protocol.DocumentURI, version int32) []protocol.Diagnostic {
	c.t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		c.mu.Lock()
		for _, p := range c.diags[uri] {
			if p.Version != nil && *p.Version == version {
				c.mu.Unlock()
				return p.Diagnostics
			}
		}
		c.mu.Unlock()
		select {
		case <-c.newMsg:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			c.t.Fatalf("no diagnostics for version %d of %s", version, uri)
		}
	}
}

// clientLog returns what the client's connection logged.
func (c *client) clientLog() string {
	c.logMu.Lock()
	defer c.logMu.Unlock()
	return strings.Join(c.clientLogs, "\n")
}

// log returns what the server logged.
func (c *client) log() string {
	c.logMu.Lock()
	defer c.logMu.Unlock()
	return strings.Join(c.logs, "\n")
}

// pos returns the protocol position of the n-th occurrence (from 0) of marker in text, plus delta bytes.
func pos(t testing.TB, text, marker string, n, delta int) protocol.Position {
	t.Helper()
	off := -1
	for i := 0; i <= n; i++ {
		j := strings.Index(text[off+1:], marker)
		require.GreaterOrEqual(t, j, 0, "marker %q", marker)
		off += 1 + j
	}
	return newLineIndex(text, protocol.UTF16).position(off + delta)
}

// textDoc returns the position parameters of a marker in a document.
func textDoc(t testing.TB, uri protocol.DocumentURI, text, marker string, delta int) protocol.TextDocumentPositionParams {
	return protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri},
		Position: pos(t, text, marker, 0, delta)}
}

// diagStrings renders diagnostics as "line:col-line:col severity: message".
func diagStrings(ds []protocol.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		sev := map[protocol.DiagnosticSeverity]string{1: "error", 2: "warning", 3: "info", 4: "hint"}[d.Severity]
		out = append(out, fmt.Sprintf("%d:%d-%d:%d %s: %s", d.Range.Start.Line+1, d.Range.Start.Character+1,
			d.Range.End.Line+1, d.Range.End.Character+1, sev, d.Message))
	}
	return out
}

// jsonRaw is an encoded command argument.
type jsonRaw = json.RawMessage

func mustJSON(t testing.TB, v any) json.RawMessage {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}
