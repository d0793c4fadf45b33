package rulegen_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rulegen"
)

// sharedRules are three rule files: a.drr imports b.drr, which c.drr imports too.
var sharedRules = fstest.MapFS{
	"a.drr": {Data: []byte(`import "b.drr"
rule a_rule {
  match { %y = pd_op.relu(%x) }
  rewrite { replace %y with pd_op.sigmoid(%x) }
}
`)},
	"b.drr": {Data: []byte(`rule b_rule {
  match { %y = pd_op.exp(pd_op.log(%x)) }
  rewrite { replace %y with %x }
}
`)},
	"c.drr": {Data: []byte(`import "b.drr"
`)},
}

// funcNames returns the names of the functions declared in a generated Go file.
func funcNames(t *testing.T, code []byte) []string {
	f, err := parser.ParseFile(token.NewFileSet(), "", code, 0)
	require.NoError(t, err)
	var names []string
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			names = append(names, fd.Name.Name)
		}
	}
	return names
}

// TestGeneratePackageSharesImportedRules: a rule's function is written once, in the pass of the file that declares
// it, whichever order the files come in, and the passes importing the file name it; a pass generated on its own
// writes its own copy.
func TestGeneratePackageSharesImportedRules(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	files, diags := rulegen.GeneratePackage(ctx, sharedRules, []string{"a.drr", "b.drr", "c.drr"}, rulegen.Config{Package: "p"})
	require.False(t, diags.HasErrors(), "%v", diags)
	assert.ElementsMatch(t, []string{"a.go", "b.go", "c.go", rulegen.IndexFile}, keysOf(files))
	assert.Equal(t, []string{"a_a_rule"}, funcNames(t, files["a.go"]))
	assert.Equal(t, []string{"b_b_rule"}, funcNames(t, files["b.go"]))
	assert.Empty(t, funcNames(t, files["c.go"]))
	for _, f := range []string{"a.go", "c.go"} {
		assert.Contains(t, string(files[f]), "Match: b_b_rule}", f)
	}
	assert.NotContains(t, string(files["c.go"]), `"github.com/pirdrr/drr/ir"`, "a pass writing no function imports no ir")

	alone, diags := rulegen.Generate(ctx, sharedRules, []string{"a.drr"}, rulegen.Config{Package: "p"})
	require.False(t, diags.HasErrors(), "%v", diags)
	assert.ElementsMatch(t, []string{"a_a_rule", "a_b_rule"}, funcNames(t, alone))
}

func keysOf(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
