package pirfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// TestRenderReadErrors: errors of both readers render as file:line:col: error: message with the source line and a
// caret; those of one-line JSON files name the JSON path.
func TestRenderReadErrors(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	bad := strings.Replace(reluPIR, `"pd_op.relu" (%0)`, `"pd_op.relu" (%7)`, 1)
	_, _, err = Parse(ctx, "bad.pir", []byte(bad), nil)
	ds, ok := DiagnosticsOf(fmt.Errorf("wrapped: %w", err))
	require.True(t, ok)
	assert.Equal(t, "bad.pir:3:26: error: undefined value %7\n"+
		`    (%1) = "pd_op.relu" (%7) {stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>`+"\n"+
		"                         ^\n", Render(ds, Sources(map[string][]byte{"bad.pir": []byte(bad)})))

	js := `{"base_code":{"magic":"pir","trainable":true,"version":1},"program":{"regions":[{"#":"region_0","blocks":[{"#":"block_0","args":[],"ops":[{"#":"1.relu","A":[],"I":[{"%":9}],"O":[],"OA":[]}]}]}]}}`
	_, _, err = Parse(ctx, "m.json", []byte(js), nil)
	ds, ok = DiagnosticsOf(err)
	require.True(t, ok)
	out := Render(ds, Sources(map[string][]byte{"m.json": []byte(js)}))
	assert.True(t, strings.HasPrefix(out, "m.json:1:"), out)
	assert.Contains(t, out, ": error: /program/regions/0/blocks/0/ops/0/I/0: ")
	assert.True(t, strings.HasSuffix(out, "^\n"), out)

	_, ok = DiagnosticsOf(errors.New("plain"))
	assert.False(t, ok)
	_, ok = DiagnosticsOf(nil)
	assert.False(t, ok)
}

// TestRenderVerifyJSON: a verifier diagnostic about an op of a one-line JSON file gets the op's JSON path, read
// from the file, and a caret under the op's object.
func TestRenderVerifyJSON(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	p, _, err := Parse(ctx, "in.pir", []byte(reluPIR), nil)
	require.NoError(t, err)
	js, err := Marshal(p, PIRJSON, Options{})
	require.NoError(t, err)
	// relu with two operands: the verifier rejects it.
	broken := strings.Replace(string(js), `"I":[{"%":1}]`, `"I":[{"%":1},{"%":1}]`, 1)
	require.NotEqual(t, string(js), broken)
	dir := t.TempDir()
	path := filepath.Join(dir, "model.json")
	require.NoError(t, os.WriteFile(path, []byte(broken), 0o644))
	q, _, err := Load(ctx, path)
	require.NoError(t, err)
	ds := ir.Verify(q).Errors()
	require.NotEmpty(t, ds)
	out := Render(ds, Sources(nil))
	first, _, _ := strings.Cut(out, "\n")
	assert.Regexp(t, `^`+regexp.QuoteMeta(path)+`:1:\d+: error: /program/regions/0/blocks/0/ops/1: %1 = pd_op.relu: `, first)
	col := ds[0].Pos.Column
	lines := strings.Split(out, "\n")
	require.GreaterOrEqual(t, len(lines), 3)
	assert.True(t, strings.HasPrefix(lines[1], "…"), "the long line is cut: %s", lines[1])
	caret := strings.Index(lines[2], "^")
	require.GreaterOrEqual(t, caret, 0)
	assert.Equal(t, `{"#":"1.relu"`, string([]rune(lines[1])[caret:caret+13]), "the caret is under the op (column %d)", col)
}
