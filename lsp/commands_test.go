package lsp

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/internal/sample"
	"github.com/pirdrr/drr/lsp/protocol"
	"github.com/pirdrr/drr/matcher"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rulegen"
	"github.com/pirdrr/drr/rulegen/rt"
	"github.com/pirdrr/drr/rules"
)

// shipped returns a shipped rule file.
func shipped(t testing.TB, name string) string {
	src, err := os.ReadFile(filepath.Join("..", "rules", name))
	require.NoError(t, err)
	return string(src)
}

// conv_bn_relu.drr imports Paddle's three convolution passes, each a shipped file of its own.
var convBnReluImports = []string{"conv2d_bn_fuse.drr", "conv2d_add_act_fuse.drr", "conv2d_add_fuse.drr"}

// openConvBnRelu writes the files conv_bn_relu.drr imports into the workspace and opens conv_bn_relu.drr.
func openConvBnRelu(t testing.TB, c *client) (protocol.DocumentURI, string) {
	for _, name := range convBnReluImports {
		c.write(name, shipped(t, name))
	}
	text := shipped(t, "conv_bn_relu.drr")
	return c.open("conv_bn_relu.drr", text), text
}

func TestViewCommand(t *testing.T) {
	c := startServer(t, Options{})
	uri, text := openConvBnRelu(t, c)
	c.diagnostics(uri, 1)

	// The automaton is drrc automaton's.
	set, diags := drr.LoadSource(testCtx(), drr.LoadOptions{}, c.path("conv_bn_relu.drr"), []byte(text))
	require.False(t, diags.HasErrors())
	a, err := matcher.Compile(set, matcher.Options{})
	require.NoError(t, err)
	var want bytes.Buffer
	require.NoError(t, a.Dump(&want))

	for _, v := range views {
		var res ViewResult
		c.call(protocol.MethodExecuteCommand, protocol.ExecuteCommandParams{Command: CommandView,
			Arguments: rawArgs(t, viewArgs{URI: uri, View: v.Name})}, &res)
		require.Equal(t, v.Name, res.View)
		switch v.Name {
		case "automaton":
			require.True(t, strings.HasPrefix(res.Text, want.String()))
			require.Contains(t, res.Text, "distinct tests")
		case "automaton-dot":
			require.True(t, strings.HasPrefix(res.Text, "digraph"))
		case "go":
			files := []rt.File{{Name: "conv_bn_relu.drr", Text: text}}
			for _, name := range convBnReluImports {
				files = append(files, rt.File{Name: name, Text: shipped(t, name)})
			}
			code, diags := rulegen.Generate(testCtx(), rt.FilesFS(files),
				[]string{"conv_bn_relu.drr"}, rulegen.Config{Package: "rules", Command: "drrc gen (the view of the language server)"})
			require.False(t, diags.HasErrors(), "%v", diags)
			require.Equal(t, string(code), res.Text, "the view is what drrc gen writes")
			require.Equal(t, "go", res.Language)
		default:
			t.Fatalf("view %s is not tested", v.Name)
		}
	}
	err = c.callErr(protocol.MethodExecuteCommand, protocol.ExecuteCommandParams{Command: CommandView,
		Arguments: rawArgs(t, viewArgs{URI: uri, View: "nope"})}, nil)
	require.ErrorContains(t, err, `unknown view "nope" (views: automaton, automaton-dot, go)`)
	c.replace(uri, 2, strings.Replace(text, "pd_op.relu", "pd_op.rleu", 1))
	err = c.callErr(protocol.MethodExecuteCommand, protocol.ExecuteCommandParams{Command: CommandView,
		Arguments: rawArgs(t, viewArgs{URI: uri, View: "automaton"})}, nil)
	require.ErrorContains(t, err, "does not check (")
	err = c.callErr(protocol.MethodExecuteCommand, protocol.ExecuteCommandParams{Command: "drr.nope"}, nil)
	require.ErrorContains(t, err, "unknown command drr.nope")
}

// rawArgs encodes command arguments.
func rawArgs(t testing.TB, args ...any) []jsonRaw {
	var out []jsonRaw
	for _, a := range args {
		out = append(out, mustJSON(t, a))
	}
	return out
}

// TestApplyAndCodeLens: the code lenses offer the views and "apply to…"; applying the shipped fusion rules to the
// sample model reports the rewrites the rewriter makes, per rule, and the lenses then show them.
func TestApplyAndCodeLens(t *testing.T) {
	c := startServer(t, Options{})
	uri, text := openConvBnRelu(t, c)
	c.diagnostics(uri, 1)
	model := c.write("model.json", string(sample.JSON()))

	lenses := func() []string {
		var ls []protocol.CodeLens
		c.call(protocol.MethodCodeLens, protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, &ls)
		var out []string
		for _, l := range ls {
			out = append(out, itoa(l.Range.Start.Line+1)+" "+l.Command.Title+" ["+l.Command.Command+"]")
		}
		return out
	}
	before := lenses()
	require.Contains(t, before, "13 view matcher automaton [drr.showView]")
	require.Contains(t, before, "13 view matcher automaton (Graphviz) [drr.showView]")
	require.Contains(t, before, "19 apply to… [drr.applyTo]")

	// What the rewriter does with the same rules on the same program.
	set, diags := drr.LoadSource(testCtx(), drr.LoadOptions{}, c.path("x.drr"), []byte(text))
	require.False(t, diags.HasErrors())
	p, _, err := c.srv.opts.Formats.Load(testCtx(), model)
	require.NoError(t, err)
	res, err := rewriter.NewRulePass("rules", set).Run(p, &rewriter.Env{Registry: rewriter.NewRegistry()})
	require.NoError(t, err)
	want := map[string]int{}
	for _, r := range res.Stats.Rules {
		want[r.Name] += r.Applied
	}
	require.Positive(t, res.Stats.Rewrites)

	var rep applyReport
	c.call(protocol.MethodExecuteCommand, protocol.ExecuteCommandParams{Command: CommandApply,
		Arguments: rawArgs(t, applyArgs{URI: uri, Program: "model.json"})}, &rep) // relative to the rule file
	require.Len(t, rep.Programs, 1)
	require.Equal(t, res.Stats.Rewrites, rep.Rewrites)
	got := map[string]int{}
	for _, r := range rep.Rules {
		got[r.Rule] = r.Applied
	}
	require.Equal(t, want, got)
	require.Contains(t, rep.Summary, "model.json: "+itoa(rep.Rewrites)+" rewrites")
	require.NotEqual(t, rep.Programs[0].OpsIn, rep.Programs[0].OpsOut) // the fold builds the weight arithmetic as ops

	after := lenses()
	// The lenses are on the rules of the file (fused_conv2d_add_then_act on line 19), not on those it imports.
	require.Positive(t, want["fused_conv2d_add_then_act"])
	word := " rewrites"
	if want["fused_conv2d_add_then_act"] == 1 {
		word = " rewrite"
	}
	require.Contains(t, after, "19 "+itoa(want["fused_conv2d_add_then_act"])+word+" in model.json [drr.applyTo]")
	c.mu.Lock()
	require.NotEmpty(t, c.notes)
	require.Contains(t, c.notes[len(c.notes)-1].Message, "model.json: ")
	c.mu.Unlock()
	require.Eventually(t, func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, m := range c.calls {
			if m == protocol.MethodCodeLensRefresh {
				return true
			}
		}
		return false
	}, 5e9, 1e7)

	err = c.callErr(protocol.MethodExecuteCommand, protocol.ExecuteCommandParams{Command: CommandApply,
		Arguments: rawArgs(t, applyArgs{URI: uri, Program: "missing.json"})}, nil)
	require.ErrorContains(t, err, "cannot read missing.json")
	err = c.callErr(protocol.MethodExecuteCommand, protocol.ExecuteCommandParams{Command: CommandApply,
		Arguments: rawArgs(t, map[string]string{"uri": string(uri)})}, nil)
	require.ErrorContains(t, err, `drr.apply takes {"uri": …, "program": …, "passes": …}`)
}

// TestApplyToGraphNetFolder: "apply to…" takes a GraphNet sample folder (the programs of its subgraphs), read
// through the program formats of ir/pirfile.
func TestApplyToGraphNetFolder(t *testing.T) {
	graphs := corpus.RequireGraphs(t, 1)
	var dir string
	for _, g := range graphs {
		src, err := os.ReadFile(filepath.Join(g.Dir, "model.py"))
		if err == nil && g.Collection == "PaddleX" && bytes.Contains(src, []byte("conv2d")) && bytes.Contains(src, []byte("batch_norm")) {
			dir = filepath.Join(corpus.Require(t), "graphnet_samples", g.Collection, g.Sample)
			break
		}
	}
	if dir == "" {
		t.Skip("no PaddleX graph with conv2d and batch_norm in the corpus")
	}
	c := startServer(t, Options{})
	progs, err := c.srv.opts.Formats.Expand(dir)
	require.NoError(t, err)
	if c.srv.opts.Formats.DirFormat(progs[0]) == nil {
		t.Skipf("no program format of this build reads GraphNet folders (%s)", c.srv.opts.Formats.Names(true))
	}
	uri, _ := openConvBnRelu(t, c)
	var rep applyReport
	c.call(protocol.MethodExecuteCommand, protocol.ExecuteCommandParams{Command: CommandApply,
		Arguments: rawArgs(t, applyArgs{URI: uri, Program: dir})}, &rep)
	require.NotEmpty(t, rep.Programs)
	for _, p := range rep.Programs {
		require.Empty(t, p.Error, p.Path)
		require.Positive(t, p.OpsIn)
	}
	t.Logf("%s", rep.Summary)
}

// TestApplyReportPlurals: one rewrite is "1 rewrite" in the lens, the summary and the table, not "1 rewrites".
func TestApplyReportPlurals(t *testing.T) {
	assert.Equal(t, "1 rewrite in m.json", ruleCount{Rule: "r", Applied: 1}.lensTitle("dir/m.json"))
	assert.Equal(t, "0 rewrites in m.json (1 failed)", ruleCount{Rule: "r", Failed: 1}.lensTitle("m.json"))
	r := &applyReport{Program: "dir/m.json", Rewrites: 1, Programs: []programReport{{Path: "m.json", Rewrites: 1}},
		Rules: []ruleCount{{Rule: "r", Applied: 1}}}
	assert.Equal(t, "m.json: 1 rewrite (r 1)", r.headline())
	assert.Contains(t, r.text(), "m.json: 0 → 0 ops, 1 rewrite, ")
	r.Programs = append(r.Programs, programReport{Path: "n.json"})
	assert.Equal(t, "m.json: 1 rewrite in 2 programs (r 1)", r.headline())
}

// TestApplyWithinPipeline: "apply to…" may run the document's rules inside a pipeline, at a named point, as drrc
// apply -passes does (issue 30 item 2); the report counts the document's rules only, and the lens keeps the passes.
func TestApplyWithinPipeline(t *testing.T) {
	reg := rewriter.NewRegistry()
	require.NoError(t, rules.Register(reg))
	c := startServer(t, Options{Registry: reg})
	text := "rule relu_to_tanh {\n  match { %y = pd_op.relu(%x) }\n  rewrite { replace %y with pd_op.tanh(%x) }\n}\n"
	uri := c.open("r.drr", text)
	c.diagnostics(uri, 1)
	prog := c.write("p.pir", `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4],stop_gradient:[true]} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.exp" (%0) {} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%2) = "pd_op.relu" (%1) {} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%3) = "pd_op.fetch" (%2) {col:(Int32)0,name:"out"} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
}
`)
	apply := func(passes string) applyReport {
		var rep applyReport
		c.call(protocol.MethodExecuteCommand, protocol.ExecuteCommandParams{Command: CommandApply,
			Arguments: rawArgs(t, applyArgs{URI: uri, Program: prog, Passes: passes})}, &rep)
		return rep
	}
	// After gpu_inference the relu is a relu_: rules run after it match nothing; before reinplace they fire.
	assert.Equal(t, 0, apply("gpu_inference, rules").Rewrites)
	rep := apply("gpu_inference[before reinplace: rules]")
	assert.Equal(t, 1, rep.Rewrites)
	assert.Equal(t, "p.pir: 1 rewrite within gpu_inference[before reinplace: rules] (relu_to_tanh 1)", rep.headline())

	var ls []protocol.CodeLens
	c.call(protocol.MethodCodeLens, protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, &ls)
	found := false
	for _, l := range ls {
		if l.Command.Title == "1 rewrite in p.pir" {
			found = true
			assert.Contains(t, string(mustJSON(t, l.Command.Arguments)), `"passes":"gpu_inference[before reinplace: rules]"`)
		}
	}
	assert.True(t, found, "the lens of the last run")

	err := c.callErr(protocol.MethodExecuteCommand, protocol.ExecuteCommandParams{Command: CommandApply,
		Arguments: rawArgs(t, applyArgs{URI: uri, Program: prog, Passes: "gpu_inference[before reinplac: rules]"})}, nil)
	require.ErrorContains(t, err, "gpu_inference has no pass reinplac (did you mean reinplace?)")
}
