package ir

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTypesInterned(t *testing.T) {
	c := NewContext()
	f32 := c.Scalar(DTypeFloat32)
	a := c.Tensor(DenseTensor, []int64{1, 64, -1}, f32)
	dims := []int64{1, 64, -1}
	b := c.Tensor(DenseTensor, dims, f32)
	dims[0] = 7 // the context copied the slice
	assert.Same(t, a, b)
	assert.Equal(t, "builtin.tensor<1x64x-1xf32>", a.String())
	assert.NotSame(t, a, c.Tensor(LegacyTensor, []int64{1, 64, -1}, f32))
	assert.NotSame(t, a, c.TensorFull(DenseTensor, []int64{1, 64, -1}, f32, "NHWC", nil, 0), "layout is part of the type")
	assert.Same(t, a, c.WithSpelling(c.WithSpelling(a, ValueTensor), DenseTensor))
	assert.Equal(t, "pd_op.v_tensor<1x64x-1xf32>", c.WithSpelling(a, ValueTensor).String())
	assert.True(t, c.WithSpelling(a, ValueTensor).IsValue())
	assert.Equal(t, "builtin.tensor<f32>", c.Tensor(DenseTensor, nil, f32).String())
	v := c.Vector(a, c.Tensor(DenseTensor, []int64{2}, c.Scalar(DTypeInt64)))
	assert.Same(t, v, c.Vector(a, c.Tensor(DenseTensor, []int64{2}, c.Scalar(DTypeInt64))))
	assert.Equal(t, "vec[builtin.tensor<1x64x-1xf32>,builtin.tensor<2xi64>]", v.String())
	assert.Equal(t, "pd_op.tensor_array<f32>", c.TensorArray(f32, nil, DefaultLayout).String())
	assert.Equal(t, "pd_op.selectedrows<4x8xf32>", c.SelectedRows([]int64{4, 8}, f32, DefaultLayout, nil, 0).String())
	assert.Same(t, c.Opaque("gpu_tensor<1xf32>"), c.Opaque("gpu_tensor<1xf32>"))
	assert.Equal(t, int64(-1), a.NumElements())
	assert.Equal(t, int64(64), c.Tensor(DenseTensor, []int64{1, 64}, f32).NumElements())
}

func TestAttrsInterned(t *testing.T) {
	c := NewContext()
	assert.Same(t, c.Int32(1), c.Int32(1))
	assert.NotEqual(t, Attribute(c.Int32(1)), Attribute(c.Int64(1)), "kinds differ")
	assert.Same(t, c.Int32s(1, 1), c.Array(c.Int32(1), c.Int32(1)))
	assert.Same(t, c.Double(math.NaN()), c.Double(math.NaN()))
	assert.NotSame(t, c.Double(0), c.Double(math.Copysign(0, -1)))
	assert.NotSame(t, Attribute(c.Float(0.5)), Attribute(c.Double(0.5)))
	assert.Same(t, c.Str("a"), c.Str("a"))
	assert.NotSame(t, Attribute(c.Str("a")), Attribute(c.TensorName("a")))
	assert.Same(t, c.Place(Place{Type: PlaceGPU, Device: 1}), c.Place(Place{Type: PlaceGPU, Device: 1}))
	assert.Same(t, c.TypeAttr(c.Scalar(DTypeInt8)), c.TypeAttr(c.Scalar(DTypeInt8)))
	assert.Same(t, c.ScalarAttr(DTypeFloat32, c.Float(1)), c.ScalarAttr(DTypeFloat32, c.Float(1)))
}

func TestInterningConcurrent(t *testing.T) {
	c := NewContext()
	var wg sync.WaitGroup
	got := make([]Attribute, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 1000; j++ {
				c.Int64(int64(j))
			}
			got[i] = c.Int64s(1, 2, 3)
		}()
	}
	wg.Wait()
	for _, a := range got {
		assert.Same(t, got[0], a)
	}
}

func TestAttrText(t *testing.T) {
	c := NewContext()
	tests := []struct {
		attr Attribute
		want string
	}{
		{c.Bool(true), "true"},
		{c.Int32(-3), "(Int32)-3"},
		{c.Int64(-1), "(Int64)-1"},
		{c.Index(3), "(Index)3"},
		{c.Float(1e-5), "(Float)1e-05"},
		{c.Float(0.9), "(Float)0.9"},
		{c.Float(float32(1.0 / 6)), "(Float)0.16666667"},
		{c.Double(1), "(Double)1"},
		{c.Double(1e6), "(Double)1e+06"},
		{c.Double(123456), "(Double)123456"},
		{c.Double(math.Inf(-1)), "(Double)-inf"},
		{c.Float(float32(math.NaN())), "(Float)nan"},
		{c.Str(`a"b\c`), `"a\"b\\c"`},
		{c.Int32s(1, 1), "[(Int32)1,(Int32)1]"},
		{c.Array(), "[]"},
		{c.IntArray([]int64{-1, 3, 224, 224}), "(pd_op.IntArray)[-1,3,224,224]"},
		{c.DataType(DTypeFloat32), "(pd_op.DataType)float32"},
		{c.DataType(DTypeBool), "(pd_op.DataType)bool"},
		{c.Place(Place{Type: PlaceUndefined}), "(pd_op.Place)Place(undefined:0)"},
		{c.Place(Place{Type: PlaceCPU}), "(pd_op.Place)Place(cpu)"},
		{c.Place(Place{Type: PlaceGPU}), "(pd_op.Place)Place(gpu:0)"},
		{c.DataLayout("NCHW"), "(pd_op.DataLayout)NCHW"},
		{c.TypeAttr(c.Scalar(DTypeFloat32)), "f32"},
		{c.Pointer("0x7f43"), "(Pointer)0x7f43"},
		{c.OpaqueAttr("kernel_key:<backend:GPU>"), "kernel_key:<backend:GPU>"},
		{c.NullAttr(), "<#AttrNull>"},
		{c.Complex(64, 1, -2), "(Complex64)[1,-2]"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.attr.String())
	}
}

func TestFormatFloatMatchesPaddleSixDigits(t *testing.T) {
	// Values Paddle printed with 6 significant digits read back and print identically.
	for _, s := range []string{"1e-05", "0.9", "1", "0.166667", "1e+06", "123456", "0.001", "0.0001", "1e-07", "-2.5", "3.40282e+38"} {
		f, err := strconv.ParseFloat(s, 64)
		require.NoError(t, err)
		assert.Equal(t, s, FormatFloat(float64(float32(f)), 32), "f32 %s", s)
		assert.Equal(t, s, FormatFloat(f, 64), "f64 %s", s)
	}
}

func TestPlaceParse(t *testing.T) {
	for _, s := range []string{"cpu", "gpu:0", "gpu:3", "gpu_pinned", "xpu:1", "ipu:0", "undefined:0", "npu:2"} {
		p, ok := ParsePlace(s)
		require.True(t, ok, s)
		assert.Equal(t, "Place("+s+")", p.String())
	}
	_, ok := ParsePlace("gpu:x")
	assert.False(t, ok)
}

func TestDTypeNames(t *testing.T) {
	for _, d := range DTypes() {
		got, ok := DTypeFromText(d.String())
		assert.True(t, ok && got == d, "text %s", d)
		got, ok = DTypeFromDataType(d.DataTypeName())
		assert.True(t, ok && got == d, "data type %s", d.DataTypeName())
		if d.JSONName() != "" {
			got, ok = DTypeFromJSON(d.JSONName())
			assert.True(t, ok && got == d, "json %s", d.JSONName())
		}
	}
	d, ok := DTypeFromDataType("psting")
	assert.True(t, ok)
	assert.Equal(t, DTypePString, d)
}

func TestCoerce(t *testing.T) {
	c := NewContext()
	lit := func(s string) Literal { l, err := ParseNumber(s); require.NoError(t, err); return l }
	list := func(ls ...Literal) Literal { return Literal{Kind: LitList, List: ls} }
	tests := []struct {
		typ  AttrType
		lit  Literal
		want string
		err  string
	}{
		{AttrType{Kind: KindInt32}, lit("1"), "(Int32)1", ""},
		{AttrType{Kind: KindInt64}, lit("-1"), "(Int64)-1", ""},
		{AttrType{Kind: KindFloat}, lit("1e-05"), "(Float)1e-05", ""},
		{AttrType{Kind: KindFloat}, lit("2"), "(Float)2", ""},
		// Just above the midpoint of 1 and the next f32: via f64 it rounds to the midpoint, then to even (1).
		{AttrType{Kind: KindFloat}, lit("1.00000005960464478"), "(Float)1.0000001", ""},
		{AttrType{Kind: KindDouble}, lit("0.5"), "(Double)0.5", ""},
		{AttrType{Kind: KindInt32, Array: true}, list(lit("1"), lit("2")), "[(Int32)1,(Int32)2]", ""},
		{AttrType{Kind: KindIntArray}, list(lit("-1"), lit("3")), "(pd_op.IntArray)[-1,3]", ""},
		{AttrType{Kind: KindDataType}, Literal{Kind: LitIdent, Str: "int64"}, "(pd_op.DataType)int64", ""},
		{AttrType{Kind: KindPlace}, Literal{Kind: LitPlace, Str: "gpu:1"}, "(pd_op.Place)Place(gpu:1)", ""},
		{AttrType{Kind: KindStr}, Literal{Kind: LitString, Str: "NCHW"}, `"NCHW"`, ""},
		{AttrType{Kind: KindAny}, lit("1"), "(Int32)1", ""},
		{AttrType{Kind: KindAny}, lit("4294967296"), "(Int64)4294967296", ""},
		{AttrType{Kind: KindAny}, lit("0.5"), "(Double)0.5", ""},
		{AttrType{Kind: KindAny}, Literal{Kind: LitIdent, Str: "float32"}, "(pd_op.DataType)float32", ""},
		{AttrType{Kind: KindInt32}, lit("0.5"), "", "cannot use 0.5 as i32"},
		{AttrType{Kind: KindInt32, Array: true}, lit("1"), "", "expected a list for i32[], got 1"},
		{AttrType{Kind: KindInt32, Array: true}, list(lit("1"), Literal{Kind: LitBool}), "", "element 1: cannot use false as i32"},
		{AttrType{Kind: KindDataType}, Literal{Kind: LitIdent, Str: "float99"}, "", `unknown data type "float99"`},
	}
	for _, tt := range tests {
		a, err := c.Coerce(tt.typ, tt.lit)
		if tt.err != "" {
			assert.EqualError(t, err, tt.err)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, tt.want, a.String())
	}
}

// TestStrTable: string attributes are one per value however they are asked for (Str, StrBytes), through the table's
// growth; StrBytes keeps a copy of its bytes, and long strings and the empty string are interned too.
func TestStrTable(t *testing.T) {
	c := NewContext()
	long := strings.Repeat("x", strArena)
	byValue := map[string]*StrAttr{}
	buf := make([]byte, 0, 64)
	for i := range 5000 {
		s := fmt.Sprintf("conv%d.w_0", i)
		if i%500 == 0 {
			s = long + s
		}
		buf = append(buf[:0], s...)
		var a *StrAttr
		if i%2 == 0 {
			a = c.StrBytes(buf)
		} else {
			a = c.Str(s)
		}
		clear(buf)
		assert.Equal(t, s, a.Value)
		byValue[s] = a
	}
	assert.Equal(t, "", c.Str("").Value)
	assert.Same(t, c.Str(""), c.StrBytes(nil))
	assert.Same(t, c.Str(""), c.StrBytes([]byte{}))
	for s, a := range byValue {
		require.Same(t, a, c.Str(s), "%.20q", s)
		require.Same(t, a, c.StrBytes([]byte(s)), "%.20q", s)
		require.Equal(t, s, a.Value, "StrBytes copied its bytes")
	}
	assert.NotSame(t, c.Str("a"), NewContext().Str("a"), "one table per Context")
}

// TestValueTypes: a value gives back the type it was given, interned or built by hand, also after SetType.
func TestValueTypes(t *testing.T) {
	c := NewContext()
	p := NewProgram(c)
	b := NewBuilder(c)
	b.SetInsertionPointToEnd(p.Body())
	f32 := c.Tensor(DenseTensor, []int64{2}, c.Scalar(DTypeFloat32))
	byHand := &OpaqueType{Text: "my.t"}
	op := b.Create(OpSpec{Name: "my.op", Results: []Type{f32, c.NullType(), byHand, c.Scalar(DTypeInt8), nil}})
	assert.Same(t, f32, op.Result(0).Type())
	assert.Same(t, c.NullType(), op.Result(1).Type())
	assert.Same(t, byHand, op.Result(2).Type())
	assert.Same(t, c.Scalar(DTypeInt8), op.Result(3).Type())
	assert.Nil(t, op.Result(4).Type())
	interned := c.Opaque("my.t")
	assert.Same(t, interned, interned.head().self, "interning sets the head")
	assert.Nil(t, byHand.head().self, "a type built by hand keeps an unset head: its values have heads of their own")
	NewRewriter(c, nil).SetType(op.Result(0), byHand)
	assert.Same(t, byHand, op.Result(0).Type())
	arg := op.Result(0).Type()
	assert.Equal(t, "my.t", arg.String())
	blk := NewBlock()
	assert.Same(t, f32, blk.AddArg(f32).Type())
}

func TestAttrNameInterned(t *testing.T) {
	c := NewContext()
	require.NoError(t, c.LoadDefaultDialects())
	axis := c.AttrName(strings.Clone("axis"))
	tests := []struct {
		name string
		got  string
	}{
		{"the same name again", c.AttrName(strings.Clone("axis"))},
		{"from bytes", c.AttrNameBytes([]byte("axis"))},
		{"a schema's name", c.Schema("pd_op.softmax").Attr("axis").Name},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, "axis", tt.got)
			assert.Same(t, unsafe.StringData(axis), unsafe.StringData(tt.got), "the Context's one copy")
		})
	}
	buf := []byte("keepdim")
	k := c.AttrNameBytes(buf)
	buf[0] = 'X'
	assert.Equal(t, "keepdim", k, "a new name from bytes is copied")
	assert.NotEqual(t, axis, c.AttrName("axes"))
	assert.Equal(t, "", c.AttrName(""))
	// A Rewriter's SetAttr stores a new name as the Context's copy, and Attr finds it by any equal string.
	rw := NewRewriter(c, nil)
	rw.SetInsertionPointToEnd(NewProgram(c).Body())
	op := rw.Create(OpSpec{Name: "test.op"})
	rw.SetAttr(op, strings.Clone("axis"), c.Int32(1))
	assert.Same(t, unsafe.StringData(axis), unsafe.StringData(op.Attrs()[0].Name))
	assert.Equal(t, Attribute(c.Int32(1)), op.Attr(axis))
	assert.Equal(t, Attribute(c.Int32(1)), op.Attr(strings.Clone("axis")))
	assert.Nil(t, op.Attr("axes"))
}
