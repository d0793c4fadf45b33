package pirjson

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// TestInferredTypesMatchCorpus re-infers the result types of every op of the PIR JSON corpus (models Paddle
// exported, with if regions and their yields) and compares them with the types the files record (see
// ir.Context.CheckResultTypes).
func TestInferredTypesMatchCorpus(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	instances := 0
	for _, f := range corpusFiles(t) {
		p, err := Read(ctx, f.name, f.src, ReadOptions{})
		require.NoError(t, err, f.name)
		for op := range p.Walk() {
			if op.NumResults() == 0 {
				continue
			}
			instances++
			assert.NoError(t, ctx.CheckResultTypes(op, p), f.name)
		}
	}
	t.Logf("%d op instances checked", instances)
}
