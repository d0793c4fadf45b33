package pirtext

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// genContext returns a Context with the test dialect gen (testdata/gen.dialect) registered, and the default
// dialects when withDefaults is set.
func genContext(t testing.TB, withDefaults bool) *ir.Context {
	t.Helper()
	ctx := ir.NewContext()
	if withDefaults {
		require.NoError(t, ctx.LoadDefaultDialects())
	}
	src, err := os.ReadFile("testdata/gen.dialect")
	require.NoError(t, err)
	_, err = ctx.LoadCatalog("testdata/gen.dialect", src)
	require.NoError(t, err)
	return ctx
}

// progGen builds random programs: nested pd_op.if / pd_op.while / cinn_op.group and generic region ops, block
// arguments, multi-result ops, absent operands, every type and every attribute kind, with the awkward values
// (NaN, ±inf, -0, subnormals, strings with quotes, backslashes, newlines and control bytes).
type progGen struct {
	r      *rand.Rand
	ctx    *ir.Context
	b      *ir.Builder
	scopes [][]*ir.Value
	budget int
}

func newProgGen(ctx *ir.Context, seed uint64) *progGen {
	return &progGen{r: rand.New(rand.NewPCG(seed, seed*7919+1)), ctx: ctx, b: ir.NewBuilder(ctx)}
}

func (g *progGen) program() *ir.Program {
	p := ir.NewProgram(g.ctx)
	g.budget = 20 + g.r.IntN(60)
	g.scopes = [][]*ir.Value{nil}
	g.block(p.Body(), 0, -1)
	return p
}

// block fills b with ops; yield >= 0 ends it with a cf.yield of that many values.
func (g *progGen) block(b *ir.Block, depth, yield int) {
	n := 1 + g.r.IntN(6)
	if depth == 0 {
		n = 8 + g.r.IntN(20)
	}
	for i := 0; i < n && g.budget > 0; i++ {
		g.budget--
		g.b.SetInsertionPointToEnd(b)
		switch k := g.r.IntN(20); {
		case k == 0 && depth < 3:
			g.ifOp(b, depth)
		case k == 1 && depth < 3:
			g.whileOp(b, depth)
		case k == 2 && depth < 3:
			g.groupOp(b, depth)
		case k == 3 && depth < 3:
			g.regionOp(b, depth)
		default:
			g.plainOp(b)
		}
	}
	if yield >= 0 {
		g.b.SetInsertionPointToEnd(b)
		g.b.Create(ir.OpSpec{Name: "cf.yield", Operands: g.operands(yield, false)})
	}
}

func (g *progGen) define(vs ...*ir.Value) {
	top := len(g.scopes) - 1
	g.scopes[top] = append(g.scopes[top], vs...)
}

// visible picks a visible value, or nil.
func (g *progGen) visible() *ir.Value {
	n := 0
	for _, s := range g.scopes {
		n += len(s)
	}
	if n == 0 {
		return nil
	}
	i := g.r.IntN(n)
	for _, s := range g.scopes {
		if i < len(s) {
			return s[i]
		}
		i -= len(s)
	}
	return nil
}

func (g *progGen) operands(n int, nulls bool) []*ir.Value {
	out := make([]*ir.Value, n)
	for i := range out {
		if !nulls || g.r.IntN(8) != 0 {
			out[i] = g.visible()
		}
	}
	return out
}

func (g *progGen) types(n int) []ir.Type {
	out := make([]ir.Type, n)
	for i := range out {
		out[i] = g.typ(0)
	}
	return out
}

var genOpNames = []string{"gen.op", "gen.op", "gen.op", "pd_op.relu", "pd_op.conv2d", "custom.thing", "add(phi_kernel)",
	"cinn_runtime.jit_kernel", "odd name", `quote"d`, "pd_op.if", "cinn_op.group"}

func (g *progGen) plainOp(b *ir.Block) {
	name := genOpNames[g.r.IntN(len(genOpNames))]
	op := g.b.Create(ir.OpSpec{Name: name, Operands: g.operands(g.r.IntN(4), true), Results: g.types(g.r.IntN(4)),
		Attrs: g.attrs(name)})
	g.define(op.Results()...)
}

// regionOp is a generic op with regions of one block each, with typed block arguments.
func (g *progGen) regionOp(b *ir.Block, depth int) {
	name := []string{"gen.op", "custom.loop", "pd_op.while", "cinn_op.group"}[g.r.IntN(4)]
	nreg := 1 + g.r.IntN(2)
	op := g.b.Create(ir.OpSpec{Name: name, Operands: g.operands(g.r.IntN(3), true), Results: g.types(g.r.IntN(3)),
		Attrs: g.attrs(name), Regions: nreg})
	if name == "pd_op.while" && op.NumOperands() > 0 && nreg == 1 {
		nreg = 0 // that shape prints in the custom form; keep this op generic by giving it no block
	}
	for i := 0; i < nreg; i++ {
		blk := op.Region(i).AddBlock()
		g.scopes = append(g.scopes, nil)
		for _, t := range g.types(g.r.IntN(3)) {
			g.define(blk.AddArg(t))
		}
		g.block(blk, depth+1, g.r.IntN(3)-1)
		g.scopes = g.scopes[:len(g.scopes)-1]
	}
	if nreg == 0 {
		// A region without blocks does not print; give it one.
		blk := op.Region(0).AddBlock()
		g.scopes = append(g.scopes, nil)
		g.block(blk, depth+1, -1)
		g.scopes = g.scopes[:len(g.scopes)-1]
	}
	g.define(op.Results()...)
}

func (g *progGen) ifOp(b *ir.Block, depth int) {
	nres := g.r.IntN(3)
	var attrs []ir.NamedAttr
	if g.r.IntN(2) == 0 {
		attrs = []ir.NamedAttr{{Name: "stop_gradient", Value: g.ctx.Bools(true)}}
	}
	op := g.b.Create(ir.OpSpec{Name: "pd_op.if", Operands: g.operands(1, true), Results: g.types(nres), Attrs: attrs, Regions: 2})
	for i := 0; i < 2; i++ {
		blk := op.Region(i).AddBlock()
		g.scopes = append(g.scopes, nil)
		if g.r.IntN(6) == 0 {
			g.define(blk.AddArg(g.typ(0)))
		}
		g.block(blk, depth+1, nres)
		g.scopes = g.scopes[:len(g.scopes)-1]
	}
	g.define(op.Results()...)
}

func (g *progGen) whileOp(b *ir.Block, depth int) {
	inputs := g.operands(g.r.IntN(4), g.r.IntN(4) == 0)
	ops := append([]*ir.Value{g.visible()}, inputs...)
	res := make([]ir.Type, len(inputs))
	for i, v := range inputs {
		if v != nil {
			res[i] = v.Type()
		} else {
			res[i] = g.ctx.NullType()
		}
	}
	if g.r.IntN(5) == 0 && len(res) > 0 {
		res[0] = g.typ(0) // result types that are not the inputs' print with "-> types"
	}
	var attrs []ir.NamedAttr
	if g.r.IntN(3) == 0 {
		attrs = g.attrs("pd_op.while")
	}
	op := g.b.Create(ir.OpSpec{Name: "pd_op.while", Operands: ops, Results: res, Attrs: attrs, Regions: 1})
	body := op.Region(0).AddBlock()
	g.scopes = append(g.scopes, nil)
	for _, v := range inputs {
		t := ir.Type(g.ctx.NullType())
		if v != nil {
			t = v.Type()
		}
		if g.r.IntN(8) == 0 {
			t = g.typ(0)
		}
		g.define(body.AddArg(t))
	}
	g.block(body, depth+1, len(inputs)+1)
	g.scopes = g.scopes[:len(g.scopes)-1]
	g.define(op.Results()...)
}

func (g *progGen) groupOp(b *ir.Block, depth int) {
	nres := 1 + g.r.IntN(2)
	var attrs []ir.NamedAttr
	if g.r.IntN(3) == 0 {
		attrs = []ir.NamedAttr{{Name: "group_info", Value: g.ctx.OpaqueAttr("<fusion:softmax>")}}
	}
	op := g.b.Create(ir.OpSpec{Name: "cinn_op.group", Operands: g.operands(g.r.IntN(2), false), Results: g.types(nres),
		Attrs: attrs, Regions: 1})
	blk := op.Region(0).AddBlock()
	g.scopes = append(g.scopes, nil)
	g.block(blk, depth+1, nres)
	g.scopes = g.scopes[:len(g.scopes)-1]
	g.define(op.Results()...)
}

var tensorSpellings = []string{ir.DenseTensor, ir.DenseTensor, ir.LegacyTensor, ir.BareTensor, ir.ValueTensor,
	"gpu_tensor", "cpu_tensor", "undefined_tensor"}

func (g *progGen) dtype() ir.DType {
	ds := ir.DTypes()
	return ds[g.r.IntN(len(ds))]
}

func (g *progGen) typ(depth int) ir.Type {
	switch k := g.r.IntN(12); {
	case k < 6:
		dims := make([]int64, g.r.IntN(5))
		for i := range dims {
			dims[i] = []int64{-1, 0, 1, 3, 64, 224}[g.r.IntN(6)]
		}
		return g.ctx.Tensor(tensorSpellings[g.r.IntN(len(tensorSpellings))], dims, g.ctx.Scalar(g.dtype()))
	case k == 6 && depth < 2:
		elems := make([]ir.Type, g.r.IntN(4))
		for i := range elems {
			elems[i] = g.typ(depth + 1)
		}
		return g.ctx.Vector(elems...)
	case k == 7:
		return g.ctx.SelectedRows([]int64{-1, 8}, g.ctx.Scalar(ir.DTypeFloat32), ir.DefaultLayout, nil, 0)
	case k == 8:
		return g.ctx.TensorArray(g.ctx.Scalar(g.dtype()), nil, ir.DefaultLayout)
	case k == 9:
		return g.ctx.Scalar(g.dtype())
	case k == 10:
		return g.ctx.Opaque([]string{"cf.stack", "cf.inlet", "foo.bar<1,2>", "pd_op.dist_tensor<8x8xf32, mesh>"}[g.r.IntN(4)])
	}
	return g.ctx.NullType()
}

// Attribute kinds, by the name gen.op declares them under.
var genAttrKinds = []string{"a_bool", "a_i32", "a_i64", "a_index", "a_f32", "a_f64", "a_str", "a_tensorname",
	"a_intarray", "a_datatype", "a_datalayout", "a_place", "a_pointer", "a_type", "a_c64", "a_c128", "a_scalar",
	"a_i32s", "a_i64s", "a_f32s", "a_f64s", "a_strs", "a_bools", "a_any", "a_anys", "opaque", "null"}

// attrs returns a random attribute list. For gen.op, attributes named after a kind carry that kind, so the
// schema recovers it from untagged text; other names carry any kind.
func (g *progGen) attrs(op string) []ir.NamedAttr {
	n := g.r.IntN(6)
	seen := map[string]bool{}
	var out []ir.NamedAttr
	for i := 0; i < n; i++ {
		kind := genAttrKinds[g.r.IntN(len(genAttrKinds))]
		name := kind
		if op != "gen.op" || g.r.IntN(4) == 0 {
			name = []string{"stop_gradient", "value", "x", "weird key", "k.y_z", kind}[g.r.IntN(6)]
			if name == "x" || name == "weird key" {
				name += fmt.Sprint(i)
			}
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, ir.NamedAttr{Name: name, Value: g.attr(kind, 0)})
	}
	return out
}

var genFloats = []float64{0, 1, -1, 0.5, 1e-05, 0.9, 0.16666670143604279, 3.4028234663852886e+38, 1e300, 5e-324,
	1.401298464324817e-45, 123456789, 1e6, 1e-7, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 2.5e-310}

var genStrings = []string{"", "EXPLICIT", "NCHW", `a"b`, `back\slash`, "new\nline", "tab\tand\rcr", "ctl\x01\x1f",
	"//not a comment", "{braces}", "ünïcödé ☃", "\xff\xfe invalid utf-8", `\"`, `\\n`, "(Int32)1", "<#AttrNull>"}

var genLayouts = []string{"NCHW", "NHWC", "NCDHW", "NDHWC", "Undefined(AnyLayout)", "ONEDNN", "SPARSE_COO",
	"STRIDED", "CUSTOM_LAYOUT"}

var genPlaces = []ir.Place{{Type: ir.PlaceCPU}, {Type: ir.PlaceGPU, Device: 0}, {Type: ir.PlaceGPU, Device: 3},
	{Type: ir.PlaceUndefined}, {Type: ir.PlaceGPUPinned}, {Type: ir.PlaceXPU, Device: 1}, {Type: ir.PlaceIPU, Device: 2},
	{Type: ir.PlaceCustom, Device: 1, Custom: "npu"}}

func (g *progGen) float() float64 { return genFloats[g.r.IntN(len(genFloats))] }

func (g *progGen) int() int64 {
	return []int64{0, 1, -1, 7, 224, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64, 1 << 40}[g.r.IntN(10)]
}

func (g *progGen) attr(kind string, depth int) ir.Attribute {
	c := g.ctx
	switch kind {
	case "a_bool":
		return c.Bool(g.r.IntN(2) == 0)
	case "a_i32":
		return c.Int32(int32(g.int()))
	case "a_i64":
		return c.Int64(g.int())
	case "a_index":
		return c.Index(g.int())
	case "a_f32":
		return c.Float(float32(g.float()))
	case "a_f64":
		return c.Double(g.float())
	case "a_str":
		return c.Str(genStrings[g.r.IntN(len(genStrings))])
	case "a_tensorname":
		return c.TensorName(genStrings[g.r.IntN(len(genStrings))])
	case "a_intarray":
		v := make([]int64, g.r.IntN(4))
		for i := range v {
			v[i] = g.int()
		}
		return c.IntArray(v)
	case "a_datatype":
		return c.DataType(g.dtype())
	case "a_datalayout":
		return c.DataLayout(genLayouts[g.r.IntN(len(genLayouts))])
	case "a_place":
		return c.Place(genPlaces[g.r.IntN(len(genPlaces))])
	case "a_pointer":
		return c.Pointer([]string{"0x7f5e24fb27c0", "0x0", "0xdeadBEEF"}[g.r.IntN(3)])
	case "a_type":
		return c.TypeAttr(g.typ(1))
	case "a_c64":
		return c.Complex(64, g.float(), g.float())
	case "a_c128":
		return c.Complex(128, g.float(), g.float())
	case "a_scalar":
		switch g.r.IntN(4) {
		case 0:
			return c.ScalarAttr(ir.DTypeFloat32, c.Float(float32(g.float())))
		case 1:
			return c.ScalarAttr(ir.DTypeInt64, c.Int64(g.int()))
		case 2:
			return c.ScalarAttr(ir.DTypeBool, c.Bool(true))
		}
		return c.ScalarAttr(ir.DTypeFloat64, c.Double(g.float()))
	case "a_i32s", "a_i64s", "a_f32s", "a_f64s", "a_strs", "a_bools":
		elem := map[string]string{"a_i32s": "a_i32", "a_i64s": "a_i64", "a_f32s": "a_f32", "a_f64s": "a_f64",
			"a_strs": "a_str", "a_bools": "a_bool"}[kind]
		elems := make([]ir.Attribute, g.r.IntN(4))
		for i := range elems {
			elems[i] = g.attr(elem, depth+1)
		}
		return c.Array(elems...)
	case "a_any":
		if depth > 2 {
			return c.Int32(1)
		}
		return g.attr(genAttrKinds[g.r.IntN(len(genAttrKinds))], depth+1)
	case "a_anys":
		elems := make([]ir.Attribute, g.r.IntN(4))
		for i := range elems {
			if depth > 2 {
				elems[i] = c.Bool(false)
			} else {
				elems[i] = g.attr(genAttrKinds[g.r.IntN(len(genAttrKinds))], depth+1)
			}
		}
		return c.Array(elems...)
	case "opaque":
		return c.OpaqueAttr([]string{"<backend:GPU|layout:NCHW|dtype:float32>", "(0x7f437760d7c0)", "<a<b>c>"}[g.r.IntN(3)])
	}
	return c.NullAttr()
}

// untaggedLossy reports whether untagged printing may change attribute a of an op whose schema declares it as spec
// (nil: the op is unregistered or does not declare it). These are the documented losses: TensorName reads back as
// str; without a schema, f32 reads back as f64, i64 and index values in the i32 range as i32, f64 values that
// print as integers as i32 or i64, IntArray as an array of integers, and Scalar as its value; with a schema, a
// value of another kind than declared takes the declared kind, and a Scalar loses its data type.
func untaggedLossy(a ir.Attribute, spec *ir.AttrSpec) bool {
	if spec != nil && spec.Type.Kind != ir.KindAny {
		return !spec.Type.Accepts(a) || contains(a, ir.KindScalar) || contains(a, ir.KindTensorName)
	}
	switch a := a.(type) {
	case *ir.FloatAttr, *ir.IntArrayAttr, *ir.TensorNameAttr, *ir.ScalarAttr:
		return true
	case *ir.Int64Attr:
		return a.Value >= math.MinInt32 && a.Value <= math.MaxInt32
	case *ir.IndexAttr:
		return true
	case *ir.DoubleAttr:
		s := ir.FormatFloat(a.Value, 64)
		return s != "-0" && strings.Trim(s, "-0123456789") == ""
	case *ir.ArrayAttr:
		for _, e := range a.Elems {
			if untaggedLossy(e, nil) {
				return true
			}
		}
	}
	return false
}

// contains reports whether a is, or is an array holding, an attribute of kind k.
func contains(a ir.Attribute, k ir.AttrKind) bool {
	if a.Kind() == k {
		return true
	}
	if arr, ok := a.(*ir.ArrayAttr); ok {
		for _, e := range arr.Elems {
			if contains(e, k) {
				return true
			}
		}
	}
	return false
}

// untaggedEqual checks that q, read back from the untagged print of p, equals p except for the documented losses
// (untaggedLossy), where the attribute must at least print the same.
func untaggedEqual(t *testing.T, p, q *ir.Program) {
	t.Helper()
	names := map[string]bool{}
	var pops, qops []*ir.Op
	for op := range p.Walk() {
		pops = append(pops, op)
		for _, a := range op.Attrs() {
			names[a.Name] = true
		}
	}
	for op := range q.Walk() {
		qops = append(qops, op)
		for _, a := range op.Attrs() {
			names[a.Name] = true
		}
	}
	var ignore []string
	for n := range names {
		ignore = append(ignore, n)
	}
	require.NoError(t, ir.Equal(p, q, ir.EqualOptions{IgnoreAttrs: ignore}), "structure")
	require.Equal(t, len(pops), len(qops))
	for i, a := range pops {
		b := qops[i]
		require.Equal(t, len(a.Attrs()), len(b.Attrs()), "attributes of op %d (%s)", i, a.Name())
		for _, na := range a.Attrs() {
			vb := b.Attr(na.Name)
			require.NotNil(t, vb, "attribute %s of op %d (%s)", na.Name, i, a.Name())
			if na.Value == vb {
				continue
			}
			var spec *ir.AttrSpec
			if s := a.Schema(); s != nil {
				spec = s.Attr(na.Name)
			}
			if !untaggedLossy(na.Value, spec) {
				t.Errorf("op %d (%s): attribute %s is %s but reads back as %s", i, a.Name(), na.Name, na.Value, vb)
				continue
			}
			assert.Equal(t, string(AppendAttribute(nil, na.Value, true)), string(AppendAttribute(nil, vb, true)),
				"op %d (%s): attribute %s prints differently", i, a.Name(), na.Name)
		}
	}
}

// TestGeneratedRoundTrip: random programs read back from their print equal themselves (tagged: exactly;
// untagged: up to the documented losses), and printing what was read gives the same bytes.
func TestGeneratedRoundTrip(t *testing.T) {
	seeds := 300
	if testing.Short() {
		seeds = 50
	}
	for _, withDefaults := range []bool{false, true} {
		if withDefaults && len(ctxModes(t)) < 2 {
			continue
		}
		for seed := 1; seed <= seeds; seed++ {
			name := fmt.Sprintf("defaults=%v/seed=%d", withDefaults, seed)
			t.Run(name, func(t *testing.T) {
				ctx := genContext(t, withDefaults)
				p := newProgGen(ctx, uint64(seed)).program()
				for _, untagged := range []bool{false, true} {
					opts := WriteOptions{Untagged: untagged}
					text := Print(p, opts)
					q, warns, err := Parse(ctx, "gen.pir", text, ReadOptions{})
					require.NoError(t, err, "%s print:\n%s", syntaxName(untagged), text)
					if untagged {
						untaggedEqual(t, p, q)
					} else {
						assert.Empty(t, warns)
						require.NoError(t, ir.Equal(p, q, ir.EqualOptions{}), "print:\n%s", text)
					}
					assert.Equal(t, string(text), string(Print(q, opts)), "fixed point")
				}
			})
		}
	}
}

// TestGeneratorCoverage makes sure the generator produces what the round trip is meant to exercise.
func TestGeneratorCoverage(t *testing.T) {
	seen := map[string]bool{}
	for seed := 1; seed <= 300; seed++ {
		p := newProgGen(genContext(t, false), uint64(seed)).program()
		text := string(Print(p, WriteOptions{}))
		for _, feature := range []string{`"pd_op.if"`, `"pd_op.while"(cond=`, "cinn_op.group (", "} else {", "^%arg_",
			"<<NULL VALUE>>", "vec[", "(Float)nan", "(Double)-inf", "(Double)-0", `\"`, `\\`, `\n`, `\x01`,
			"(Complex64)", "(pd_op.Scalar)", "(TensorName)", "(Type)", "<#AttrNull>", "(0x7f", "pd_op.selectedrows<",
			"pd_op.tensor_array<", "<<NULL TYPE>>", "gpu_tensor<", "pd_op.v_tensor<", `"weird key`, "(pd_op.DataLayout)CUSTOM"} {
			if strings.Contains(text, feature) {
				seen[feature] = true
			}
		}
		for op := range p.Walk() {
			if op.NumResults() > 1 {
				seen["multi-result"] = true
			}
			if op.Name() == "pd_op.while" && strings.Contains(text, ") -> ") {
				seen["while result types"] = true
			}
			if op.NumRegions() > 0 && op.Name() != "pd_op.if" && op.Name() != "pd_op.while" && op.Name() != "cinn_op.group" {
				seen["generic regions"] = true
			}
		}
	}
	for _, f := range []string{`"pd_op.if"`, `"pd_op.while"(cond=`, "cinn_op.group (", "} else {", "^%arg_", "<<NULL VALUE>>",
		"vec[", "(Float)nan", "(Double)-inf", "(Double)-0", `\"`, `\\`, `\n`, `\x01`, "(Complex64)", "(pd_op.Scalar)",
		"(TensorName)", "(Type)", "<#AttrNull>", "(0x7f", "pd_op.selectedrows<", "pd_op.tensor_array<", "<<NULL TYPE>>",
		"gpu_tensor<", "pd_op.v_tensor<", `"weird key`, "(pd_op.DataLayout)CUSTOM", "multi-result", "generic regions"} {
		assert.True(t, seen[f], "the generator never produced %s", f)
	}
}
