package drr

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"
)

// parseWhole parses src in one call of participle's own entry point
// (ParseBytes with the lexer.Definition), without Parse's declaration by
// declaration driving and recovery, and builds the file's AST.
func parseWhole(filename string, src []byte) (*File, error) {
	g, err := fileParser().ParseBytes(filename, src)
	if err != nil {
		return nil, err
	}
	name := filename
	b := &builder{file: &name}
	f := &File{Name: filename}
	for _, c := range g.Decls {
		d := b.decl(c.Decl)
		if d == nil {
			return nil, b.diags
		}
		f.Decls = append(f.Decls, d)
	}
	if len(b.diags) > 0 {
		return nil, b.diags
	}
	return f, nil
}

// acceptedInputs returns every input of the tests that Parse accepts.
func acceptedInputs(t *testing.T) map[string][]byte {
	inputs := map[string][]byte{}
	files, _ := filepath.Glob(filepath.Join("testdata", "format", "*.txtar"))
	for _, path := range files {
		ar, err := txtar.ParseFile(path)
		require.NoError(t, err)
		for _, f := range ar.Files {
			inputs[filepath.Base(path)+"/"+f.Name] = f.Data
		}
	}
	shipped, _ := filepath.Glob(filepath.Join("..", "rules", "*.drr"))
	for _, path := range shipped {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		inputs[path] = src
	}
	for _, l := range corpusLines(t, 200) {
		inputs[l.file+":"+l.text] = []byte(wrapMatch(l.text))
	}
	inputs["generated"] = generateRules(3)
	return inputs
}

// TestWholeFileParse: Parse, which hands participle one declaration at a
// time and recovers from errors, builds the same tree as participle
// parsing the whole file at once.
func TestWholeFileParse(t *testing.T) {
	for name, src := range acceptedInputs(t) {
		f, err := Parse(name, src)
		require.NoError(t, err, name)
		whole, err := parseWhole(name, src)
		if assert.NoError(t, err, name) {
			assert.Equal(t, dumpAST(f.Decls), dumpAST(whole.Decls), name)
		}
	}
}

// TestWholeFileParseRejects: the syntax errors of the error goldens are
// errors of the grammar too, not of the driving.
func TestWholeFileParseRejects(t *testing.T) {
	for _, path := range goldenFiles(t, "errors") {
		ar, err := txtar.ParseFile(path)
		require.NoError(t, err)
		src, _ := section(ar, "input.drr")
		_, err = parseWhole("input.drr", src)
		assert.Error(t, err, path)
	}
}

// TestGrammarEBNF keeps the grammar as participle prints it, in EBNF, in
// testdata/grammar.ebnf (go test ./drr -run EBNF -update rewrites it), so
// that a change of the grammar shows in review. Lower-case names are the
// terminals and guards of terms*.go.
func TestGrammarEBNF(t *testing.T) {
	got := strings.ReplaceAll(chunkParser().String(), " .\n", " .\n\n") + "\n"
	path := filepath.Join("testdata", "grammar.ebnf")
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run with -update")
	assert.Equal(t, string(want), got)
}
