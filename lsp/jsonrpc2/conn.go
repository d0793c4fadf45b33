package jsonrpc2

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
)

// Handler handles one request or notification. For a request, the result (marshalled to JSON; nil is null) or the
// error is the response: an *Error keeps its code, context.Canceled becomes CodeRequestCancelled, any other error
// CodeRequestFailed. For a notification both are dropped, except ErrStop.
type Handler func(ctx context.Context, req *Request) (any, error)

// ErrStop, returned by the handler of a notification, ends Serve (the LSP exit notification).
var ErrStop = errors.New("jsonrpc2: stop")

// Conn is a JSON-RPC 2.0 connection over a byte stream framed with Content-Length headers, as the Language Server
// Protocol uses it over stdio.
//
// Serve reads messages on one goroutine. Notifications are handled there, one at a time and in order, so that a
// notification that changes state (an edit) is applied before any later message is looked at. Each request is
// handled on a goroutine of its own, with a context that $/cancelRequest cancels: a long request does not hold up
// the others, and answers arrive in the order they are ready. A message that is not JSON, or not a request, is
// logged and answered with an error where it has an id; the connection lives on.
type Conn struct {
	r    *bufio.Reader
	w    io.Writer
	logf func(format string, args ...any)

	wmu sync.Mutex // serializes writes

	inOrder map[string]bool // request methods handled on the reading goroutine

	mu       sync.Mutex
	inflight map[string]context.CancelFunc // requests being handled, by id
	calls    map[string]chan *wireMessage  // our requests awaiting a response, by id
	seq      int64
	wg       sync.WaitGroup
}

// NewConn returns a connection reading from r and writing to w; logf receives what the connection cannot deliver
// (malformed messages, handler panics). It may be nil.
func NewConn(r io.Reader, w io.Writer, logf func(format string, args ...any)) *Conn {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	return &Conn{r: bufio.NewReaderSize(r, 64<<10), w: w, logf: logf,
		inflight: map[string]context.CancelFunc{}, calls: map[string]chan *wireMessage{}}
}

// HandleInOrder makes requests of the given methods be handled as notifications are: on the reading goroutine,
// before the next message is read (the LSP initialize and shutdown requests, which change how everything after
// them is handled). Call it before Serve.
func (c *Conn) HandleInOrder(methods ...string) {
	if c.inOrder == nil {
		c.inOrder = map[string]bool{}
	}
	for _, m := range methods {
		c.inOrder[m] = true
	}
}

// Serve reads and handles messages until the input ends, ctx is done or a notification handler returns ErrStop.
// Before returning it cancels the requests still being handled and waits for them. It returns nil at the end of
// the input or on ErrStop, otherwise the error that ended it.
func (c *Conn) Serve(ctx context.Context, h Handler) error {
	ctx, cancel := context.WithCancel(ctx)
	defer func() {
		cancel()
		c.wg.Wait()
		c.failCalls()
	}()
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		body, err := ReadMessage(c.r)
		var he *HeaderError
		switch {
		case errors.As(err, &he):
			c.logf("%v", err)
			continue
		case err == io.EOF:
			return nil
		case err != nil:
			return err
		}
		if err := c.dispatch(ctx, h, body); err != nil {
			if err == ErrStop {
				return nil
			}
			return err
		}
	}
}

// dispatch handles one message body.
func (c *Conn) dispatch(ctx context.Context, h Handler, body []byte) error {
	var m wireMessage
	if err := json.Unmarshal(body, &m); err != nil {
		c.logf("malformed message (%v): %s", err, truncate(string(body)))
		return c.reply(ID{}, nil, Errorf(CodeParseError, "parse error: %v", err))
	}
	id := ID{}
	if m.ID != nil {
		id = *m.ID
	}
	switch {
	case m.Method == "" && !id.IsZero() && (m.Result != nil || m.Error != nil):
		c.deliver(id, &m)
		return nil
	case m.Method == "":
		c.logf("message is not a request: %s", truncate(string(body)))
		if !id.IsZero() {
			return c.reply(id, nil, Errorf(CodeInvalidRequest, "invalid request: no method"))
		}
		return nil
	case m.Method == "$/cancelRequest":
		var p struct {
			ID ID `json:"id"`
		}
		if err := json.Unmarshal(m.Params, &p); err == nil {
			c.mu.Lock()
			if cancel, ok := c.inflight[p.ID.raw]; ok {
				cancel()
			}
			c.mu.Unlock()
		}
		return nil
	}
	req := &Request{ID: id, Method: m.Method, Params: m.Params}
	if req.IsNotification() {
		_, err := c.call(ctx, h, req)
		if err == ErrStop {
			return ErrStop
		}
		if err != nil {
			c.logf("notification %s: %v", req.Method, err)
		}
		return nil
	}
	if c.inOrder[req.Method] {
		res, err := c.call(ctx, h, req)
		if err == ErrStop {
			err = nil
		}
		return c.reply(id, res, err)
	}
	rctx, cancel := context.WithCancel(ctx)
	c.mu.Lock()
	if _, dup := c.inflight[id.raw]; dup {
		c.mu.Unlock()
		cancel()
		c.logf("request id %s is already in use", id)
		return c.reply(id, nil, Errorf(CodeInvalidRequest, "request id %s is already in use", id))
	}
	c.inflight[id.raw] = cancel
	c.mu.Unlock()
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		res, err := c.call(rctx, h, req)
		c.mu.Lock()
		delete(c.inflight, id.raw)
		c.mu.Unlock()
		if err == nil && rctx.Err() != nil {
			err = rctx.Err() // cancelled while finishing: the client no longer wants the result
		}
		cancel()
		if werr := c.reply(id, res, err); werr != nil {
			c.logf("reply to %s: %v", req.Method, werr)
		}
	}()
	return nil
}

// call runs the handler, turning a panic into an internal error.
func (c *Conn) call(ctx context.Context, h Handler, req *Request) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			c.logf("panic in %s: %v\n%s", req.Method, r, debug.Stack())
			res, err = nil, Errorf(CodeInternalError, "internal error in %s: %v", req.Method, r)
		}
	}()
	return h(ctx, req)
}

// reply writes the response to request id.
func (c *Conn) reply(id ID, res any, err error) error {
	if err != nil {
		var e *Error
		switch {
		case errors.As(err, &e):
		case errors.Is(err, context.Canceled):
			e = Errorf(CodeRequestCancelled, "request cancelled")
		default:
			e = Errorf(CodeRequestFailed, "%v", err)
		}
		return c.write(errorOut{JSONRPC: "2.0", ID: id, Error: e})
	}
	raw, merr := json.Marshal(res)
	if merr != nil {
		return c.write(errorOut{JSONRPC: "2.0", ID: id, Error: Errorf(CodeInternalError, "cannot encode the result: %v", merr)})
	}
	return c.write(resultOut{JSONRPC: "2.0", ID: id, Result: raw})
}

func (c *Conn) write(v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return WriteMessage(c.w, body)
}

// Notify sends a notification to the other side.
func (c *Conn) Notify(method string, params any) error {
	return c.write(requestOut{JSONRPC: "2.0", Method: method, Params: params})
}

// Call sends a request to the other side and waits for its response, which is decoded into result (if not nil).
// An error response is returned as an *Error. When ctx ends first, Call sends $/cancelRequest for the request and
// returns ctx's error. Call must be used while Serve runs (Serve reads the response).
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	c.mu.Lock()
	c.seq++
	id := ID{raw: fmt.Sprintf("\"drr-%d\"", c.seq)}
	ch := make(chan *wireMessage, 1)
	c.calls[id.raw] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.calls, id.raw)
		c.mu.Unlock()
	}()
	if err := c.write(requestOut{JSONRPC: "2.0", ID: &id, Method: method, Params: params}); err != nil {
		return err
	}
	select {
	case <-ctx.Done():
		_ = c.Notify("$/cancelRequest", map[string]ID{"id": id})
		return ctx.Err()
	case m := <-ch:
		if m == nil {
			return errors.New("jsonrpc2: connection closed")
		}
		if m.Error != nil {
			return m.Error
		}
		if result != nil && m.Result != nil {
			return json.Unmarshal(m.Result, result)
		}
		return nil
	}
}

// deliver hands a response to the Call waiting for it.
func (c *Conn) deliver(id ID, m *wireMessage) {
	c.mu.Lock()
	ch, ok := c.calls[id.raw]
	c.mu.Unlock()
	if !ok {
		if m.Error != nil {
			c.logf("response to unknown request %s: error %d: %s", id, m.Error.Code, m.Error.Message)
		} else {
			c.logf("response to unknown request %s", id)
		}
		return
	}
	ch <- m
}

// failCalls ends the Calls still waiting when Serve returns.
func (c *Conn) failCalls() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, ch := range c.calls {
		select {
		case ch <- nil:
		default:
		}
		delete(c.calls, id)
	}
}
