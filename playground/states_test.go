package playground

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pirdrr/drr/compare"
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
	opts := verify.PipelineOptions{Compare: compare.Options{Runs: 3, Seed: 1, RelTol: 1e-5}, Registry: testReg()}
	opts.Compare.Batch, opts.Compare.DynamicSize = 1, 32
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
	fillVerify(res, &compare.Report{RelTol: 1e-5, Outputs: []compare.OutputDiff{
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

// TestStableIDs: after a rewrite, the values that survive keep their ids of the input, and the values the pass
// created get ids above them — in the result's graph, its diff, its search texts and explain (the result mixed two
// numberings: a removed op and a kept one both drawn as %54, issue 35 point 7).
func TestStableIDs(t *testing.T) {
	ts := newTestServer(t, nil, Limits{})
	res := ts.runOn("tinytransformer", fcRules, "")
	base := "/api/runs/" + res.ID
	var in, out stageResult
	ts.call("GET", base+"/stages/0", nil, http.StatusOK, &in)
	ts.call("GET", base+"/stages/1?from=0", nil, http.StatusOK, &out)
	require.Len(t, out.OpTexts, out.Ops)
	require.Len(t, out.Origins, out.Ops)
	inText := map[string]string{} // input key → its line
	for i, text := range in.OpTexts {
		inText["o"+strconv.Itoa(i)] = text
	}
	maxIn := -1
	for _, text := range in.OpTexts {
		for _, id := range resultIDs(text) {
			maxIn = max(maxIn, id)
		}
	}
	var kept, created int
	for i, text := range out.OpTexts {
		if o := out.Origins[i]; o != "" {
			kept++
			// A kept op's results are named as in the input.
			assert.Equal(t, resultIDs(inText[o]), resultIDs(text), "%s (input: %s)", text, inText[o])
			continue
		}
		created++
		assert.Contains(t, text, `"pd_op.fc"`)
		for _, id := range resultIDs(text) {
			assert.Greater(t, id, maxIn, "a new value's id is above the input's: %s", text)
		}
	}
	assert.Equal(t, 12, created)
	assert.Equal(t, out.Ops-12, kept)
	// The PIR text itself keeps PIR's numbering.
	assert.Contains(t, out.Text, "(%0) = ")

	// The graph of the result: no id names two boxes, and the removed ops keep their input ids.
	var g struct {
		Nodes []struct {
			Label   string   `json:"label"`
			Classes []string `json:"classes"`
		} `json:"nodes"`
	}
	ts.call("GET", base+"/graph?stage=1&view=diff&collapse=0", nil, http.StatusOK, &g)
	seen := map[string]string{}
	for _, n := range g.Nodes {
		for _, id := range valueID.FindAllString(strings.SplitN(n.Label, " = ", 2)[0], -1) {
			assert.NotContains(t, seen, id, "%s names %q and %q", id, seen[id], n.Label)
			seen[id] = n.Label
		}
	}

	// The diff's lines are in the stable ids: a kept line reads as it did in the input.
	for _, h := range out.Diff {
		for _, l := range h.Lines {
			if l.Kind == "+" {
				assert.Contains(t, l.Text, `"pd_op.fc"`)
			}
		}
	}

	// Explain names the op by its stable id.
	for i, o := range out.Origins {
		if o != "" {
			continue
		}
		var ex explainResult
		ts.call("POST", base+"/explain", explainRequest{Stage: 1, Op: "o" + strconv.Itoa(i)}, http.StatusOK, &ex)
		assert.Equal(t, strings.SplitN(out.OpTexts[i], " = ", 2)[0], "("+strings.SplitN(ex.Op, " = ", 2)[0]+")")
		break
	}
}

// resultIDs returns the numbers of the result ids a printed op line starts with: (%3, %4) = … gives [3 4].
func resultIDs(line string) []int {
	head, _, ok := strings.Cut(line, " = ")
	if !ok {
		return nil
	}
	var ids []int
	for _, id := range valueID.FindAllString(head, -1) {
		if n, err := strconv.Atoi(strings.TrimPrefix(id, "%")); err == nil {
			ids = append(ids, n)
		}
	}
	return ids
}

// TestShippedSetRuns: a shipped set that imports its siblings, loaded into the editor, runs (its imports name the
// shipped sets: "cannot read conv2d_bn_fuse.drr" before).
func TestShippedSetRuns(t *testing.T) {
	ts := newTestServer(t, nil, Limits{})
	var src struct{ Text string }
	ts.call("GET", "/api/source?name=shipped/conv_bn_relu.drr", nil, http.StatusOK, &src)
	assert.Contains(t, src.Text, `import "shipped/conv2d_bn_fuse.drr"`)
	assert.NotContains(t, src.Text, `import "conv2d_bn_fuse.drr"`)
	res := ts.runOn("tinyresnet", src.Text, "")
	require.Empty(t, res.Error)
	assert.NotEmpty(t, res.Rules)
	// One source of counts: the pass's per-rule counts add up to its rewrites, a family's instances to its rule.
	require.Len(t, res.Passes, 1)
	applied := 0
	for _, r := range res.Passes[0].Rules {
		applied += r.Applied
		if len(r.Instances) > 0 {
			sum := 0
			for _, in := range r.Instances {
				sum += in.Applied
			}
			assert.Equal(t, r.Applied, sum, r.Rule)
		}
	}
	assert.Equal(t, res.Passes[0].Rewrites, applied)
}

// TestVerifyError: an op the interpreter cannot evaluate (here: beyond an element bound of 16) ends the
// verification with its error, not as a partial table.
func TestVerifyError(t *testing.T) {
	ts := newTestServer(t, nil, Limits{})
	res := ts.runOn("tinyresnet", resnetRules, "")
	rn := ts.srv.runs.get(res.ID)
	require.NotNil(t, rn)
	opts := verify.PipelineOptions{Compare: compare.Options{Runs: 3, Seed: 1, RelTol: 1e-5}, Registry: testReg()}
	opts.Compare.Batch, opts.Compare.DynamicSize, opts.Compare.MaxElements = 1, 32, 16
	var stop atomic.Bool
	events := make(chan verifyEvent, 8)
	verifyRuns(rn.stages[0].prog.Clone(), rn.pipeline, opts, &stop, events)
	close(events)
	var last verifyEvent
	for ev := range events {
		last = ev
	}
	require.Equal(t, "done", last.Phase)
	v := last.Result
	assert.Contains(t, v.Error, "MaxElements")
	assert.False(t, v.OK)
	assert.False(t, v.Partial, "an error, not a stop")
	assert.Zero(t, v.Done)
}
