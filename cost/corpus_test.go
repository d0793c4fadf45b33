package cost_test

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rules"
)

// corpusPrograms returns the programs of the shared corpus the tests cost: every PIR text and JSON file and the
// sampled GraphNet graphs (all of them with PIRDRR_CORPUS=full).
func corpusPrograms(t *testing.T) []string {
	root := corpus.Require(t)
	var out []string
	for _, dir := range []string{"pir_text", "pir_json", "graphnet"} {
		progs, err := pirfile.Standard().Expand(filepath.Join(root, dir))
		require.NoError(t, err)
		out = append(out, progs...)
	}
	for _, g := range corpus.RequireGraphs(t, 0) {
		out = append(out, g.Dir)
	}
	return out
}

// TestCorpusEveryOpCosted: every op of the corpus programs — as read, after the inference pipeline and after
// gpu_inference — has a cost: the uncosted count is 0 (an op the model cannot cost is reported, never a zero).
func TestCorpusEveryOpCosted(t *testing.T) {
	progs := corpusPrograms(t)
	reg := rewriter.NewRegistry()
	require.NoError(t, rules.Register(reg))
	m, err := cost.NewModel("a100")
	require.NoError(t, err)
	uncosted := map[string][]string{}
	programs := 0
	for _, path := range progs {
		for _, pipeline := range []string{"", "inference", "gpu_inference"} {
			ctx, err := ir.NewDefaultContext()
			require.NoError(t, err)
			p, _, err := pirfile.Load(ctx, path)
			if err != nil {
				continue // the corpus holds a program pirdrr rejects (pir_text/24: a legacy fragment)
			}
			if pipeline != "" {
				pl, err := reg.Pipeline(ctx, pipeline)
				require.NoError(t, err)
				if _, err := pl.Run(p, &rewriter.Env{Registry: reg}); err != nil {
					t.Fatalf("%s: %s: %v", path, pipeline, err)
				}
			}
			programs++
			r := m.Analyze(p)
			for _, c := range r.Ops {
				if c.Err != nil {
					key := c.Err.Error()
					if len(uncosted[key]) < 3 {
						uncosted[key] = append(uncosted[key], fmt.Sprintf("%s (%s)", path, pipeline))
					}
				}
			}
		}
	}
	var lines []string
	for k, v := range uncosted {
		lines = append(lines, k+": "+strings.Join(v, ", "))
	}
	sort.Strings(lines)
	require.Empty(t, lines, "ops the model cannot cost, in %d programs", programs)
	t.Logf("%d programs costed, every op", programs)
}
