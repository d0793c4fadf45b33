package compiled_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rules"
)

// claimOneFunctionPerRule is how every page that describes the generated code says what it holds. The pages say
// it in their own sentences; the test only asks that each says it, so that a change of the generator's shape
// fails here and points at the pages to rewrite (issue 28: the docs said "one function per root op kind" long
// after the generator wrote one method per rule instance).
var claimOneFunctionPerRule = regexp.MustCompile(`one function per rule\b|matching plan[^.]*becomes one function|prints it as one Go function`)

// claimStale is what the pages said when the generator wrote one function per root op kind.
var claimStale = regexp.MustCompile(`(?i)function per (root )?op (kind|name)|function per root`)

// pagesDescribingGeneratedCode are the pages (relative to the module's root) that describe what drrc gen writes.
var pagesDescribingGeneratedCode = []string{
	"docs/architecture.md",
	"docs/cli.md",
	"docs/plugins.md",
	"drrcli/cmd_gen.go",
	"rulegen/doc.go",
}

// TestGeneratedShapeMatchesDocs checks the shape the docs give the generated code against the generated code:
// each compiled set holds exactly one matching function per rule declaration of its rule files (the instances of
// a family share their declaration's function) and per element count of a variadic group (instance n=N, whose
// function is named after the declaration with the count's place as suffix), and each page that describes the
// generated code says so.
func TestGeneratedShapeMatchesDocs(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	for _, name := range rules.Sets() {
		set, err := rules.Load(ctx, name)
		require.NoError(t, err, name)
		decls := map[string]bool{}
		want := 0
		for _, r := range set.Rules {
			if strings.HasPrefix(r.Instance, "n=") {
				want++ // a group's instance: a function of its own
			} else if !decls[r.Name] {
				want++
			}
			decls[r.Name] = true
		}
		funcs := matchingFuncs(t, name+".go")
		assert.Len(t, funcs, want, "%s.go: matching functions %v for the rule declarations %v", name, funcs, keys(decls))
		for _, f := range funcs {
			found := false
			for d := range decls {
				found = found || strings.HasSuffix(f, "_"+d) || strings.HasSuffix(strings.TrimRight(f, "0123456789"), "_"+d)
			}
			assert.True(t, found, "%s.go: the function %s matches no rule declaration of the set", name, f)
		}
	}
	for _, page := range pagesDescribingGeneratedCode {
		data, err := os.ReadFile(filepath.Join("..", "..", page))
		require.NoError(t, err)
		text := strings.Join(strings.Fields(string(data)), " ") // a sentence may break across lines
		assert.True(t, claimOneFunctionPerRule.MatchString(text), "%s no longer says what the generated code holds: one function per rule", page)
		assert.False(t, claimStale.MatchString(text), "%s still describes the generated code as one function per root op kind", page)
	}
}

// matchingFuncs returns the names of the file's functions that match one rule at an op: their parameters are the
// matcher, the instance and the root op (rulegen's signature for a rule).
func matchingFuncs(t *testing.T, file string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
	require.NoError(t, err)
	var names []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Type.Params.NumFields() != 3 {
			continue
		}
		if star, ok := fd.Type.Params.List[0].Type.(*ast.StarExpr); ok {
			if sel, ok := star.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "Matcher" {
				names = append(names, fd.Name.Name)
			}
		}
	}
	return names
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
