package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"
	"time"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/internal/fileio"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/lsp/jsonrpc2"
	"github.com/pirdrr/drr/lsp/protocol"
	"github.com/pirdrr/drr/rewriter"
)

// DefaultDebounce is how long the server waits after a change before it checks the document: changes typed
// faster than that are checked once.
const DefaultDebounce = 15 * time.Millisecond

// Options configure a Server.
type Options struct {
	// Context holds the op catalogs rules are checked against (required).
	Context *ir.Context
	// Check are the checker's options, as drrc check's flags set them (-unregistered).
	Check drr.CheckOptions
	// NoLint turns the rule-set lint off (drrc check -lint=false); by default the server reports what drrc check
	// reports.
	NoLint bool
	// Registry holds the native functions and passes the "apply to…" command runs rules with (nil: none).
	Registry *rewriter.Registry
	// Formats are the program formats "apply to…" reads (nil: pirfile.Standard()).
	Formats *pirfile.Registry
	// Debounce is the delay between a change and the check that publishes its diagnostics (0: DefaultDebounce).
	Debounce time.Duration
	// Logf receives what the server logs (malformed messages, internal errors); nil discards it.
	Logf func(format string, args ...any)
	// Version is reported to the client in serverInfo.
	Version string
	// FS, if set, is the only place files are read from: the imports of documents (slash-separated paths relative
	// to it, as drr.LoadOptions.FS resolves them), the imported files that hover, go to definition and diagnostics
	// quote; and "apply to…", which reads programs from the operating system, is refused. A host that serves the
	// language server to a browser (drrc serve) sets it so that a document cannot read the host's files. Nil reads
	// the operating system's files.
	FS fs.FS
	// MaxFileSize is the size limit of a file the server reads (an import; 0: drr.DefaultMaxFileSize); only
	// regular files are read.
	MaxFileSize int64
}

// Server is a language server for .drr files. Create one with NewServer and run it with Serve.
type Server struct {
	opts Options
	conn *jsonrpc2.Conn
	ctx  context.Context // ends when Serve returns

	mu          sync.Mutex
	state       serverState
	enc         protocol.PositionEncodingKind
	docs        map[protocol.DocumentURI]*document
	lastApplied map[protocol.DocumentURI]*applyReport // the last "apply to…" of each document, for its code lens
	exitEarly   bool                                  // exit came before shutdown (Serve's ErrExitWithoutShutdown)

	// testHookCheck, if set, runs at the start of every check (tests hold a check back with it).
	testHookCheck func(version int32)
	// testFullParse makes every version parse from scratch (drr.Parse), for benchmarks against the Reparser.
	testFullParse bool
}

type serverState int

const (
	stateNew serverState = iota
	stateRunning
	stateShutDown
)

// NewServer returns a server with the given options.
func NewServer(opts Options) *Server {
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultDebounce
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	if opts.Registry == nil {
		opts.Registry = rewriter.NewRegistry()
	}
	if opts.Formats == nil {
		opts.Formats = pirfile.Standard()
	}
	return &Server{opts: opts, enc: protocol.UTF16, docs: map[protocol.DocumentURI]*document{},
		lastApplied: map[protocol.DocumentURI]*applyReport{}}
}

// Serve runs the protocol over in and out (the client's stdout and stdin) until the client sends exit or closes
// its end. A malformed message is logged and answered with an error; the server lives on. An exit before shutdown
// ends it with ErrExitWithoutShutdown.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.ctx = ctx
	s.conn = jsonrpc2.NewConn(in, out, s.opts.Logf)
	s.conn.HandleInOrder(protocol.MethodInitialize, protocol.MethodShutdown)
	err := s.conn.Serve(ctx, s.handle)
	cancel()
	s.mu.Lock()
	for _, d := range s.docs {
		d.close()
	}
	early := s.exitEarly
	s.mu.Unlock()
	if err == nil && early {
		return ErrExitWithoutShutdown
	}
	return err
}

// ErrExitWithoutShutdown is what Serve returns when the client sent exit without shutdown first: the protocol
// asks the server process to exit with status 1 then (drrc lsp does).
var ErrExitWithoutShutdown = errors.New("the client sent exit without shutdown")

// handlerFunc handles one method's decoded parameters.
type handlerFunc func(s *Server, ctx context.Context, params json.RawMessage) (any, error)

// on adapts a typed handler: the parameters are decoded into P, and a decoding error is an InvalidParams error.
func on[P any](f func(s *Server, ctx context.Context, p *P) (any, error)) handlerFunc {
	return func(s *Server, ctx context.Context, raw json.RawMessage) (any, error) {
		var p P
		if len(raw) > 0 && string(raw) != "null" {
			if err := json.Unmarshal(raw, &p); err != nil {
				return nil, jsonrpc2.Errorf(jsonrpc2.CodeInvalidParams, "invalid parameters: %v", err)
			}
		}
		return f(s, ctx, &p)
	}
}

// methods maps the methods the server handles to their handlers; the features register themselves here from
// their files' init functions.
var methods = map[string]handlerFunc{}

// handle dispatches one request or notification.
func (s *Server) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	switch req.Method {
	case protocol.MethodInitialize:
		if state != stateNew {
			return nil, jsonrpc2.Errorf(jsonrpc2.CodeInvalidRequest, "initialize was already received")
		}
		return on(initialize)(s, ctx, req.Params)
	case protocol.MethodExit:
		if state != stateShutDown {
			s.mu.Lock()
			s.exitEarly = true
			s.mu.Unlock()
		}
		return nil, jsonrpc2.ErrStop
	}
	if state == stateNew {
		if req.IsNotification() {
			return nil, nil // the protocol says to drop notifications before initialize
		}
		return nil, jsonrpc2.Errorf(jsonrpc2.CodeServerNotInitialized, "the server is not initialized")
	}
	if state == stateShutDown && !req.IsNotification() {
		return nil, jsonrpc2.Errorf(jsonrpc2.CodeInvalidRequest, "the server is shut down")
	}
	h, ok := methods[req.Method]
	if !ok {
		if req.IsNotification() {
			return nil, nil // $/setTrace, workspace/didChangeConfiguration, …: nothing to do
		}
		return nil, jsonrpc2.Errorf(jsonrpc2.CodeMethodNotFound, "method %s is not supported", req.Method)
	}
	return h(s, ctx, req.Params)
}

// readFile reads a file a document refers to (an import): from Options.FS when it is set, else from disk.
func (s *Server) readFile(name string) ([]byte, error) {
	limit := s.opts.MaxFileSize
	if limit <= 0 {
		limit = drr.DefaultMaxFileSize
	}
	if s.opts.FS != nil {
		return fileio.ReadFileFS(s.opts.FS, name, limit)
	}
	return fileio.ReadFile(name, limit)
}

// notify sends a notification to the client, logging a failure to write.
func (s *Server) notify(method string, params any) {
	if err := s.conn.Notify(method, params); err != nil {
		s.opts.Logf("sending %s: %v", method, err)
	}
}

// errorf returns a request error in the user's terms (the client shows it).
func errorf(format string, args ...any) error {
	return jsonrpc2.Errorf(jsonrpc2.CodeRequestFailed, "%s", fmt.Sprintf(format, args...))
}
