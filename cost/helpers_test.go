package cost_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/ir"
)

// builder builds test programs op by op, with the result types the test gives (no inference), so that a test
// states the shapes its hand-computed figures come from.
type builder struct {
	t   *testing.T
	ctx *ir.Context
	p   *ir.Program
	b   *ir.Builder
}

func newBuilder(t *testing.T) *builder {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	return newBuilderIn(t, ctx)
}

// newBuilderIn is newBuilder in a context made once, for fuzz targets: reading the catalog into a new context is
// most of an execution's time otherwise.
func newBuilderIn(t *testing.T, ctx *ir.Context) *builder {
	g := &builder{t: t, ctx: ctx, p: ir.NewProgram(ctx), b: ir.NewBuilder(ctx)}
	g.b.SetInsertionPointToEnd(g.p.Body())
	return g
}

// ty is a builtin.tensor of dims and element type dt.
func (g *builder) ty(dt ir.DType, dims ...int64) ir.Type {
	return g.ctx.Tensor(ir.DenseTensor, dims, g.ctx.Scalar(dt))
}

func (g *builder) f32(dims ...int64) ir.Type { return g.ty(ir.DTypeFloat32, dims...) }

// attrs turns name, value pairs into attributes.
func attrs(kv ...any) []ir.NamedAttr {
	var out []ir.NamedAttr
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, ir.NamedAttr{Name: kv[i].(string), Value: kv[i+1].(ir.Attribute)})
	}
	return out
}

// op creates an op; it returns the op.
func (g *builder) op(name string, operands []*ir.Value, results []ir.Type, kv ...any) *ir.Op {
	return g.b.Create(ir.OpSpec{Name: name, Operands: operands, Results: results, Attrs: attrs(kv...)})
}

// val creates an op with one result and returns it.
func (g *builder) val(name string, operands []*ir.Value, result ir.Type, kv ...any) *ir.Value {
	return g.op(name, operands, []ir.Type{result}, kv...).Result(0)
}

// data is a program input.
func (g *builder) data(name string, t ir.Type) *ir.Value {
	return g.val("pd_op.data", nil, t, "name", g.ctx.Str(name))
}

// param is a weight.
func (g *builder) param(name string, t ir.Type) *ir.Value {
	return g.val(ir.ParameterOpName, nil, t, "parameter_name", g.ctx.Str(name))
}

// ints is a pd_op.full_int_array constant.
func (g *builder) ints(vs ...int64) *ir.Value {
	return g.val("pd_op.full_int_array", nil, g.ty(ir.DTypeInt64, int64(len(vs))), "value", g.ctx.Int64s(vs...),
		"dtype", g.ctx.DataType(ir.DTypeInt64))
}

// fetch makes v a program output.
func (g *builder) fetch(v *ir.Value) {
	g.op(ir.FetchOpName, []*ir.Value{v}, []ir.Type{v.Type()}, "name", g.ctx.Str("out"), "col", g.ctx.Int32(0))
}

// analyze costs the program on the A100 profile.
func (g *builder) analyze() *cost.Report {
	m, err := cost.NewModel("a100")
	require.NoError(g.t, err)
	return m.Analyze(g.p)
}

// costOf returns the cost of op in the analyzed program.
func (g *builder) costOf(op *ir.Op) *cost.OpCost {
	r := g.analyze()
	for i := range r.Ops {
		c := &r.Ops[i]
		if c.Op == op {
			return c
		}
	}
	g.t.Fatalf("op %s not in the report", op.Name())
	return nil
}
