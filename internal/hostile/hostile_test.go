package hostile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGenerators(t *testing.T) {
	assert.Equal(t, "(((uses(%y) == 1)))", ParenExpr(3))
	assert.Equal(t, "uses(%y) + 1 + 1 == 3", ChainExpr(2))
	assert.Equal(t, "uses(%y) == 1 ? true : uses(%y) == 2 ? true : false", CondExpr(2))
	assert.Equal(t, "uses(%y) in [[1]][0]", ListExpr(2))
	assert.Equal(t, "!!(uses(%y) == 1)", NotExpr(2))
	assert.Equal(t, "max(max(uses(%y), 1), 1) == 1", CallExpr(2))
	assert.Contains(t, Rule("true"), "where { true }")
	assert.Contains(t, DeepJSON(2), `{"#":"0.a_array","D":[{"#":"0.a_array","D":[]}]}`)
	assert.Contains(t, DeepPIRText(2), "{a:[[(Int32)1]]}")
	assert.Contains(t, DeepPython(2), "x = ((data_0))")
}

func TestFuzzCorpus(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a"), []byte("go test fuzz v1\n[]byte(\"rule \\x00\\n\")\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b"), []byte("go test fuzz v1\nstring(\"x\")\n"), 0o644))
	got, err := FuzzCorpus(dir)
	require.NoError(t, err)
	assert.Equal(t, map[string][]byte{"a": []byte("rule \x00\n"), "b": []byte("x")}, got)
	assert.Equal(t, []string{"a", "b"}, Names(got))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "c"), []byte("go test fuzz v1\nint(1)\n"), 0o644))
	_, err = FuzzCorpus(dir)
	assert.ErrorContains(t, err, "is not a []byte or string")
	none, err := FuzzCorpus(filepath.Join(dir, "missing"))
	assert.NoError(t, err)
	assert.Empty(t, none)
	// The corpora of the repository decode.
	for _, d := range []string{"../../drr/testdata/fuzz/FuzzParse", "../../ir/pirtext/testdata/fuzz/FuzzParse"} {
		got, err := FuzzCorpus(d)
		require.NoError(t, err, d)
		assert.NotEmpty(t, got, d)
		for name, v := range got {
			assert.False(t, strings.HasPrefix(string(v), "go test fuzz"), name)
		}
	}
}
