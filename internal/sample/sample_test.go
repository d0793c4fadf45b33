package sample_test

import (
	"bytes"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/feeds"
	"github.com/pirdrr/drr/internal/sample"
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pdiparams"
	"github.com/pirdrr/drr/ir/pirjson"
)

// TestGeneratedFilesCurrent: the embedded model and weights are what go generate writes (Build, FillWeights from
// Seed); run go generate ./internal/sample after changing either.
func TestGeneratedFilesCurrent(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	p, err := sample.Build(ctx)
	require.NoError(t, err)
	data, err := pirjson.Marshal(p, pirjson.WriteOptions{})
	require.NoError(t, err)
	require.True(t, bytes.Equal(sample.JSON(), data), "tinyresnet.json is not current: go generate ./internal/sample")
	require.NoError(t, sample.FillWeights(p, sample.Seed))
	var w bytes.Buffer
	require.NoError(t, pdiparams.Write(&w, p))
	require.True(t, bytes.Equal(sample.Weights(), w.Bytes()), "tinyresnet.pdiparams is not current: go generate ./internal/sample")
}

// TestWeights: Load gives every parameter data; the weights are a model's (variances positive, finite values), and
// the model computes finite probabilities that sum to 1.
func TestWeights(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	p, err := sample.Load(ctx)
	require.NoError(t, err)
	require.Len(t, p.Params, 27)
	for name, v := range p.Params {
		require.NotNil(t, v.Data, name)
		for i := 0; i < len(v.Data); i += 4 {
			f := math.Float32frombits(uint32(v.Data[i]) | uint32(v.Data[i+1])<<8 | uint32(v.Data[i+2])<<16 | uint32(v.Data[i+3])<<24)
			require.False(t, math.IsNaN(float64(f)) || math.IsInf(float64(f), 0), name)
			if len(name) > 4 && name[len(name)-4:] == ".w_2" {
				require.Greater(t, f, float32(0), "%s: a variance", name)
			}
		}
	}
	bare, err := sample.LoadModel(ctx)
	require.NoError(t, err)
	bare.CollectParams()
	for name, v := range bare.Params {
		require.Nil(t, v.Data, "%s: LoadModel reads no weights", name)
	}
	opts := feeds.Options{Batch: 2}
	feed, err := feeds.Random(1, opts, p)
	require.NoError(t, err)
	require.Empty(t, feed.Params, "every parameter has data")
	out, err := interp.Evaluate(p, feed, opts.Options)
	require.NoError(t, err)
	require.Len(t, out.Outputs, 1)
	probs := out.Outputs[0].Value.Data
	require.Len(t, probs, 20)
	for b := 0; b < 2; b++ {
		sum := 0.0
		for _, x := range probs[10*b : 10*b+10] {
			require.False(t, math.IsNaN(x))
			sum += x
		}
		require.InDelta(t, 1, sum, 1e-5)
	}
}
