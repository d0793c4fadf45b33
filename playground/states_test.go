package playground

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/verify"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// noMatchRules match nothing in the samples (neither has a pd_op.tanh): a run of them changes nothing.
const noMatchRules = `rule tanh_to_relu {
  match {
    %y = pd_op.tanh(%x)
  }
  rewrite {
    replace %y with pd_op.relu(%x)
  }
}
`

// TestNothingChanged: a run that changes nothing has a diff that is an empty list, never null (the page read its
// length: "Cannot read properties of null (reading 'length')", issue 35 point 1).
func TestNothingChanged(t *testing.T) {
	ts := newTestServer(t, nil, Limits{})
	res := ts.runOn("tinyresnet", noMatchRules, "")
	require.Empty(t, res.Error)
	assert.Equal(t, res.OpsIn, res.OpsOut)
	assert.Empty(t, res.Matches)
	for _, path := range []string{"/stages/1", "/stages/1?from=0"} {
		code, body := ts.do("GET", "/api/runs/"+res.ID+path, nil)
		require.Equal(t, http.StatusOK, code)
		assert.Contains(t, string(body), `"diff":[]`, path)
		assert.NotContains(t, string(body), `null`, path)
	}
}

// verifyStream posts a streamed verification and returns its events.
func verifyStream(t *testing.T, ts *testServer, runID string, req verifyRequest) []verifyEvent {
	t.Helper()
	req.Stream = true
	code, body := ts.do("POST", "/api/runs/"+runID+"/verify", req)
	require.Equal(t, http.StatusOK, code, "%s", body)
	var events []verifyEvent
	for line := range strings.SplitSeq(strings.TrimSpace(string(body)), "\n") {
		var ev verifyEvent
		require.NoError(t, json.Unmarshal([]byte(line), &ev), line)
		events = append(events, ev)
	}
	return events
}

// TestVerifyProgress: a streamed verification reports the passes, then each run with the table so far, then the
// final table (issue 35 point 4).
func TestVerifyProgress(t *testing.T) {
	ts := newTestServer(t, nil, Limits{})
	res := ts.runOn("tinytransformer", fcRules, "")
	events := verifyStream(t, ts, res.ID, verifyRequest{Runs: 3, Batch: 2, Size: 8})
	var phases []string
	for _, ev := range events {
		phases = append(phases, ev.Phase+":"+strconv.Itoa(ev.Done)+"/"+strconv.Itoa(ev.Runs))
	}
	assert.Equal(t, []string{"passes:0/3", "run:1/3", "run:2/3", "done:3/3"}, phases)
	for _, ev := range events[1:] {
		require.NotNil(t, ev.Result, ev.Phase)
		assert.Equal(t, ev.Done, ev.Result.Done)
		assert.NotEmpty(t, ev.Result.Outputs, "the table of the runs so far")
	}
	last := events[len(events)-1].Result
	assert.True(t, last.OK, last.Error)
	assert.False(t, last.Partial)
	assert.Equal(t, 2, last.Batch)
	assert.Equal(t, 8, last.Size)
	assert.Positive(t, last.PassMillis+last.CompareMillis)

	// The same verification unstreamed gives the same table: one run at a time is drrc verify's K runs.
	var v verifyResult
	ts.call("POST", "/api/runs/"+res.ID+"/verify", verifyRequest{Runs: 3, Batch: 2, Size: 8}, http.StatusOK, &v)
	assert.Equal(t, last.Outputs, v.Outputs)
	assert.Equal(t, 3, v.Done)
}

// TestVerifyPartial: a verification stopped between runs (the client cancelled) or by its time budget keeps the
// runs it did, says how many, and is not OK.
func TestVerifyPartial(t *testing.T) {
	ts := newTestServer(t, nil, Limits{})
	res := ts.runOn("tinyresnet", wrongRule, "")
	rn := ts.srv.runs.get(res.ID)
	require.NotNil(t, rn)
	opts := verify.VerifyOptions{CompareOptions: interp.CompareOptions{Runs: 3, Seed: 1, RelTol: 1e-5}, Registry: testReg()}
	opts.Batch, opts.DynamicSize = 1, 32
	var stop atomic.Bool
	stop.Store(true)
	events := make(chan verifyEvent, 8)
	verifyRuns(rn.stages[0].prog.Clone(), rn.pipeline, opts, &stop, events)
	close(events)
	var last verifyEvent
	for ev := range events {
		last = ev
	}
	require.Equal(t, "done", last.Phase)
	v := last.Result
	assert.True(t, v.Partial)
	assert.Equal(t, 1, v.Done, "the run under way when it stopped")
	assert.False(t, v.OK)
	assert.Equal(t, "cancelled after 1 of 3 runs", v.Error)
	assert.NotEmpty(t, v.Outputs, "the table of the run done")

	slow := newTestServer(t, nil, Limits{VerifyTime: time.Millisecond})
	res = slow.runOn("tinytransformer", fcRules, "")
	events2 := verifyStream(t, slow, res.ID, verifyRequest{Runs: 10})
	final := events2[len(events2)-1]
	require.Equal(t, "done", final.Phase)
	assert.True(t, final.Result.Partial)
	assert.Less(t, final.Result.Done, 10)
	assert.Contains(t, final.Result.Error, "the verification took more than its time budget of 1ms after ")
	assert.Contains(t, final.Result.Error, " of 10 runs")
}

// TestWorstElementAtZero: the worst element of an output beyond the tolerance carries every field, a value of 0
// too (the page read "undefined after": the field was left out at 0).
func TestWorstElementAtZero(t *testing.T) {
	res := &verifyResult{}
	fillVerify(res, &interp.Report{RelTol: 1e-5, Outputs: []interp.OutputDiff{
		{Name: "out", Shape: []int{2}, MaxAbs: 1, MaxRel: 1, Tol: 1e-5, Before: 1, After: 0},
		{Name: "ok", Shape: []int{2}, OK: true},
	}})
	b, err := json.Marshal(res.Outputs)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"worst":{"run":0,"index":0,"before":1,"after":0}`)
	assert.NotContains(t, string(b), `"name":"ok","shape":[2],"maxAbs":0,"maxRel":0,"ok":true,"worst"`)
	assert.False(t, res.OK)
	assert.Equal(t, "interp: outputs differ: out (max rel 1 > tol 1e-05, max abs 1)", res.Error)
}

// TestDiagnosticsOrder: on one line, an operand whose name is not bound is reported before the op's operand count,
// which follows from it (issue 35 point 8): the run's refusal names the unbound name.
func TestDiagnosticsOrder(t *testing.T) {
	ts := newTestServer(t, nil, Limits{})
	rules := strings.Replace(transformerRules, "pd_op.fc(%x, %w, %b)", "pd_op.fc(%x, %bias)", 1)
	require.NotEqual(t, transformerRules, rules)
	res := ts.runOn("tinytransformer", rules, "")
	require.Len(t, res.Diagnostics, 2, "%+v", res.Diagnostics)
	assert.Contains(t, res.Diagnostics[0].Message, "%bias is not bound")
	assert.Contains(t, res.Diagnostics[1].Message, "pd_op.fc takes 3 operands; the rewrite gives 2")
	assert.Equal(t, res.Diagnostics[0].Line, res.Diagnostics[1].Line)
	assert.Contains(t, res.Error, "%bias is not bound")
}
