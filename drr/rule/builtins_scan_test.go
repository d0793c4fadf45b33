package rule

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// notBuiltinNames are the places where a string equal to a builtin's name means something else, each with why.
var notBuiltinNames = map[string]string{
	`ir/graphnet/build.go: "dtype"`:     "the dtype attribute of a Python tensor in GraphNet's model.py",
	`interp/k_layout.go: "constant"`:    "the constant padding mode of pd_op.pad3d",
	`feeds/rebatch.go: "shape"`:         "the shape operand of reshape, expand, uniform (an op schema's operand name)",
	`rulegen/paddle/result.go: "dtype"`: "the dtype attribute of a full_int_array the rewrite creates",
}

// TestNoSwitchOnBuiltinNames proves that the registry is the one place that knows the builtins by name: no Go
// file of the module (tests aside) compares a string with a builtin's name, in a switch case or with == or !=.
// Code that needs to know something of a builtin reads it from its Builtin value (CountsUses, TypeQuery, …).
// Comparisons with a Builtin's Result (a kind such as "dtype", not a name) are not calls and do not count; nor are
// those with a PaddleForm's Result. Even the Paddle export spells builtins from their rule.PaddleForm.
func TestNoSwitchOnBuiltinNames(t *testing.T) {
	names := map[string]bool{}
	for _, b := range Builtins {
		names[b.Name] = true
	}
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	var found []string
	seen := map[string]bool{}
	report := func(path string, lit *ast.BasicLit, other ast.Expr) {
		if lit == nil || lit.Kind != token.STRING {
			return
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil || !names[s] {
			return
		}
		if sel, ok := other.(*ast.SelectorExpr); ok && sel.Sel.Name == "Result" {
			return
		}
		rel := filepath.ToSlash(path)
		key := rel + ": " + lit.Value
		seen[key] = true
		if _, ok := notBuiltinNames[key]; !ok {
			found = append(found, fset.Position(lit.Pos()).String()+": compares with the builtin name "+lit.Value)
		}
	}
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "testdata" || strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		rel, _ := filepath.Rel(root, path)
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SwitchStmt:
				for _, c := range n.Body.List {
					for _, e := range c.(*ast.CaseClause).List {
						lit, _ := e.(*ast.BasicLit)
						report(rel, lit, n.Tag)
					}
				}
			case *ast.BinaryExpr:
				if n.Op == token.EQL || n.Op == token.NEQ {
					x, _ := n.X.(*ast.BasicLit)
					y, _ := n.Y.(*ast.BasicLit)
					report(rel, x, n.Y)
					report(rel, y, n.X)
				}
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, files, 100, "the scan found too few Go files under %s", root)
	assert.Empty(t, found, "these places know builtins by name; read what they need from the rule.Builtin instead")
	for key := range notBuiltinNames {
		assert.True(t, seen[key], "notBuiltinNames lists %s, which is no longer there", key)
	}
}
