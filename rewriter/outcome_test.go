package rewriter

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// TestOutcome: the findings of a run, most serious first, each of its own type.
func TestOutcome(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	valid := ir.NewProgram(ctx)
	limited := &PassResult{Pass: "rules", Stats: &Stats{Limited: true, StopReason: "max rewrites (10)", Firing: []string{"grow"}}}
	failing := &PassResult{Pass: "rules", Stats: &Stats{Rules: []*RuleStats{
		{Name: "a", Failed: 2, FirstFailure: "attribute epsilon out of range"}, {Name: "b", Failed: 1, FirstFailure: "other"}}}}

	assert.Empty(t, Outcome(valid, []*PassResult{{Pass: "dce"}}))

	got := Outcome(valid, []*PassResult{limited, failing})
	require.Len(t, got, 2)
	var le *LimitError
	require.ErrorAs(t, got[0], &le)
	assert.Equal(t, "rules", le.Pass)
	var fe *FailedRewritesError
	require.ErrorAs(t, got[1], &fe)
	assert.Equal(t, 3, fe.N)
	assert.Equal(t, "3 rewrites failed (first: rule a: attribute epsilon out of range)", fe.Error())

	// An op without its required operand: the checker refuses the program, and that comes first.
	broken := ir.NewProgram(ctx)
	b := ir.NewBuilder(ctx)
	b.SetInsertionPointToEnd(broken.Body())
	b.Create(ir.OpSpec{Name: "pd_op.relu", Results: []ir.Type{ctx.Tensor(ir.DenseTensor, []int64{2}, ctx.Scalar(ir.DTypeFloat32))}})
	got = Outcome(broken, []*PassResult{failing})
	require.Len(t, got, 2)
	var ie *InvalidProgramError
	require.ErrorAs(t, got[0], &ie)
	assert.NotEmpty(t, ie.Diags)
	assert.Contains(t, ie.Error(), "fails checking")
}
