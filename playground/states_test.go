package playground

import (
	"net/http"
	"testing"

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
