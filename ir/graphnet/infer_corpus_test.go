package graphnet

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
)

// TestInferredTypesMatchCaptures re-infers the result types of every op instance of the GraphNet graphs (every
// tenth graph by default, all 811 with PIRDRR_CORPUS=full) with the catalog's type rules and compares them with
// the captured ones, which are the truth: dtype and every dim exactly. The captures are what Paddle's own
// InferMeta functions gave when the graph was built, so a -1 in a capture is a size Paddle left unknown and must be
// inferred as unknown, and a number must be inferred as that number.
func TestInferredTypesMatchCaptures(t *testing.T) {
	graphs := corpus.RequireGraphs(t, 0)
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	instances, perOp := 0, map[string]int{}
	var mismatches []string
	for _, g := range graphs {
		p, err := Read(ctx, g.Dir)
		require.NoError(t, err, g.Rel)
		for op := range p.Walk() {
			if op.NumResults() == 0 {
				continue
			}
			instances++
			perOp[op.Name()]++
			if err := ctx.CheckResultTypes(op, p); err != nil {
				mismatches = append(mismatches, g.Rel+": "+err.Error())
			}
		}
	}
	t.Logf("%d graphs, %d op instances of %d ops checked, %d mismatches; corpus.Full()=%v", len(graphs), instances,
		len(perOp), len(mismatches), corpus.Full())
	assert.Empty(t, mismatches[:min(len(mismatches), 20)], "the first of %d mismatches", len(mismatches))
}
