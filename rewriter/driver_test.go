package rewriter

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// unaryRule rewrites from(x) into to(x).
func unaryRule(name, from, to string, benefit int) *rule.Rule {
	return &rule.Rule{
		Name: name, Benefit: benefit,
		Pattern: &rule.Pattern{
			Ops:    []*rule.OpPattern{{Name: from, Operands: []rule.OperandPattern{{Value: 0}}, Results: []rule.ResultPattern{{Value: 1}}, RestAttrs: -1}},
			Values: []*rule.ValueHole{{Name: "x", Def: -1}, {Name: "y", Def: 0}},
		},
		NewValues: []*rule.NewValue{{Name: "n"}},
		Actions: []rule.Action{
			&rule.Create{Op: to, Operands: []rule.RewriteOperand{{Ref: rule.Ref{Index: 0}}}, Results: []int{0}, RestAttrs: -1},
			&rule.Replace{Value: rule.Ref{Index: 1}, With: rule.Ref{New: true}},
		},
	}
}

func setOf(c *ir.Context, rules ...*rule.Rule) *rule.Set {
	for i, r := range rules {
		r.Index = i
	}
	return &rule.Set{Ctx: c, Rules: rules}
}

func run(t *testing.T, x *pb, set *rule.Set, opts Options) (*Stats, error) {
	t.Helper()
	d := NewDriver(x.p, set, simpleMatch(set), nil, nil, opts)
	return d.Run()
}

func TestDriverChains(t *testing.T) {
	x := newPB(t)
	in := x.data()
	r := x.op("pd_op.relu_", 1, nil, in)
	sig := x.op("pd_op.sigmoid_", 1, nil, r.Result(0))
	mul := x.op("pd_op.multiply", 1, nil, r.Result(0), sig.Result(0))
	x.fetch(mul.Result(0))
	set := setOf(x.c, unaryRule("relu", "pd_op.relu_", "pd_op.relu", 0), unaryRule("sigmoid", "pd_op.sigmoid_", "pd_op.sigmoid", 0), siluRule())
	st, err := run(t, x, set, Options{})
	require.NoError(t, err)
	assert.True(t, st.Converged)
	assert.Equal(t, "converged", st.StopReason)
	assert.Equal(t, 3, st.Rewrites)
	assert.Equal(t, []string{"pd_op.data", "pd_op.relu", "pd_op.swish", "pd_op.fetch"}, x.names())
	assert.Equal(t, 1, st.Rules[2].Applied)
	assert.Empty(t, ir.Verify(x.p))
}

func TestDriverBenefitOrder(t *testing.T) {
	for _, tc := range []struct {
		benefitA, benefitB int
		want               string
	}{{1, 2, "pd_op.tanh"}, {2, 1, "pd_op.sigmoid"}, {1, 1, "pd_op.sigmoid"}} {
		x := newPB(t)
		x.fetch(x.op("pd_op.relu", 1, nil, x.data()).Result(0))
		set := setOf(x.c, unaryRule("a", "pd_op.relu", "pd_op.sigmoid", tc.benefitA), unaryRule("b", "pd_op.relu", "pd_op.tanh", tc.benefitB))
		_, err := run(t, x, set, Options{})
		require.NoError(t, err)
		assert.Equal(t, []string{"pd_op.data", tc.want, "pd_op.fetch"}, x.names(), "benefits %d/%d", tc.benefitA, tc.benefitB)
	}
}

// firstOperandRule replaces %y = from(%a, %b) with to(%a): %b loses a use.
func firstOperandRule(from, to string) *rule.Rule {
	return &rule.Rule{
		Name: "first_operand",
		Pattern: &rule.Pattern{
			Ops:    []*rule.OpPattern{{Name: from, Operands: []rule.OperandPattern{{Value: 0}, {Value: 1}}, Results: []rule.ResultPattern{{Value: 2}}, RestAttrs: -1}},
			Values: []*rule.ValueHole{{Name: "a", Def: -1}, {Name: "b", Def: -1}, {Name: "y", Def: 0}},
		},
		NewValues: []*rule.NewValue{{Name: "n"}},
		Actions: []rule.Action{
			&rule.Create{Op: to, Operands: []rule.RewriteOperand{{Ref: rule.Ref{Index: 0}}}, Results: []int{0}, RestAttrs: -1},
			&rule.Replace{Value: rule.Ref{Index: 2}, With: rule.Ref{New: true}},
		},
	}
}

func TestDriverDeadCode(t *testing.T) {
	// An op a rewrite leaves without uses is erased; ops that had no uses before the run are the program's
	// outputs (GraphNet captures have no fetch ops) and stay, as do unregistered ops.
	x := newPB(t)
	in := x.data()
	x.op("pd_op.relu", 1, nil, in) // no uses to begin with: kept
	x.op("my.unknown", 1, nil, in) // unregistered: kept
	b := x.op("pd_op.exp", 1, nil, in).Result(0)
	x.fetch(x.op("pd_op.add", 1, nil, in, b).Result(0))
	st, err := run(t, x, setOf(x.c, firstOperandRule("pd_op.add", "pd_op.tanh")), Options{})
	require.NoError(t, err)
	assert.Equal(t, 1, st.Erased, "the exp the rewrite left without uses")
	assert.Equal(t, []string{"pd_op.data", "pd_op.relu", "my.unknown", "pd_op.tanh", "pd_op.fetch"}, x.names())

	n, err := DCE(x.p, ir.NewRewriter(x.c, nil))
	require.NoError(t, err)
	assert.Equal(t, 1, n, "the dce pass erases the relu nobody reads")
	assert.Equal(t, []string{"pd_op.data", "my.unknown", "pd_op.tanh", "pd_op.fetch"}, x.names())

	y := newPB(t)
	in = y.data()
	b = y.op("pd_op.exp", 1, nil, in).Result(0)
	y.fetch(y.op("pd_op.add", 1, nil, in, b).Result(0))
	_, err = run(t, y, setOf(y.c, firstOperandRule("pd_op.add", "pd_op.tanh")), Options{NoDCE: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"pd_op.data", "pd_op.exp", "pd_op.tanh", "pd_op.fetch"}, y.names())
}

// TestDeadInplaceWriteIsKept: relu_(a) with an unused result still writes a, which the fetch reads; neither the
// driver nor the dce pass may erase it.
func TestDeadInplaceWriteIsKept(t *testing.T) {
	x := newPB(t)
	a := x.op("pd_op.tanh", 1, nil, x.data()).Result(0)
	b := x.op("pd_op.exp", 1, nil, a).Result(0)
	add := x.op("pd_op.add", 1, nil, a, b)
	x.op("pd_op.relu_", 1, nil, add.Result(0)) // writes the add's result, read by the fetch
	x.fetch(add.Result(0))
	_, err := run(t, x, setOf(x.c, firstOperandRule("pd_op.multiply", "pd_op.tanh")), Options{})
	require.NoError(t, err)
	n, err := DCE(x.p, ir.NewRewriter(x.c, nil))
	require.NoError(t, err)
	assert.Zero(t, n)
	assert.Equal(t, []string{"pd_op.data", "pd_op.tanh", "pd_op.exp", "pd_op.add", "pd_op.relu_", "pd_op.fetch"}, x.names())
}

func TestDriverLimits(t *testing.T) {
	x := newPB(t)
	v := x.data()
	for i := 0; i < 5; i++ {
		v = x.op("pd_op.relu_", 1, nil, v).Result(0)
	}
	x.fetch(v)
	st, err := run(t, x, setOf(x.c, unaryRule("relu", "pd_op.relu_", "pd_op.relu", 0)), Options{MaxRewrites: 2})
	require.NoError(t, err)
	assert.False(t, st.Converged)
	assert.Equal(t, "max rewrites (2)", st.StopReason)
	assert.Equal(t, 2, st.Rewrites)
	assert.True(t, st.Limited)
	assert.Equal(t, []string{"relu"}, st.Firing)
	err = CheckLimits([]*PassResult{{Pass: "dce"}, {Pass: "inplace", Stats: &Stats{StopReason: "converged", Converged: true}}, {Pass: "rules", Stats: st}})
	var le *LimitError
	require.ErrorAs(t, err, &le)
	assert.EqualError(t, err, "pass rules stopped at max rewrites (2) before converging: rule relu kept firing")

	// One sweep rewrites every relu_; the second, which would find nothing left, is past the limit.
	y := newPB(t)
	v = y.data()
	for i := 0; i < 3; i++ {
		v = y.op("pd_op.relu_", 1, nil, v).Result(0)
	}
	y.fetch(v)
	st, err = run(t, y, setOf(y.c, unaryRule("relu", "pd_op.relu_", "pd_op.relu", 0)), Options{MaxIterations: 1})
	require.NoError(t, err)
	assert.Equal(t, "max iterations (1)", st.StopReason)
	assert.True(t, st.Limited)
	assert.Equal(t, []string{"relu"}, st.Firing)

	st, err = run(t, y, setOf(y.c, unaryRule("relu", "pd_op.relu_", "pd_op.relu", 0)), Options{})
	require.NoError(t, err)
	assert.True(t, st.Converged)
	assert.False(t, st.Limited)
	assert.Empty(t, st.Firing)
	assert.NoError(t, CheckLimits([]*PassResult{{Pass: "rules", Stats: st}}))
}

func TestDriverCycle(t *testing.T) {
	x := newPB(t)
	x.fetch(x.op("pd_op.relu", 1, nil, x.data()).Result(0))
	set := setOf(x.c, unaryRule("to_tanh", "pd_op.relu", "pd_op.tanh", 0), unaryRule("to_relu", "pd_op.tanh", "pd_op.relu", 0))
	st, err := run(t, x, set, Options{})
	var ce *CycleError
	require.ErrorAs(t, err, &ce)
	assert.ElementsMatch(t, []string{"to_tanh", "to_relu"}, ce.Rules)
	assert.EqualError(t, err, "rewrite cycle detected between rules "+ce.Rules[0]+", "+ce.Rules[1])
	assert.False(t, st.Converged)
	assert.Less(t, st.Rewrites, 1100)
	assert.Empty(t, ir.Verify(x.p), "a stopped driver leaves a valid program")
}

func TestDriverRegions(t *testing.T) {
	x := newPB(t)
	in := x.data()
	cond := x.b.Create(ir.OpSpec{Name: "pd_op.full", Results: []ir.Type{x.c.Tensor(ir.DenseTensor, []int64{1}, x.c.Scalar(ir.DTypeBool))},
		Attrs: []ir.NamedAttr{{Name: "shape", Value: x.c.IntArray([]int64{1})}, {Name: "value", Value: x.c.Double(1)}}})
	ifOp := x.b.Create(ir.OpSpec{Name: "pd_op.if", Operands: []*ir.Value{cond.Result(0)}, Results: []ir.Type{x.f32}, Regions: 2})
	for i := 0; i < 2; i++ {
		ib := ir.NewBuilder(x.c)
		ib.SetInsertionPointToEnd(ifOp.Region(i).AddBlock())
		r := ib.Create(ir.OpSpec{Name: "pd_op.relu_", Operands: []*ir.Value{in}, Results: []ir.Type{x.f32}})
		ib.Create(ir.OpSpec{Name: "cf.yield", Operands: []*ir.Value{r.Result(0)}})
	}
	x.fetch(ifOp.Result(0))
	st, err := run(t, x, setOf(x.c, unaryRule("relu", "pd_op.relu_", "pd_op.relu", 0)), Options{VerifyEach: true})
	require.NoError(t, err)
	assert.Equal(t, 2, st.Rewrites)
	assert.Equal(t, []string{"pd_op.data", "pd_op.full", "pd_op.if", "pd_op.relu", "cf.yield", "pd_op.relu", "cf.yield", "pd_op.fetch"}, x.names())
}

func TestDriverDeterministicAndShuffle(t *testing.T) {
	build := func() *pb {
		x := newPB(t)
		v := x.data()
		for i := 0; i < 20; i++ {
			r := x.op("pd_op.relu_", 1, nil, v)
			s := x.op("pd_op.sigmoid_", 1, nil, r.Result(0))
			v = x.op("pd_op.multiply", 1, nil, r.Result(0), s.Result(0)).Result(0)
		}
		x.fetch(v)
		return x
	}
	rules := func(c *ir.Context) *rule.Set {
		return setOf(c, unaryRule("relu", "pd_op.relu_", "pd_op.relu", 0), unaryRule("sigmoid", "pd_op.sigmoid_", "pd_op.sigmoid", 0), siluRule())
	}
	ref := build()
	_, err := run(t, ref, rules(ref.c), Options{})
	require.NoError(t, err)
	for _, opts := range []Options{{}, {BottomUp: true}, {Shuffle: true, Seed: 1}, {Shuffle: true, Seed: 42}} {
		x := build()
		st, err := run(t, x, rules(x.c), opts)
		require.NoError(t, err)
		assert.True(t, st.Converged)
		assert.Equal(t, ref.names(), x.names(), "%+v", opts)
	}
}

func TestDriverVerifyEachNamesTheRule(t *testing.T) {
	x := newPB(t)
	x.fetch(x.op("pd_op.relu", 1, nil, x.data()).Result(0))
	bad := unaryRule("bad", "pd_op.relu", "pd_op.add", 0) // add wants two operands
	bad.Actions[0].(*rule.Create).ResultTypes = []rule.TypeExpr{{Of: &rule.Ref{Index: 1}}}
	_, err := run(t, x, setOf(x.c, bad), Options{VerifyEach: true})
	var ve *VerifyError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "bad", ve.Rule.Name)
	assert.Contains(t, err.Error(), "pd_op.add: has 1 operands; pd_op.add takes 2 operands")
}

func TestDriverTrace(t *testing.T) {
	x := newPB(t)
	x.p.File = "m.pir"
	in := x.data()
	r := x.b.Create(ir.OpSpec{Name: "pd_op.relu_", Operands: []*ir.Value{in}, Results: []ir.Type{x.f32}, Loc: ir.Loc{Line: 3, Col: 5}})
	x.fetch(r.Result(0))
	var lines []string
	_, err := run(t, x, setOf(x.c, unaryRule("deinplace", "pd_op.relu_", "pd_op.relu", 0)), Options{Trace: func(e TraceEvent) { lines = append(lines, e.String()) }})
	require.NoError(t, err)
	assert.Equal(t, []string{"#1 deinplace: %1 = pd_op.relu_ at m.pir:3:5 (+1 ops)"}, lines)
}

func TestDriverContext(t *testing.T) {
	budget := errors.New("time budget of the run exceeded")
	tests := []struct {
		name string
		// cancel is called before the run (at = 0) or after rewrite number at.
		at     int
		cause  error
		reason string
	}{
		{"done before the run", 0, nil, "cancelled: context canceled"},
		{"done before the run, with a cause", 0, budget, "cancelled: " + budget.Error()},
		{"done during the run", 10, budget, "cancelled: " + budget.Error()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// relu → tanh → relu … on a long chain: rewrites go on until the cycle detector sees them repeat (more
			// rewrites than ops), long after the cancellation.
			x := newPB(t)
			v := x.data()
			for i := 0; i < 200; i++ {
				v = x.op("pd_op.relu", 1, nil, v).Result(0)
			}
			x.fetch(v)
			set := setOf(x.c, unaryRule("to_tanh", "pd_op.relu", "pd_op.tanh", 0), unaryRule("to_relu", "pd_op.tanh", "pd_op.relu", 0))
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			if tt.at == 0 {
				cancel(tt.cause)
			}
			opts := Options{Context: ctx, Trace: func(e TraceEvent) {
				if e.Seq == tt.at {
					cancel(tt.cause)
				}
			}}
			st, err := run(t, x, set, opts)
			want := tt.cause
			if want == nil {
				want = context.Canceled
			}
			require.ErrorIs(t, err, want)
			assert.Equal(t, tt.reason, st.StopReason)
			assert.False(t, st.Converged)
			assert.GreaterOrEqual(t, st.Rewrites, tt.at)
			assert.LessOrEqual(t, st.Rewrites, tt.at+cancelPoll, "the driver looks at its context every cancelPoll ops")
			assert.Empty(t, ir.Verify(x.p), "a cancelled driver leaves a valid program")
		})
	}
}
