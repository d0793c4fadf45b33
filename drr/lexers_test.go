package drr

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/stretchr/testify/require"
)

// statefulDRR is the .drr lexer as participle's own stateful lexer (regular expressions, states pushed and
// popped) would write it, for BenchmarkLexers: is our hand-written lexer worth its lines? It is a lower bound on
// the work participle's lexer would do for the language, since it leaves out what its rules cannot express or
// what the hand-written lexer does on top: newlines that separate only inside blocks (a '{' opening a block and
// one opening an attribute map differ by the tokens before them, which a pattern does not see), the ','
// dropped before a closing bracket, the nesting limit that keeps hostile input from exhausting the stack, and
// comments kept apart with their doc markers.
var statefulDRR = lexer.MustStateful(lexer.Rules{
	"Root": {
		{Name: "Comment", Pattern: `//[^\n]*`},
		{Name: "Newline", Pattern: `\n`},
		{Name: "whitespace", Pattern: `[ \t\r]+`},
		{Name: "NullValue", Pattern: `<<NULL VALUE>>`},
		{Name: "NullType", Pattern: `<<NULL TYPE>>`},
		{Name: "TensorName", Pattern: `(?:[a-z_]+\.)?(?:tensor|v_tensor|tensor_array|gpu_tensor)<`, Action: lexer.Push("Tensor")},
		{Name: "Tag", Pattern: `\((?:[A-Z][A-Za-z0-9]*|[a-z_]+\.[A-Za-z0-9]+)\)`},
		{Name: "Sym", Pattern: `[A-Z][A-Za-z]*\([^)\n]*\)|<[#a-z][^>\n]*>`},
		{Name: "Float", Pattern: `-?(?:[0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?|[0-9]+[eE][-+]?[0-9]+|inf\b|nan\b)`},
		{Name: "Int", Pattern: `0x[0-9a-fA-F]+|[0-9]+`},
		{Name: "String", Pattern: `"(?:\\.|[^"\\\n])*"`},
		{Name: "Value", Pattern: `%[A-Za-z0-9_]+`},
		{Name: "Hole", Pattern: `\$[A-Za-z_][A-Za-z0-9_]*`},
		{Name: "Label", Pattern: `@[A-Za-z_][A-Za-z0-9_]*`},
		{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*`},
		{Name: "Punct", Pattern: `->|\.\.\.|==|!=|<=|>=|&&|\|\||[-+*/%<>=!?:,;|()\[\]{}]`},
	},
	"Tensor": {
		{Name: "TensorClose", Pattern: `>`, Action: lexer.Pop()},
		{Name: "DimX", Pattern: `x`},
		{Name: "Dim", Pattern: `-?[0-9]+`},
		{Name: "DimHole", Pattern: `\$[A-Za-z_][A-Za-z0-9_]*`},
		{Name: "DimAny", Pattern: `[?*]`},
		{Name: "DimExpr", Pattern: `\([^)\n]*\)`},
		{Name: "Dtype", Pattern: `[a-z][a-z0-9]*`},
		{Name: "whitespace", Pattern: `[ \t\r]+`},
	},
})

// statefulTokens lexes src with statefulDRR and returns the number of its tokens other than whitespace,
// comments and newlines.
func statefulTokens(name, src string) (int, error) {
	l, err := statefulDRR.Lex(name, strings.NewReader(src))
	if err != nil {
		return 0, err
	}
	syms := statefulDRR.Symbols()
	skip := map[lexer.TokenType]bool{syms["whitespace"]: true, syms["Comment"]: true, syms["Newline"]: true}
	n := 0
	for {
		t, err := l.Next()
		if err != nil {
			return n, err
		}
		if t.EOF() {
			return n, nil
		}
		if !skip[t.Type] {
			n++
		}
	}
}

// ourTokens lexes src with the hand-written lexer and returns the number of its tokens other than separators.
func ourTokens(name, src string) int {
	s := newScanner(name, src)
	n := 0
	for {
		c := s.nextChunk()
		for i := range c {
			if k := c[i].kind; k != tSep && k != tTopSep && k != tEOF {
				n++
			}
		}
		if c[len(c)-1].kind == tEOF {
			return n
		}
	}
}

// TestStatefulLexerLexesTheRuleFiles keeps BenchmarkLexers honest: the participle lexer it times reads the
// benchmark's input and every shipped rule file to its end without an error, into as many tokens as ours within
// a fifth, newlines and comments not counted (ours keeps comments apart and drops newlines inside brackets). The
// rest differ where a pattern cannot see the next character: the "(Inplace)" of trait(Inplace) is a tag to it,
// not the three tokens it is to ours, which reads a tag only before a literal.
func TestStatefulLexerLexesTheRuleFiles(t *testing.T) {
	files := map[string]string{"bench.drr": string(generateRules(20))}
	shipped, err := filepath.Glob(filepath.Join("..", "rules", "*.drr"))
	require.NoError(t, err)
	require.NotEmpty(t, shipped)
	for _, path := range shipped {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		files[filepath.Base(path)] = string(src)
	}
	for name, src := range files {
		n, err := statefulTokens(name, src)
		require.NoError(t, err, name)
		ours := ourTokens(name, src)
		require.InDelta(t, ours, n, float64(ours)/5, "%s: participle's lexer %d tokens, ours %d", name, n, ours)
	}
}

// BenchmarkLexers times the hand-written lexer (lexer=ours, as BenchmarkScan2000) against participle's
// stateful lexer written for the language (lexer=participle, statefulDRR) on the 2,000 rules of
// BenchmarkParse2000:
//
//	go test ./drr -run XXX -bench Lexers -count 6 | tee lex.txt
//	go run golang.org/x/perf/cmd/benchstat@latest -col /lexer lex.txt
func BenchmarkLexers(b *testing.B) {
	src := string(generateRules(2000))
	lexers := []struct {
		name string
		lex  func() error
	}{
		{"ours", func() error { ourTokens("bench.drr", src); return nil }},
		{"participle", func() error { _, err := statefulTokens("bench.drr", src); return err }},
	}
	for _, l := range lexers {
		b.Run("lexer="+l.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if err := l.lex(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
