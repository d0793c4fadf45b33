package pirjson

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// rewritten builds, in memory, a program like one a rewrite produces: ops created with a Builder, attributes in
// sorted order (as rules and the text reader create them), parameters with every flag.
func rewritten(ctx *ir.Context) *ir.Program {
	p := ir.NewProgram(ctx)
	b := ir.NewBuilder(ctx)
	b.SetInsertionPointToEnd(p.Body())
	f32 := ctx.Scalar(ir.DTypeFloat32)
	act := ctx.Tensor(ir.DenseTensor, []int64{-1, 8, 32, 32}, f32)
	wt := ctx.Tensor(ir.DenseTensor, []int64{8, 8, 3, 3}, f32)
	no, yes := ctx.Bools(false), ctx.Bools(true)
	param := func(name string, t ir.Type, stopGradient, trainable *ir.ArrayAttr) *ir.Value {
		return b.Create(ir.OpSpec{Name: ir.ParameterOpName, Results: []ir.Type{t}, Attrs: []ir.NamedAttr{
			{Name: "is_distributed", Value: no}, {Name: "is_parameter", Value: yes}, {Name: "need_clip", Value: yes},
			{Name: "parameter_name", Value: ctx.Str(name)}, {Name: "persistable", Value: yes},
			{Name: "stop_gradient", Value: stopGradient}, {Name: "trainable", Value: trainable},
		}}).Result(0)
	}
	w := param("conv.w_0", wt, no, yes)
	x := b.Create(ir.OpSpec{Name: "pd_op.data", Results: []ir.Type{act}, Attrs: []ir.NamedAttr{
		{Name: "dtype", Value: ctx.DataType(ir.DTypeFloat32)}, {Name: "name", Value: ctx.Str("x")},
		{Name: "place", Value: ctx.Place(ir.Place{Type: ir.PlaceUndefined})},
		{Name: "shape", Value: ctx.IntArray([]int64{-1, 8, 32, 32})}, {Name: "stop_gradient", Value: yes},
	}}).Result(0)
	conv := b.Create(ir.OpSpec{Name: "pd_op.conv2d", Operands: []*ir.Value{x, w}, Results: []ir.Type{act},
		Attrs: []ir.NamedAttr{
			{Name: "data_format", Value: ctx.Str("NCHW")}, {Name: "dilations", Value: ctx.Int32s(1, 1)},
			{Name: "groups", Value: ctx.Int32(1)}, {Name: "padding_algorithm", Value: ctx.Str("EXPLICIT")},
			{Name: "paddings", Value: ctx.Int32s(1, 1)}, {Name: "stop_gradient", Value: no},
			{Name: "strides", Value: ctx.Int32s(1, 1)}, {Name: "struct_name", Value: ctx.Str("/Net/Conv2D/")},
		}}).Result(0)
	relu := b.Create(ir.OpSpec{Name: "pd_op.relu", Operands: []*ir.Value{conv}, Results: []ir.Type{act},
		Attrs: []ir.NamedAttr{{Name: "stop_gradient", Value: no}, {Name: "struct_name", Value: ctx.Str("/Net/ReLU/")}}}).Result(0)
	b.Create(ir.OpSpec{Name: "pd_op.fetch", Operands: []*ir.Value{relu}, Results: []ir.Type{act}, Attrs: []ir.NamedAttr{
		{Name: "col", Value: ctx.Int32(0)}, {Name: "name", Value: ctx.Str("out")},
		{Name: "persistable", Value: yes}, {Name: "stop_gradient", Value: no},
	}})
	p.CollectParams()
	return p
}

// decoded is the written JSON decoded generically, for looking at its structure.
type decoded map[string]any

func decode(t *testing.T, b []byte) []any {
	t.Helper()
	var d decoded
	require.NoError(t, json.Unmarshal(b, &d))
	prog := d["program"].(map[string]any)
	block := prog["regions"].([]any)[0].(map[string]any)["blocks"].([]any)[0].(map[string]any)
	return block["ops"].([]any)
}

// attrNames returns the names in an op's "A".
func attrNames(op map[string]any) []string {
	var out []string
	for _, a := range op["A"].([]any) {
		out = append(out, a.(map[string]any)["N"].(string))
	}
	return out
}

// TestRewrittenProgramConventions is acceptance test 4: a program built in memory is written as Paddle writes
// programs (schema attribute order when the catalogs are loaded, renumbered ids, parameters as "p") and reads
// back equal.
func TestRewrittenProgramConventions(t *testing.T) {
	for _, mode := range ctxModes(t) {
		t.Run(mode.name, func(t *testing.T) {
			ctx := mode.new(t)
			p := rewritten(ctx)
			out, err := Marshal(p, WriteOptions{})
			require.NoError(t, err)
			ops := decode(t, out)
			require.Len(t, ops, 5)

			param := ops[0].(map[string]any)
			assert.Equal(t, "p", param["#"])
			assert.Equal(t, []any{0.0, 1.0, 1.0, "conv.w_0"}, param["A"])
			assert.Equal(t, []any{1.0, 0.0, 1.0}, param["OA"])
			assert.Equal(t, []any{}, param["DA"])
			assert.Equal(t, []any{}, param["QA"])

			conv := ops[2].(map[string]any)
			assert.Equal(t, "1.conv2d", conv["#"])
			if mode.catalogs {
				want := []string{"strides", "paddings", "padding_algorithm", "dilations", "groups", "data_format", "struct_name"}
				assert.Equal(t, want, attrNames(conv), "yaml order, then struct_name")
				var schema []string
				for _, a := range ctx.Schema("pd_op.conv2d").Attrs {
					schema = append(schema, a.Name)
				}
				assert.Equal(t, append(schema, "struct_name"), attrNames(conv))
				assert.Equal(t, []string{"name", "shape", "dtype", "place"}, attrNames(ops[1].(map[string]any)))
				assert.Equal(t, []string{"name", "col"}, attrNames(ops[4].(map[string]any)))
			} else {
				want := []string{"data_format", "dilations", "groups", "padding_algorithm", "paddings", "strides", "struct_name"}
				assert.Equal(t, want, attrNames(conv), "unregistered ops keep their order")
			}
			// Ids: results from 1 in write order.
			assert.Equal(t, []any{map[string]any{"%": 2.0}, map[string]any{"%": 1.0}}, conv["I"])
			assert.Equal(t, 3.0, conv["O"].([]any)[0].(map[string]any)["%"])
			assert.Equal(t, []any{map[string]any{"%": 4.0}}, ops[4].(map[string]any)["I"])
			oa := ops[4].(map[string]any)["OA"].([]any)
			assert.Equal(t, "persistable", oa[0].(map[string]any)["N"], "persistable first")
			assert.Equal(t, "stop_gradient", oa[1].(map[string]any)["N"])

			back, err := Read(ctx, "back.json", out, ReadOptions{})
			require.NoError(t, err)
			require.NoError(t, ir.Equal(p, back, ir.EqualOptions{}))
			again, err := Marshal(back, WriteOptions{})
			require.NoError(t, err)
			assert.Equal(t, string(out), string(again))
		})
	}
}

// TestAttrOrder checks when the writer reorders the attributes of a registered pd_op op.
func TestAttrOrder(t *testing.T) {
	ctx := ir.NewContext()
	if err := ctx.LoadDefaultDialects(); err != nil {
		t.Skipf("default dialects do not load: %v", err)
	}
	i32 := ctx.Int32(1)
	tests := []struct {
		name     string
		op       string
		attrs    []string
		want     []string
		reorders bool
	}{
		{"schema order kept", "pd_op.conv2d", []string{"strides", "groups", "struct_name"},
			[]string{"strides", "groups", "struct_name"}, false},
		{"sorted reordered", "pd_op.conv2d", []string{"groups", "strides", "struct_name"},
			[]string{"strides", "groups", "struct_name"}, true},
		{"struct_name before a schema attribute", "pd_op.conv2d", []string{"struct_name", "strides"},
			[]string{"strides", "struct_name"}, true},
		{"dist attrs before struct_name", "pd_op.conv2d", []string{"struct_name", "op_role", "op_dist_attr", "strides"},
			[]string{"strides", "op_dist_attr", "op_role", "struct_name"}, true},
		{"unknown attribute kept in place", "pd_op.conv2d", []string{"strides", "foo", "groups", "struct_name"},
			[]string{"strides", "foo", "groups", "struct_name"}, false},
		{"unknown attribute last when reordering", "pd_op.conv2d", []string{"foo", "groups", "strides"},
			[]string{"strides", "groups", "foo"}, true},
		{"result attributes and callstack left out", "pd_op.conv2d", []string{"stop_gradient", "op_callstack", "persistable", "groups"},
			[]string{"groups"}, false},
		{"unregistered op keeps its order", "pd_op.no_such_op", []string{"b", "a"}, []string{"b", "a"}, false},
		{"other dialects keep their order", "builtin.combine", []string{"struct_name", "a"}, []string{"struct_name", "a"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var attrs []ir.NamedAttr
			for _, n := range tt.attrs {
				attrs = append(attrs, ir.NamedAttr{Name: n, Value: i32})
			}
			op := ctx.NewOp(ir.OpSpec{Name: tt.op, Attrs: attrs})
			if s := op.Schema(); s != nil && op.Info().Dialect == "pd_op" {
				assert.Equal(t, !tt.reorders, paddleOrdered(s, attrs, false))
			}
			w := &writer{ctx: ctx}
			var got []string
			for _, a := range w.opAttrs(op, false) {
				got = append(got, a.Name)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
