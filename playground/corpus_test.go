package playground

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/corpus"
)

// TestRealModel is the promise of docs/playground.md on a real model: a GraphNet graph of the corpus, given on the
// command line, listed, fused by the fc rule, drawn with its matches, and verified.
func TestRealModel(t *testing.T) {
	dir := corpus.Path(t, "graphnet_samples/PaddleNLP/albert-chinese-tiny")
	ts := newTestServer(t, []string{dir}, Limits{})
	var info infoResult
	ts.call("GET", "/api/info", nil, http.StatusOK, &info)
	require.NotEmpty(t, info.Files)
	assert.Equal(t, fileInfo{Name: "albert-chinese-tiny", Kind: kindProgram, Format: "graphnet"}, info.Files[0])

	var res runResult
	ts.call("POST", "/api/run", runRequest{Rules: fcRules, Program: programRef{File: "albert-chinese-tiny"}}, http.StatusOK, &res)
	require.Empty(t, res.Error)
	require.Len(t, res.Rules, 1)
	assert.Positive(t, res.Rules[0].Matches, "the model's linear layers are matmul + add")
	assert.Equal(t, res.OpsIn-res.Rules[0].Matches, res.OpsOut, "each match makes one fc of two ops")
	t.Logf("albert-chinese-tiny: %d ops, %d fc fusions, %.1f ms", res.OpsIn, res.Rules[0].Matches, res.Millis)

	var g struct {
		Nodes []struct {
			Classes []string `json:"classes"`
		} `json:"nodes"`
	}
	ts.call("GET", "/api/runs/"+res.ID+"/graph?stage=0", nil, http.StatusOK, &g)
	matched := 0
	for _, n := range g.Nodes {
		if len(n.Classes) > 0 && n.Classes[0] == "matched" {
			matched++
		}
	}
	assert.Positive(t, matched)

	var v verifyResult
	ts.call("POST", "/api/runs/"+res.ID+"/verify", map[string]any{}, http.StatusOK, &v)
	assert.True(t, v.OK, "%s", v.Error)
	t.Logf("verify: %d outputs, %.0f ms", len(v.Outputs), v.Millis)
}
