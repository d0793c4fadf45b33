package playground

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/golden"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rules"
)

func init() { golden.Register() }

// testCtx and testReg are the catalogs and the registry of the tests (made once: a registry caches compiled rule
// sets).
var (
	testCtx = sync.OnceValue(func() *ir.Context {
		ctx, err := ir.NewDefaultContext()
		if err != nil {
			panic(err)
		}
		return ctx
	})
	testReg = sync.OnceValue(func() *rewriter.Registry {
		reg := rewriter.NewRegistry()
		if err := rules.Register(reg); err != nil {
			panic(err)
		}
		return reg
	})
)

// testServer is a playground behind an httptest server.
type testServer struct {
	t   testing.TB
	srv *Server
	ts  *httptest.Server
}

// newTestServer starts a playground with the given files and limits.
func newTestServer(t testing.TB, files []string, lim Limits) *testServer {
	t.Helper()
	s, err := New(Options{Context: testCtx(), Registry: testReg(), Files: files, Limits: lim, Version: "test",
		Logf: func(format string, args ...any) { t.Logf("server: "+format, args...) }})
	require.NoError(t, err)
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		s.Close()
		ts.Close()
	})
	return &testServer{t: t, srv: s, ts: ts}
}

// do sends a request with a JSON body (nil: none) and returns the status and the body.
func (ts *testServer) do(method, path string, body any) (int, []byte) {
	ts.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		require.NoError(ts.t, err)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, ts.ts.URL+path, rd)
	require.NoError(ts.t, err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(ts.t, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(ts.t, err)
	return resp.StatusCode, out
}

// call sends a request, requires the status and decodes the answer into out (nil: not decoded).
func (ts *testServer) call(method, path string, body any, status int, out any) {
	ts.t.Helper()
	code, b := ts.do(method, path, body)
	require.Equal(ts.t, status, code, "%s %s: %s", method, path, b)
	if out != nil {
		require.NoError(ts.t, json.Unmarshal(b, out), "%s", b)
	}
}

// errorOf sends a request that must fail with status and returns its error message.
func (ts *testServer) errorOf(method, path string, body any, status int) string {
	ts.t.Helper()
	var e apiError
	ts.call(method, path, body, status, &e)
	return e.Error
}

// runOn runs rules (and passes) on a sample and returns the result.
func (ts *testServer) runOn(sample, rules, passes string) *runResult {
	ts.t.Helper()
	var res runResult
	ts.call("POST", "/api/run", runRequest{Rules: rules, Program: programRef{Sample: sample}, Passes: passes}, http.StatusOK, &res)
	return &res
}
