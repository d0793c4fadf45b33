// Package progtest builds small Paddle PIR programs in tests: a Builder over ir.Builder that infers result types
// from the schemas' type rules and declares inputs, parameters, constants and outputs in one call each. The tests
// of interp (the evaluator), feeds (random data) and compare (comparing two programs) share it, so that a program
// written for one reads the same in the others.
package progtest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// Builder builds one test program. Its methods fail the test (testing.TB) rather than return errors.
type Builder struct {
	// T is the test the builder fails.
	T testing.TB
	// Ctx is the context of the program.
	Ctx *ir.Context
	// P is the program being built.
	P *ir.Program
	// B is the ir.Builder inserting into P (the end of its body, or of the block given to At).
	B *ir.Builder
}

// New returns a builder of a new program in a new default context.
func New(t testing.TB) *Builder {
	t.Helper()
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	return NewIn(t, ctx)
}

// NewIn returns a builder of a new program in ctx (programs that are compared must share their context).
func NewIn(t testing.TB, ctx *ir.Context) *Builder {
	p := ir.NewProgram(ctx)
	b := ir.NewBuilder(ctx)
	b.SetInsertionPointToEnd(p.Body())
	return &Builder{T: t, Ctx: ctx, P: p, B: b}
}

// At returns a builder inserting into another block of the same program.
func (b *Builder) At(blk *ir.Block) *Builder {
	nb := ir.NewBuilder(b.Ctx)
	nb.SetInsertionPointToEnd(blk)
	return &Builder{T: b.T, Ctx: b.Ctx, P: b.P, B: nb}
}

// Attr is a named attribute.
func Attr(name string, v ir.Attribute) ir.NamedAttr { return ir.NamedAttr{Name: name, Value: v} }

// Op creates an op whose result types the catalog's type rule infers.
func (b *Builder) Op(name string, operands []*ir.Value, attrs ...ir.NamedAttr) *ir.Op {
	b.T.Helper()
	s := b.Ctx.Schema(name)
	require.NotNil(b.T, s, "no schema for %s", name)
	types, err := b.Ctx.InferResultTypes(s, operands, attrs)
	require.NoError(b.T, err, "inferring %s", name)
	return b.B.Create(ir.OpSpec{Name: name, Operands: operands, Results: types, Attrs: attrs})
}

// OpT creates an op with explicit result types.
func (b *Builder) OpT(name string, operands []*ir.Value, results []ir.Type, attrs ...ir.NamedAttr) *ir.Op {
	return b.B.Create(ir.OpSpec{Name: name, Operands: operands, Results: results, Attrs: attrs})
}

// Ops is OpT returning the op's results (for ops without a type rule).
func (b *Builder) Ops(name string, operands []*ir.Value, results []ir.Type, attrs ...ir.NamedAttr) []*ir.Value {
	return b.OpT(name, operands, results, attrs...).Results()
}

// Region creates a region op (pd_op.if: 2 regions, pd_op.while: 1), each region with one empty block.
func (b *Builder) Region(name string, operands []*ir.Value, results []ir.Type, n int) *ir.Op {
	op := b.B.Create(ir.OpSpec{Name: name, Operands: operands, Results: results, Regions: n})
	for _, r := range op.Regions() {
		r.AddBlock()
	}
	return op
}

// V creates a one-result op without attributes and returns its result.
func (b *Builder) V(name string, operands ...*ir.Value) *ir.Value {
	b.T.Helper()
	return b.Op(name, operands).Result(0)
}

// VA creates a one-result op with attributes and returns its result.
func (b *Builder) VA(name string, operands []*ir.Value, attrs ...ir.NamedAttr) *ir.Value {
	b.T.Helper()
	return b.Op(name, operands, attrs...).Result(0)
}

// TensorT is the dense tensor type of the given element type and dims.
func (b *Builder) TensorT(dt ir.DType, dims ...int64) *ir.TensorType {
	return b.Ctx.Tensor(ir.DenseTensor, dims, b.Ctx.Scalar(dt))
}

// Typ is TensorT as an ir.Type.
func (b *Builder) Typ(dt ir.DType, dims ...int64) ir.Type { return b.TensorT(dt, dims...) }

// F32 is the float32 tensor type of the given dims.
func (b *Builder) F32(dims ...int64) ir.Type { return b.Typ(ir.DTypeFloat32, dims...) }

// DataT declares a program input (pd_op.data) of the given element type and dims.
func (b *Builder) DataT(name string, dt ir.DType, dims ...int64) *ir.Value {
	return b.OpT("pd_op.data", nil, []ir.Type{b.TensorT(dt, dims...)},
		Attr("name", b.Ctx.Str(name)), Attr("shape", b.Ctx.IntArray(dims)), Attr("dtype", b.Ctx.DataType(dt)),
		Attr("place", b.Ctx.Place(ir.Place{Type: ir.PlaceCPU}))).Result(0)
}

// Data declares a float32 program input.
func (b *Builder) Data(name string, dims ...int64) *ir.Value {
	return b.DataT(name, ir.DTypeFloat32, dims...)
}

// Param declares a float32 parameter (without data).
func (b *Builder) Param(name string, dims ...int64) *ir.Value {
	return b.ParamT(name, ir.DTypeFloat32, dims...)
}

// ParamT declares a parameter of the given element type (without data).
func (b *Builder) ParamT(name string, dt ir.DType, dims ...int64) *ir.Value {
	t := b.TensorT(dt, dims...)
	if b.P.Params[name] == nil {
		b.P.Params[name] = &ir.Variable{Name: name, Type: t}
	}
	return b.OpT(ir.ParameterOpName, nil, []ir.Type{t}, Attr("parameter_name", b.Ctx.Str(name))).Result(0)
}

// Full is pd_op.full of the given shape and value (float32 unless dt is given).
func (b *Builder) Full(shape []int64, v float64, dt ...ir.DType) *ir.Value {
	d := ir.DTypeFloat32
	if len(dt) > 0 {
		d = dt[0]
	}
	return b.VA("pd_op.full", nil, Attr("shape", b.Ctx.IntArray(shape)), Attr("value", b.Ctx.Double(v)),
		Attr("dtype", b.Ctx.DataType(d)), Attr("place", b.Ctx.Place(ir.Place{Type: ir.PlaceCPU})))
}

// Ints is pd_op.full_int_array (int64).
func (b *Builder) Ints(v ...int64) *ir.Value {
	return b.VA("pd_op.full_int_array", nil, Attr("value", b.Ctx.Int64s(v...)),
		Attr("dtype", b.Ctx.DataType(ir.DTypeInt64)), Attr("place", b.Ctx.Place(ir.Place{Type: ir.PlaceCPU})))
}

// Combine is builtin.combine of vs.
func (b *Builder) Combine(vs ...*ir.Value) *ir.Value {
	var ts []ir.Type
	for _, v := range vs {
		ts = append(ts, v.Type())
	}
	return b.OpT("builtin.combine", vs, []ir.Type{b.Ctx.Vector(ts...)}).Result(0)
}

// Fetch is pd_op.fetch of v with the given name and column.
func (b *Builder) Fetch(v *ir.Value, name string, col int) {
	b.Op("pd_op.fetch", []*ir.Value{v}, Attr("name", b.Ctx.Str(name)), Attr("col", b.Ctx.Int32(int32(col))))
}

// Shadow is builtin.shadow_output of v with the given output_name.
func (b *Builder) Shadow(v *ir.Value, name string) {
	b.OpT("builtin.shadow_output", []*ir.Value{v}, nil, Attr("output_name", b.Ctx.Str(name)))
}

// I32s is an int32 array attribute.
func (b *Builder) I32s(v ...int64) ir.Attribute { return b.Ctx.Int32s(v...) }

// Fl is a float attribute.
func (b *Builder) Fl(v float32) ir.Attribute { return b.Ctx.Float(v) }

// Bo is a bool attribute.
func (b *Builder) Bo(v bool) ir.Attribute { return b.Ctx.Bool(v) }

// I32 is an int32 attribute.
func (b *Builder) I32(v int) ir.Attribute { return b.Ctx.Int32(int32(v)) }

// St is a string attribute.
func (b *Builder) St(v string) ir.Attribute { return b.Ctx.Str(v) }

// LayerNorm is pd_op.layer_norm of x over the dims from begin (float32, epsilon 1e-5).
func (b *Builder) LayerNorm(x, scale, bias *ir.Value, begin int, dims ...int64) *ir.Value {
	return b.Ops("pd_op.layer_norm", []*ir.Value{x, scale, bias}, []ir.Type{x.Type(), b.F32(dims[:begin]...), b.F32(dims[:begin]...)},
		Attr("epsilon", b.Fl(1e-5)), Attr("begin_norm_axis", b.I32(begin)))[0]
}

// Unevaluable applies to x an op the interpreter refuses (pd_op.decode_jpeg: it would need an image decoder).
func (b *Builder) Unevaluable(x *ir.Value) *ir.Value {
	return b.OpT("pd_op.decode_jpeg", []*ir.Value{x}, []ir.Type{x.Type()}, Attr("mode", b.Ctx.Str("unchanged")),
		Attr("place", b.Ctx.Place(ir.Place{Type: ir.PlaceCPU}))).Result(0)
}

// OpCount returns the number of ops named name in p.
func OpCount(p *ir.Program, name string) int {
	n := 0
	for op := range p.Walk() {
		if op.Name() == name {
			n++
		}
	}
	return n
}
