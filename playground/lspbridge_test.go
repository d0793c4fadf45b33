package playground

import (
	"bufio"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// eventLog reads the server-sent events of a session: each message's data, decoded. Messages come in the order the
// server sends them, which is not the order of the requests (diagnostics may come before or after a response):
// await keeps the messages it skipped for the next call.
type eventLog struct {
	ch   chan map[string]any
	seen []map[string]any
}

func events(t *testing.T, resp *http.Response) *eventLog {
	l := &eventLog{ch: make(chan map[string]any, 64)}
	go func() {
		defer close(l.ch)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var m map[string]any
			if json.Unmarshal([]byte(data), &m) == nil {
				l.ch <- m
			}
		}
	}()
	return l
}

// await returns the first event, among those skipped before and those to come, for which want holds; it fails
// after 30 seconds (a generous margin: the machine may be loaded).
func await(t *testing.T, l *eventLog, what string, want func(map[string]any) bool) map[string]any {
	t.Helper()
	for i, m := range l.seen {
		if want(m) {
			l.seen = slices.Delete(l.seen, i, i+1)
			return m
		}
	}
	timeout := time.After(30 * time.Second)
	for {
		select {
		case m, ok := <-l.ch:
			require.True(t, ok, "the event stream ended before %s", what)
			if want(m) {
				return m
			}
			l.seen = append(l.seen, m)
		case <-timeout:
			t.Fatalf("no %s within 30s", what)
		}
	}
}

func TestLanguageServerOverHTTP(t *testing.T) {
	ts := newTestServer(t, nil, Limits{Sessions: 1})
	var open map[string]string
	ts.call("POST", "/api/lsp", map[string]any{}, http.StatusOK, &open)
	id := open["session"]
	require.NotEmpty(t, id)
	assert.Contains(t, ts.errorOf("POST", "/api/lsp", map[string]any{}, http.StatusServiceUnavailable), "1 editors are connected")

	resp, err := http.Get(ts.ts.URL + "/api/lsp/" + id)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	ch := events(t, resp)

	const uri = "file:///playground/rules.drr"
	bad := strings.Replace(resnetRules, "pd_op.relu6(", "pd_op.relu7(", 1)
	batch := []map[string]any{
		{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{"capabilities": map[string]any{}}},
		{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}},
		{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
			"textDocument": map[string]any{"uri": uri, "languageId": "drr", "version": 1, "text": bad}}},
		{"jsonrpc": "2.0", "id": 2, "method": "workspace/executeCommand", "params": map[string]any{"command": "drrc.apply"}},
		{"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover", "params": map[string]any{
			"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 6, "character": 12}}},
	}
	ts.call("POST", "/api/lsp/"+id, batch, http.StatusNoContent, nil)

	init := await(t, ch, "the initialize response", func(m map[string]any) bool { return m["id"] == 1.0 })
	assert.Contains(t, init, "result")
	refused := await(t, ch, "the refusal of executeCommand", func(m map[string]any) bool { return m["id"] == 2.0 })
	assert.Contains(t, refused["error"].(map[string]any)["message"], "not available in the playground",
		"commands that read files or apply rules are not the page's to send")
	hover := await(t, ch, "the hover", func(m map[string]any) bool { return m["id"] == 3.0 })
	assert.NotNil(t, hover["result"])
	diag := await(t, ch, "the diagnostics", func(m map[string]any) bool {
		if m["method"] != "textDocument/publishDiagnostics" {
			return false
		}
		d, _ := m["params"].(map[string]any)["diagnostics"].([]any)
		return len(d) > 0
	})
	first := diag["params"].(map[string]any)["diagnostics"].([]any)[0].(map[string]any)
	assert.Contains(t, first["message"], "pd_op.relu7")

	// Bad input.
	code, _ := ts.do("POST", "/api/lsp/"+id, "not a message")
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, ts.errorOf("POST", "/api/lsp/"+id, []map[string]any{{"jsonrpc": "1.0", "method": "x"}}, http.StatusBadRequest), "JSON-RPC 2.0")
	assert.Contains(t, ts.errorOf("POST", "/api/lsp/s999", []any{}, http.StatusNotFound), "s999")
	assert.Contains(t, ts.errorOf("GET", "/api/lsp/s999", nil, http.StatusNotFound), "s999")

	ts.call("DELETE", "/api/lsp/"+id, nil, http.StatusNoContent, nil)
	ts.call("DELETE", "/api/lsp/"+id, nil, http.StatusNotFound, nil)
	ts.call("POST", "/api/lsp", map[string]any{}, http.StatusOK, &open) // the slot is free again
}
