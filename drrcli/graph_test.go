package drrcli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/internal/sample"
)

// TestGraphFormats: drrc graph writes DOT, SVG or an HTML page, by -format or by -o's extension (issue 20 item 9).
func TestGraphFormats(t *testing.T) {
	dir := t.TempDir()
	model := write(t, dir, "m.json", string(sample.JSON()))
	for _, tt := range []struct {
		args         []string
		file, prefix string
	}{
		{[]string{"-o", filepath.Join(dir, "g.html")}, "g.html", "<!DOCTYPE html>"},
		{[]string{"-o", filepath.Join(dir, "g.svg")}, "g.svg", "<svg "},
		{[]string{"-o", filepath.Join(dir, "g.dot")}, "g.dot", "digraph "},
		{[]string{"-format", "svg", "-o", filepath.Join(dir, "g.txt")}, "g.txt", "<svg "},
	} {
		code, _, errs := run(t, "", append(append([]string{"graph"}, tt.args...), model)...)
		require.Equal(t, exitOK, code, errs)
		data, err := os.ReadFile(filepath.Join(dir, tt.file))
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(string(data), tt.prefix), tt.file)
		assert.Contains(t, errs, "24 ops drawn")
	}
	code, out, _ := run(t, "", "graph", "-format", "svg", model)
	assert.Equal(t, exitOK, code)
	assert.True(t, strings.HasPrefix(out, "<svg "), "standard output by default")
	code, _, errs := run(t, "", "graph", "-format", "png", model)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errs, `unknown drawing format "png"`)
}

// TestGraphFocus: -focus %N -depth D draws the neighbourhood of an op.
func TestGraphFocus(t *testing.T) {
	dir := t.TempDir()
	model := write(t, dir, "m.json", string(sample.JSON()))
	code, out, errs := run(t, "", "graph", "-focus", "%28", "-depth", "1", model)
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, `n0 [label="%27 = pd_op.data"]`, "the input has no other neighbour")
	assert.Contains(t, out, `n1 [label="%28 = pd_op.conv2d"]`)
	assert.Contains(t, out, `n2 [label="%29, %30, %31, %32, %33, %34 = pd_op.batch_norm_", style="rounded,filled,dashed"]`,
		"the batch norm's user is not drawn")
	assert.NotContains(t, out, "n3 ")
	code, _, errs = run(t, "", "graph", "-focus", "%999", model)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "no op has a result %999")
}

// TestGraphRule: -rule R draws what R matches (before) and what it creates (after).
func TestGraphRule(t *testing.T) {
	dir := t.TempDir()
	model := write(t, dir, "m.json", string(sample.JSON()))
	code, out, errs := run(t, "", "graph", "-set", "conv_bn_relu", "-rule", "conv2d_bn_fold", "-depth", "0", model)
	require.Equal(t, exitOK, code, errs)
	before, after, ok := strings.Cut(out, `label="after: `)
	require.True(t, ok, out)
	// Before: the five convolutions (one depthwise) and their batch norms, matched.
	assert.Contains(t, before, `label="before: 5 matches of conv2d_bn_fold"`)
	assert.Equal(t, 10, strings.Count(before, `fillcolor="#fff1c2"`))
	// After: the folded convolutions and the weight arithmetic, created; no batch norm is left.
	assert.True(t, strings.HasPrefix(after, "5 rewrites, "), after)
	assert.Contains(t, after, `= pd_op.conv2d", fillcolor="#d6ffd6"`)
	assert.Contains(t, after, `= pd_op.divide", fillcolor="#d6ffd6"`)
	assert.NotContains(t, after, "batch_norm_")

	html := filepath.Join(dir, "fold.html")
	code, _, errs = run(t, "", "graph", "-set", "conv_bn_relu", "-rule", "conv2d_bn_fold", "-o", html, model)
	require.Equal(t, exitOK, code, errs)
	page, err := os.ReadFile(html)
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(string(page), `<section class="gv-panel">`), "before and after side by side")

	code, _, errs = run(t, "", "graph", "-set", "conv_bn_relu", "-rule", "conv2d_bn_fodl", model)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, `unknown rule "conv2d_bn_fodl" (did you mean conv2d_bn_fold?)`)
	code, _, errs = run(t, "", "graph", "-set", "inplace", "-rule", "deinplace", write(t, dir, "p.pir", plainReluProgram))
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "rule deinplace matches no op of")
	code, _, errs = run(t, "", "graph", "-set", "inplace", model)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errs, "-rules and -set choose the rule of -rule")
}

// TestGraphRealModel: PP-OCRv5 mobile, which Graphviz draws at 21,000 × 23,000 px, collapses its repeated blocks.
func TestGraphRealModel(t *testing.T) {
	model := corpus.Path(t, "pir_json/nanaikaros__PP-OCRv5_mobile_det_infer.inference.json")
	out := filepath.Join(t.TempDir(), "ocr.html")
	code, _, errs := run(t, "", "graph", "-o", out, model)
	require.Equal(t, exitOK, code, errs)
	assert.Regexp(t, `: 174 ops drawn, 494 not drawn, 7 repeated blocks collapsed, \d+ × \d+ px`, errs)
}
