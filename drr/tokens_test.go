package drr

import (
	"strings"
	"testing"
	"unicode"

	"github.com/pirdrr/drr/diag"
	"github.com/stretchr/testify/require"
)

func TestTokens(t *testing.T) {
	src := "/// doc\nrule r { // note\n  match { %y, _ = pd_op.f(%x: builtin.tensor<2xf32>, $h) {a: (Int32)1, b: \"s\", c: 1e-05, d: <<NULL VALUE>>}; @l = x.y() }\n}\n"
	var got []string
	for _, tk := range Tokens("t.drr", []byte(src)) {
		got = append(got, tk.Kind.String()+" "+tk.Text)
		require.Equal(t, tk.Text, src[tk.Pos.Offset:tk.End().Offset])
	}
	require.Equal(t, []string{
		"DocComment /// doc", "Ident rule", "Ident r", "Punct {", "Comment // note",
		"Ident match", "Punct {", "Value %y", "Punct ,", "Wildcard _", "Punct =", "Ident pd_op.f", "Punct (",
		"Value %x", "Punct :", "TypeName builtin.tensor", "TypePunct <", "Int 2", "TypePunct x", "Ident f32",
		"TypePunct >", "Punct ,", "Hole $h", "Punct )", "Punct {", "Ident a", "Punct :", "Tag (Int32)", "Int 1",
		"Punct ,", "Ident b", "Punct :", "String \"s\"", "Punct ,", "Ident c", "Punct :", "Float 1e-05", "Punct ,",
		"Ident d", "Punct :", "Null <<NULL VALUE>>", "Punct }", "Punct ;", "Label @l", "Punct =", "Ident x.y",
		"Punct (", "Punct )", "Punct }", "Punct }",
	}, got)
	r := Tokens("t.drr", []byte(src))[2]
	require.Equal(t, diag.Position{Filename: "t.drr", Offset: 13, Line: 2, Column: 6}, r.Pos)
}

// TestTokensCoverShippedRules: in a file that parses, every character that is not blank is in exactly one token,
// and tokens come in order without overlapping.
func TestTokensCoverShippedRules(t *testing.T) {
	src := shippedRules(t)
	covered := make([]bool, len(src))
	prevEnd := 0
	for _, tk := range Tokens("s.drr", src) {
		require.GreaterOrEqual(t, tk.Pos.Offset, prevEnd, "token %q at %s overlaps the one before", tk.Text, tk.Pos)
		for i := tk.Pos.Offset; i < tk.End().Offset; i++ {
			covered[i] = true
		}
		prevEnd = tk.End().Offset
	}
	for i, c := range string(src) {
		if !unicode.IsSpace(c) && !covered[i] {
			line := strings.Count(string(src[:i]), "\n") + 1
			t.Fatalf("line %d: %q is in no token", line, c)
		}
	}
}
