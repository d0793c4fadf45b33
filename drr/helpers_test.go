package drr

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pirdrr/drr/diag"
	"github.com/stretchr/testify/require"
)

// sexpr renders an expression as an S-expression that shows the tree.
func sexpr(e Expr) string {
	switch e := e.(type) {
	case nil:
		return "<nil>"
	case *BasicLit:
		return e.Kind.String() + ":" + e.Text
	case *TaggedLit:
		return "(tag " + e.Tag + " " + sexpr(e.Value) + ")"
	case *SymbolLit:
		return "sym:" + e.Text
	case *ListExpr:
		parts := []string{"list"}
		for _, x := range e.Elems {
			parts = append(parts, sexpr(x))
		}
		return "(" + strings.Join(parts, " ") + ")"
	case *HoleExpr:
		return "$" + e.Name
	case *ValueExpr:
		return "%" + e.Name
	case *LabelExpr:
		return "@" + e.Name
	case *WildcardExpr:
		return "_"
	case *NameExpr:
		return "name:" + e.Name
	case *TypeExpr:
		var b strings.Builder
		writeType(&b, e.Type)
		return "type:" + b.String()
	case *SpreadExpr:
		return "(... " + sexpr(e.X) + ")"
	case *UnaryExpr:
		return "(" + e.Op + " " + sexpr(e.X) + ")"
	case *BinaryExpr:
		return "(" + e.Op + " " + sexpr(e.X) + " " + sexpr(e.Y) + ")"
	case *CondExpr:
		return "(? " + sexpr(e.Cond) + " " + sexpr(e.Then) + " " + sexpr(e.Else) + ")"
	case *CallExpr:
		parts := []string{"call", opNameString(e.Func)}
		for _, x := range e.Args {
			parts = append(parts, sexpr(x))
		}
		if e.Attrs != nil {
			var b strings.Builder
			writeAttrMap(&b, e.Attrs)
			parts = append(parts, "attrs"+b.String())
		}
		return "(" + strings.Join(parts, " ") + ")"
	case *IndexExpr:
		return "(index " + sexpr(e.X) + " " + sexpr(e.Index) + ")"
	case *ParenExpr:
		return "(paren " + sexpr(e.X) + ")"
	}
	return fmt.Sprintf("<%T>", e)
}

// wrapMatch wraps pattern lines into a rule.
func wrapMatch(lines string) string {
	return "rule t {\n  match {\n" + lines + "\n  }\n  rewrite {\n  }\n}\n"
}

// wrapWhere wraps constraint lines into a rule.
func wrapWhere(lines string) string {
	return "rule t {\n  match {\n    %y = pd_op.relu(%x)\n  }\n  where {\n" + lines + "\n  }\n  rewrite {\n  }\n}\n"
}

// wrapRewrite wraps rewrite lines into a rule.
func wrapRewrite(lines string) string {
	return "rule t {\n  match {\n    %y = pd_op.relu(%x)\n  }\n  rewrite {\n" + lines + "\n  }\n}\n"
}

// mustParse parses src and fails the test on error.
func mustParse(t *testing.T, src string) *File {
	t.Helper()
	f, err := Parse("t.drr", []byte(src))
	if err != nil {
		t.Fatalf("parse error:\n%s", err.(diag.Diagnostics).Render([]byte(src)))
	}
	return f
}

// parsePattern parses one pattern statement.
func parsePattern(t *testing.T, line string) *PatternStmt {
	t.Helper()
	f := mustParse(t, wrapMatch(line))
	require.Len(t, f.Rules[0].Match.Stmts, 1)
	return f.Rules[0].Match.Stmts[0]
}

// parseConstraint parses one where expression.
func parseConstraint(t *testing.T, line string) Expr {
	t.Helper()
	f := mustParse(t, wrapWhere(line))
	require.Len(t, f.Rules[0].Where.Constraints, 1)
	return f.Rules[0].Where.Constraints[0]
}

// parseRewrite parses one rewrite statement.
func parseRewrite(t *testing.T, line string) RewriteStmt {
	t.Helper()
	f := mustParse(t, wrapRewrite(line))
	require.Len(t, f.Rules[0].Rewrite.Stmts, 1)
	return f.Rules[0].Rewrite.Stmts[0]
}

// firstError returns the first diagnostic of parsing src ("" if none).
func firstError(src string) string {
	_, err := Parse("t.drr", []byte(src))
	if err == nil {
		return ""
	}
	return err.(diag.Diagnostics)[0].Error()
}

// checkRoundTrip asserts that formatting is stable: Format(Parse(Format(f)))
// equals Format(f).
func checkRoundTrip(t *testing.T, f *File) []byte {
	t.Helper()
	out := Format(f)
	f2, err := Parse("formatted.drr", out)
	if err != nil {
		t.Fatalf("formatted output does not parse: %v\n%s", err, out)
	}
	require.Equal(t, string(out), string(Format(f2)), "Format is not idempotent")
	return out
}
