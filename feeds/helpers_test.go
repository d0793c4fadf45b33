package feeds

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/ir"
)

// host builds a float32 host tensor.
func host(shape []int, data ...float64) *interp.Tensor {
	return &interp.Tensor{DType: ir.DTypeFloat32, Shape: shape, Data: data}
}

// setData stores host tensor data in a parameter's Variable.
func setData(t testing.TB, p *ir.Program, name string, h *interp.Tensor) {
	t.Helper()
	raw, err := interp.EncodeData(h)
	require.NoError(t, err)
	p.Params[name].Data = raw
}
