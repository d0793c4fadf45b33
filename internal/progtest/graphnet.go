package progtest

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/pirdrr/drr/ir"
)

// GraphNetLike builds a program as the GraphNet reader does: parameters with recorded statistics and no data
// (w normal, gamma constant, steps integer), inputs described by Program.Feeds (ids from statistics, positions
// with recorded data, x from statistics); every one of them is fetched.
func GraphNetLike(t testing.TB) *Builder {
	b := New(t)
	ids := b.DataT("ids", ir.DTypeInt64, 2, 50)
	recorded := b.DataT("positions", ir.DTypeInt64, 1, 4)
	x := b.Data("x", 8, 64)
	w := b.Param("w", 64, 300)
	b.P.Params["w"].Stats = &ir.TensorStats{Min: -0.3, Max: 0.4, Mean: 0.05, Std: 0.1}
	gamma := b.Param("gamma", 300)
	b.P.Params["gamma"].Stats = &ir.TensorStats{Min: 1, Max: 1, Mean: 1, Std: 0}
	steps := b.ParamT("steps", ir.DTypeInt32, 500)
	b.P.Params["steps"].Stats = &ir.TensorStats{Min: 3, Max: 9, Mean: 6, Std: 2}
	positions := make([]byte, 0, 32)
	for _, v := range []int64{0, 1, 2, 30000} {
		positions = binary.LittleEndian.AppendUint64(positions, uint64(v))
	}
	b.P.Feeds = map[string]*ir.Variable{
		"ids":       {Name: "ids", Type: ids.Type(), Stats: &ir.TensorStats{Min: 98, Max: 170, Mean: 130, Std: 20}},
		"positions": {Name: "positions", Type: recorded.Type(), Data: positions},
		"x":         {Name: "x", Type: x.Type(), Stats: &ir.TensorStats{Min: -2, Max: 2, Mean: 0.5, Std: 1}},
	}
	b.Fetch(w, "w", 0)
	b.Fetch(gamma, "gamma", 1)
	b.Fetch(steps, "steps", 2)
	b.Fetch(ids, "ids", 3)
	b.Fetch(recorded, "positions", 4)
	b.Fetch(x, "x", 5)
	return b
}

// MeanStd returns the mean and the (population) standard deviation of xs.
func MeanStd(xs []float64) (mean, std float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	v := 0.0
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(v / float64(len(xs)))
}
