package interp

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/ir"
)

// Table-driven kernel tests: each case builds a program with one op, its operands fed as program inputs, runs it
// in float64 and float32, and compares every result with values computed independently (by hand, or from an
// identity). Attributes are given as Go values (a, below) and converted to the kind the schema declares.

// opCase is one evaluation of one op.
type opCase struct {
	name string
	op   string
	// in are the operands: a *Tensor, nil (an absent optional operand), or a []*Tensor (a builtin.combine
	// vector).
	in []any
	// attrs are the op's attributes.
	attrs []ir.NamedAttr
	// want are the expected results; their dtypes and shapes declare the result types. A nil entry declares the
	// type of types[i] and is not checked.
	want  []*Tensor
	types []ir.Type
	// err, if set, is a substring of the expected error (then want only declares types).
	err string
	// tol is the relative tolerance (|got − want| ≤ tol·(1 + |want|)); default 1e-12 in float64, 2e-6 in float32.
	tol, tol32 float64
	// only64 skips the float32 evaluation (cases whose exact values float32 cannot hold).
	only64 bool
}

var (
	testCtxOnce sync.Once
	testCtx     *ir.Context
)

// kctx is the context the kernel tables build their attributes in.
func kctx(t testing.TB) *ir.Context {
	testCtxOnce.Do(func() {
		var err error
		testCtx, err = ir.NewDefaultContext()
		if err != nil {
			panic(err)
		}
	})
	return testCtx
}

// tensorOf is a host tensor of the given dtype (f32 when dt is omitted: use tt for others).
func tt(dt ir.DType, shape []int, data ...float64) *Tensor {
	if shape == nil {
		shape = []int{}
	}
	return &Tensor{DType: dt, Shape: shape, Data: data}
}

func fT(shape []int, data ...float64) *Tensor   { return tt(ir.DTypeFloat32, shape, data...) }
func i64T(shape []int, data ...float64) *Tensor { return tt(ir.DTypeInt64, shape, data...) }
func i32T(shape []int, data ...float64) *Tensor { return tt(ir.DTypeInt32, shape, data...) }
func bT(shape []int, data ...float64) *Tensor   { return tt(ir.DTypeBool, shape, data...) }

// sh is a shape literal.
func sh(d ...int) []int { return d }

// ramp is 0, 1, …, n−1 (as float64s), scaled and shifted.
func ramp(n int, scale, shift float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(i)*scale + shift
	}
	return out
}

// a builds an attribute from a Go value: bool, int (i32), int64, float32, float64 (f64), string, []int (i32[]),
// []int64 (i64[]), []float32 (f32[]), []string, ir.DType, or an ir.Attribute as is.
func a(t testing.TB, name string, v any) ir.NamedAttr {
	ctx := kctx(t)
	var at ir.Attribute
	switch v := v.(type) {
	case ir.Attribute:
		at = v
	case bool:
		at = ctx.Bool(v)
	case int:
		at = ctx.Int32(int32(v))
	case int64:
		at = ctx.Int64(v)
	case float32:
		at = ctx.Float(v)
	case float64:
		at = ctx.Double(v)
	case string:
		at = ctx.Str(v)
	case []int:
		xs := make([]int64, len(v))
		for i, x := range v {
			xs[i] = int64(x)
		}
		at = ctx.Int32s(xs...)
	case []int64:
		at = ctx.Int64s(v...)
	case []float32:
		el := make([]ir.Attribute, len(v))
		for i, x := range v {
			el[i] = ctx.Float(x)
		}
		at = ctx.Array(el...)
	case []string:
		el := make([]ir.Attribute, len(v))
		for i, x := range v {
			el[i] = ctx.Str(x)
		}
		at = ctx.Array(el...)
	case ir.DType:
		at = ctx.DataType(v)
	default:
		panic(fmt.Sprintf("attribute %s: unsupported Go value %T", name, v))
	}
	return ir.NamedAttr{Name: name, Value: at}
}

// typeOf is the tensor type of a host tensor.
func typeOf(ctx *ir.Context, h *Tensor) ir.Type {
	dims := make([]int64, len(h.Shape))
	for i, d := range h.Shape {
		dims[i] = int64(d)
	}
	return ctx.Tensor(ir.DenseTensor, dims, ctx.Scalar(h.DType))
}

// build makes the one-op program of a case and its feed.
func (tc opCase) build(t testing.TB) (*ir.Program, *Feed) {
	ctx := kctx(t)
	b := progtest.NewIn(t, ctx)
	feed := &Feed{Inputs: map[string]*Tensor{}}
	input := func(name string, h *Tensor) *ir.Value {
		feed.Inputs[name] = h
		dims := make([]int64, len(h.Shape))
		for i, d := range h.Shape {
			dims[i] = int64(d)
		}
		return b.DataT(name, h.DType, dims...)
	}
	var operands []*ir.Value
	for i, x := range tc.in {
		switch x := x.(type) {
		case nil:
			operands = append(operands, nil)
		case *Tensor:
			operands = append(operands, input(fmt.Sprintf("in%d", i), x))
		case []*Tensor:
			var elems []*ir.Value
			var types []ir.Type
			for k, e := range x {
				v := input(fmt.Sprintf("in%d_%d", i, k), e)
				elems = append(elems, v)
				types = append(types, v.Type())
			}
			operands = append(operands, b.OpT("builtin.combine", elems, []ir.Type{ctx.Vector(types...)}).Result(0))
		default:
			t.Fatalf("%s: operand %d: unsupported %T", tc.name, i, x)
		}
	}
	var results []ir.Type
	for i, w := range tc.want {
		if w == nil {
			results = append(results, tc.types[i])
			continue
		}
		results = append(results, typeOf(ctx, w))
	}
	for i := len(tc.want); i < len(tc.types); i++ {
		results = append(results, tc.types[i])
	}
	op := b.OpT(tc.op, operands, results, tc.attrs...)
	for i := range results {
		if i < len(tc.want) && tc.want[i] != nil {
			b.Fetch(op.Result(i), fmt.Sprintf("out%d", i), i)
		}
	}
	return b.P, feed
}

// runOpCases runs a table.
func runOpCases(t *testing.T, cases []opCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, feed := tc.build(t)
			for _, prec := range []Precision{Float64, Float32} {
				if prec == Float32 && tc.only64 {
					continue
				}
				res, err := Evaluate(p, feed, Options{Precision: prec})
				if tc.err != "" {
					require.Error(t, err, "%s", prec)
					require.Contains(t, err.Error(), tc.err, "%s", prec)
					continue
				}
				require.NoError(t, err, "%s", prec)
				tol := tc.tol
				if tol == 0 {
					tol = 1e-12
				}
				if prec == Float32 {
					tol = max(tc.tol32, 2e-6, tol)
				}
				for i, w := range tc.want {
					if w == nil {
						continue
					}
					got := res.Output(fmt.Sprintf("out%d", i))
					require.NotNil(t, got, "result %d", i)
					requireTensorClose(t, w, got.Value, tol, fmt.Sprintf("%s result %d", prec, i))
				}
			}
		})
	}
}

// requireTensorClose checks dtype, shape and values (NaN equals NaN, infinities must match).
func requireTensorClose(t testing.TB, want, got *Tensor, tol float64, what string) {
	t.Helper()
	require.Equal(t, want.DType, got.DType, "%s: dtype", what)
	require.Equal(t, want.Shape, got.Shape, "%s: shape", what)
	require.Equal(t, len(want.Data), len(got.Data), "%s: element count", what)
	var bad []string
	for i, w := range want.Data {
		g := got.Data[i]
		ok := w == g || math.IsNaN(w) && math.IsNaN(g) || !math.IsInf(w, 0) && math.Abs(g-w) <= tol*(1+math.Abs(w))
		if !ok && len(bad) < 8 {
			bad = append(bad, fmt.Sprintf("[%d] got %v want %v", i, g, w))
		}
	}
	if len(bad) > 0 {
		require.Failf(t, "values differ", "%s (tol %g): %s\ngot  %v\nwant %v", what, tol, strings.Join(bad, "; "),
			truncate(got.Data), truncate(want.Data))
	}
}

func truncate(xs []float64) []float64 {
	if len(xs) > 48 {
		return xs[:48]
	}
	return xs
}

// mapF applies f to xs.
func mapF(xs []float64, f func(float64) float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}
