package kernels_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/graphnet"
	"github.com/pirdrr/drr/ir/kernels"
)

// TestCapturedGraphsRunOnEveryGPU: the GraphNet graphs as captured (every tenth by default; PIRDRR_CORPUS=full for
// all) are programs Paddle ran, made of ops without architecture conditions: the check finds nothing on them for
// any GPU a target can name. A finding here is a wrong table, not a wrong program.
func TestCapturedGraphsRunOnEveryGPU(t *testing.T) {
	graphs := corpus.RequireGraphs(t, 0)
	ctx := defaultCtx(t)
	tab, err := kernels.Load(ctx, ir.GPU(80))
	require.NoError(t, err)
	for _, g := range graphs {
		p, err := graphnet.Read(ctx, g.Dir)
		require.NoError(t, err, g.Rel)
		for _, sm := range ir.ComputeCapabilities {
			for _, f := range kernels.Check(p, tab, ir.GPU(sm)) {
				if !f.Warning {
					t.Errorf("%s on sm%d: %s", g.Rel, sm, f)
				}
			}
		}
	}
}
