package playground

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKeptRuns: the runs kept for their stages are bounded by their ops; an evicted run is a clear 404.
func TestKeptRuns(t *testing.T) {
	// A transformer run keeps 162 + 150 ops: two fit in 700, three do not.
	ts := newTestServer(t, nil, Limits{KeptOps: 700})
	var ids []string
	for range 3 {
		ids = append(ids, ts.runOn("tinytransformer", fcRules, "").ID)
	}
	assert.Contains(t, ts.errorOf("GET", "/api/runs/"+ids[0]+"/stages/0", nil, http.StatusNotFound), "run again")
	ts.call("GET", "/api/runs/"+ids[1]+"/stages/0", nil, http.StatusOK, nil)
	ts.call("GET", "/api/runs/"+ids[2]+"/stages/1", nil, http.StatusOK, nil)

	// The newest run is kept even when it alone is larger than the bound.
	tiny := newTestServer(t, nil, Limits{KeptOps: 10})
	id := tiny.runOn("tinytransformer", fcRules, "").ID
	tiny.call("GET", "/api/runs/"+id+"/stages/1", nil, http.StatusOK, nil)
}

// TestBusy: past the runs under way and the queue, a run is refused with 503 rather than waiting without end.
func TestBusy(t *testing.T) {
	ts := newTestServer(t, nil, Limits{Concurrent: 1, Queue: 1})
	release, err := ts.srv.gate.enter(context.Background())
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	waiting := make(chan error, 1)
	go func() {
		rel, err := ts.srv.gate.enter(ctx)
		if err == nil {
			rel()
		}
		waiting <- err
	}()
	require.Eventually(t, func() bool { return ts.srv.gate.waiting.Load() == 1 }, 5*time.Second, time.Millisecond)
	assert.Contains(t, ts.errorOf("POST", "/api/run", runRequest{Rules: fcRules, Program: programRef{Sample: "tinytransformer"}},
		http.StatusServiceUnavailable), "busy")
	cancel()
	assert.ErrorIs(t, <-waiting, context.Canceled)
	release()
	ts.runOn("tinytransformer", fcRules, "") // free again
}
