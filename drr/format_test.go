package drr

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestQuoting(t *testing.T) {
	for _, s := range []string{"", "plain", `a"b`, `back\slash`, "new\nline", "tab\tbed", "ünï"} {
		assert.Equal(t, s, unquote(quote(s)), "%q", s)
	}
	assert.Equal(t, `a\qb`, unquote(`"a\qb"`), "unknown escapes are kept")
	assert.True(t, isPlainDotted("pd_op.conv2d"))
	assert.True(t, isPlainDotted("a.b.c_1"))
	for _, s := range []string{"relu", "add(phi_kernel)", "a..b", ".a", "a.", "a.1b", "a b.c", "a.b-c"} {
		assert.False(t, isPlainDotted(s), s)
	}
}

func TestFormatQuotedOpNames(t *testing.T) {
	f := mustParse(t, wrapMatch(`%y = "pd_op.relu"(%x)
%z = "my op\"1"(%y)
%w = "add(phi_kernel)"(%z)`))
	assert.Equal(t, "rule t {\n  match {\n    %y = pd_op.relu(%x)\n    %z = \"my op\\\"1\"(%y)\n    %w = \"add(phi_kernel)\"(%z)\n  }\n  rewrite {}\n}\n",
		string(checkRoundTrip(t, f)))
	assert.Equal(t, `my op"1`, f.Rules[0].Match.Stmts[1].Op.Name.Name)
}

func TestFormatHandBuiltFile(t *testing.T) {
	// A File built without Decls (and without positions) still prints.
	f := &File{
		Families: []*Family{{Name: &Ident{Name: "conv"}, Set: &FamilyList{Ops: []*OpName{{Name: "pd_op.conv2d"}}}}},
		Rules: []*Rule{{
			Name: &Ident{Name: "r"},
			Match: &MatchBlock{Stmts: []*PatternStmt{{
				Results: []*Result{{Kind: ResultValue, Name: "y"}},
				Op:      &OpPattern{Name: &OpName{Name: "pd_op.relu"}, Operands: []Operand{&ValueOperand{Name: "x"}}},
			}}},
			Rewrite: &RewriteBlock{Stmts: []RewriteStmt{&ReplaceStmt{Old: &ValueExpr{Name: "y"}, New: &ValueExpr{Name: "x"}}}},
		}},
	}
	assert.Equal(t, "family conv = [pd_op.conv2d]\nrule r {\n  match {\n    %y = pd_op.relu(%x)\n  }\n  rewrite {\n    replace %y with %x\n  }\n}\n",
		string(Format(f)))
}

func TestFormatEmptyFile(t *testing.T) {
	assert.Empty(t, Format(mustParse(t, "")))
	assert.Equal(t, "// only\n", string(Format(mustParse(t, "\n\n// only\n\n"))))
}
