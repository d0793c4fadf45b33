package pirfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
)

// TestLoadChoosesTheReader: a .pir file is read as PIR text unless its contents are PIR JSON, also after a long
// run of white space; a missing file is reported as such.
func TestLoadChoosesTheReader(t *testing.T) {
	dir := t.TempDir()
	text := "{\n    (%0) = \"pd_op.data\" () {name:\"x\"} : () -> builtin.tensor<2xf32>\n}\n"
	json, err := os.ReadFile(corpus.Path(t, "pir_json/Paddle2ONNX__tests_thresholded_relu__model.json"))
	require.NoError(t, err)
	for _, tc := range []struct {
		name, content string
		ops           int
	}{
		{"text.pir", text, 1},
		{"json.pir", string(json), -1},
		{"spaced.pir", strings.Repeat(" \n", 5000) + string(json), -1},
		{"json.json", string(json), -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name)
			require.NoError(t, os.WriteFile(path, []byte(tc.content), 0o644))
			p, _, err := Load(ir.NewContext(), path)
			require.NoError(t, err, "the text reader fails on JSON, the JSON reader on text")
			if tc.ops >= 0 {
				assert.Equal(t, tc.ops, p.NumOps())
			} else {
				assert.Greater(t, p.NumOps(), 1)
			}
		})
	}
	_, _, err = Load(ir.NewContext(), filepath.Join(dir, "missing.pir"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}
