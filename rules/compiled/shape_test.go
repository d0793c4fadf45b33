package compiled_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
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
// the package holds exactly one matching function per rule declaration of the shipped rule files (the instances of
// a family share their declaration's function) and per element count of a variadic group (instance n=N, whose
// function is named after the declaration with the count's place as suffix), written in the file of the set whose
// rule file declares it and named in the table of every set that imports that file; and each page that describes
// the generated code says so.
func TestGeneratedShapeMatchesDocs(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	funcs := map[string][]string{} // by declaring rule file
	for _, name := range rules.Sets() {
		funcs[name+".drr"] = matchingFuncs(t, name+".go")
	}
	declared := map[string]map[string]bool{} // rule names by declaring file
	for _, name := range rules.Sets() {
		set, err := rules.Load(ctx, name)
		require.NoError(t, err, name)
		table, err := os.ReadFile(name + ".go")
		require.NoError(t, err)
		for _, r := range set.Rules {
			if declared[r.Pos.Filename] == nil {
				declared[r.Pos.Filename] = map[string]bool{}
			}
			key := r.Name
			if strings.HasPrefix(r.Instance, "n=") {
				key += " " + r.Instance // a group's instance: a function of its own
			}
			declared[r.Pos.Filename][key] = true
			fn := funcFor(funcs[r.Pos.Filename], r.Name)
			if assert.NotEmpty(t, fn, "%s declares %s: no function in %s", r.Pos.Filename, r.Name, strings.TrimSuffix(r.Pos.Filename, ".drr")+".go") {
				named := regexp.MustCompile(`Match: ` + fn + `\b`).Match(table)
				assert.True(t, named, "%s.go: the table does not name %s for rule %s", name, fn, r.Name)
			}
		}
	}
	for file, fns := range funcs {
		assert.Len(t, fns, len(declared[file]), "%s: matching functions %v for the rule declarations %v", file, fns, keys(declared[file]))
		for _, f := range fns {
			found := false
			for d := range declared[file] {
				d, _, _ = strings.Cut(d, " ")
				found = found || matchesRule(f, d)
			}
			assert.True(t, found, "%s: the function %s matches no rule declaration of the file", file, f)
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

// funcFor returns the first function of fns that matches the rule named name ("" if none does).
func funcFor(fns []string, name string) string {
	for _, f := range fns {
		if matchesRule(f, name) {
			return f
		}
	}
	return ""
}

// matchesRule reports whether the generated function f is named after the rule named name: prefix_name, or
// prefix_nameN for the further element counts of a group.
func matchesRule(f, name string) bool {
	return strings.HasSuffix(f, "_"+name) || strings.HasSuffix(strings.TrimRight(f, "0123456789"), "_"+name)
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

// maxLinesPerDeclaration is the budget of generated lines per rule declaration of the shipped files (issue 28: the
// generator parameterizes families over op-kind tables and folds what the catalog decides, instead of copying code
// per member; 700 lines a declaration before, 41 before the one-line comments and assignments).
const maxLinesPerDeclaration = 40

// TestGeneratedSize checks the generated files (every non-test Go file of the package but compiled.go, which is
// written by hand), member tables included, against the budget per rule declaration of rules/*.drr.
func TestGeneratedSize(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	lines, comments := 0, 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "compiled.go" {
			continue
		}
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			lines++
			if strings.HasPrefix(strings.TrimSpace(l), "//") {
				comments++
			}
		}
	}
	decls := 0
	for _, name := range rules.Sets() {
		src, err := fs.ReadFile(rules.FS(), name+".drr")
		require.NoError(t, err)
		decls += len(ruleDecl.FindAll(src, -1))
	}
	require.NotZero(t, decls)
	perDecl := float64(lines) / float64(decls)
	t.Logf("%d generated lines (%d of them comment lines) for %d rule declarations: %.1f a declaration", lines,
		comments, decls, perDecl)
	assert.LessOrEqual(t, perDecl, float64(maxLinesPerDeclaration), "the generated code outgrew its budget")
}

// ruleDecl finds a rule declaration: `rule` at the start of a line (where Parse splits a file into declarations).
var ruleDecl = regexp.MustCompile(`(?m)^rule\s`)
