package interp

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

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

// randHost returns a float32 host tensor of the given shape with values uniform in [-1, 1] (rounded to float32)
// from a seed.
func randHost(seed uint64, shape ...int) *Tensor {
	r := tensor.NewRand(seed)
	h := &Tensor{DType: ir.DTypeFloat32, Shape: shape}
	h.Data = make([]float64, h.Numel())
	for i := range h.Data {
		h.Data[i] = RoundTo(ir.DTypeFloat32, 2*r.Float64()-1)
	}
	return h
}
