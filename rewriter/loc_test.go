package rewriter

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

// TestCreatedOpsTakeTheRootsPosition: the ops a rewrite creates carry the position of the matched root in the
// source, so that diagnostics about them (the kernel check of drrc check -target) point at the code they replace.
func TestCreatedOpsTakeTheRootsPosition(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	set, diags := drr.LoadSource(ctx, drr.LoadOptions{}, "r.drr", []byte(`rule r {
  match { %y = pd_op.sigmoid(%x) }
  rewrite { replace %y with pd_op.tanh(pd_op.scale(%x, pd_op.full() {shape: [1], value: 0.5, dtype: float32}) {bias: 0.0}) }
}
`))
	require.False(t, diags.HasErrors(), "%v", diags)
	p, _, err := pirtext.Parse(ctx, "p.pir", []byte(`{
    (%0) = "builtin.parameter" () {parameter_name:"x"} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.sigmoid" (%0) {} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%2) = "pd_op.fetch" (%1) {col:(Int32)0,name:"out0"} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
}
`), pirtext.ReadOptions{})
	require.NoError(t, err)
	_, err = NewRulePass("r", set).Run(p, &Env{})
	require.NoError(t, err)
	created := 0
	for op := range p.Walk() {
		switch op.Name() {
		case "pd_op.tanh", "pd_op.scale", "pd_op.full":
			created++
			assert.Equal(t, ir.Loc{Line: 3, Col: 5}, op.Loc, op.Name())
		}
	}
	assert.Equal(t, 3, created)
}
