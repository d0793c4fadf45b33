package ir

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testContext(t *testing.T) *Context {
	t.Helper()
	c := NewContext()
	src, err := os.ReadFile("testdata/test.dialect")
	require.NoError(t, err)
	_, err = c.LoadCatalog("testdata/test.dialect", src)
	require.NoError(t, err)
	return c
}

func TestParseCatalog(t *testing.T) {
	c := testContext(t)
	d := c.Dialect("t")
	require.NotNil(t, d)
	assert.Equal(t, 7, d.JSONID)
	assert.Len(t, d.Ops, 13)

	add := c.Schema("t.add")
	require.NotNil(t, add)
	assert.Equal(t, "Adds two tensors.", add.Doc)
	assert.True(t, add.Has(ReadOnly|ValueSemantics|Commutative))
	assert.Equal(t, "broadcast", add.Infer)

	relu, reluInplace := c.Schema("t.relu"), c.Schema("t.relu_")
	assert.True(t, relu.Has(ReadOnly), "ValueSemantics implies ReadOnly")
	assert.Same(t, reluInplace, relu.Counterpart)
	assert.Same(t, relu, reluInplace.Counterpart)
	assert.Equal(t, []IOPair{{0, 0}}, reluInplace.Inplace)

	conv := c.Schema("t.conv2d")
	require.Len(t, conv.Attrs, 7)
	assert.True(t, conv.Attr("backend").Optional)
	assert.Nil(t, conv.Attr("backend").Default, "an optional attribute has no default")
	assert.False(t, conv.Attr("groups").Optional)
	assert.Equal(t, "strides", conv.Attrs[0].Name)
	assert.Same(t, c.Int32s(1, 1), conv.Attrs[0].Default)
	assert.Same(t, c.Str("EXPLICIT"), conv.Attr("padding_algorithm").Default)
	assert.Equal(t, 5, conv.AttrIndex("data_format"))

	bn := c.Schema("t.bn")
	assert.True(t, bn.Operands[3].Optional)
	assert.True(t, bn.Results[5].Optional)
	assert.Nil(t, bn.Attr("epsilon").Default, "no default means required")
	assert.Same(t, c.Float(0.9), bn.Attr("momentum").Default)
	assert.Same(t, c.Place(Place{Type: PlaceCPU}), bn.Attr("place").Default)
	assert.Same(t, c.DataType(DTypeFloat32), bn.Attr("dtype").Default)
	assert.Same(t, c.IntArray([]int64{1, -1}), bn.Attr("shape").Default)
	assert.Equal(t, "(Double)-inf", bn.Attr("eps2").Default.String())
	assert.Equal(t, []IOPair{{1, 1}, {2, 2}}, bn.Inplace)
	assert.True(t, bn.ResultCountOK(5) && bn.ResultCountOK(6) && !bn.ResultCountOK(4))

	comb := c.Schema("t.combine")
	assert.True(t, comb.Operands[0].Variadic)
	assert.True(t, comb.OperandCountOK(0) && comb.OperandCountOK(3))
	assert.Equal(t, 2, c.Schema("t.if").Regions)

	argNames := func(s *OpSchema) []string {
		var names []string
		for _, a := range s.Args {
			names = append(names, a.Name)
		}
		return names
	}
	slice := c.Schema("t.slice")
	assert.Equal(t, []string{"input", "axes", "starts", "ends", "infer_flags", "decrease_axis"}, argNames(slice))
	assert.Equal(t, Arg{Name: "starts", Operand: 1, Attr: -1}, slice.Args[2])
	assert.Equal(t, Arg{Name: "axes", Operand: -1, Attr: 0}, slice.Args[1])
	assert.Equal(t, []string{"input", "filter", "strides", "paddings", "padding_algorithm", "dilations", "groups",
		"data_format"}, argNames(conv), "without args(…): operands, then attributes (not the optional ones)")

	mean := c.Schema("t.mean")
	withAxis := func(name string) Attribute {
		if name == "axis" {
			return c.IntArray([]int64{1})
		}
		return nil
	}
	none := func(string) Attribute { return nil }
	assert.True(t, mean.OperandsAsAttrs(1, withAxis))
	assert.False(t, mean.OperandsAsAttrs(1, none), "the attribute must be there")
	assert.False(t, mean.OperandsAsAttrs(2, withAxis), "the full form is not the older one")
	assert.False(t, c.Schema("t.add").OperandsAsAttrs(1, withAxis), "only mutable operands may be attributes")
	assert.True(t, c.Schema("t.yield").Has(Terminator))
}

func TestParseCatalogErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"no dialect", "op x() -> ()", "f.dialect:1:1: a catalog starts with 'dialect NAME', found \"op\""},
		{"bad id", "dialect d id x", "f.dialect:1:14: expected the dialect's JSON id, found \"x\""},
		{"missing arrow", "dialect d\nop a(x) (y)", "f.dialect:2:9: expected '->' before the results of a, found '('"},
		{"bad operand sep", "dialect d\nop a(x y) -> ()", "f.dialect:2:8: expected ',' or ')' in the operands of a, found \"y\""},
		{"unknown kind", "dialect d\nop a() -> () attrs(k: int)", "f.dialect:2:23: unknown attribute kind \"int\""},
		{"bad default", "dialect d\nop a() -> () attrs(k: i32 = \"x\")", "f.dialect:2:29: default of k: cannot use \"x\" as i32"},
		{"default out of range", "dialect d\nop a() -> () attrs(k: i32 = 3000000000)", "f.dialect:2:29: default of k: 3000000000 does not fit in i32"},
		{"unknown trait", "dialect d\nop a() -> () traits(Pure)", "f.dialect:2:21: unknown trait \"Pure\" (traits: ReadOnly, ValueSemantics, Terminator, SideEffects, Commutative, ConstantLike; use inplace(…) and view(…) for the others)"},
		{"unknown clause", "dialect d\nop a() -> () foo(x)", "f.dialect:2:14: unknown clause \"foo\" (clauses: attrs, args, traits, inplace, view, infer, regions)"},
		{"inplace unknown operand", "dialect d\nop a_(x) -> (out) inplace(y -> out)", "f.dialect:2:27: d.a_ has no operand y"},
		{"inplace unknown result", "dialect d\nop a_(x) -> (out) inplace(x -> o)", "f.dialect:2:32: d.a_ has no result o"},
		{"value semantics inplace", "dialect d\nop a_(x) -> (out) inplace(x -> out) traits(ValueSemantics)", "f.dialect:2:1: d.a_: an inplace or view op cannot have ValueSemantics"},
		{"duplicate attr", "dialect d\nop a() -> () attrs(k: i32, k: i64)", "f.dialect:2:28: attribute k declared twice"},
		{"optional attr with default", "dialect d\nop a() -> () attrs(k: str? = \"x\")", "f.dialect:2:28: optional attribute k has no default"},
		{"duplicate operand", "dialect d\nop a(x, x) -> ()", "f.dialect:2:1: d.a: operand x declared twice"},
		{"unterminated string", "dialect d\nop a() -> () attrs(k: str = \"abc", "f.dialect:2:29: unterminated string"},
		{"bad char", "dialect d\nop a() -> () #", "f.dialect:2:14: unexpected character '#'"},
		{"duplicate op", "dialect d\nop a() -> ()\nop a() -> ()", "f.dialect: op d.a declared twice"},
		{"eof in list", "dialect d\nop a(x", "f.dialect:2:7: expected ',' or ')' in the operands of a, found end of file"},
		{"args unknown name", "dialect d\nop a(x) -> () args(x, y)", "f.dialect:2:23: d.a has no operand or attribute y"},
		{"args twice", "dialect d\nop a(x) -> () args(x) args(x)", "f.dialect:2:23: d.a: args(…) given twice"},
		{"args duplicate", "dialect d\nop a(x) -> () args(x, x)", "f.dialect:2:23: d.a: argument x listed twice"},
		{"args missing operand", "dialect d\nop a(x, y) -> () args(x)", "f.dialect:2:23: d.a: args(…) does not list operand y"},
		{"args empty", "dialect d\nop a(x) -> () args()", "f.dialect:2:15: d.a: args(…) is empty"},
		{"args tensor after attr", "dialect d\nop a(x, y) -> () attrs(k: i32) args(x, k, y)", "f.dialect:2:43: d.a: operand y comes after an attribute; Paddle lists tensor inputs first"},
		{"args mutable order", "dialect d\nop a(x, s: IntArray, e: IntArray) -> () args(x, e, s)", "f.dialect:2:52: d.a: mutable operand s is out of the operands' order"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewContext().ParseCatalog("f.dialect", []byte(tt.src))
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

func TestRegisterDialectErrors(t *testing.T) {
	c := NewContext()
	_, err := c.LoadCatalog("a.dialect", []byte("dialect d\nop a() -> () infer(nosuchrule)"))
	assert.EqualError(t, err, "a.dialect: op d.a: unknown result-type rule \"nosuchrule\"")
	_, err = c.LoadCatalog("a.dialect", []byte("dialect d\nop a() -> ()"))
	require.NoError(t, err)
	_, err = c.LoadCatalog("b.dialect", []byte("dialect d\nop b() -> ()"))
	assert.EqualError(t, err, "b.dialect: dialect d is already registered")
}

func TestOpInfoLearnsLateSchema(t *testing.T) {
	c := NewContext()
	info := c.OpInfo("late.op")
	assert.False(t, info.Registered())
	_, err := c.LoadCatalog("late.dialect", []byte("dialect late\nop op() -> ()"))
	require.NoError(t, err)
	assert.True(t, info.Registered(), "OpInfos created before registration pick up the schema")
	assert.Same(t, info, c.OpInfo("late.op"))
}

func FuzzParseCatalog(f *testing.F) {
	src, err := os.ReadFile("testdata/test.dialect")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(src)
	f.Add([]byte("dialect d id 1\nop a(x?, y...) -> (o?) attrs(k: f32[] = [1, -2.5e3, inf]) view(x -> o)"))
	f.Add([]byte("dialect d\nop s(x, b: IntArray) -> (o) attrs(a: i64[]) args(x, a, b)"))
	f.Fuzz(func(t *testing.T, src []byte) {
		_, _ = NewContext().ParseCatalog("fuzz.dialect", src)
	})
}

func TestDefaultDialects(t *testing.T) {
	c, err := NewDefaultContext()
	require.NoError(t, err)
	for _, name := range []string{"pd_op.conv2d", "pd_op.batch_norm_", "pd_op.if", "pd_op.while", "cf.yield",
		"builtin.parameter", "builtin.combine", "pd_op.to_vtensor", "pd_op.to_tensor", "pd_op.fused_conv2d_add_act"} {
		assert.NotNil(t, c.Schema(name), name)
	}
	relu, reluInplace := c.Schema("pd_op.relu"), c.Schema("pd_op.relu_")
	assert.Same(t, relu, reluInplace.Counterpart)
	assert.Nil(t, c.Schema("pd_op.full_").Counterpart, "full_ takes an extra operand: not full's twin")
	bn := c.Schema("pd_op.batch_norm_")
	assert.Same(t, c.Schema("pd_op.batch_norm"), bn.Counterpart)
	inplace := 0
	for _, s := range c.Schemas() {
		if s.Has(Inplace) {
			inplace++
			assert.False(t, s.Has(ValueSemantics), s.Name)
		}
	}
	assert.GreaterOrEqual(t, inplace, 90)
	assert.Equal(t, 1, c.Dialect("pd_op").JSONID)
}

func BenchmarkLoadDefaultDialects(b *testing.B) {
	for b.Loop() {
		if _, err := NewDefaultContext(); err != nil {
			b.Fatal(err)
		}
	}
}
