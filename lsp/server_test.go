package lsp

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/lsp/jsonrpc2"
	"github.com/pirdrr/drr/lsp/protocol"
)

const reluRule = `rule drop_relu {
  match {
    %y = pd_op.relu(%x)
  }
  rewrite {
    replace %y with %x
  }
}
`

func TestInitialize(t *testing.T) {
	tests := []struct {
		name   string
		offers []protocol.PositionEncodingKind
		want   protocol.PositionEncodingKind
	}{
		{"default", nil, protocol.UTF16},
		{"utf-8 preferred", []protocol.PositionEncodingKind{protocol.UTF8, protocol.UTF16}, protocol.UTF8},
		{"utf-32 preferred", []protocol.PositionEncodingKind{"utf-7", protocol.UTF32}, protocol.UTF32},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClient(t, Options{})
			var res protocol.InitializeResult
			p := protocol.InitializeParams{}
			if tt.offers != nil {
				p.Capabilities.General = &protocol.GeneralClientCapabilities{PositionEncodings: tt.offers}
			}
			c.call(protocol.MethodInitialize, p, &res)
			require.Equal(t, tt.want, res.Capabilities.PositionEncoding)
			require.Equal(t, protocol.SyncIncremental, res.Capabilities.TextDocumentSync.Change)
			require.Equal(t, []string{CommandApply, CommandView}, res.Capabilities.ExecuteCommandProvider.Commands)
			require.True(t, res.Capabilities.InlayHintProvider)
			require.NotEmpty(t, res.Capabilities.SemanticTokensProvider.Legend.TokenTypes)
			err := c.callErr(protocol.MethodInitialize, p, &res)
			require.ErrorContains(t, err, "initialize was already received")
		})
	}
}

func TestLifecycle(t *testing.T) {
	c := newClient(t, Options{})
	var e *jsonrpc2.Error
	err := c.callErr(protocol.MethodHover, protocol.TextDocumentPositionParams{}, nil)
	require.ErrorAs(t, err, &e)
	require.Equal(t, int64(jsonrpc2.CodeServerNotInitialized), e.Code)
	c.call(protocol.MethodInitialize, protocol.InitializeParams{}, nil)
	err = c.callErr("textDocument/nope", struct{}{}, nil)
	require.ErrorAs(t, err, &e)
	require.Equal(t, int64(jsonrpc2.CodeMethodNotFound), e.Code)
	c.call(protocol.MethodShutdown, nil, nil)
	err = c.callErr(protocol.MethodHover, protocol.TextDocumentPositionParams{}, nil)
	require.ErrorContains(t, err, "shut down")
	c.notify(protocol.MethodExit, nil)
	select {
	case err := <-c.done:
		require.NoError(t, err)
		c.done <- err
	case <-time.After(5 * time.Second):
		t.Fatal("exit did not stop the server")
	}
}

// TestExitWithoutShutdown: exit before shutdown ends Serve with ErrExitWithoutShutdown, which drrc lsp turns into
// exit status 1 as the protocol asks (issue 26 item 14).
func TestExitWithoutShutdown(t *testing.T) {
	for _, initialize := range []bool{false, true} {
		c := newClient(t, Options{})
		if initialize {
			c.call(protocol.MethodInitialize, protocol.InitializeParams{}, nil)
		}
		c.notify(protocol.MethodExit, nil)
		select {
		case err := <-c.done:
			require.ErrorIs(t, err, ErrExitWithoutShutdown)
			c.done <- nil
		case <-time.After(5 * time.Second):
			t.Fatal("exit did not stop the server")
		}
	}
}

// TestMalformedMessages: junk is logged and answered where it can be; the server goes on serving.
func TestMalformedMessages(t *testing.T) {
	c := startServer(t, Options{})
	_, err := c.raw.Write([]byte("Content-Length: 12\r\n\r\n{not json!!}"))
	require.NoError(t, err)
	_, err = c.raw.Write([]byte("X-Junk: 1\r\n\r\n"))
	require.NoError(t, err)
	require.NoError(t, jsonrpc2.WriteMessage(c.raw, []byte(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":17}}`)))
	var e *jsonrpc2.Error
	err = c.callErr(protocol.MethodHover, json.RawMessage(`{"textDocument":"x"}`), nil)
	require.ErrorAs(t, err, &e)
	require.Equal(t, int64(jsonrpc2.CodeInvalidParams), e.Code)
	uri := c.open("ok.drr", reluRule)
	require.Empty(t, c.diagnostics(uri, 1))
	log := c.log()
	require.Contains(t, log, "malformed message (invalid character 'n' looking for beginning of object key string)")
	require.Contains(t, log, "malformed message header: no Content-Length")
	require.Contains(t, log, "notification textDocument/didOpen: invalid parameters")
}

// TestRequestDuringLongCheck: while a check is held back, requests on the document that need only its syntax
// tree are answered, a request that needs the check waits and can be cancelled, and the diagnostics come once the
// check ends.
func TestRequestDuringLongCheck(t *testing.T) {
	release := make(chan struct{})
	started := make(chan int32, 4)
	c := startServer(t, Options{}, func(s *Server) {
		s.testHookCheck = func(v int32) {
			started <- v
			<-release
		}
	})
	uri := c.open("slow.drr", reluRule)
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the check did not start")
	}
	// The check is running: hover, symbols and formatting are answered.
	var h protocol.Hover
	c.call(protocol.MethodHover, textDoc(t, uri, reluRule, "pd_op.relu", 3), &h)
	require.Contains(t, h.Contents.Value, "pd_op.relu(x) -> (out)")
	var syms []protocol.DocumentSymbol
	c.call(protocol.MethodDocumentSymbol, protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, &syms)
	require.Len(t, syms, 1)
	// Inlay hints need the check: the request waits (sent raw, with an id of our own, so that its answer is seen
	// in the client's log), and $/cancelRequest ends it.
	require.NoError(t, jsonrpc2.WriteMessage(c.raw, []byte(`{"jsonrpc":"2.0","id":9001,"method":"textDocument/inlayHint",`+
		`"params":{"textDocument":{"uri":"`+string(uri)+`"},"range":{"start":{"line":0,"character":0},"end":{"line":9,"character":0}}}}`)))
	time.Sleep(100 * time.Millisecond)
	require.NotContains(t, c.clientLog(), "9001", "inlay hints answered before the check")
	require.NoError(t, jsonrpc2.WriteMessage(c.raw, []byte(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":9001}}`)))
	require.Eventually(t, func() bool {
		return strings.Contains(c.clientLog(), "response to unknown request 9001: error -32800: request cancelled")
	}, 10*time.Second, 10*time.Millisecond)
	c.mu.Lock()
	require.Empty(t, c.diags[uri], "diagnostics before the check ended")
	c.mu.Unlock()
	close(release)
	require.Empty(t, c.diagnostics(uri, 1))
}

// TestOneCheckAtATime: while a long check runs, changes pile up; the versions replaced before their check could
// start are not checked (a request that waited for one is told the content changed), and the last version is.
func TestOneCheckAtATime(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	var checked []int32
	c := startServer(t, Options{}, func(s *Server) {
		s.testHookCheck = func(v int32) {
			mu.Lock()
			checked = append(checked, v)
			mu.Unlock()
			if v == 1 {
				<-release
			}
		}
	})
	uri := c.open("burst.drr", reluRule)
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(checked) == 1 }, 10*time.Second, time.Millisecond)

	// Version 2, and a request that needs its check (it waits behind version 1's).
	c.replace(uri, 2, strings.Replace(reluRule, "%x", "%a", 2))
	errc := make(chan error, 1)
	go func() {
		errc <- c.callErr(protocol.MethodInlayHint, protocol.InlayHintParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, nil)
	}()
	time.Sleep(50 * time.Millisecond) // the request reaches the server and waits
	for v := int32(3); v <= 5; v++ {
		c.replace(uri, v, strings.Replace(reluRule, "%x", "%v"+itoa(v), 2))
	}
	close(release)
	require.Empty(t, c.diagnostics(uri, 5))
	var e *jsonrpc2.Error
	require.ErrorAs(t, <-errc, &e)
	require.Equal(t, int64(jsonrpc2.CodeContentModified), e.Code)
	mu.Lock()
	require.Equal(t, []int32{1, 5}, checked, "versions 2 to 4 were replaced before their check could start")
	mu.Unlock()
}
