package ir

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNewParamsIsCollectParams: the table a reader builds from the parameter ops it met is the one CollectParams
// computes by walking the program: first reader's type, set_parameter makes mutable (or declares), nested ops
// count, ops without a name or result do not.
func TestNewParamsIsCollectParams(t *testing.T) {
	var ops OpList
	c, p, b, param := paramMaker(&ops)
	f32, i64 := c.Tensor(DenseTensor, []int64{2}, c.Scalar(DTypeFloat32)), c.Tensor(DenseTensor, []int64{2}, c.Scalar(DTypeInt64))
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

// TestParamsBuilderIsNewParams: the table a builder makes, on its goroutine or not, is NewParams' for the same ops:
// over several runs of ops, with a name read twice with two types (the first reader's wins), written before it is
// read (the reader's type, mutable), written only (declared by the write), and ops without a name or result.
func TestParamsBuilderIsNewParams(t *testing.T) {
	var list OpList
	c, _, _, param := paramMaker(&list)
	f32, i64 := c.Tensor(DenseTensor, []int64{2}, c.Scalar(DTypeFloat32)), c.Tensor(DenseTensor, []int64{2}, c.Scalar(DTypeInt64))
	w := param(ParameterOpName, "w", f32).Result(0)
	param(SetParameterOpName, "late", nil, w) // written before it is read
	for i := range 3*opListRun + 5 {
		ty := f32
		if i%3 == 1 {
			ty = i64
		}
		param(ParameterOpName, "p"+strconv.Itoa(i%5000), ty) // names past 5,000 are read again, with other types
		if i%1000 == 0 {
			param(ParameterOpName, "", f32)                             // no name
			param(ParameterOpName, "noresult", nil)                     // no result
			param(SetParameterOpName, "only"+strconv.Itoa(i), nil, w)   // written, never read
			param(SetParameterOpName, "p"+strconv.Itoa(i/1000), nil, w) // read, and written
		}
	}
	param(GetParameterOpName, "late", i64)

	var ops []*Op
	for op := range list.All() {
		ops = append(ops, op)
	}
	want := NewParams(c, &list)
	for _, concurrent := range []bool{false, true} {
		pb := NewParamsBuilder(c, concurrent)
		for _, op := range ops {
			pb.Append(op)
		}
		got := pb.Params()
		require.Len(t, got, len(want), "concurrent=%v", concurrent)
		for name, v := range want {
			g := got[name]
			require.NotNil(t, g, "%s concurrent=%v", name, concurrent)
			assert.Equal(t, *v, *g, "%s concurrent=%v", name, concurrent)
		}
		assert.True(t, got["late"].Mutable)
		assert.Equal(t, i64, got["late"].Type, "the reader's type, though the write comes first")
	}

	stopped := NewParamsBuilder(c, true) // a reader that fails stops it
	for _, op := range ops[:100] {
		stopped.Append(op)
	}
	stopped.Stop()
	stopped.Stop()
}

// paramMaker returns a new program, a builder at the end of its body, and a function that creates an op there (a
// parameter op, or another with operands) with a parameter_name unless name is "" and a result of type t unless
// t is nil, appending it to ops when it is a parameter op.
func paramMaker(ops *OpList) (*Context, *Program, *Builder, func(op, name string, t Type, operands ...*Value) *Op) {
	c := NewContext()
	p := NewProgram(c)
	b := NewBuilder(c)
	b.SetInsertionPointToEnd(p.Body())
	return c, p, b, func(op, name string, t Type, operands ...*Value) *Op {
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
}
