package cost_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/ir"
)

// TestValueBytes: a value's bytes are its elements times the element size, dynamic dims as the model's DynamicDim,
// a vector's tensors summed; nil and non-tensor values have none.
func TestValueBytes(t *testing.T) {
	g := newBuilder(t)
	x := g.data("x", g.f32(-1, 8))
	h := g.data("h", g.ty(ir.DTypeFloat16, 4, 4))
	vec := g.val("builtin.combine", []*ir.Value{x, h}, g.ctx.Vector(x.Type(), h.Type()))
	m, err := cost.NewModel("a100")
	require.NoError(t, err)
	for _, tc := range []struct {
		dyn  int64
		v    *ir.Value
		want int64
	}{
		{0, x, 1 * 8 * 4},
		{16, x, 16 * 8 * 4},
		{0, h, 4 * 4 * 2},
		{16, vec, 16*8*4 + 4*4*2},
		{0, nil, 0},
	} {
		m.DynamicDim = tc.dyn
		assert.Equal(t, tc.want, m.ValueBytes(tc.v), "dim %d", tc.dyn)
	}
}
