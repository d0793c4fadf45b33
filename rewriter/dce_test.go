package rewriter

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// dropCopyRule replaces %y = pd_op.assign(%x) with %x, as value_semantics' drop_copy does.
func dropCopyRule() *rule.Rule {
	return &rule.Rule{
		Name: "drop_copy",
		Pattern: &rule.Pattern{
			Ops:    []*rule.OpPattern{{Name: "pd_op.assign", Operands: []rule.OperandPattern{{Value: 0}}, Results: []rule.ResultPattern{{Value: 1}}, RestAttrs: -1}},
			Values: []*rule.ValueHole{{Name: "x", Def: -1}, {Name: "y", Def: 0}},
		},
		Actions: []rule.Action{&rule.Replace{Value: rule.Ref{Index: 1}, With: rule.Ref{Index: 0}}},
	}
}

// TestNoOutputsKeepsEveryOp: a program without outputs (a hand-written text program) is not emptied. The dce pass
// keeps it whole and says why; a rule pass keeps what its rewrites leave without uses: here drop_copy replaces the
// sink y = assign(exp(x)) by exp(x), which becomes the program's result and must stay.
func TestNoOutputsKeepsEveryOp(t *testing.T) {
	tests := []struct {
		name    string
		fetch   bool
		want    []string
		warning string
	}{
		{"no outputs", false, []string{"pd_op.data", "pd_op.exp", "pd_op.tanh"}, NoOutputsDriverWarning},
		{"fetched", true, []string{"pd_op.data", "pd_op.tanh", "pd_op.fetch"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := newPB(t)
			in := x.data()
			e := x.op("pd_op.exp", 1, nil, in).Result(0)
			x.op("pd_op.assign", 1, nil, e)
			tanh := x.op("pd_op.tanh", 1, nil, in)
			if tt.fetch {
				x.fetch(tanh.Result(0))
			}
			env := &Env{Registry: NewRegistry()}
			res, err := NewRulePass("copies", setOf(x.c, dropCopyRule())).Run(x.p, env)
			require.NoError(t, err)
			assert.Equal(t, 1, res.Stats.Rewrites)
			if tt.warning != "" {
				assert.Equal(t, []string{tt.warning}, res.Warnings)
				assert.Zero(t, res.Stats.Erased, "exp(x) is the program's result now")
			} else {
				assert.Empty(t, res.Warnings)
				assert.Equal(t, 1, res.Stats.Erased, "the exp nothing reads any more")
			}

			reg := NewRegistry()
			require.NoError(t, RegisterBuiltinPasses(reg))
			pl, err := reg.Pipeline(x.c, "dce")
			require.NoError(t, err)
			results, err := pl.Run(x.p, env)
			require.NoError(t, err)
			if !tt.fetch {
				assert.Equal(t, []string{NoOutputsWarning}, results[0].Warnings, "the dce pass says why it keeps everything")
				assert.Zero(t, results[0].Changes)
			} else {
				assert.Empty(t, results[0].Warnings)
			}
			assert.Equal(t, tt.want, x.names())
			n, err := DCE(x.p, ir.NewRewriter(x.c, nil))
			require.NoError(t, err)
			assert.Zero(t, n, "DCE itself keeps a program without outputs as well")
		})
	}
}

// TestDCEKeepsOutputs: dce never erases an output op (ir.IsOutputOp) — a fetch, the shadow_output that keeps a dead
// parameter alive, a set_parameter — nor what they read, also when a dialect's catalog forgets to declare them
// SideEffects; it erases the dead op beside them.
func TestDCEKeepsOutputs(t *testing.T) {
	// The output ops without the SideEffects trait: only their being outputs keeps them.
	const bare = "dialect builtin id 0\n\nop module() -> ()\n    regions(1)\n\nop parameter() -> (out)\n    attrs(parameter_name: str)\n    traits(ReadOnly, ValueSemantics)\n\n" +
		"op shadow_output(x) -> ()\n    attrs(output_name: str)\n    traits(ReadOnly)\n\nop set_parameter(x) -> ()\n    attrs(parameter_name: str)\n    traits(ReadOnly)\n\n" +
		"dialect pd_op id 1\n\nop data() -> (out)\n    traits(ReadOnly, ValueSemantics, SideEffects)\n\nop relu(x) -> (out)\n    traits(ReadOnly, ValueSemantics)\n\n" +
		"op exp(x) -> (out)\n    traits(ReadOnly, ValueSemantics)\n\nop fetch(x) -> (out)\n    attrs(name: str, col: i32)\n    traits(ReadOnly, ValueSemantics)\n"
	bareContext := func(t *testing.T) *ir.Context {
		c := ir.NewContext()
		b, p, _ := strings.Cut(bare, "dialect pd_op")
		_, err := c.LoadCatalog("builtin.dialect", []byte(b))
		require.NoError(t, err)
		_, err = c.LoadCatalog("pd_op.dialect", []byte("dialect pd_op"+p))
		require.NoError(t, err)
		return c
	}
	tests := []struct {
		name string
		ctx  func(t *testing.T) *ir.Context
	}{
		{"default catalogs", func(t *testing.T) *ir.Context {
			c, err := ir.NewDefaultContext()
			require.NoError(t, err)
			return c
		}},
		{"outputs not declared SideEffects", bareContext},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.ctx(t)
			p := ir.NewProgram(c)
			b := ir.NewBuilder(c)
			b.SetInsertionPointToEnd(p.Body())
			f32 := c.Tensor(ir.DenseTensor, []int64{4}, c.Scalar(ir.DTypeFloat32))
			x := b.Create(ir.OpSpec{Name: "pd_op.data", Results: []ir.Type{f32}}).Result(0)
			w := b.Create(ir.OpSpec{Name: ir.ParameterOpName, Results: []ir.Type{f32},
				Attrs: []ir.NamedAttr{{Name: "parameter_name", Value: c.Str("w")}}}).Result(0)
			b.Create(ir.OpSpec{Name: ir.ShadowOutputOpName, Operands: []*ir.Value{w},
				Attrs: []ir.NamedAttr{{Name: "output_name", Value: c.Str("w")}}})
			r := b.Create(ir.OpSpec{Name: "pd_op.relu", Operands: []*ir.Value{x}, Results: []ir.Type{f32}}).Result(0)
			b.Create(ir.OpSpec{Name: ir.FetchOpName, Operands: []*ir.Value{r}, Results: []ir.Type{f32},
				Attrs: []ir.NamedAttr{{Name: "name", Value: c.Str("out")}, {Name: "col", Value: c.Int32(0)}}})
			b.Create(ir.OpSpec{Name: ir.SetParameterOpName, Operands: []*ir.Value{r},
				Attrs: []ir.NamedAttr{{Name: "parameter_name", Value: c.Str("m")}}})
			b.Create(ir.OpSpec{Name: "pd_op.exp", Operands: []*ir.Value{x}, Results: []ir.Type{f32}})
			n, err := DCE(p, ir.NewRewriter(c, nil))
			require.NoError(t, err)
			assert.Equal(t, 1, n, "the exp nobody reads")
			var names []string
			for op := range p.Body().Ops() {
				names = append(names, op.Name())
			}
			assert.Equal(t, []string{"pd_op.data", ir.ParameterOpName, ir.ShadowOutputOpName, "pd_op.relu", ir.FetchOpName,
				ir.SetParameterOpName}, names)
		})
	}
}
