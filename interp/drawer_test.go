package interp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/ir"
)

// drawer is a ParamDrawer giving one parameter "w" as d, with d32 as its Data in a float32 evaluation when set,
// and counting its calls.
type drawer struct {
	d     Drawn
	d32   []float32
	calls int
}

func (dr *drawer) DrawParam(name string, p Precision) (Drawn, bool, error) {
	if name != "w" {
		return Drawn{}, false, nil
	}
	dr.calls++
	d := dr.d
	if p == Float32 && dr.d32 != nil {
		d.Data = dr.d32
	}
	return d, true, nil
}

// TestDrawerGivesParameters: a feed's Drawer gives the parameters neither the feed nor the program holds, once per
// evaluation, in the evaluation's precision; a borrowed draw is copied before an op writes the parameter's buffer,
// so the drawer's slice keeps its values; a draw that does not fit the parameter is an error naming it.
func TestDrawerGivesParameters(t *testing.T) {
	b := progtest.New(t)
	w := b.Param("w", 2, 2)
	b.Fetch(b.V("pd_op.assign", w), "read", 0)
	b.VA("pd_op.set_value_with_tensor_", []*ir.Value{w, b.Full([]int64{2, 1}, 7), b.Ints(0), b.Ints(1), b.Ints(1)},
		progtest.Attr("axes", b.Ctx.Int64s(1)), progtest.Attr("decrease_axes", b.Ctx.Int64s()), progtest.Attr("none_axes", b.Ctx.Int64s()))
	b.Fetch(w, "after", 1)
	require.Empty(t, ir.Verify(b.P).Errors())
	for _, prec := range []Precision{Float64, Float32} {
		t.Run(prec.String(), func(t *testing.T) {
			dr := &drawer{d: Drawn{DType: ir.DTypeFloat32, Shape: []int{2, 2}, Data: []float64{1, -2, 3, -4}, Borrowed: true},
				d32: []float32{1, -2, 3, -4}}
			res, err := Evaluate(b.P, &Feed{Drawer: dr}, Options{Precision: prec})
			require.NoError(t, err)
			assert.Equal(t, 1, dr.calls, "drawn once, when first read")
			out := map[string][]float64{}
			for _, o := range res.Outputs {
				out[o.Name] = o.Value.Data
			}
			assert.Equal(t, []float64{1, -2, 3, -4}, out["read"])
			assert.Equal(t, []float64{7, -2, 7, -4}, out["after"], "set_value_with_tensor_ writes the parameter's buffer")
			assert.Equal(t, []float64{1, -2, 3, -4}, dr.d.Data, "the borrowed draw is not written")
			assert.Equal(t, []float32{1, -2, 3, -4}, dr.d32, "the borrowed draw is not written")
		})
	}
	for _, tc := range []struct {
		name string
		d    Drawn
		err  string
	}{
		{"wrong precision", Drawn{DType: ir.DTypeFloat32, Shape: []int{2, 2}, Data: []float32{1, 2, 3, 4}},
			`evaluating builtin.parameter at (new op): parameter "w" is drawn as []float32 in a float64 evaluation`},
		{"wrong length", Drawn{DType: ir.DTypeFloat32, Shape: []int{2, 2}, Data: []float64{1, 2, 3}},
			`evaluating builtin.parameter at (new op): parameter "w" is drawn with 3 elements for shape [2 2]`},
		{"wrong shape", Drawn{DType: ir.DTypeFloat32, Shape: []int{4}, Data: []float64{1, 2, 3, 4}},
			`evaluating builtin.parameter at (new op): parameter "w" is drawn as f32[4] but its type is builtin.tensor<2x2xf32>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Evaluate(b.P, &Feed{Drawer: &drawer{d: tc.d}}, Options{})
			assert.EqualError(t, err, tc.err)
		})
	}
}
