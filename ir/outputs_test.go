package ir

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOutputsAndSinks is the one test of what an output of a program is and what a sink is, the definition the
// rewriter (dce), the interpreter (sinks), drrc verify (AnchorSinks) and the GraphNet reader (fetchSinks) share:
// each row is an op, whether it is an output op, a sink candidate, and, created with its result unused or used,
// a sink.
func TestOutputsAndSinks(t *testing.T) {
	c, err := NewDefaultContext()
	require.NoError(t, err)
	// A dialect op that is ConstantLike by trait only: the trait, not a list of names, makes it a constant.
	_, err = c.LoadCatalog("test.dialect", []byte("dialect test\n\nop zeros() -> (out)\n    traits(ReadOnly, ValueSemantics, ConstantLike)\n"))
	require.NoError(t, err)
	f32 := c.Tensor(DenseTensor, []int64{2}, c.Scalar(DTypeFloat32))
	vec := c.Vector(f32, f32)
	tests := []struct {
		op        string
		operand   bool // the op reads x
		results   []Type
		output    bool
		candidate bool
	}{
		{op: FetchOpName, operand: true, results: []Type{f32}, output: true},
		{op: ShadowOutputOpName, operand: true, output: true},
		{op: SetParameterOpName, operand: true, output: true},
		{op: ParameterOpName, results: []Type{f32}},
		{op: GetParameterOpName, results: []Type{f32}},
		{op: "pd_op.data", results: []Type{f32}},
		{op: "pd_op.feed", results: []Type{f32}},
		{op: "pd_op.full", results: []Type{f32}},
		{op: "pd_op.full_int_array", results: []Type{f32}},
		{op: "pd_op.assign_value", results: []Type{f32}},
		{op: "builtin.constant", results: []Type{f32}},
		{op: "test.zeros", results: []Type{f32}},
		{op: "pd_op.relu", operand: true, results: []Type{f32}, candidate: true},
		{op: "pd_op.relu_", operand: true, results: []Type{f32}, candidate: true},
		{op: "builtin.combine", operand: true, results: []Type{vec}, candidate: true},
		{op: "mydialect.unregistered", operand: true, results: []Type{f32}, candidate: true},
		{op: "mydialect.effect", operand: true, candidate: true}, // no result: a candidate, never a sink
	}
	for _, tc := range tests {
		t.Run(tc.op, func(t *testing.T) {
			for _, used := range []bool{false, true} {
				p := NewProgram(c)
				b := NewBuilder(c)
				b.SetInsertionPointToEnd(p.Body())
				x := b.Create(OpSpec{Name: "pd_op.data", Results: []Type{f32}}).Result(0)
				spec := OpSpec{Name: tc.op, Results: tc.results}
				if tc.operand {
					spec.Operands = []*Value{x}
				}
				op := b.Create(spec)
				if used && op.NumResults() > 0 {
					b.Create(OpSpec{Name: "pd_op.relu", Operands: []*Value{op.Result(0)}, Results: []Type{f32}})
				}
				assert.Equal(t, tc.output, IsOutputOp(op), "IsOutputOp")
				assert.Equal(t, tc.output, HasOutputs(p), "HasOutputs")
				assert.Equal(t, tc.candidate, IsSinkCandidate(op), "IsSinkCandidate")
				sink := tc.candidate && !used && len(tc.results) > 0
				assert.Equal(t, sink, IsSink(op), "IsSink (result used: %v)", used)
				var tensors []*Value
				if sink && TensorOf(tc.results[0]) != nil {
					tensors = op.Results()
				}
				got := SinkTensors(p.Body())
				if used && op.NumResults() > 0 {
					// The relu that reads op's result is the sink then.
					require.NotEmpty(t, got)
					got = got[:len(got)-1]
				}
				assert.ElementsMatch(t, tensors, got, "SinkTensors (result used: %v)", used)
			}
		})
	}
}

// TestHasOutputsNested: an output op in a nested region is an output of the program; the sinks of a block are
// those of its own ops only.
func TestHasOutputsNested(t *testing.T) {
	c, err := NewDefaultContext()
	require.NoError(t, err)
	f32 := c.Tensor(DenseTensor, []int64{2}, c.Scalar(DTypeFloat32))
	p := NewProgram(c)
	b := NewBuilder(c)
	b.SetInsertionPointToEnd(p.Body())
	x := b.Create(OpSpec{Name: "pd_op.data", Results: []Type{f32}}).Result(0)
	loop := b.Create(OpSpec{Name: "pd_op.while", Regions: 1})
	b.SetInsertionPointToEnd(loop.Region(0).AddBlock())
	inner := b.Create(OpSpec{Name: "pd_op.relu", Operands: []*Value{x}, Results: []Type{f32}})
	assert.False(t, HasOutputs(p))
	assert.Empty(t, SinkTensors(p.Body()), "the while has no results")
	assert.Equal(t, inner.Results(), SinkTensors(loop.Region(0).Block(0)))
	b.Create(OpSpec{Name: ShadowOutputOpName, Operands: []*Value{inner.Result(0)},
		Attrs: []NamedAttr{{Name: "output_name", Value: c.Str("y")}}})
	assert.True(t, HasOutputs(p))
	assert.Empty(t, SinkTensors(loop.Region(0).Block(0)), "the relu is read by the shadow_output")
}

// TestHasOutputs: an output op is found wherever it is (first, last, nested in a region), a program without one has
// none also when its Context has made ops of the output kinds elsewhere, and a Context that never made one answers
// without a walk.
func TestHasOutputs(t *testing.T) {
	tests := []struct {
		name  string
		build func(b *Builder, p *Program, x *Value)
		want  bool
	}{
		{"none", func(b *Builder, p *Program, x *Value) {}, false},
		{"fetch last", func(b *Builder, p *Program, x *Value) {
			b.Create(OpSpec{Name: FetchOpName, Operands: []*Value{x}})
		}, true},
		{"shadow output first", func(b *Builder, p *Program, x *Value) {
			b.SetInsertionPointToStart(p.Body())
			b.Create(OpSpec{Name: ShadowOutputOpName})
		}, true},
		{"set_parameter in a region", func(b *Builder, p *Program, x *Value) {
			w := b.Create(OpSpec{Name: "pd_op.while", Operands: []*Value{x}, Regions: 1})
			b.SetInsertionPointToEnd(w.Region(0).AddBlock())
			b.Create(OpSpec{Name: SetParameterOpName, Operands: []*Value{x}})
			b.Create(OpSpec{Name: "cf.yield", Operands: []*Value{x}})
		}, true},
	}
	for _, other := range []bool{false, true} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s/other program with outputs %v", tt.name, other), func(t *testing.T) {
				c := NewContext()
				f32 := c.Tensor(DenseTensor, []int64{2}, c.Scalar(DTypeFloat32))
				if other {
					q := NewProgram(c)
					b := NewBuilder(c)
					b.SetInsertionPointToEnd(q.Body())
					y := b.Create(OpSpec{Name: "pd_op.data", Results: []Type{f32}}).Result(0)
					b.Create(OpSpec{Name: FetchOpName, Operands: []*Value{y}})
					b.Create(OpSpec{Name: ShadowOutputOpName, Operands: []*Value{y}})
					b.Create(OpSpec{Name: SetParameterOpName, Operands: []*Value{y}})
					require.True(t, HasOutputs(q))
				}
				p := NewProgram(c)
				b := NewBuilder(c)
				b.SetInsertionPointToEnd(p.Body())
				x := b.Create(OpSpec{Name: "pd_op.data", Results: []Type{f32}}).Result(0)
				b.Create(OpSpec{Name: "pd_op.relu", Operands: []*Value{x}, Results: []Type{f32}})
				tt.build(b, p, x)
				assert.Equal(t, tt.want, HasOutputs(p))
			})
		}
	}
}
