package sample

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// Seed is the seed the sample's weights are drawn from (WeightsFor).
const Seed = 20240601

// FillWeights gives every float32 parameter of p data drawn from seed, shaped like a trained model's so that the
// sample computes sane numbers: convolution and fc weights from He's normal distribution (standard deviation
// √(2/fan-in)), batch-norm means and biases near 0, variances in [0.5, 1.5], scales in [0.8, 1.2]. Parameters are
// drawn in name order, each from its own stream, so that the data does not depend on map order.
func FillWeights(p *ir.Program, seed uint64) error {
	p.CollectParams()
	names := make([]string, 0, len(p.Params))
	for n := range p.Params {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, name := range names {
		v := p.Params[name]
		t := ir.TensorOf(v.Type)
		if t == nil || t.DType() != ir.DTypeFloat32 || !t.Static() {
			return fmt.Errorf("sample: parameter %s is not a static float32 tensor", name)
		}
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		draw := drawFor(name, t.Dims)
		n := t.NumElements()
		data := make([]byte, 4*n)
		for k := int64(0); k < n; k++ {
			binary.LittleEndian.PutUint32(data[4*k:], math.Float32bits(float32(draw(rng))))
		}
		v.Data = data
	}
	return nil
}

// drawFor returns the distribution of a parameter, chosen by its name as Paddle names them: .w_0 is a convolution
// or fc weight (or a batch norm's scale, for a 1-d one), .b_0 a bias, .w_1 and .w_2 a batch norm's mean and
// variance.
func drawFor(name string, dims []int64) func(*rand.Rand) float64 {
	uniform := func(lo, hi float64) func(*rand.Rand) float64 {
		return func(r *rand.Rand) float64 { return lo + (hi-lo)*r.Float64() }
	}
	switch {
	case strings.HasSuffix(name, ".w_1"): // mean
		return func(r *rand.Rand) float64 { return 0.1 * r.NormFloat64() }
	case strings.HasSuffix(name, ".w_2"): // variance
		return uniform(0.5, 1.5)
	case strings.HasSuffix(name, ".b_0"):
		return func(r *rand.Rand) float64 { return 0.1 * r.NormFloat64() }
	case len(dims) == 1: // a batch norm's scale
		return uniform(0.8, 1.2)
	}
	fanIn := int64(1)
	if len(dims) == 2 {
		fanIn = dims[0] // fc: [in, out]
	} else {
		for _, d := range dims[1:] { // conv: [out, in/groups, kh, kw]
			fanIn *= d
		}
	}
	std := math.Sqrt(2 / float64(fanIn))
	return func(r *rand.Rand) float64 { return std * r.NormFloat64() }
}
