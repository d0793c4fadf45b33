package rewriter

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pirdrr/drr/ir"
)

// A replacement may change how a tensor type is spelled, never what it is.
func TestReplaceableBy(t *testing.T) {
	ctx := ir.NewContext()
	f32 := ctx.Scalar(ir.DTypeFloat32)
	tensor := func(spelling string, dims ...int64) ir.Type {
		return ctx.Tensor(spelling, dims, f32)
	}
	for _, tc := range []struct {
		name     string
		from, to ir.Type
		ok       bool
	}{
		{"same", tensor(ir.DenseTensor, 2, 3), tensor(ir.DenseTensor, 2, 3), true},
		{"legacy spelling", tensor(ir.DenseTensor, 2, 3), tensor(ir.LegacyTensor, 2, 3), true},
		{"bare spelling", tensor(ir.LegacyTensor, 2, 3), tensor(ir.BareTensor, 2, 3), true},
		{"dynamic dim", tensor(ir.DenseTensor, -1, 3), tensor(ir.DenseTensor, 4, 3), true},
		{"value tensor", tensor(ir.DenseTensor, 2, 3), tensor(ir.ValueTensor, 2, 3), false},
		{"kernel tensor", tensor(ir.DenseTensor, 2, 3), tensor("gpu_tensor", 2, 3), false},
		{"other shape", tensor(ir.DenseTensor, 2, 3), tensor(ir.LegacyTensor, 3, 2), false},
		{"other rank", tensor(ir.DenseTensor, 6), tensor(ir.DenseTensor, 2, 3), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.ok, replaceableBy(tc.from, tc.to))
		})
	}
}
