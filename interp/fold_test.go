package interp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// foldCase builds a program, folds a clone of it and checks counts and equivalence.
func foldCase(t *testing.T, build func(b *builder), wantFolded int, check func(t *testing.T, p *ir.Program)) {
	foldCaseC(t, build, wantFolded, check, true)
}

func foldCaseC(t *testing.T, build func(b *builder), wantFolded int, check func(t *testing.T, p *ir.Program), compare bool) {
	t.Helper()
	b := newBuilder(t)
	build(b)
	_, err := FillRandomWeights(b.p, 1, Options{})
	require.NoError(t, err)
	after := b.p.Clone()
	n, err := FoldConstants(after, ir.NewRewriter(after.Ctx, nil))
	require.NoError(t, err)
	assert.Equal(t, wantFolded, n)
	require.Empty(t, ir.Verify(after).Errors())
	if check != nil {
		check(t, after)
	}
	if !compare {
		return
	}
	rep, err := Compare(b.p, after, CompareOptions{Runs: 2})
	require.NoError(t, err, "%s", rep)
}

func TestFoldConstants(t *testing.T) {
	t.Run("full-only math", func(t *testing.T) {
		foldCase(t, func(b *builder) {
			x := b.data("x", 2)
			six := b.v("pd_op.multiply", b.full([]int64{2}, 2), b.full([]int64{2}, 3))
			b.fetch(b.v("pd_op.add", x, six), "out", 0)
		}, 1, func(t *testing.T, p *ir.Program) {
			assert.Zero(t, opCount(p, "pd_op.full"))
			assert.Zero(t, opCount(p, "pd_op.multiply"))
			require.Len(t, p.Params, 1)
			v := p.Params[FoldPrefix+"0"]
			require.NotNil(t, v)
			h, err := DecodeData(ir.DTypeFloat32, []int{2}, v.Data)
			require.NoError(t, err)
			assert.Equal(t, []float64{6, 6}, h.Data)
		})
	})
	t.Run("mutable-attribute operands keep their producer", func(t *testing.T) {
		foldCase(t, func(b *builder) {
			x := b.data("x", 2, 3)
			shape := b.va("pd_op.cast", []*ir.Value{b.ints(3, 2)}, attr("dtype", b.ctx.DataType(ir.DTypeInt32)))
			b.fetch(b.v("pd_op.reshape", x, shape), "out", 0)
		}, 0, func(t *testing.T, p *ir.Program) {
			assert.Equal(t, 1, opCount(p, "pd_op.cast"))
			assert.Empty(t, p.Params)
		})
	})
	t.Run("mutable parameters are not folded", func(t *testing.T) {
		foldCase(t, func(b *builder) {
			x := b.data("x", 2)
			w := b.param("w", 2)
			b.v("pd_op.relu_", w)
			b.fetch(b.v("pd_op.add", x, b.v("pd_op.sqrt", b.param("w", 2))), "out", 0)
		}, 0, func(t *testing.T, p *ir.Program) {
			assert.Equal(t, 1, opCount(p, "pd_op.sqrt"))
		})
	})
	t.Run("shared folded value materialized once per result", func(t *testing.T) {
		foldCase(t, func(b *builder) {
			x := b.data("x", 2)
			s := b.v("pd_op.exp", b.param("w", 2))
			sq := b.v("pd_op.multiply", s, s)
			b.fetch(b.v("pd_op.add", b.v("pd_op.add", x, s), sq), "out", 0)
		}, 2, func(t *testing.T, p *ir.Program) {
			assert.Len(t, p.Params, 2, "exp(w) and exp(w)² become weights; w is no longer read")
			assert.Equal(t, 2, opCount(p, ir.ParameterOpName))
		})
	})
	t.Run("unevaluable ops are left alone", func(t *testing.T) {
		foldCaseC(t, func(b *builder) {
			x := b.data("x", 2)
			b.fetch(b.v("pd_op.add", x, b.unevaluable(b.param("w", 2))), "out", 0)
		}, 0, func(t *testing.T, p *ir.Program) {
			assert.Equal(t, 1, opCount(p, "pd_op.decode_jpeg"))
		}, false)
	})
	t.Run("inside a branch", func(t *testing.T) {
		foldCase(t, func(b *builder) {
			x := b.data("x", 2)
			w := b.param("w", 2)
			cond := b.v("pd_op.less_than", b.full([]int64{1}, 0), b.full([]int64{1}, 1))
			ifop := b.region("pd_op.if", []*ir.Value{cond}, []ir.Type{x.Type()}, 2)
			th := b.at(ifop.Region(0).Block(0))
			th.opT("cf.yield", []*ir.Value{th.v("pd_op.add", x, th.v("pd_op.abs", w))}, nil)
			b.at(ifop.Region(1).Block(0)).opT("cf.yield", []*ir.Value{x}, nil)
			b.fetch(ifop.Result(0), "out", 0)
		}, 2, func(t *testing.T, p *ir.Program) {
			// less_than of two fulls folds too; the if keeps reading a (folded) constant condition.
			assert.Zero(t, opCount(p, "pd_op.abs"))
			assert.Zero(t, opCount(p, "pd_op.less_than"))
			assert.Equal(t, 1, opCount(p, "pd_op.if"))
		})
	})
}

func TestFoldConstantsKeepsDeclaredDTypeAndShape(t *testing.T) {
	b := newBuilder(t)
	x := b.data("x", -1, 4)
	w := b.paramT("w", ir.DTypeFloat64, 4)
	b.fetch(b.v("pd_op.add", x, b.va("pd_op.cast", []*ir.Value{b.v("pd_op.square", w)}, attr("dtype", b.ctx.DataType(ir.DTypeFloat32)))), "out", 0)
	setData(t, b.p, "w", &Tensor{DType: ir.DTypeFloat64, Shape: []int{4}, Data: []float64{0.1, 2, 3, 4}})
	n, err := FoldConstants(b.p, nil)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	v := b.p.Params[FoldPrefix+"0"]
	require.NotNil(t, v)
	assert.Equal(t, "builtin.tensor<4xf32>", v.Type.String())
	h, err := DecodeData(ir.DTypeFloat32, []int{4}, v.Data)
	require.NoError(t, err)
	assert.Equal(t, []float64{float64(float32(0.1 * 0.1)), 4, 9, 16}, h.Data)
	assert.Nil(t, b.p.Params["w"], "w is no longer read")
}
