package ir

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNewParamsIsCollectParams: the table a reader builds from the parameter ops it met is the one CollectParams
// computes by walking the program: first reader's type, set_parameter makes mutable (or declares), nested ops
// count, ops without a name or result do not.
func TestNewParamsIsCollectParams(t *testing.T) {
	c := NewContext()
	p := NewProgram(c)
	b := NewBuilder(c)
	b.SetInsertionPointToEnd(p.Body())
	f32, i64 := c.Tensor(DenseTensor, []int64{2}, c.Scalar(DTypeFloat32)), c.Tensor(DenseTensor, []int64{2}, c.Scalar(DTypeInt64))
	var ops OpList
	param := func(op string, name string, t Type, operands ...*Value) *Op {
		spec := OpSpec{Name: op, Operands: operands}
		if t != nil {
			spec.Results = []Type{t}
		}
		if name != "" {
			spec.Attrs = []NamedAttr{{Name: "parameter_name", Value: c.Str(name)}}
		}
		o := b.Create(spec)
		if IsParamOp(o) {
			ops.Append(o)
		}
		return o
	}
	w := param(ParameterOpName, "w", f32).Result(0)
	param(GetParameterOpName, "w", i64)       // a second reader: the first one's type wins
	param(ParameterOpName, "", f32)           // no name
	param(ParameterOpName, "noresult", nil)   // no result
	param(SetParameterOpName, "w", nil, w)    // w is written
	param(SetParameterOpName, "only", nil, w) // written, never read: declared by the write
	loop := b.Create(OpSpec{Name: "pd_op.while", Regions: 1})
	b.SetInsertionPointToEnd(loop.Region(0).AddBlock())
	param(ParameterOpName, "inner", i64)
	param("pd_op.relu", "", f32, w)

	got := NewParams(c, &ops)
	p.CollectParams()
	require.Equal(t, len(p.Params), len(got))
	for name, want := range p.Params {
		v := got[name]
		require.NotNil(t, v, name)
		assert.Equal(t, *want, *v, name)
	}
	assert.True(t, got["w"].Mutable)
	assert.Equal(t, Type(f32), got["w"].Type)
	assert.True(t, got["only"].Mutable)
	assert.False(t, got["inner"].Mutable)
}

// TestOpList: appending across the runs keeps every op, in order forward and backward, and stopping an iteration
// early stops it.
func TestOpList(t *testing.T) {
	c := NewContext()
	for _, n := range []int{0, 1, 63, 64, 65, 200, opListRun, 3*opListRun + 17} {
		var l OpList
		want := make([]*Op, n)
		for i := range want {
			want[i] = c.NewOp(OpSpec{Name: "x.op"})
			l.Append(want[i])
		}
		require.Equal(t, n, l.Len())
		var fwd, bwd []*Op
		for op := range l.All() {
			fwd = append(fwd, op)
		}
		for op := range l.Backward() {
			bwd = append(bwd, op)
		}
		if n == 0 {
			assert.Empty(t, fwd)
			assert.Empty(t, bwd)
			continue
		}
		assert.Equal(t, want, fwd, "n=%d forward", n)
		for i, op := range bwd {
			require.Same(t, want[n-1-i], op, "n=%d backward %d", n, i)
		}
		for op := range l.All() {
			assert.Same(t, want[0], op)
			break
		}
		for op := range l.Backward() {
			assert.Same(t, want[n-1], op)
			break
		}
	}
	var l OpList
	for range 3*opListRun + 1 {
		l.Append(nil)
	}
	for _, run := range l.runs {
		assert.LessOrEqual(t, cap(run), opListRun, "runs stop growing at opListRun")
	}
}
