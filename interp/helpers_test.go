package interp

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// builder builds test programs with ir.Builder, inferring result types from the schemas' type rules.
type builder struct {
	t   testing.TB
	ctx *ir.Context
	p   *ir.Program
	b   *ir.Builder
}

func newBuilder(t testing.TB) *builder {
	t.Helper()
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	return newBuilderIn(t, ctx)
}

func newBuilderIn(t testing.TB, ctx *ir.Context) *builder {
	p := ir.NewProgram(ctx)
	b := ir.NewBuilder(ctx)
	b.SetInsertionPointToEnd(p.Body())
	return &builder{t: t, ctx: ctx, p: p, b: b}
}

// at returns a builder inserting into another block of the same program.
func (b *builder) at(blk *ir.Block) *builder {
	nb := ir.NewBuilder(b.ctx)
	nb.SetInsertionPointToEnd(blk)
	return &builder{t: b.t, ctx: b.ctx, p: b.p, b: nb}
}

func attr(name string, v ir.Attribute) ir.NamedAttr { return ir.NamedAttr{Name: name, Value: v} }

// op creates an op whose result types the catalog's type rule infers.
func (b *builder) op(name string, operands []*ir.Value, attrs ...ir.NamedAttr) *ir.Op {
	b.t.Helper()
	s := b.ctx.Schema(name)
	require.NotNil(b.t, s, "no schema for %s", name)
	types, err := b.ctx.InferResultTypes(s, operands, attrs)
	require.NoError(b.t, err, "inferring %s", name)
	return b.b.Create(ir.OpSpec{Name: name, Operands: operands, Results: types, Attrs: attrs})
}

// opT creates an op with explicit result types.
func (b *builder) opT(name string, operands []*ir.Value, results []ir.Type, attrs ...ir.NamedAttr) *ir.Op {
	return b.b.Create(ir.OpSpec{Name: name, Operands: operands, Results: results, Attrs: attrs})
}

// region creates a region op (pd_op.if: 2 regions, pd_op.while: 1), each region with one empty block.
func (b *builder) region(name string, operands []*ir.Value, results []ir.Type, n int) *ir.Op {
	op := b.b.Create(ir.OpSpec{Name: name, Operands: operands, Results: results, Regions: n})
	for _, r := range op.Regions() {
		r.AddBlock()
	}
	return op
}

// v creates a one-result op and returns its result.
func (b *builder) v(name string, operands ...*ir.Value) *ir.Value {
	b.t.Helper()
	return b.op(name, operands).Result(0)
}

func (b *builder) va(name string, operands []*ir.Value, attrs ...ir.NamedAttr) *ir.Value {
	b.t.Helper()
	return b.op(name, operands, attrs...).Result(0)
}

func (b *builder) tensorT(dt ir.DType, dims ...int64) *ir.TensorType {
	return b.ctx.Tensor(ir.DenseTensor, dims, b.ctx.Scalar(dt))
}

// data declares a program input.
func (b *builder) dataT(name string, dt ir.DType, dims ...int64) *ir.Value {
	return b.opT("pd_op.data", nil, []ir.Type{b.tensorT(dt, dims...)},
		attr("name", b.ctx.Str(name)), attr("shape", b.ctx.IntArray(dims)), attr("dtype", b.ctx.DataType(dt)),
		attr("place", b.ctx.Place(ir.Place{Type: ir.PlaceCPU}))).Result(0)
}

func (b *builder) data(name string, dims ...int64) *ir.Value {
	return b.dataT(name, ir.DTypeFloat32, dims...)
}

// param declares a float32 parameter (without data).
func (b *builder) param(name string, dims ...int64) *ir.Value {
	return b.paramT(name, ir.DTypeFloat32, dims...)
}

func (b *builder) paramT(name string, dt ir.DType, dims ...int64) *ir.Value {
	t := b.tensorT(dt, dims...)
	if b.p.Params[name] == nil {
		b.p.Params[name] = &ir.Variable{Name: name, Type: t}
	}
	return b.opT(ir.ParameterOpName, nil, []ir.Type{t}, attr("parameter_name", b.ctx.Str(name))).Result(0)
}

// full is pd_op.full of the given shape and value (float32 unless dt is given).
func (b *builder) full(shape []int64, v float64, dt ...ir.DType) *ir.Value {
	d := ir.DTypeFloat32
	if len(dt) > 0 {
		d = dt[0]
	}
	return b.va("pd_op.full", nil, attr("shape", b.ctx.IntArray(shape)), attr("value", b.ctx.Double(v)),
		attr("dtype", b.ctx.DataType(d)), attr("place", b.ctx.Place(ir.Place{Type: ir.PlaceCPU})))
}

// ints is pd_op.full_int_array (int64).
func (b *builder) ints(v ...int64) *ir.Value {
	return b.va("pd_op.full_int_array", nil, attr("value", b.ctx.Int64s(v...)),
		attr("dtype", b.ctx.DataType(ir.DTypeInt64)), attr("place", b.ctx.Place(ir.Place{Type: ir.PlaceCPU})))
}

func (b *builder) fetch(v *ir.Value, name string, col int) {
	b.op("pd_op.fetch", []*ir.Value{v}, attr("name", b.ctx.Str(name)), attr("col", b.ctx.Int32(int32(col))))
}

func (b *builder) shadow(v *ir.Value, name string) {
	b.opT("builtin.shadow_output", []*ir.Value{v}, nil, attr("output_name", b.ctx.Str(name)))
}

func (b *builder) i32s(v ...int64) ir.Attribute { return b.ctx.Int32s(v...) }

// host builds a host tensor (float32 elements unless stated).
func host(shape []int, data ...float64) *Tensor {
	return &Tensor{DType: ir.DTypeFloat32, Shape: shape, Data: data}
}

// eval evaluates p in float64 and returns its outputs by name.
func eval(t testing.TB, p *ir.Program, feed *Feed) map[string]*Tensor {
	t.Helper()
	res, err := Evaluate(p, feed, Options{})
	require.NoError(t, err)
	out := map[string]*Tensor{}
	for _, o := range res.Outputs {
		out[o.Name] = o.Value
	}
	return out
}

// setData stores host tensor data in a parameter's Variable.
func setData(t testing.TB, p *ir.Program, name string, h *Tensor) {
	t.Helper()
	raw, err := EncodeData(h)
	require.NoError(t, err)
	p.Params[name].Data = raw
}

func opCount(p *ir.Program, name string) int {
	n := 0
	for op := range p.Walk() {
		if op.Name() == name {
			n++
		}
	}
	return n
}

// stopwatch measures wall and CPU time.
type stopwatch struct {
	wall time.Time
	cpu  time.Duration
}

func startWatch() stopwatch { return stopwatch{wall: time.Now(), cpu: cpuTime()} }

// String reports the elapsed wall and CPU time.
func (s stopwatch) String() string {
	return fmt.Sprintf("%v wall, %v CPU", time.Since(s.wall).Round(time.Millisecond), (cpuTime() - s.cpu).Round(time.Millisecond))
}

// heavy skips a test in -short mode and under the race detector.
func heavy(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("heavy test skipped in -short mode")
	}
	if raceEnabled {
		t.Skip("heavy test skipped under the race detector")
	}
}

// unevaluable applies an op the interpreter refuses (pd_op.decode_jpeg: it would need an image decoder) to x.
func (b *builder) unevaluable(x *ir.Value) *ir.Value {
	return b.opT("pd_op.decode_jpeg", []*ir.Value{x}, []ir.Type{x.Type()}, attr("mode", b.ctx.Str("unchanged")),
		attr("place", b.ctx.Place(ir.Place{Type: ir.PlaceCPU}))).Result(0)
}
