package drrcli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/lsp/jsonrpc2"
)

// TestLSPCommand: drrc lsp serves the protocol on its standard streams — initialize, a document with an error,
// a hover, shutdown, exit — and logs to standard error.
func TestLSPCommand(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errOut bytes.Buffer
	code := make(chan int, 1)
	go func() {
		c := &CLI{Stdin: inR, Stdout: outW, Stderr: &errOut}
		code <- c.Run([]string{"lsp", "-debounce", "1ms"})
		outW.Close()
	}()
	r := bufio.NewReader(outR)
	send := func(m string) { require.NoError(t, jsonrpc2.WriteMessage(inW, []byte(m))) }
	// recv returns the next message with the given id, or the next notification of the given method.
	recv := func(key string) map[string]any {
		for {
			body, err := jsonrpc2.ReadMessage(r)
			require.NoError(t, err)
			var m map[string]any
			require.NoError(t, json.Unmarshal(body, &m))
			if jsonString(m["id"]) == key || m["method"] == key {
				return m
			}
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
	require.Contains(t, jsonString(recv("1")["result"]), `"name":"drrc lsp"`)
	send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///tmp/x.drr","languageId":"drr","version":1,"text":"rule r {\n  match { %y = pd_op.rleu(%x) }\n  rewrite { replace %y with %x }\n}\n"}}}`)
	require.Contains(t, jsonString(recv("textDocument/publishDiagnostics")), "unknown op pd_op.rleu (did you mean pd_op.relu?)")
	send(`{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///tmp/x.drr"},"position":{"line":1,"character":18}}}`)
	require.Contains(t, jsonString(recv("2")["result"]), "not in the op catalog")
	send(`{"jsonrpc":"2.0","id":3,"method":"shutdown"}`)
	require.Contains(t, recv("3"), "result")
	send(`{"jsonrpc":"2.0","method":"exit"}`)
	require.Equal(t, exitOK, <-code, errOut.String())
	inW.Close()
	require.Contains(t, errOut.String(), "drrc lsp: ")
	require.Contains(t, errOut.String(), "started (drrc "+version+")")

	// Exit without shutdown is exit status 1, as the protocol says (issue 26 item 14).
	errOut.Reset()
	var in bytes.Buffer
	require.NoError(t, jsonrpc2.WriteMessage(&in, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)))
	require.NoError(t, jsonrpc2.WriteMessage(&in, []byte(`{"jsonrpc":"2.0","method":"exit"}`)))
	require.Equal(t, exitFailure, (&CLI{Stdin: &in, Stdout: io.Discard, Stderr: &errOut}).Run([]string{"lsp"}))
	require.Contains(t, errOut.String(), "drrc lsp: the client sent exit without shutdown")

	errOut.Reset()
	require.Equal(t, exitUsage, (&CLI{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &errOut}).Run([]string{"lsp", "x.drr"}))
	require.Contains(t, errOut.String(), "lsp takes no arguments")
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
