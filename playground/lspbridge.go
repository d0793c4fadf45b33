package playground

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/lsp"
	"github.com/pirdrr/drr/lsp/jsonrpc2"
)

// The editor's language server. Each editor (a page) gets a session: an lsp.Server of its own — the engine of
// drrc lsp, with Options.FS restricting what documents import to the catalogue's rule files and the shipped sets —
// spoken to over HTTP:
//
//	POST   /api/lsp           opens a session: {"session": id}
//	POST   /api/lsp/{id}      sends messages (a JSON-RPC message or an array of them), in order
//	GET    /api/lsp/{id}      the server's messages as server-sent events (EventSource), one per message
//	DELETE /api/lsp/{id}      closes the session
//
// Why not a WebSocket: the standard library has no WebSocket, and the protocol's traffic — small requests from the
// page, a stream of answers and diagnostics back — is what server-sent events and fetch do natively, with no new
// module and no framing code of ours; the page sends one batch at a time, so its messages arrive in order.
//
// Only the methods a browser editor needs are passed on (lspMethods); the others are answered with an error by the
// bridge. A session whose page has gone (no event stream for sessionIdle) is closed.

// lspMethods are the methods (requests and notifications) a page may send.
var lspMethods = map[string]bool{
	"initialize": true, "initialized": true, "shutdown": true, "exit": true, "$/cancelRequest": true,
	"textDocument/didOpen": true, "textDocument/didChange": true, "textDocument/didClose": true,
	"textDocument/hover": true, "textDocument/completion": true, "textDocument/signatureHelp": true,
	"textDocument/documentHighlight": true, "textDocument/documentSymbol": true, "textDocument/inlayHint": true,
	"textDocument/semanticTokens/full": true, "textDocument/formatting": true, "textDocument/codeAction": true,
	"textDocument/definition": true, "textDocument/references": true, "textDocument/rename": true,
	"textDocument/prepareRename": true,
}

const (
	// sessionIdle is how long a session lives without an event stream (the page closed, the machine slept).
	sessionIdle = 2 * time.Minute
	// sessionBacklog bounds the messages waiting for the page; past it the server waits for the page to read.
	sessionBacklog = 1024
	// maxLSPBatch bounds a batch of messages from the page.
	maxLSPBatch = 4 << 20
)

// sessions holds the open sessions.
type sessions struct {
	s    *Server
	mu   sync.Mutex
	byID map[string]*session
}

// session is a language server for one page.
type session struct {
	id     string
	in     *io.PipeWriter // the server's input
	out    chan []byte    // the server's messages for the page
	cancel context.CancelFunc
	done   chan struct{} // closed when the server has stopped

	mu       sync.Mutex
	readers  int       // event streams open
	lastSeen time.Time // when the last event stream closed (or the session opened)
	inMu     sync.Mutex
}

func newSessions(s *Server) *sessions { return &sessions{s: s, byID: map[string]*session{}} }

// open starts a session, closing idle ones first; errBusy when Sessions are open and none is idle.
func (ss *sessions) open() (*session, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.reapLocked()
	if len(ss.byID) >= ss.s.lim.Sessions {
		return nil, fmt.Errorf("%d editors are connected, the most this server takes: %w", len(ss.byID), errBusy)
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	se := &session{id: hex.EncodeToString(b[:]), in: inW, out: make(chan []byte, sessionBacklog), cancel: cancel,
		done: make(chan struct{}), lastSeen: time.Now()}
	o := ss.s.opts
	srv := lsp.NewServer(lsp.Options{Context: o.Context, Check: drr.CheckOptions{Unregistered: o.Unregistered},
		Registry: o.Registry, Formats: ss.s.formats, Version: o.Version, FS: ruleFS{ss.s.files},
		Logf: func(format string, args ...any) { o.Logf("lsp session: "+format, args...) }})
	go func() {
		if err := srv.Serve(ctx, inR, outW); err != nil && !errors.Is(err, context.Canceled) {
			o.Logf("lsp session: %v", err)
		}
		outW.Close()
		inR.Close()
	}()
	go func() {
		defer close(se.done)
		defer close(se.out)
		r := bufio.NewReader(outR)
		for {
			body, err := jsonrpc2.ReadMessage(r)
			if err != nil {
				return
			}
			select {
			case se.out <- body:
			case <-ctx.Done():
				return
			}
		}
	}()
	ss.byID[se.id] = se
	return se, nil
}

// get returns an open session, or nil.
func (ss *sessions) get(id string) *session {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.byID[id]
}

// close ends a session.
func (ss *sessions) close(id string) bool {
	ss.mu.Lock()
	se := ss.byID[id]
	delete(ss.byID, id)
	ss.mu.Unlock()
	if se != nil {
		se.stop()
	}
	return se != nil
}

// closeAll ends every session.
func (ss *sessions) closeAll() {
	ss.mu.Lock()
	all := ss.byID
	ss.byID = map[string]*session{}
	ss.mu.Unlock()
	for _, se := range all {
		se.stop()
	}
}

// reapLocked closes the sessions without an event stream for sessionIdle.
func (ss *sessions) reapLocked() {
	for id, se := range ss.byID {
		se.mu.Lock()
		idle := se.readers == 0 && time.Since(se.lastSeen) > sessionIdle
		se.mu.Unlock()
		select {
		case <-se.done:
			idle = true // the server stopped (the page sent exit)
		default:
		}
		if idle {
			delete(ss.byID, id)
			go se.stop()
		}
	}
}

// stop ends the session's server.
func (se *session) stop() {
	se.cancel()
	se.in.Close()
}

// lspOpen answers POST /api/lsp.
func (s *Server) lspOpen(w http.ResponseWriter, r *http.Request) {
	se, err := s.sessions.open()
	if err != nil {
		writeError(w, statusOf(err), "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"session": se.id})
}

// lspClose answers DELETE /api/lsp/{id}.
func (s *Server) lspClose(w http.ResponseWriter, r *http.Request) {
	if !s.sessions.close(r.PathValue("id")) {
		writeError(w, http.StatusNotFound, "no session %q", r.PathValue("id"))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// wireMessage is what the bridge looks at in a message from the page.
type wireMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
}

// lspSend answers POST /api/lsp/{id}: the messages are checked (JSON-RPC 2.0 objects, methods the page may
// send; responses to the server's requests pass) and written to the server in order. A request for a method the
// page may not send is answered on the event stream with MethodNotFound.
func (s *Server) lspSend(w http.ResponseWriter, r *http.Request) {
	se := s.sessions.get(r.PathValue("id"))
	if se == nil {
		writeError(w, http.StatusNotFound, "no session %q (it was closed; reload the page)", r.PathValue("id"))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxLSPBatch))
	if err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, "the messages are larger than %s", bytesText(maxLSPBatch))
		return
	}
	var batch []json.RawMessage
	if len(body) > 0 && body[0] == '[' {
		err = json.Unmarshal(body, &batch)
	} else {
		batch = []json.RawMessage{body}
		if !json.Valid(body) {
			err = errors.New("not JSON")
		}
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "the body must be a JSON-RPC message or an array of them: %v", err)
		return
	}
	se.inMu.Lock()
	defer se.inMu.Unlock()
	for _, raw := range batch {
		var m wireMessage
		if err := json.Unmarshal(raw, &m); err != nil || m.JSONRPC != "2.0" {
			writeError(w, http.StatusBadRequest, "not a JSON-RPC 2.0 message: %.100s", raw)
			return
		}
		if m.Method != "" && !lspMethods[m.Method] {
			if len(m.ID) > 0 {
				refusal, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID,
					"error": map[string]any{"code": jsonrpc2.CodeMethodNotFound, "message": "method " + m.Method + " is not available in the playground"}})
				select {
				case se.out <- refusal:
				default:
				}
			}
			continue
		}
		if err := jsonrpc2.WriteMessage(se.in, raw); err != nil {
			writeError(w, http.StatusGone, "the session's language server has stopped")
			return
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

// lspEvents answers GET /api/lsp/{id}: the server's messages as server-sent events, until the page goes away or
// the session ends. Comments every 20 seconds keep the connection open.
func (s *Server) lspEvents(w http.ResponseWriter, r *http.Request) {
	se := s.sessions.get(r.PathValue("id"))
	if se == nil {
		writeError(w, http.StatusNotFound, "no session %q", r.PathValue("id"))
		return
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		writeError(w, http.StatusInternalServerError, "streaming is not supported")
		return
	}
	se.mu.Lock()
	se.readers++
	se.mu.Unlock()
	defer func() {
		se.mu.Lock()
		se.readers--
		se.lastSeen = time.Now()
		se.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, ": drrc serve language server\n\n")
	flusher.Flush()
	tick := time.NewTicker(20 * time.Second)
	defer tick.Stop()
	for {
		select {
		case msg, ok := <-se.out:
			if !ok {
				fmt.Fprint(w, "event: closed\ndata: {}\n\n")
				flusher.Flush()
				return
			}
			fmt.Fprintf(w, "data: %s\n\n", msg) // JSON has no raw newlines: one data line
			flusher.Flush()
		case <-tick.C:
			fmt.Fprint(w, ": keep-alive\n\n")
			flusher.Flush()
		case <-r.Context().Done():
			return
		}
	}
}
