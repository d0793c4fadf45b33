package feeds

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/ir"
)

// meanStd returns the sample mean and standard deviation.
func encode(t *testing.T, dt ir.DType, shape []int, data ...float64) []byte {
	t.Helper()
	raw, err := interp.EncodeData(&interp.Tensor{DType: dt, Shape: shape, Data: data})
	require.NoError(t, err)
	return raw
}

func TestDrawingFromRecordedStatistics(t *testing.T) {
	b := progtest.GraphNetLike(t)
	f, err := Random(3, Options{}, b.P)
	require.NoError(t, err)

	w := f.Params["w"].Data
	for _, v := range w {
		// Clipped to the recorded range, then rounded to float32 (GraphNet prints float32 bounds in decimal).
		require.True(t, v >= float64(float32(-0.3)) && v <= float64(float32(0.4)), "clipped to the recorded range: %v", v)
		require.Equal(t, v, float64(float32(v)), "rounded to float32")
	}
	m, s := progtest.MeanStd(w)
	assert.InDelta(t, 0.05, m, 0.005, "recorded mean")
	assert.InDelta(t, 0.1, s, 0.01, "recorded standard deviation")

	for _, v := range f.Params["gamma"].Data {
		require.Equal(t, 1.0, v, "min = max: a constant")
	}
	seen := map[float64]bool{}
	for _, v := range f.Params["steps"].Data {
		require.True(t, v >= 3 && v <= 9 && v == math.Trunc(v), "integers inside the recorded range: %v", v)
		seen[v] = true
	}
	assert.Len(t, seen, 7, "every integer of the range is drawn")

	for _, v := range f.Inputs["ids"].Data {
		require.True(t, v >= 98 && v <= 170 && v == math.Trunc(v), "token ids inside their recorded range: %v", v)
	}
	assert.Equal(t, []float64{0, 1, 2, 30000}, f.Inputs["positions"].Data, "recorded data is used as is")
	for _, v := range f.Inputs["x"].Data {
		require.True(t, v >= -2 && v <= 2, "clipped: %v", v)
	}
	g, err := Random(4, Options{}, b.P)
	require.NoError(t, err)
	assert.Equal(t, f.Inputs["positions"], g.Inputs["positions"], "recorded data does not depend on the seed")
	assert.NotEqual(t, f.Inputs["ids"].Data, g.Inputs["ids"].Data)
	assert.NotEqual(t, f.Params["w"].Data, g.Params["w"].Data)
}

func TestDrawingIsTheSameOnEveryMachine(t *testing.T) {
	b := progtest.GraphNetLike(t)
	prev := runtime.GOMAXPROCS(1)
	one, err := Random(7, Options{}, b.P)
	runtime.GOMAXPROCS(8)
	many, err2 := Random(7, Options{}, b.P)
	runtime.GOMAXPROCS(prev)
	require.NoError(t, err)
	require.NoError(t, err2)
	assert.Equal(t, one, many, "the number of goroutines does not change the numbers")

	// The generators are specified (xoshiro256++ seeded through splitmix64 from FNV-1a of the tensor's name, in
	// chunks; normals from the ziggurat of stream.go):
	// these values are what every machine draws for seed 7. A change here changes every verification run.
	want := map[string][]float64{
		"w":   {0.07047812640666962, -0.11361493170261383, 0.006997464224696159},
		"ids": {152, 128, 164},
		"x":   {0.5907396078109741, 0.7818994522094727, 0.49777650833129883},
	}
	got := map[string][]float64{"w": one.Params["w"].Data[:3], "ids": one.Inputs["ids"].Data[:3], "x": one.Inputs["x"].Data[:3]}
	assert.Equal(t, want, got)
}

func TestLazyParametersAreTheEagerOnes(t *testing.T) {
	b := progtest.GraphNetLike(t)
	eager, err := Random(11, Options{}, b.P)
	require.NoError(t, err)
	lazy, err := Lazy(11, Options{}, 0, nil, b.P)
	require.NoError(t, err)
	assert.Empty(t, lazy.Params, "nothing is drawn before the program runs")
	for _, prec := range []interp.Precision{interp.Float64, interp.Float32} {
		a, err := interp.Evaluate(b.P, eager, interp.Options{Precision: prec})
		require.NoError(t, err)
		l, err := interp.Evaluate(b.P, lazy, interp.Options{Precision: prec})
		require.NoError(t, err)
		assert.Equal(t, a.Outputs, l.Outputs, "%s", prec)
	}
}

// An input whose declared dims are dynamic takes the recorded sample's dims, so that its recorded data fits (as
// GraphNet's DETR records index lists of two elements for inputs declared [-1]).
func TestRecordedSampleShapesDynamicInputs(t *testing.T) {
	b := progtest.New(t)
	idx := b.DataT("idx", ir.DTypeInt64, -1)
	x := b.DataT("x", ir.DTypeFloat32, -1, 3)
	b.P.Feeds = map[string]*ir.Variable{
		"idx": {Name: "idx", Type: b.TensorT(ir.DTypeInt64, 2), Data: encode(t, ir.DTypeInt64, []int{2}, 1, 0)},
		"x":   {Name: "x", Type: b.TensorT(ir.DTypeFloat32, 5, 3), Stats: &ir.TensorStats{Min: -1, Max: 1, Std: 0.5}},
	}
	b.Fetch(idx, "idx", 0)
	b.Fetch(x, "x", 1)
	f, err := Random(1, Options{}, b.P)
	require.NoError(t, err)
	assert.Equal(t, []float64{1, 0}, f.Inputs["idx"].Data, "the recorded data, at the recorded shape")
	assert.Equal(t, []int{5, 3}, f.Inputs["x"].Shape, "the recorded shape, not the default batch of 1")
	g, err := Random(1, Options{InputShapes: map[string][]int{"x": {2, 3}}}, b.P)
	require.NoError(t, err)
	assert.Equal(t, []int{2, 3}, g.Inputs["x"].Shape, "InputShapes still decide")

	// Without recorded data that fixes the batch, a recorded batch of 128 gives way to Options.Batch.
	c := progtest.New(t)
	img := c.OpT("pd_op.data", nil, []ir.Type{c.TensorT(ir.DTypeFloat32, -1, 3)}, progtest.Attr("name", c.Ctx.Str("img")),
		progtest.Attr("shape", c.Ctx.IntArray([]int64{128, 3})), progtest.Attr("dtype", c.Ctx.DataType(ir.DTypeFloat32)),
		progtest.Attr("place", c.Ctx.Place(ir.Place{Type: ir.PlaceCPU}))).Result(0)
	c.P.Feeds = map[string]*ir.Variable{"img": {Name: "img", Type: c.TensorT(ir.DTypeFloat32, 128, 3), Stats: &ir.TensorStats{Min: -1, Max: 1, Std: 0.5}}}
	c.Fetch(img, "img", 0)
	h, err := Random(1, Options{}, c.P)
	require.NoError(t, err)
	assert.Equal(t, []int{1, 3}, h.Inputs["img"].Shape)
	h, err = Random(1, Options{Batch: 4}, c.P)
	require.NoError(t, err)
	assert.Equal(t, []int{4, 3}, h.Inputs["img"].Shape)

	// A recorded integer input that holds the sample's batch (a batch size fed as a scalar, as GraphNet's CLIP
	// graphs feed it to expand their class token) does not fix the batch: it is fed Options.Batch too, so that the
	// program is consistent at the small batch. One holding another number is fed as recorded.
	for _, tc := range []struct {
		n, want int64
	}{{128, 1}, {7, 7}} {
		d := progtest.New(t)
		img := d.OpT("pd_op.data", nil, []ir.Type{d.TensorT(ir.DTypeFloat32, -1, 3)}, progtest.Attr("name", d.Ctx.Str("img")),
			progtest.Attr("shape", d.Ctx.IntArray([]int64{-1, 3})), progtest.Attr("dtype", d.Ctx.DataType(ir.DTypeFloat32)),
			progtest.Attr("place", d.Ctx.Place(ir.Place{Type: ir.PlaceCPU}))).Result(0)
		n := d.DataT("n", ir.DTypeInt64)
		d.P.Feeds = map[string]*ir.Variable{
			"img": {Name: "img", Type: d.TensorT(ir.DTypeFloat32, 128, 3), Stats: &ir.TensorStats{Min: -1, Max: 1, Std: 0.5}},
			"n":   {Name: "n", Type: d.TensorT(ir.DTypeInt64), Data: encode(t, ir.DTypeInt64, []int{}, float64(tc.n))},
		}
		d.Fetch(img, "img", 0)
		d.Fetch(n, "n", 1)
		h, err = Random(1, Options{}, d.P)
		require.NoError(t, err)
		assert.Equal(t, []int{1, 3}, h.Inputs["img"].Shape, "batch fed as %d", tc.n)
		assert.Equal(t, []float64{float64(tc.want)}, h.Inputs["n"].Data, "batch fed as %d", tc.n)
	}
}

// Without a recorded deviation (GraphNet records only min and max for some weights), values are uniform between
// the bounds, as GraphNet's harness draws them, not a constant.
func TestDrawingWithoutRecordedDeviation(t *testing.T) {
	b := progtest.New(t)
	b.Fetch(b.Param("scale", 4000), "w", 0)
	b.P.Params["scale"].Stats = &ir.TensorStats{Min: 0, Max: 0.5}
	f, err := Random(1, Options{}, b.P)
	require.NoError(t, err)
	w := f.Params["scale"].Data
	for _, v := range w {
		require.True(t, v >= 0 && v < 0.5, "inside the recorded range: %v", v)
	}
	m, s := progtest.MeanStd(w)
	assert.InDelta(t, 0.25, m, 0.01)
	assert.InDelta(t, 0.5/math.Sqrt(12), s, 0.01, "the deviation of a uniform distribution")
}

// TestLazyDrawsAreKeptForTheSecondProgram: the two programs of a lazy feed draw a weight once — the first keeps
// its draw for the second — and a program that writes the weight in place (set_value_with_tensor_, which writes
// its operand's buffer) writes a copy: the second program reads the numbers drawn, as it would have drawn them.
func TestLazyDrawsAreKeptForTheSecondProgram(t *testing.T) {
	build := func(writes bool) *ir.Program {
		b := progtest.New(t)
		w := b.Param("w", 3, 4)
		b.P.Params["w"].Stats = &ir.TensorStats{Min: -1, Max: 1, Mean: 0, Std: 0.5}
		b.Fetch(b.V("pd_op.reshape", b.V("pd_op.assign", w), b.Ints(-1)), "before", 0)
		if writes {
			b.VA("pd_op.set_value_with_tensor_", []*ir.Value{w, b.Full([]int64{3, 2}, 7), b.Ints(0), b.Ints(4), b.Ints(2)},
				progtest.Attr("axes", b.Ctx.Int64s(1)), progtest.Attr("decrease_axes", b.Ctx.Int64s()), progtest.Attr("none_axes", b.Ctx.Int64s()))
		}
		require.Empty(t, ir.Verify(b.P).Errors())
		return b.P
	}
	writer, reader := build(true), build(false)
	for _, prec := range []interp.Precision{interp.Float64, interp.Float32} {
		eager, err := Random(5, Options{}, reader)
		require.NoError(t, err)
		want, err := interp.Evaluate(reader, eager, interp.Options{Precision: prec})
		require.NoError(t, err)

		lazy, err := Lazy(5, Options{}, 1<<30, nil, writer, reader)
		require.NoError(t, err)
		_, err = interp.Evaluate(writer, lazy, interp.Options{Precision: prec})
		require.NoError(t, err)
		require.Contains(t, lazy.Drawer.(*lazyParams).kept, "w", "%v: the first reader keeps its draw", prec)
		second, err := interp.Evaluate(reader, lazy, interp.Options{Precision: prec})
		require.NoError(t, err)
		assert.Empty(t, lazy.Drawer.(*lazyParams).kept, "%v: the second reader takes the kept draw", prec)
		assert.Zero(t, lazy.Drawer.(*lazyParams).keptBytes, "%v", prec)
		assert.Equal(t, want.Outputs, second.Outputs, "%v: the second program reads the weight as drawn", prec)
	}
}

// TestRoundHalfIsRoundTo: roundHalf, on float32 bits, rounds as interp.RoundTo(float16) does on float64: every
// exponent with the fractions around each tie between two halves (normal and subnormal), and a million random
// bit patterns.
func TestRoundHalfIsRoundTo(t *testing.T) {
	check := func(x float32) {
		want := float32(interp.RoundTo(ir.DTypeFloat16, float64(x)))
		got := roundHalf(x)
		if math.IsNaN(float64(want)) && math.IsNaN(float64(got)) {
			return
		}
		if math.Float32bits(got) != math.Float32bits(want) {
			require.Failf(t, "roundHalf differs", "%v (%#08x): %v, want %v", x, math.Float32bits(x), got, want)
		}
	}
	for e := uint32(0); e < 256; e++ {
		// A tie has a one at the highest bit rounded off and zeros below: bit 12 of a normal half, lower of a
		// subnormal one. Every position, kept bits odd and even, and the neighbours of each.
		for p := range uint32(23) {
			for _, kept := range []uint32{0, 0x7fffff, 0x555555, 0x2aaaaa} {
				f := kept&^(1<<(p+1)-1) | 1<<p
				for _, frac := range []uint32{f, f - 1, f + 1} {
					b := e<<23 | frac&(1<<23-1)
					check(math.Float32frombits(b))
					check(math.Float32frombits(b | 1<<31))
				}
			}
		}
	}
	for _, x := range []float32{0, 65504, 65519.99, 65520, 0x1p-14, 0x1p-24, 0x1p-25, 0x1.0001p-25, 0x1.8p-24} {
		check(x)
		check(-x)
	}
	r := rand.New(rand.NewPCG(7, 8))
	for range 1_000_000 {
		check(math.Float32frombits(r.Uint32()))
	}
}

// TestRoundHalvesAsmIsRoundHalf: the F16C conversions round as roundHalf does, on every tie pattern of
// TestRoundHalfIsRoundTo's kind, a million random bit patterns and slices of every length up to 17 (the eight-wide
// loop and the rest).
func TestRoundHalvesAsmIsRoundHalf(t *testing.T) {
	if roundHalvesAsm == nil {
		t.Skip("this machine (or kernel path) rounds halves in Go")
	}
	var xs []float32
	for e := uint32(0); e < 256; e++ {
		for p := range uint32(23) {
			f := uint32(0x555555)&^(1<<(p+1)-1) | 1<<p
			for _, frac := range []uint32{f, f - 1, f + 1} {
				xs = append(xs, math.Float32frombits(e<<23|frac&(1<<23-1)), math.Float32frombits(1<<31|e<<23|frac&(1<<23-1)))
			}
		}
	}
	r := rand.New(rand.NewPCG(9, 10))
	for range 1_000_000 {
		xs = append(xs, math.Float32frombits(r.Uint32()))
	}
	for n := 0; n <= 17; n++ {
		xs = append(xs, xs[len(xs)-n:]...) // slices of every length end the input
	}
	got := slices.Clone(xs)
	roundHalvesAsm(got)
	for i, x := range xs {
		want := roundHalf(x)
		if math.IsNaN(float64(want)) && math.IsNaN(float64(got[i])) {
			continue
		}
		if math.Float32bits(got[i]) != math.Float32bits(want) {
			require.Failf(t, "F16C rounding differs", "%v (%#08x): %v, want %v", x, math.Float32bits(x), got[i], want)
		}
	}
	for n := 0; n <= 17; n++ {
		part := slices.Clone(xs[:n])
		roundHalvesAsm(part)
		for i := range part {
			if math.Float32bits(part[i]) != math.Float32bits(got[i]) && !math.IsNaN(float64(part[i])) {
				require.Failf(t, "F16C rounding of a short slice differs", "length %d, element %d", n, i)
			}
		}
	}
}
