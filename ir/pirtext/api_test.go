package pirtext

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

func TestParseType(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{in: "builtin.tensor<-1x3x224x224xf32>", want: "builtin.tensor<-1x3x224x224xf32>"},
		{in: "builtin.tensor<f32>", want: "builtin.tensor<f32>"},
		{in: "pd_op.tensor<1xb>", want: "pd_op.tensor<1xb>"},
		{in: "tensor<0x<<NULL TYPE>>>", want: "tensor<0x<<NULL TYPE>>>"},
		{in: "pd_op.v_tensor<2x2xbf16>", want: "pd_op.v_tensor<2x2xbf16>"},
		{in: "gpu_tensor<-1x-1xf32>", want: "gpu_tensor<-1x-1xf32>"},
		{in: " vec[ builtin.tensor<1xf32> , i64 ] ", want: "vec[builtin.tensor<1xf32>,i64]"},
		{in: "vec[]", want: "vec[]"},
		{in: "pd_op.selectedrows<-1x8xf32>", want: "pd_op.selectedrows<-1x8xf32>"},
		{in: "pd_op.tensor_array<f32>", want: "pd_op.tensor_array<f32>"},
		{in: "<<NULL TYPE>>", want: "<<NULL TYPE>>"},
		{in: "f8e4m3fn", want: "f8e4m3fn"},
		{in: "cf.stack", want: "cf.stack"},
		{in: "pd_op.dist_tensor<8x8xf32, mesh:[0,1]>", want: "pd_op.dist_tensor<8x8xf32, mesh:[0,1]>"},
		{in: "builtin.tensor<3xq7>", err: "<type>:1:1: error: bad builtin.tensor type: unknown element type q7"},
		{in: "builtin.tensor<3x3>", err: "<type>:1:1: error: bad builtin.tensor type: expected 'x' after dimension 3, found '>'"},
		{in: "builtin.tensor<3x>", err: "<type>:1:1: error: bad builtin.tensor type: expected an element type, found '>'"},
		{in: "builtin.tensor<3xf32", err: "<type>:1:1: error: bad builtin.tensor type: expected '>' after the element type, found end of file"},
		{in: "vec[f32", err: "<type>:1:8: error: expected ',' or ']' in vec[…], found end of file"},
		{in: "f32 x", err: "<type>:1:5: error: unexpected identifier x after the type"},
		{in: "%0", err: "<type>:1:1: error: expected a type, found value %0"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			ctx := ir.NewContext()
			got, err := ParseType(ctx, tc.in)
			if tc.err != "" {
				require.Error(t, err)
				assert.Equal(t, tc.err, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got.String())
			assert.Equal(t, tc.want, string(AppendType(nil, got)))
			again, err := ParseType(ctx, tc.want)
			require.NoError(t, err)
			assert.Same(t, got, again, "types are interned")
		})
	}
}

func TestParseTypeKinds(t *testing.T) {
	ctx := ir.NewContext()
	tt, err := ParseType(ctx, "builtin.tensor<-1x3xf32>")
	require.NoError(t, err)
	assert.Equal(t, ctx.Tensor(ir.DenseTensor, []int64{-1, 3}, ctx.Scalar(ir.DTypeFloat32)), tt)
	k, err := ParseType(ctx, "gpu_tensor<2xi8>")
	require.NoError(t, err)
	assert.Equal(t, "gpu_tensor", ir.TensorOf(k).Spelling)
	v, err := ParseType(ctx, "pd_op.v_tensor<2xi8>")
	require.NoError(t, err)
	assert.True(t, ir.TensorOf(v).IsValue())
	o, err := ParseType(ctx, "cf.stack")
	require.NoError(t, err)
	assert.IsType(t, &ir.OpaqueType{}, o)
}

func TestParseAttribute(t *testing.T) {
	ctx := ir.NewContext()
	tests := []struct {
		in   string
		want ir.Attribute
		err  string
	}{
		{in: "true", want: ctx.Bool(true)},
		{in: "(Int32)-3", want: ctx.Int32(-3)},
		{in: "(Int64)-9223372036854775808", want: ctx.Int64(math.MinInt64)},
		{in: "(Index)3", want: ctx.Index(3)},
		{in: "(Float)1e-05", want: ctx.Float(1e-05)},
		{in: "(Float)-inf", want: ctx.Float(float32(math.Inf(-1)))},
		{in: "(Double)nan", want: ctx.Double(math.NaN())},
		{in: "(Double)-0", want: ctx.Double(math.Copysign(0, -1))},
		{in: `"EXPLICIT"`, want: ctx.Str("EXPLICIT")},
		{in: `"a\"b\\c\nd\x01\q"`, want: ctx.Str("a\"b\\c\nd\x01\\q")},
		{in: "[(Int32)1, (Int32)2]", want: ctx.Int32s(1, 2)},
		{in: "[]", want: ctx.Array()},
		{in: "(pd_op.IntArray)[-1,3]", want: ctx.IntArray([]int64{-1, 3})},
		{in: "(pd_op.DataType)bfloat16", want: ctx.DataType(ir.DTypeBFloat16)},
		{in: "(pd_op.DataType)psting", want: ctx.DataType(ir.DTypePString)},
		{in: "(pd_op.Place)Place(gpu:1)", want: ctx.Place(ir.Place{Type: ir.PlaceGPU, Device: 1})},
		{in: "(pd_op.DataLayout)Undefined(AnyLayout)", want: ctx.DataLayout("Undefined(AnyLayout)")},
		{in: "(Pointer)0x7f", want: ctx.Pointer("0x7f")},
		{in: "(Complex128)[1,-2]", want: ctx.Complex(128, 1, -2)},
		{in: "(pd_op.Scalar)float32:(Float)1.5", want: ctx.ScalarAttr(ir.DTypeFloat32, ctx.Float(1.5))},
		{in: `(TensorName)"t"`, want: ctx.TensorName("t")},
		{in: "(Type)index", want: ctx.TypeAttr(ctx.Scalar(ir.DTypeIndex))},
		{in: "builtin.tensor<1xf32>", want: ctx.TypeAttr(ctx.Tensor(ir.DenseTensor, []int64{1}, ctx.Scalar(ir.DTypeFloat32)))},
		{in: "f32", want: ctx.TypeAttr(ctx.Scalar(ir.DTypeFloat32))},
		{in: "<<NULL TYPE>>", want: ctx.TypeAttr(ctx.NullType())},
		{in: "<#AttrNull>", want: ctx.NullAttr()},
		{in: "<backend:GPU|layout:NCHW|dtype:float32>", want: ctx.OpaqueAttr("<backend:GPU|layout:NCHW|dtype:float32>")},
		{in: "(0x7f5e24fb27c0)", want: ctx.OpaqueAttr("(0x7f5e24fb27c0)")},
		// Untagged values get a guessed kind.
		{in: "1", want: ctx.Int32(1)},
		{in: "3000000000", want: ctx.Int64(3000000000)},
		{in: "1e-05", want: ctx.Double(1e-05)},
		{in: "-0", want: ctx.Double(math.Copysign(0, -1))},
		{in: "[1,1]", want: ctx.Int32s(1, 1)},
		{in: "float32", want: ctx.DataType(ir.DTypeFloat32)},
		{in: "NHWC", want: ctx.DataLayout("NHWC")},
		{in: "Place(cpu)", want: ctx.Place(ir.Place{Type: ir.PlaceCPU})},
		{in: "0x7f", want: ctx.Pointer("0x7f")},
		{in: "[1,(Float)2]", want: ctx.Array(ctx.Int32(1), ctx.Float(2))},
		{in: "EXPLICIT", err: "<attribute>:1:1: error: expected an attribute value, found identifier EXPLICIT (strings must be quoted)"},
		{in: "(Int31)1", err: "<attribute>:1:1: error: unknown attribute tag (Int31)"},
		{in: "(Int32)x", err: "<attribute>:1:8: error: expected an integer after (Int32), found identifier x"},
		{in: "(Float)", err: "<attribute>:1:8: error: expected a number after (Float), found end of file"},
		{in: "[1,", err: "<attribute>:1:4: error: expected an attribute value, found end of file"},
		{in: "12abc", err: "<attribute>:1:1: error: expected an attribute value, found number 12"},
		{in: `"abc`, err: "<attribute>:1:1: error: unterminated string"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseAttribute(ctx, tc.in)
			if tc.err != "" {
				require.Error(t, err)
				assert.Equal(t, tc.err, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Same(t, tc.want, got, "got %s, want %s", got, tc.want)
		})
	}
}

// TestAppendMatchesString: the printer's attribute and type text is the ir package's String, and it reads back.
func TestAppendMatchesString(t *testing.T) {
	ctx := ir.NewContext()
	attrs := []ir.Attribute{
		ctx.Bool(false), ctx.Int32(-1), ctx.Int64(1 << 40), ctx.Index(2), ctx.Float(0.16666670143604279),
		ctx.Float(float32(math.NaN())), ctx.Double(1e300), ctx.Double(math.Inf(1)), ctx.Str("a\"b\\c\n\x02"),
		ctx.Array(ctx.Int32(1), ctx.Str("x"), ctx.Array()), ctx.Pointer("0x1"), ctx.Complex(64, 1, 2),
		ctx.IntArray([]int64{1, -1}), ctx.DataType(ir.DTypeInt8), ctx.Place(ir.Place{Type: ir.PlaceXPU, Device: 2}),
		ctx.DataLayout("NCHW"), ctx.ScalarAttr(ir.DTypeInt64, ctx.Int64(3)), ctx.TensorName("t"),
		ctx.OpaqueAttr("<k:v>"), ctx.NullAttr(), ctx.TypeAttr(ctx.Vector(ctx.Scalar(ir.DTypeFloat32))),
	}
	for _, a := range attrs {
		assert.Equal(t, a.String(), string(AppendAttribute(nil, a, false)))
		back, err := ParseAttribute(ctx, a.String())
		require.NoError(t, err, a.String())
		assert.Same(t, a, back, a.String())
	}
}

// TestUntaggedSpelling: the untagged syntax, as era C prints it.
func TestUntaggedSpelling(t *testing.T) {
	ctx := ir.NewContext()
	tests := []struct {
		a    ir.Attribute
		want string
	}{
		{ctx.Int32(1), "1"},
		{ctx.Float(1e-05), "1e-05"},
		{ctx.Int32s(1, 1), "[1,1]"},
		{ctx.DataType(ir.DTypeFloat32), "float32"},
		{ctx.Place(ir.Place{Type: ir.PlaceCPU}), "Place(cpu)"},
		{ctx.IntArray([]int64{1, 2}), "[1,2]"},
		{ctx.DataLayout("NHWC"), "NHWC"},
		{ctx.DataLayout("MY_LAYOUT"), "(pd_op.DataLayout)MY_LAYOUT"},
		{ctx.Str("s"), `"s"`},
		{ctx.TensorName("t"), `"t"`},
		{ctx.Pointer("0x7f"), "0x7f"},
		{ctx.Pointer("7f"), "(Pointer)7f"},
		{ctx.ScalarAttr(ir.DTypeFloat32, ctx.Float(2)), "2"},
		{ctx.Complex(128, 1, 2), "(Complex128)[1,2]"},
		{ctx.TypeAttr(ctx.Scalar(ir.DTypeFloat16)), "f16"},
		{ctx.TypeAttr(ctx.Scalar(ir.DTypeIndex)), "(Type)index"},
		{ctx.TypeAttr(ctx.Opaque("cf.stack")), "(Type)cf.stack"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, string(AppendAttribute(nil, tc.a, true)), tc.a.String())
	}
}

func TestParseProgramDetails(t *testing.T) {
	src := "{\n    (%0) = \"builtin.parameter\" () {parameter_name:\"w\"} : () -> builtin.tensor<2xf32>\n" +
		"  (%1) = \"pd_op.relu_\" (%0) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>\n" +
		"    () = \"builtin.set_parameter\" (%1) {parameter_name:\"w\"} : (builtin.tensor<2xf32>) ->\n}\n"
	ctx := ir.NewContext()
	p, warns, err := Parse(ctx, "dir/prog.pir", []byte(src), ReadOptions{})
	require.NoError(t, err)
	assert.Empty(t, warns)
	assert.Equal(t, "dir/prog.pir", p.File)
	var locs []ir.Loc
	for op := range p.Walk() {
		locs = append(locs, op.Loc)
	}
	assert.Equal(t, []ir.Loc{{Line: 2, Col: 5}, {Line: 3, Col: 3}, {Line: 4, Col: 5}}, locs)
	require.Contains(t, p.Params, "w")
	assert.True(t, p.Params["w"].Mutable, "CollectParams ran")
	assert.Equal(t, "builtin.tensor<2xf32>", p.Params["w"].Type.String())
}

// TestPrintNumbering: results are numbered in print order, an op's before its regions' ops; block arguments have
// their own counter across the program.
func TestPrintNumbering(t *testing.T) {
	ctx := ir.NewContext()
	p := ir.NewProgram(ctx)
	b := ir.NewBuilder(ctx)
	b.SetInsertionPointToEnd(p.Body())
	f32 := ctx.Tensor(ir.DenseTensor, []int64{1}, ctx.Scalar(ir.DTypeFloat32))
	x := b.Create(ir.OpSpec{Name: "pd_op.data", Results: []ir.Type{f32}}).Result(0)
	loop := b.Create(ir.OpSpec{Name: "pd_op.while", Operands: []*ir.Value{x, x}, Results: []ir.Type{f32}, Regions: 1})
	body := loop.Region(0).AddBlock()
	arg := body.AddArg(f32)
	b.SetInsertionPointToEnd(body)
	y := b.Create(ir.OpSpec{Name: "pd_op.relu", Operands: []*ir.Value{arg}, Results: []ir.Type{f32}}).Result(0)
	b.Create(ir.OpSpec{Name: "cf.yield", Operands: []*ir.Value{x, y}})
	b.SetInsertionPointToEnd(p.Body())
	b.Create(ir.OpSpec{Name: "pd_op.fetch", Operands: []*ir.Value{loop.Result(0)}, Results: []ir.Type{f32},
		Attrs: []ir.NamedAttr{{Name: "name", Value: ctx.Str("out")}, {Name: "col", Value: ctx.Int32(0)}}})
	want := `{
    (%0) = "pd_op.data" () {} : () -> builtin.tensor<1xf32>
    (%1) = "pd_op.while"(cond=%0, inputs=%0) {
    ^%arg_0
        (%2) = "pd_op.relu" (%arg_0) {} : (builtin.tensor<1xf32>) -> builtin.tensor<1xf32>
        () = "cf.yield" (%0, %2) {} : (builtin.tensor<1xf32>, builtin.tensor<1xf32>) -> 
    }
    (%3) = "pd_op.fetch" (%1) {col:(Int32)0,name:"out"} : (builtin.tensor<1xf32>) -> builtin.tensor<1xf32>
}
`
	assert.Equal(t, want, string(Print(p, WriteOptions{})))
	names := ir.NumberValues(p.Body())
	assert.Equal(t, "%2", names.Name(y), "the printer's numbering is ir.NumberValues'")
	assert.Equal(t, "%arg_0", names.Name(arg))
}

// TestPrintSharedAttrLists: ops that share an attribute list, or a prefix of one (same first attribute, fewer of
// them), each print their own attributes, whatever the printer caches by list.
func TestPrintSharedAttrLists(t *testing.T) {
	ctx := ir.NewContext()
	p := ir.NewProgram(ctx)
	b := ir.NewBuilder(ctx)
	b.SetInsertionPointToEnd(p.Body())
	attrs := []ir.NamedAttr{{Name: "z", Value: ctx.Int32(1)}, {Name: "a", Value: ctx.Str("s")}, {Name: "m", Value: ctx.Bool(true)}}
	var want strings.Builder
	want.WriteString("{\n")
	for i := range 12 {
		list := attrs[:3-i%3]
		b.Create(ir.OpSpec{Name: "my.op", Attrs: list})
		text := map[int]string{3: `{a:"s",m:true,z:(Int32)1}`, 2: `{a:"s",z:(Int32)1}`, 1: `{z:(Int32)1}`}[len(list)]
		want.WriteString(`    () = "my.op" () ` + text + " : () -> \n")
	}
	want.WriteString("}\n")
	assert.Equal(t, want.String(), string(Print(p, WriteOptions{})))
}

// TestPrintUseBeforeDefinition: a program that is not well formed still prints, numbering a value when it is first
// printed as Paddle's printer does (an op's results print before its operands).
func TestPrintUseBeforeDefinition(t *testing.T) {
	ctx := ir.NewContext()
	p := ir.NewProgram(ctx)
	b := ir.NewBuilder(ctx)
	b.SetInsertionPointToEnd(p.Body())
	f32 := ctx.Scalar(ir.DTypeFloat32)
	first := b.Create(ir.OpSpec{Name: "a.first", Results: []ir.Type{f32}})
	second := b.Create(ir.OpSpec{Name: "a.second", Results: []ir.Type{f32, f32}})
	rw := ir.NewRewriter(ctx, nil)
	rw.SetOperands(first, []*ir.Value{second.Result(1)})
	want := `{
    (%0) = "a.first" (%1) {} : (f32) -> f32
    (%2, %1) = "a.second" () {} : () -> f32, f32
}
`
	assert.Equal(t, want, string(Print(p, WriteOptions{})))
}

type failingWriter struct{ n int }

func (w *failingWriter) Write(b []byte) (int, error) {
	w.n++
	return 0, errors.New("disk full")
}

func TestWriteError(t *testing.T) {
	ctx := ir.NewContext()
	p := ir.NewProgram(ctx)
	w := &failingWriter{}
	assert.EqualError(t, Write(w, p, WriteOptions{}), "disk full")
	assert.Equal(t, 1, w.n)
	var sb strings.Builder
	require.NoError(t, Write(&sb, p, WriteOptions{}))
	assert.Equal(t, "{\n}\n", sb.String())
}

// chunkWriter records what it is given, and fails from its failAt-th call on (never when failAt is 0).
type chunkWriter struct {
	bytes.Buffer
	calls, failAt int
}

func (w *chunkWriter) Write(b []byte) (int, error) {
	w.calls++
	if w.failAt > 0 && w.calls >= w.failAt {
		return 0, fmt.Errorf("disk full at write %d", w.calls)
	}
	return w.Buffer.Write(b)
}

// panicWriter panics on the call after its first `after` ones.
type panicWriter struct{ calls, after int }

func (w *panicWriter) Write(b []byte) (int, error) {
	if w.calls++; w.calls > w.after {
		panic("connection reset")
	}
	return len(b), nil
}

// TestWriteLargeProgram: a program larger than several buffers, which Write hands to its writer from a goroutine
// of its own, is written as Print prints it, in order; the first error of the writer is returned and nothing is
// written after it.
func TestWriteLargeProgram(t *testing.T) {
	var src strings.Builder
	src.WriteString("{\n")
	for i := range 40000 {
		fmt.Fprintf(&src, "    (%%%d) = \"a.op\" () {n:(Int32)%d} : () -> builtin.tensor<%dx4xf32>\n", i, i, i%97+1)
	}
	src.WriteString("}\n")
	p, _, err := Parse(ir.NewContext(), "big.pir", []byte(src.String()), ReadOptions{})
	require.NoError(t, err)
	want := Print(p, WriteOptions{})
	require.Greater(t, len(want), 4*flushSize, "the program must outgrow several buffers")

	var ok chunkWriter
	require.NoError(t, Write(&ok, p, WriteOptions{}))
	assert.Equal(t, string(want), ok.String())
	assert.Greater(t, ok.calls, 4)

	panicking := panicWriter{after: 2}
	assert.PanicsWithValue(t, "connection reset", func() { _ = Write(&panicking, p, WriteOptions{}) },
		"a writer's panic reaches the caller, as when it wrote synchronously")
	assert.Equal(t, 3, panicking.calls, "no write after the panic")

	failing := chunkWriter{failAt: 2}
	assert.EqualError(t, Write(&failing, p, WriteOptions{}), "disk full at write 2")
	assert.Equal(t, 2, failing.calls, "no write after the first error")
	assert.Equal(t, string(want[:failing.Len()]), failing.String())
}

// TestTruncatedCorpus: every prefix of every corpus program fails cleanly or reads (never an internal error).
func TestTruncatedCorpus(t *testing.T) {
	for _, f := range corpusFiles(t) {
		if strings.HasPrefix(f.name, "graphnet") {
			continue
		}
		for n := 0; n < len(f.src); n++ {
			_, _, err := Parse(ir.NewContext(), f.name, f.src[:n], ReadOptions{})
			var e *Error
			if err != nil && (!errors.As(err, &e) || e.Internal) {
				t.Fatalf("%s[:%d]: %v", f.name, n, err)
			}
		}
	}
}

// TestPrintHiddenAttributes: like Paddle's printer, op_callstack and sym_shape_str are not printed.
func TestPrintHiddenAttributes(t *testing.T) {
	ctx := ir.NewContext()
	p := ir.NewProgram(ctx)
	b := ir.NewBuilder(ctx)
	b.SetInsertionPointToEnd(p.Body())
	cs := ir.NamedAttr{Name: "op_callstack", Value: ctx.Array(ctx.Str("  File x.py"))}
	ss := ir.NamedAttr{Name: "sym_shape_str", Value: ctx.Str("shape[S0]")}
	x := b.Create(ir.OpSpec{Name: "pd_op.data", Results: []ir.Type{ctx.Scalar(ir.DTypeBool)},
		Attrs: []ir.NamedAttr{cs, {Name: "name", Value: ctx.Str("x")}, ss}}).Result(0)
	loop := b.Create(ir.OpSpec{Name: "pd_op.while", Operands: []*ir.Value{x}, Attrs: []ir.NamedAttr{cs}, Regions: 1})
	b.SetInsertionPointToEnd(loop.Region(0).AddBlock())
	b.Create(ir.OpSpec{Name: "cf.yield", Operands: []*ir.Value{x}})
	want := `{
    (%0) = "pd_op.data" () {name:"x"} : () -> b
    () = "pd_op.while"(cond=%0, inputs=) {
    ^
        () = "cf.yield" (%0) {} : (b) -> 
    }
}
`
	assert.Equal(t, want, string(Print(p, WriteOptions{})))
}

// TestParseConcurrent: programs can be read and printed concurrently into one Context (run with -race).
func TestParseConcurrent(t *testing.T) {
	files := corpusFiles(t)
	ctx := ir.NewContext()
	var wg sync.WaitGroup
	errs := make(chan error, 4*len(files))
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, f := range files {
				if f.id == "24" {
					continue
				}
				p, _, err := Parse(ctx, f.name, f.src, ReadOptions{})
				if err != nil {
					errs <- err
					return
				}
				Print(p, WriteOptions{Untagged: g%2 == 1})
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestPrintAttributeNames: names that are not identifiers are quoted, and read back.
func TestPrintAttributeNames(t *testing.T) {
	ctx := ir.NewContext()
	p := ir.NewProgram(ctx)
	b := ir.NewBuilder(ctx)
	b.SetInsertionPointToEnd(p.Body())
	b.Create(ir.OpSpec{Name: "a\"b", Attrs: []ir.NamedAttr{{Name: "", Value: ctx.Int32(1)}, {Name: "x y", Value: ctx.Int32(2)},
		{Name: "ok.name_1", Value: ctx.Int32(3)}, {Name: "1x", Value: ctx.Int32(4)}}})
	text := Print(p, WriteOptions{})
	assert.Equal(t, "{\n    () = \"a\\\"b\" () {\"\":(Int32)1,\"1x\":(Int32)4,ok.name_1:(Int32)3,\"x y\":(Int32)2} : () -> \n}\n", string(text))
	q, _, err := Parse(ctx, "names.pir", text, ReadOptions{})
	require.NoError(t, err)
	assert.NoError(t, ir.Equal(p, q, ir.EqualOptions{}))
}

// TestAppendUint: value numbers print as strconv prints them.
func TestAppendUint(t *testing.T) {
	for _, v := range []uint32{0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 12345, 99999, 100000, 3092456, 1<<31 - 1, 1<<32 - 1} {
		assert.Equal(t, strconv.FormatUint(uint64(v), 10), string(appendUint([]byte("x"), v))[1:])
	}
	for v := uint32(0); v < 1_000_000; v += 7 {
		require.Equal(t, strconv.FormatUint(uint64(v), 10), string(appendUint(nil, v)))
	}
}
