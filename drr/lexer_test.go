package drr

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lexString renders the tokens of src as "Kind:text" separated by spaces
// (separators as ";" and "⏎", the EOF token omitted).
func lexString(src string) string {
	toks, _, _ := scan("t.drr", src)
	var parts []string
	for _, t := range toks {
		switch t.kind {
		case tEOF:
		case tSep:
			parts = append(parts, ";")
		case tTopSep:
			parts = append(parts, "⏎")
		case tPunct:
			parts = append(parts, t.text)
		default:
			parts = append(parts, t.kind.String()+":"+t.text)
		}
	}
	return strings.TrimSuffix(strings.Join(parts, " "), " ⏎")
}

func TestLexer(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"dotted ident", "pd_op.conv2d", "Ident:pd_op.conv2d"},
		{"values holes labels", "%x %0 %arg_0 $s @f", "Value:%x Value:%0 Value:%arg_0 Hole:$s Label:@f"},
		{"numbers", "1, -1, 1e-05, 0.9, -inf, nan, 0x7f3a, 1.5e+3", "Int:1 , Int:-1 , Float:1e-05 , Float:0.9 , Float:-inf , Float:nan , Int:0x7f3a , Float:1.5e+3"},
		{"minus after operand is binary", "$a-1 $a - -1 f(x)-1 [1]-1", "Hole:$a - Int:1 Hole:$a - Int:-1 Ident:f ( Ident:x ) - Int:1 [ Int:1 ] - Int:1"},
		{"minus after keyword is a sign", "$x in -1", "Hole:$x Ident:in Int:-1"},
		{"percent", "$x%2 $x % 2 (%a, %b)", "Hole:$x % Int:2 Hole:$x % Int:2 ( Value:%a , Value:%b )"},
		{"tensor types are split into their items", "builtin.tensor<64x3x7x7xf32> tensor<?x$c x ? x ? x f32> pd_op.tensor_array<f32>",
			"TensorName:builtin.tensor TensorOpen:< Int:64 DimX:x Int:3 DimX:x Int:7 DimX:x Int:7 DimX:x Ident:f32 TensorClose:> " +
				"TensorName:tensor TensorOpen:< ? DimX:x Hole:$c DimX:x ? DimX:x ? DimX:x Ident:f32 TensorClose:> " +
				"TensorName:pd_op.tensor_array TensorOpen:< Ident:f32 TensorClose:>"},
		{"tensor items", "tensor<-1x*xxf32> tensor<64f32> tensor<>",
			"TensorName:tensor TensorOpen:< Int:-1 DimX:x * DimX:x Ident:xf32 TensorClose:> " +
				"TensorName:tensor TensorOpen:< Int:64 Ident:f32 TensorClose:> TensorName:tensor TensorOpen:< TensorClose:>"},
		{"vec of tensors", "vec[builtin.tensor<1xf32>,tensor<2xf32>]",
			"Ident:vec [ TensorName:builtin.tensor TensorOpen:< Int:1 DimX:x Ident:f32 TensorClose:> , TensorName:tensor TensorOpen:< Int:2 DimX:x Ident:f32 TensorClose:> ]"},
		{"wildcard", "_ _x x_ %_", "Wild:_ Ident:_x Ident:x_ Value:%_"},
		{"trailing commas are dropped after an element", "f(a,) [1,\n] {k: 1,} (,) [a,,]",
			"Ident:f ( Ident:a ) [ Int:1 ] { Ident:k : Int:1 } ( , ) [ Ident:a , , ]"},
		{"tags", "(Int32)1 (Int64)-1 (Float)1e-05 (pd_op.IntArray)[1,2] (pd_op.DataType)float32",
			"Tag:(Int32) Int:1 Tag:(Int64) Int:-1 Tag:(Float) Float:1e-05 Tag:(pd_op.IntArray) [ Int:1 , Int:2 ] Tag:(pd_op.DataType) Ident:float32"},
		{"tagged symbols", "(pd_op.Place)Place(gpu:0) (pd_op.DataLayout)Undefined(AnyLayout) Place(cpu)",
			"Tag:(pd_op.Place) Sym:Place(gpu:0) Tag:(pd_op.DataLayout) Sym:Undefined(AnyLayout) Sym:Place(cpu)"},
		{"parenthesised names are not tags", "(x) (X) 1 (Int32) (a.b)1", "( Ident:x ) ( Ident:X ) Int:1 ( Ident:Int32 ) ( Ident:a.b ) Int:1"},
		{"null markers", "<<NULL VALUE>> <<NULL TYPE>> <#AttrNull>", "Null:<<NULL VALUE>> NullType:<<NULL TYPE>> Sym:<#AttrNull>"},
		{"dialect attribute", "kernel_key:<backend:GPU|layout:NCHW|dtype:float32>", "Ident:kernel_key : Sym:<backend:GPU|layout:NCHW|dtype:float32>"},
		{"comparison is not a dialect attribute", "$a<b $a <= $b", "Hole:$a < Ident:b Hole:$a <= Hole:$b"},
		{"operators", "-> ... == != <= >= && || ! ? :", "-> ... == != <= >= && || ! ? :"},
		{"strings keep escapes", `"a\"b" "x\ty"`, `String:"a\"b" String:"x\ty"`},
		{"top-level newlines", "import \"a\"\n\nimport \"b\"\n", `Ident:import String:"a" ⏎ Ident:import String:"b"`},
		{"block newlines collapse", "rule r {\n\n  a\n\n  b ; ; c\n}\n", "Ident:rule Ident:r { Ident:a ; Ident:b ; Ident:c }"},
		{"newlines inside brackets", "r {\n f(a,\n b) {k: 1,\n j: [1,\n 2]}\n}", "Ident:r { Ident:f ( Ident:a , Ident:b ) { Ident:k : Int:1 , Ident:j : [ Int:1 , Int:2 ] } }"},
		{"comments are not tokens", "a // c\n/// d\nb", "Ident:a ⏎ Ident:b"},
		{"crlf", "a\r\nb\r\n", "Ident:a ⏎ Ident:b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, lexString(tt.src))
		})
	}
}

func TestLexerComments(t *testing.T) {
	_, comments, diags := scan("t.drr", "a // one\n/// two\n  //// three\n")
	require.Empty(t, diags)
	require.Len(t, comments, 3)
	assert.Equal(t, "// one", comments[0].Text)
	assert.False(t, comments[0].Doc)
	assert.False(t, comments[0].ownLine)
	assert.Equal(t, "/// two", comments[1].Text)
	assert.True(t, comments[1].Doc)
	assert.True(t, comments[1].ownLine)
	assert.False(t, comments[2].Doc, "//// is a plain comment")
	assert.Equal(t, 3, comments[2].Pos().Line)
	assert.Equal(t, 3, comments[2].Pos().Column)
}

func TestLexerPositions(t *testing.T) {
	toks, _, _ := scan("t.drr", "a\n  é %x")
	require.Len(t, toks, 4)
	assert.Equal(t, "%x", toks[2].text)
	assert.EqualValues(t, 2, toks[2].line)
	assert.EqualValues(t, 6, toks[2].col, "columns count bytes (é takes two)")
	assert.EqualValues(t, 7, toks[2].off, "offsets count bytes")
}

func TestLexerErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a # b", "t.drr:1:3: error: unexpected character '#'"},
		{"a & b", "t.drr:1:3: error: unexpected '&' (did you mean '&&'?)"},
		{`"abc`, "t.drr:1:1: error: unterminated string literal"},
		{"$", "t.drr:1:1: error: expected a hole name after '$'"},
		{"@ x", "t.drr:1:1: error: expected an op label name after '@'"},
		{"tensor<1x2", "t.drr:1:1: error: unterminated type tensor<…: missing '>'"},
		{"tensor<1x#xf32>", "t.drr:1:10: error: unexpected '#' in tensor type"},
		{"tensor<$x1xf32> tensor<1x$>", "t.drr:1:26: error: expected a hole name after '$' in tensor type"},
		{"<<NULL", "t.drr:1:1: error: unterminated '<<': missing '>>'"},
		{"a \xff", "t.drr:1:3: error: invalid UTF-8 byte 0xff"},
	}
	for _, tt := range tests {
		_, _, diags := scan("t.drr", tt.src)
		require.NotEmpty(t, diags, tt.src)
		assert.Equal(t, tt.want, diags[0].Error(), tt.src)
	}
}
