package jsonrpc2

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/golden"
)

func init() { golden.Register() }

// peer is the other end of a connection under test: it writes raw messages and reads what the connection writes.
type peer struct {
	t    *testing.T
	w    io.WriteCloser
	r    *bufio.Reader
	log  *logBuf
	done chan error
}

type logBuf struct {
	mu    sync.Mutex
	lines []string
}

func (l *logBuf) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, strings.TrimSpace(strings.SplitN(fmt.Sprintf(format, args...), "\n", 2)[0]))
}

func (l *logBuf) all() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

func start(t *testing.T, h Handler) (*peer, *Conn) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	lb := &logBuf{}
	c := NewConn(inR, outW, lb.logf)
	p := &peer{t: t, w: inW, r: bufio.NewReader(outR), log: lb, done: make(chan error, 1)}
	go func() {
		err := c.Serve(context.Background(), h)
		outW.Close()
		p.done <- err
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			t.Error("Serve did not return")
		}
	})
	return p, c
}

func (p *peer) send(body string) {
	p.t.Helper()
	require.NoError(p.t, WriteMessage(p.w, []byte(body)))
}

func (p *peer) sendRaw(s string) {
	p.t.Helper()
	_, err := io.WriteString(p.w, s)
	require.NoError(p.t, err)
}

func (p *peer) recv() map[string]any {
	p.t.Helper()
	body, err := ReadMessage(p.r)
	require.NoError(p.t, err)
	var m map[string]any
	require.NoError(p.t, json.Unmarshal(body, &m))
	return m
}

func echo(ctx context.Context, req *Request) (any, error) {
	switch req.Method {
	case "echo":
		return req.Params, nil
	case "fail":
		return nil, errors.New("it failed")
	case "invalid":
		return nil, Errorf(CodeInvalidParams, "bad params")
	case "panic":
		panic("boom")
	case "wait":
		<-ctx.Done()
		return nil, ctx.Err()
	case "null":
		return nil, nil
	case "exit":
		return nil, ErrStop
	}
	return nil, Errorf(CodeMethodNotFound, "no method %s", req.Method)
}

func TestRequests(t *testing.T) {
	tests := []struct {
		name, in, out string
	}{
		{"result", `{"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":[1,2]}}`, `{"id":1,"jsonrpc":"2.0","result":{"a":[1,2]}}`},
		{"string id", `{"jsonrpc":"2.0","id":"x7","method":"echo","params":[3]}`, `{"id":"x7","jsonrpc":"2.0","result":[3]}`},
		{"null result", `{"jsonrpc":"2.0","id":2,"method":"null"}`, `{"id":2,"jsonrpc":"2.0","result":null}`},
		{"plain error", `{"jsonrpc":"2.0","id":3,"method":"fail"}`, `{"error":{"code":-32803,"message":"it failed"},"id":3,"jsonrpc":"2.0"}`},
		{"coded error", `{"jsonrpc":"2.0","id":4,"method":"invalid"}`, `{"error":{"code":-32602,"message":"bad params"},"id":4,"jsonrpc":"2.0"}`},
		{"unknown method", `{"jsonrpc":"2.0","id":5,"method":"nope"}`, `{"error":{"code":-32601,"message":"no method nope"},"id":5,"jsonrpc":"2.0"}`},
		{"panic", `{"jsonrpc":"2.0","id":6,"method":"panic"}`, `{"error":{"code":-32603,"message":"internal error in panic: boom"},"id":6,"jsonrpc":"2.0"}`},
		{"not JSON", `{"jsonrpc":"2.0","id":7,"method"`, `{"error":{"code":-32700,"message":"parse error: unexpected end of JSON input"},"id":null,"jsonrpc":"2.0"}`},
		{"no method", `{"jsonrpc":"2.0","id":8}`, `{"error":{"code":-32600,"message":"invalid request: no method"},"id":8,"jsonrpc":"2.0"}`},
	}
	p, _ := start(t, echo)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p.t = t
			p.send(tt.in)
			got, err := json.Marshal(p.recv())
			require.NoError(t, err)
			require.JSONEq(t, tt.out, string(got))
		})
	}
}

// TestSurvivesMalformedInput: bad JSON, a header without Content-Length and a response nobody asked for are
// logged, and the next request is answered.
func TestSurvivesMalformedInput(t *testing.T) {
	p, _ := start(t, echo)
	p.send(`not json at all`)
	require.Equal(t, float64(CodeParseError), p.recv()["error"].(map[string]any)["code"])
	p.sendRaw("Content-Type: application/json\r\n\r\n")
	p.sendRaw("Content-Length: abc\r\n\r\n")
	p.send(`{"jsonrpc":"2.0","id":99,"result":1}`)
	p.send(`{"jsonrpc":"2.0","method":"nope"}`) // an unknown notification: no answer
	p.send(`{"jsonrpc":"2.0","id":1,"method":"echo","params":"still here"}`)
	require.Equal(t, "still here", p.recv()["result"])
	log := p.log.all()
	require.Contains(t, log, "malformed message (invalid character 'o' in literal null (expecting 'u'))")
	require.Contains(t, log, "malformed message header: no Content-Length")
	require.Contains(t, log, `malformed message header: bad Content-Length "abc"`)
	require.Contains(t, log, "response to unknown request 99")
	require.Contains(t, log, "notification nope: no method nope")
}

// TestCancel: a request that waits is answered while it waits, and $/cancelRequest ends it with RequestCancelled.
func TestCancel(t *testing.T) {
	p, _ := start(t, echo)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"wait"}`)
	p.send(`{"jsonrpc":"2.0","id":2,"method":"echo","params":"meanwhile"}`)
	m := p.recv()
	require.Equal(t, float64(2), m["id"])
	require.Equal(t, "meanwhile", m["result"])
	p.send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}`)
	m = p.recv()
	require.Equal(t, float64(1), m["id"])
	require.Equal(t, float64(CodeRequestCancelled), m["error"].(map[string]any)["code"])
}

// TestNotificationsInOrder: notifications run on the reading goroutine, in order, before later requests.
func TestNotificationsInOrder(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	h := func(ctx context.Context, req *Request) (any, error) {
		if req.IsNotification() {
			time.Sleep(time.Millisecond)
			mu.Lock()
			seen = append(seen, string(req.Params))
			mu.Unlock()
			return nil, nil
		}
		mu.Lock()
		defer mu.Unlock()
		return strings.Join(seen, ","), nil
	}
	p, _ := start(t, h)
	for _, n := range []string{"1", "2", "3", "4"} {
		p.send(`{"jsonrpc":"2.0","method":"note","params":` + n + `}`)
	}
	p.send(`{"jsonrpc":"2.0","id":1,"method":"seen"}`)
	require.Equal(t, "1,2,3,4", p.recv()["result"])
}

// TestCallAndStop: the server's own requests get their responses; ErrStop from a notification ends Serve.
func TestCallAndStop(t *testing.T) {
	p, c := start(t, echo)
	res := make(chan error, 1)
	var got []int
	go func() { res <- c.Call(context.Background(), "client/thing", map[string]int{"n": 1}, &got) }()
	m := p.recv()
	require.Equal(t, "client/thing", m["method"])
	id, err := json.Marshal(m["id"])
	require.NoError(t, err)
	p.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":[4,5]}`)
	require.NoError(t, <-res)
	require.Equal(t, []int{4, 5}, got)

	go func() { res <- c.Call(context.Background(), "client/other", nil, nil) }()
	m = p.recv()
	id, _ = json.Marshal(m["id"])
	p.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"error":{"code":-32601,"message":"no"}}`)
	var e *Error
	require.ErrorAs(t, <-res, &e)
	require.Equal(t, int64(CodeMethodNotFound), e.Code)

	p.send(`{"jsonrpc":"2.0","method":"exit"}`)
	select {
	case err := <-p.done:
		require.NoError(t, err)
		p.done <- err // for the cleanup
	case <-time.After(5 * time.Second):
		t.Fatal("exit did not stop Serve")
	}
}

func TestReadMessage(t *testing.T) {
	r := bufio.NewReader(strings.NewReader("\r\nContent-Length: 2\nContent-Type: x\n\n{}Content-Length: 5\r\n\r\n{}"))
	b, err := ReadMessage(r)
	require.NoError(t, err)
	require.Equal(t, "{}", string(b))
	_, err = ReadMessage(r)
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	_, err = ReadMessage(bufio.NewReader(strings.NewReader("")))
	require.ErrorIs(t, err, io.EOF)
	_, err = ReadMessage(bufio.NewReader(strings.NewReader("Content-Length: 999999999999\r\n\r\n")))
	var he *HeaderError
	require.ErrorAs(t, err, &he)
}

// TestHandleInOrder: a request of a method handled in order is answered before the notifications after it are
// looked at (LSP's initialize before didOpen).
func TestHandleInOrder(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	h := func(ctx context.Context, req *Request) (any, error) {
		if req.Method == "init" {
			time.Sleep(20 * time.Millisecond)
		}
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, req.Method)
		return strings.Join(seen, ","), nil
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := NewConn(inR, outW, nil)
	c.HandleInOrder("init")
	done := make(chan error, 1)
	go func() { done <- c.Serve(context.Background(), h); outW.Close() }()
	p := &peer{t: t, w: inW, r: bufio.NewReader(outR)}
	go func() {
		// Written while the answers are read: a pipe holds no message, and the reply to init is written before
		// the next message is read.
		for _, m := range []string{`{"jsonrpc":"2.0","id":1,"method":"init"}`, `{"jsonrpc":"2.0","method":"note"}`,
			`{"jsonrpc":"2.0","id":2,"method":"seen"}`} {
			if WriteMessage(inW, []byte(m)) != nil {
				return
			}
		}
	}()
	require.Equal(t, "init", p.recv()["result"])
	require.Equal(t, "init,note,seen", p.recv()["result"])
	inW.Close()
	require.NoError(t, <-done)
}
