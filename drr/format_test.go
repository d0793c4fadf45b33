package drr

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"
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

// ruleSources returns the rule files of the repository: every .drr file
// (shipped rule sets, examples, test data) and every .drr section of a
// txtar archive, by path.
func ruleSources(t *testing.T) map[string][]byte {
	t.Helper()
	sources := map[string][]byte{}
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != ".." {
			return filepath.SkipDir
		}
		switch filepath.Ext(path) {
		case ".drr":
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sources[path] = src
		case ".txtar":
			ar, err := txtar.ParseFile(path)
			if err != nil {
				return err
			}
			for _, f := range ar.Files {
				if strings.HasSuffix(f.Name, ".drr") {
					sources[path+"/"+f.Name] = f.Data
				}
			}
		}
		return nil
	})
	require.NoError(t, err)
	return sources
}

// TestFormatKeepsComments formats every rule file of the repository that
// parses: every comment is in the output (as often as in the input: the
// formatter moves comments with the clauses it reorders, so their order is
// the goldens' business), and formatting the output again changes nothing.
func TestFormatKeepsComments(t *testing.T) {
	parsed, comments := 0, 0
	for path, src := range ruleSources(t) {
		f, err := Parse(path, src)
		if err != nil {
			continue // an error golden's input
		}
		parsed++
		out := string(Format(f))
		want := map[string]int{}
		for _, c := range f.Comments {
			want[c.Text]++
			comments++
		}
		for text, n := range want {
			assert.GreaterOrEqual(t, strings.Count(out, text), n, "%s: comment %q lost\n%s", path, text, out)
		}
		again, err := Parse(path, []byte(out))
		require.NoError(t, err, "%s: the formatted file does not parse\n%s", path, out)
		assert.Equal(t, out, string(Format(again)), "%s: Format is not idempotent", path)
	}
	assert.Greater(t, parsed, 30, "rule files found")
	assert.Greater(t, comments, 100, "comments checked")
	t.Logf("%d rule files, %d comments", parsed, comments)
}
