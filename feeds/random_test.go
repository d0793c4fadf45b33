package feeds

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/ir"
)

func TestRandomShapesAndDeterminism(t *testing.T) {
	b := progtest.New(t)
	b.Data("img", -1, 3, -1, -1)
	b.DataT("ids", ir.DTypeInt64, 4)
	b.DataT("mask", ir.DTypeBool, 4)
	b.Param("w", 4, 3, 3, 3)
	opts := Options{Batch: 2, DynamicSize: 16}
	f1, err := Random(5, opts, b.P)
	require.NoError(t, err)
	f2, err := Random(5, opts, b.P)
	require.NoError(t, err)
	f3, err := Random(6, opts, b.P)
	require.NoError(t, err)
	assert.Equal(t, []int{2, 3, 16, 16}, f1.Inputs["img"].Shape)
	assert.Equal(t, f1, f2, "equal seeds give equal feeds")
	assert.NotEqual(t, f1.Inputs["img"].Data, f3.Inputs["img"].Data)
	for _, v := range f1.Inputs["img"].Data {
		require.True(t, v >= -1 && v < 1)
		require.Equal(t, v, float64(float32(v)), "rounded to float32")
	}
	for _, v := range f1.Inputs["ids"].Data {
		require.True(t, v >= 0 && v < 8 && v == math.Trunc(v))
	}
	for _, v := range f1.Inputs["mask"].Data {
		require.True(t, v == 0 || v == 1)
	}
	a := math.Sqrt(3.0 / 27)
	for _, v := range f1.Params["w"].Data {
		require.True(t, v >= -a && v <= a, "fan-in scaled")
	}

	f4, err := Random(0, Options{InputShapes: map[string][]int{"img": {1, 3, 5, 7}}}, b.P)
	require.NoError(t, err)
	assert.Equal(t, []int{1, 3, 5, 7}, f4.Inputs["img"].Shape)
	f5, err := Random(0, Options{}, b.P)
	require.NoError(t, err)
	assert.Equal(t, []int{1, 3, 32, 32}, f5.Inputs["img"].Shape, "defaults: batch 1, other dynamic dims 32")

	// The data op's shape attribute fills dims its type leaves dynamic.
	c := progtest.New(t)
	c.OpT("pd_op.data", nil, []ir.Type{c.TensorT(ir.DTypeFloat32, -1, -1)}, progtest.Attr("name", c.Ctx.Str("x")),
		progtest.Attr("shape", c.Ctx.IntArray([]int64{-1, 7})))
	f6, err := Random(0, Options{}, c.P)
	require.NoError(t, err)
	assert.Equal(t, []int{1, 7}, f6.Inputs["x"].Shape)
}

func TestRandomParametersAreMatchedByName(t *testing.T) {
	p1, p2 := progtest.New(t), progtest.New(t)
	p1.Param("a", 3)
	p1.Param("shared", 4)
	p2.Param("shared", 4)
	p2.Param("b", 2)
	f, err := Random(1, Options{}, p1.P)
	require.NoError(t, err)
	g, err := Random(1, Options{}, p2.P)
	require.NoError(t, err)
	assert.Equal(t, f.Params["shared"], g.Params["shared"], "a parameter's values do not depend on the other parameters")

	p2.Param("a", 5)
	_, err = Random(1, Options{}, p1.P, p2.P)
	assert.EqualError(t, err, `interp: parameter "a" has type builtin.tensor<3xf32> in one program and builtin.tensor<5xf32> in another`)
}

func TestVariancesArePositive(t *testing.T) {
	before := progtest.ConvBN(t, "NCHW", true)
	after := progtest.ConvBNFolded(t, "NCHW", progtest.FoldCorrect)
	for _, progs := range [][]*ir.Program{{before}, {after}, {before, after}} {
		f, err := Random(9, Options{}, progs...)
		require.NoError(t, err)
		for _, v := range f.Params["bn.var"].Data {
			require.True(t, v >= 0.5 && v <= 1.5, "variance %v", v)
		}
		neg := false
		for _, v := range f.Params["bn.mean"].Data {
			neg = neg || v < 0
		}
		assert.True(t, neg, "means are not forced positive")
	}
	var infos []ParamInfo
	_, err := Random(0, Options{ParamRange: func(p ParamInfo) (float64, float64) {
		infos = append(infos, p)
		return 2, 3
	}}, before)
	require.NoError(t, err)
	require.Len(t, infos, 5)
	for _, in := range infos {
		assert.Equal(t, in.Name == "bn.var", in.Variance, in.Name)
	}
}

// TestQuantScalesCoverTheInputs: the scales of quantize_linear and dequantize_linear are drawn from [1, 2), above
// the magnitude of the default inputs, so that the quantization rounds without clipping; other parameters keep
// their ranges.
func TestQuantScalesCoverTheInputs(t *testing.T) {
	b := progtest.New(t)
	x, s, z := b.Data("x", 4, 16), b.Param("s", 1), b.Full([]int64{1}, 0)
	axis := progtest.Attr("quant_axis", b.Ctx.Int32(-1))
	q := b.Op("pd_op.quantize_linear", []*ir.Value{x, s, z, nil, nil}, axis).Result(0)
	y := b.Op("pd_op.dequantize_linear", []*ir.Value{q, s, z, nil, nil}, axis).Result(0)
	b.Fetch(b.V("pd_op.matmul", y, b.Param("w", 16, 8)), "out", 0)
	p := b.P
	var infos []ParamInfo
	f, err := Random(3, Options{ParamRange: func(pi ParamInfo) (float64, float64) {
		infos = append(infos, pi)
		return DefaultParamRange(pi)
	}}, p)
	require.NoError(t, err)
	require.Len(t, infos, 2)
	for _, in := range infos {
		assert.Equal(t, in.Name == "s", in.QuantScale, in.Name)
	}
	for _, v := range f.Params["s"].Data {
		assert.True(t, v >= 1 && v < 2, "scale %v", v)
	}
	lo, hi := DefaultParamRange(ParamInfo{Shape: []int{1}})
	assert.Equal(t, []float64{-1, 1}, []float64{lo, hi}, "a [1] parameter that is no scale")
}

func TestDataInVariablesIsShared(t *testing.T) {
	with, without := progtest.New(t), progtest.New(t)
	with.Param("w", 2)
	without.Param("w", 2)
	setData(t, with.P, "w", host([]int{2}, 0.25, -4))
	f, err := Random(1, Options{}, with.P, without.P)
	require.NoError(t, err)
	assert.Equal(t, []float64{0.25, -4}, f.Params["w"].Data, "the program lacking data is fed the other's")
	f, err = Random(1, Options{}, with.P)
	require.NoError(t, err)
	assert.Empty(t, f.Params, "a program with data needs no feed")
}

func TestFillRandomWeightsMatchesRandom(t *testing.T) {
	b := progtest.New(t)
	x := b.Data("x", 2)
	w := b.Param("w", 2)
	b.Fetch(b.V("pd_op.multiply", x, w), "out", 0)
	delete(b.P.Params, "w") // FillRandomWeights creates missing variables
	feed, err := Random(4, Options{}, b.P)
	require.NoError(t, err)
	n, err := FillRandomWeights(b.P, 4, Options{})
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	require.NotNil(t, b.P.Params["w"])
	h, err := interp.DecodeData(ir.DTypeFloat32, []int{2}, b.P.Params["w"].Data)
	require.NoError(t, err)
	assert.Equal(t, feed.Params["w"].Data, h.Data)
	n, err = FillRandomWeights(b.P, 4, Options{})
	require.NoError(t, err)
	assert.Zero(t, n, "weights with data are kept")
}

func TestRandomErrors(t *testing.T) {
	b := progtest.New(t)
	b.Param("w", -1, 2)
	_, err := Random(0, Options{}, b.P)
	assert.EqualError(t, err, `interp: parameter "w" has dynamic type builtin.tensor<-1x2xf32>`)

	b1, b2 := progtest.New(t), progtest.New(t)
	b1.Data("x", 2)
	b2.Data("x", 3)
	_, err = Random(0, Options{}, b1.P, b2.P)
	assert.EqualError(t, err, `interp: input "x" is f32[2] in one program and f32[3] in another`)
}
