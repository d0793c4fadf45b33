package pirjson

import (
	"bytes"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// oneOp wraps a type and an attribute in a program of one op, in the writer's layout.
func oneOp(typ, attr string) string {
	return `{"base_code":{"magic":"pir","trainable":true,"version":1},"program":{"regions":[{"#":"region_0","blocks":[` +
		`{"#":"block_0","args":[],"ops":[{"#":"1.foo","A":[{"AT":` + attr + `,"N":"a"}],"I":[],"O":[{"%":1,"TT":` + typ +
		`}],"OA":[]}]}]}]}}`
}

const f32 = `{"#":"0.t_f32"}`

func dense(elem, dims string) string {
	return `{"#":"0.t_dtensor","D":[` + elem + `,` + dims + `,"NCHW",[],0]}`
}

// readOne reads a oneOp program and returns its op, checking that it writes back byte for byte.
func readOne(t *testing.T, c *ir.Context, src string) *ir.Op {
	t.Helper()
	p, err := Read(c, "t.json", []byte(src), ReadOptions{})
	require.NoError(t, err)
	out, err := Marshal(p, WriteOptions{})
	require.NoError(t, err)
	assert.Equal(t, src, string(out), "round trip")
	return p.Body().First()
}

func TestTypeEncodings(t *testing.T) {
	tests := []struct {
		name string
		json string
		want func(c *ir.Context) ir.Type
	}{
		{"null", `{"#":"NULL"}`, func(c *ir.Context) ir.Type { return c.NullType() }},
		{"dense", dense(f32, "[-1,3,224,224]"), func(c *ir.Context) ir.Type {
			return c.Tensor(ir.DenseTensor, []int64{-1, 3, 224, 224}, c.Scalar(ir.DTypeFloat32))
		}},
		{"dense 0-d", dense(`{"#":"0.t_i64"}`, "[]"), func(c *ir.Context) ir.Type {
			return c.Tensor(ir.DenseTensor, nil, c.Scalar(ir.DTypeInt64))
		}},
		{"dense layout lod offset", `{"#":"0.t_dtensor","D":[{"#":"0.t_ui8"},[2],"NHWC",[[0,2,5],[1]],3]}`,
			func(c *ir.Context) ir.Type {
				return c.TensorFull(ir.DenseTensor, []int64{2}, c.Scalar(ir.DTypeUint8), "NHWC", [][]uint64{{0, 2, 5}, {1}}, 3)
			}},
		{"value tensor", `{"#":"1.t_vtensor","D":[{"#":"0.t_f16"},[8],"NCHW",[],0]}`, func(c *ir.Context) ir.Type {
			return c.Tensor(ir.ValueTensor, []int64{8}, c.Scalar(ir.DTypeFloat16))
		}},
		{"vector", `{"#":"0.t_vec","D":[` + dense(f32, "[1]") + `,` + dense(`{"#":"0.t_bool"}`, "[]") + `]}`,
			func(c *ir.Context) ir.Type {
				return c.Vector(c.Tensor(ir.DenseTensor, []int64{1}, c.Scalar(ir.DTypeFloat32)),
					c.Tensor(ir.DenseTensor, nil, c.Scalar(ir.DTypeBool)))
			}},
		{"empty vector", `{"#":"0.t_vec","D":[]}`, func(c *ir.Context) ir.Type { return c.Vector() }},
		{"tensor array", `{"#":"1.t_dense_tensor_array","D":[{"#":"0.t_f32"},[-1,4],"NCHW"]}`,
			func(c *ir.Context) ir.Type { return c.TensorArray(c.Scalar(ir.DTypeFloat32), []int64{-1, 4}, "NCHW") }},
		{"selected rows", `{"#":"1.t_selected_rows","D":[{"#":"0.t_f32"},[10,4],"NCHW",[],0]}`,
			func(c *ir.Context) ir.Type {
				return c.SelectedRows([]int64{10, 4}, c.Scalar(ir.DTypeFloat32), "NCHW", nil, 0)
			}},
		{"sparse coo", `{"#":"1.t_sparse_coo_tensor","D":[{"#":"0.t_f32"},[4,4],[2],"NCHW",` +
			dense(`{"#":"0.t_i64"}`, "[2,2]") + `,` + dense(f32, "[2]") + `]}`, nil},
		{"sparse csr", `{"#":"1.t_sparse_csr_tensor","D":[{"#":"0.t_f32"},[4,4],"NCHW",` + dense(`{"#":"0.t_i64"}`, "[5]") +
			`,` + dense(`{"#":"0.t_i64"}`, "[2]") + `,` + dense(f32, "[2]") + `]}`, nil},
		{"dist tensor", `{"#":"4.t_dist_dtensor","D":[` + dense(f32, "[4,4]") +
			`,{"#":"4.a_tensor_dist","D":[{"#":"4.a_process_mesh","D":[[2],[0,1],["x"]]},[-1,0],[[0,1]]]},[4,2]]}`, nil},
		{"cf stack", `{"#":"2.t_stack"}`, func(c *ir.Context) ir.Type { return c.Opaque("cf.stack") }},
		{"cf inlet", `{"#":"2.t_inlet"}`, func(c *ir.Context) ir.Type { return c.Opaque("cf.inlet") }},
		{"cf outlet", `{"#":"2.t_outlet"}`, func(c *ir.Context) ir.Type { return c.Opaque("cf.outlet") }},
	}
	for _, d := range ir.DTypes() {
		if d.JSONName() == "" {
			continue
		}
		tests = append(tests, struct {
			name string
			json string
			want func(c *ir.Context) ir.Type
		}{"scalar " + d.JSONName(), `{"#":"0.` + d.JSONName() + `"}`, func(c *ir.Context) ir.Type { return c.Scalar(d) }})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ir.NewContext()
			op := readOne(t, c, oneOp(tt.json, `{"#":"0.a_bool","D":true}`))
			got := op.Result(0).Type()
			if tt.want == nil {
				assert.Equal(t, c.Opaque(tt.json), got, "kept as its JSON")
				return
			}
			assert.Same(t, tt.want(c), got)
		})
	}
}

func TestAttrEncodings(t *testing.T) {
	tests := []struct {
		name string
		json string
		want func(c *ir.Context) ir.Attribute
	}{
		{"null", `{"#":"NULL"}`, func(c *ir.Context) ir.Attribute { return c.NullAttr() }},
		{"bool", `{"#":"0.a_bool","D":false}`, func(c *ir.Context) ir.Attribute { return c.Bool(false) }},
		{"i32", `{"#":"0.a_i32","D":-2147483648}`, func(c *ir.Context) ir.Attribute { return c.Int32(math.MinInt32) }},
		{"i64", `{"#":"0.a_i64","D":9007199254740993}`, func(c *ir.Context) ir.Attribute { return c.Int64(9007199254740993) }},
		{"index", `{"#":"0.a_index","D":-1}`, func(c *ir.Context) ir.Attribute { return c.Index(-1) }},
		{"f32", `{"#":"0.a_f32","D":0.8999999761581421}`, func(c *ir.Context) ir.Attribute { return c.Float(0.9) }},
		{"f32 widened", `{"#":"0.a_f32","D":9.999999747378752e-06}`, func(c *ir.Context) ir.Attribute { return c.Float(1e-5) }},
		{"f32 whole", `{"#":"0.a_f32","D":1.0}`, func(c *ir.Context) ir.Attribute { return c.Float(1) }},
		{"f32 nan", `{"#":"0.a_f32","VD":"NaN"}`, func(c *ir.Context) ir.Attribute { return c.Float(float32(math.NaN())) }},
		{"f32 inf", `{"#":"0.a_f32","VD":"INF"}`, func(c *ir.Context) ir.Attribute { return c.Float(float32(math.Inf(1))) }},
		{"f64", `{"#":"0.a_f64","D":1e-05}`, func(c *ir.Context) ir.Attribute { return c.Double(1e-5) }},
		{"f64 negative zero", `{"#":"0.a_f64","D":-0.0}`, func(c *ir.Context) ir.Attribute { return c.Double(math.Copysign(0, -1)) }},
		{"f64 -inf", `{"#":"0.a_f64","VD":"-INF"}`, func(c *ir.Context) ir.Attribute { return c.Double(math.Inf(-1)) }},
		{"f64 big", `{"#":"0.a_f64","D":1e+16}`, func(c *ir.Context) ir.Attribute { return c.Double(1e16) }},
		{"str", `{"#":"0.a_str","D":"a\"b\\c\n\u0001é/"}`, func(c *ir.Context) ir.Attribute { return c.Str("a\"b\\c\n\x01é/") }},
		{"tensor name", `{"#":"0.a_tensorname","D":"x_0"}`, func(c *ir.Context) ir.Attribute { return c.TensorName("x_0") }},
		{"pointer", `{"#":"0.a_pointer","D":"0x7f00"}`, func(c *ir.Context) ir.Attribute { return c.Pointer("0x7f00") }},
		{"array", `{"#":"0.a_array","D":[{"#":"0.a_i32","D":2},{"#":"0.a_i32","D":2}]}`,
			func(c *ir.Context) ir.Attribute { return c.Int32s(2, 2) }},
		{"empty array", `{"#":"0.a_array","D":[]}`, func(c *ir.Context) ir.Attribute { return c.Array() }},
		{"nested array", `{"#":"0.a_array","D":[{"#":"0.a_array","D":[{"#":"0.a_bool","D":true}]},{"#":"0.a_str","D":"x"}]}`,
			func(c *ir.Context) ir.Attribute { return c.Array(c.Bools(true), c.Str("x")) }},
		{"f64 array", `{"#":"0.a_array","D":[{"#":"0.a_f64","D":2.0},{"#":"0.a_f64","D":2.0}]}`,
			func(c *ir.Context) ir.Attribute { return c.Array(c.Double(2), c.Double(2)) }},
		{"type", `{"#":"0.a_type","D":` + dense(f32, "[2]") + `}`, func(c *ir.Context) ir.Attribute {
			return c.TypeAttr(c.Tensor(ir.DenseTensor, []int64{2}, c.Scalar(ir.DTypeFloat32)))
		}},
		{"c64", `{"#":"0.a_c64","D":[1.5,-2.0]}`, func(c *ir.Context) ir.Attribute { return c.Complex(64, 1.5, -2) }},
		{"c128 with null", `{"#":"0.a_c128","D":[0.1,null]}`, func(c *ir.Context) ir.Attribute { return c.Complex(128, 0.1, math.NaN()) }},
		{"int array", `{"#":"1.a_intarray","D":[-1,3,-1,-1]}`, func(c *ir.Context) ir.Attribute { return c.IntArray([]int64{-1, 3, -1, -1}) }},
		{"empty int array", `{"#":"1.a_intarray","D":[]}`, func(c *ir.Context) ir.Attribute { return c.IntArray(nil) }},
		{"dtype", `{"#":"1.a_dtype","D":"float32"}`, func(c *ir.Context) ir.Attribute { return c.DataType(ir.DTypeFloat32) }},
		{"dtype bool", `{"#":"1.a_dtype","D":"bool"}`, func(c *ir.Context) ir.Attribute { return c.DataType(ir.DTypeBool) }},
		{"dtype undefined", `{"#":"1.a_dtype","D":"Undefined"}`, func(c *ir.Context) ir.Attribute { return c.DataType(ir.DTypeUndefined) }},
		{"place undefined", `{"#":"1.a_place","D":[0,0,""]}`, func(c *ir.Context) ir.Attribute { return c.Place(ir.Place{}) }},
		{"place cpu", `{"#":"1.a_place","D":[1,0,""]}`, func(c *ir.Context) ir.Attribute { return c.Place(ir.Place{Type: ir.PlaceCPU}) }},
		{"place gpu", `{"#":"1.a_place","D":[2,3,""]}`, func(c *ir.Context) ir.Attribute {
			return c.Place(ir.Place{Type: ir.PlaceGPU, Device: 3})
		}},
		{"place custom", `{"#":"1.a_place","D":[9,1,"npu"]}`, func(c *ir.Context) ir.Attribute {
			return c.Place(ir.Place{Type: ir.PlaceCustom, Device: 1, Custom: "npu"})
		}},
		{"layout", `{"#":"1.a_layout","D":"NHWC"}`, func(c *ir.Context) ir.Attribute { return c.DataLayout("NHWC") }},
		{"scalar f32", `{"#":"1.a_scalar","D":["float32",1.5]}`, func(c *ir.Context) ir.Attribute {
			return c.ScalarAttr(ir.DTypeFloat32, c.Float(1.5))
		}},
		{"scalar f32 nan", `{"#":"1.a_scalar","D":["float32",null]}`, func(c *ir.Context) ir.Attribute {
			return c.ScalarAttr(ir.DTypeFloat32, c.Float(float32(math.NaN())))
		}},
		{"scalar f64", `{"#":"1.a_scalar","D":["float64",1e-05]}`, func(c *ir.Context) ir.Attribute {
			return c.ScalarAttr(ir.DTypeFloat64, c.Double(1e-5))
		}},
		{"scalar i32", `{"#":"1.a_scalar","D":["int32",-3]}`, func(c *ir.Context) ir.Attribute {
			return c.ScalarAttr(ir.DTypeInt32, c.Int32(-3))
		}},
		{"scalar i8", `{"#":"1.a_scalar","D":["int8",-128]}`, func(c *ir.Context) ir.Attribute {
			return c.ScalarAttr(ir.DTypeInt8, c.Int32(-128))
		}},
		{"scalar i64", `{"#":"1.a_scalar","D":["int64",5]}`, func(c *ir.Context) ir.Attribute {
			return c.ScalarAttr(ir.DTypeInt64, c.Int64(5))
		}},
		{"scalar u64", `{"#":"1.a_scalar","D":["uint64",18446744073709551615]}`, func(c *ir.Context) ir.Attribute {
			return c.ScalarAttr(ir.DTypeUint64, c.Int64(-1))
		}},
		{"scalar bool", `{"#":"1.a_scalar","D":["bool",true]}`, func(c *ir.Context) ir.Attribute {
			return c.ScalarAttr(ir.DTypeBool, c.Bool(true))
		}},
		{"scalar complex", `{"#":"1.a_scalar","D":["complex64",1.0,2.0]}`, func(c *ir.Context) ir.Attribute {
			return c.ScalarAttr(ir.DTypeComplex64, c.Complex(64, 1, 2))
		}},
		{"process mesh", `{"#":"4.a_process_mesh","D":[[2,2],[0,1,2,3],["x","y"]]}`, nil},
		{"op dist", `{"#":"4.a_op_dist","D":[{"#":"4.a_process_mesh","D":[[2],[0,1],["x"]]},[],[],-1]}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ir.NewContext()
			op := readOne(t, c, oneOp(f32, tt.json))
			got := op.Attr("a")
			if tt.want == nil {
				assert.Equal(t, c.OpaqueAttr(tt.json), got, "kept as its JSON")
				return
			}
			assert.Same(t, tt.want(c), got, "got %s", got)
		})
	}
}

// TestLenientInput checks inputs that are accepted but not in the writer's layout: they read as their canonical
// form.
func TestLenientInput(t *testing.T) {
	tests := []struct {
		name, attr, want string
	}{
		{"f32 from an integer token", `{"#":"0.a_f32","D":1}`, `{"#":"0.a_f32","D":1.0}`},
		{"f64 from an exponent", `{"#":"0.a_f64","D":1E2}`, `{"#":"0.a_f64","D":100.0}`},
		{"NAN spelling of Paddle's reader", `{"#":"0.a_f64","VD":"NAN"}`, `{"#":"0.a_f64","VD":"NaN"}`},
		{"escaped slash and unicode", `{"#":"0.a_str","D":"a\/b\u00e9\ud83d\ude00"}`, `{"#":"0.a_str","D":"a/bé😀"}`},
		{"keys in another order", `{"D":true,"#":"0.a_bool"}`, `{"#":"0.a_bool","D":true}`},
		{"uncompressed dialect", `{"#":"builtin.a_i32","D":1}`, `{"#":"0.a_i32","D":1}`},
		{"whitespace", "{ \"#\" : \"0.a_i64\" ,\n \"D\" : 7 }", `{"#":"0.a_i64","D":7}`},
		{"opaque in another order", `{"D":[[2],[0,1],["x"]],"#":"4.a_process_mesh"}`, `{"#":"4.a_process_mesh","D":[[2],[0,1],["x"]]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Read(ir.NewContext(), "t.json", []byte(oneOp(f32, tt.attr)), ReadOptions{})
			require.NoError(t, err)
			out, err := Marshal(p, WriteOptions{})
			require.NoError(t, err)
			assert.Equal(t, oneOp(f32, tt.want), string(out))
		})
	}
}

// TestWriteErrors checks programs the writer cannot encode: nothing is returned but the error.
func TestWriteErrors(t *testing.T) {
	c := ir.NewContext()
	f32t := c.Tensor(ir.DenseTensor, []int64{2}, c.Scalar(ir.DTypeFloat32))
	tests := []struct {
		name  string
		build func(b *ir.Builder)
		want  string
	}{
		{"kernel tensor", func(b *ir.Builder) {
			b.Create(ir.OpSpec{Name: "pd_op.foo", Results: []ir.Type{c.Tensor("gpu_tensor", []int64{2}, c.Scalar(ir.DTypeFloat32))}})
		}, "pirjson: pd_op.foo: result 0: type gpu_tensor<2xf32> has no PIR JSON encoding"},
		{"opaque attr", func(b *ir.Builder) {
			b.Create(ir.OpSpec{Name: "pd_op.foo", Attrs: []ir.NamedAttr{{Name: "k", Value: c.OpaqueAttr("kernel_key:<x>")}}})
		}, "pirjson: pd_op.foo: attribute k: attribute kernel_key:<x> has no PIR JSON encoding"},
		{"op named p", func(b *ir.Builder) { b.Create(ir.OpSpec{Name: "p"}) },
			`pirjson: op name "p" would read back as a parameter op`},
		{"duplicate attribute", func(b *ir.Builder) {
			b.Create(ir.OpSpec{Name: "pd_op.foo", Attrs: []ir.NamedAttr{{Name: "x", Value: c.Bool(true)}, {Name: "x", Value: c.Bool(false)}}})
		}, "pirjson: pd_op.foo: attribute x appears twice"},
		{"use before definition", func(b *ir.Builder) {
			x := c.NewOp(ir.OpSpec{Name: "pd_op.x", Results: []ir.Type{f32t}})
			b.Create(ir.OpSpec{Name: "pd_op.relu", Operands: []*ir.Value{x.Result(0)}, Results: []ir.Type{f32t}})
			b.Insert(x)
		}, "pirjson: pd_op.relu: operand 0 reads a result of pd_op.x that is not written before it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := ir.NewProgram(c)
			b := ir.NewBuilder(c)
			b.SetInsertionPointToEnd(p.Body())
			tt.build(b)
			out, err := Marshal(p, WriteOptions{})
			assert.EqualError(t, err, tt.want)
			assert.Nil(t, out)
			var buf bytes.Buffer
			assert.Error(t, Write(&buf, p, WriteOptions{}))
			assert.Zero(t, buf.Len(), "nothing is written on error")
		})
	}
}
