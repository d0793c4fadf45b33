package drrcli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/sample"
)

// run runs drrc in-process and returns the exit code, standard output and standard error.
func run(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	c := &CLI{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb}
	code := c.Run(args)
	return code, out.String(), errb.String()
}

func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

const reluProgram = `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4],stop_gradient:[true]} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.relu_" (%0) {stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%2) = "pd_op.fetch" (%1) {col:(Int32)0,name:"out",persistable:[true],stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
}
`

const deinplaceRule = `rule deinplace_relu {
  match { %y = pd_op.relu_(%x) }
  rewrite { replace %y with pd_op.relu(%x) }
}
`

func TestDefaultRun(t *testing.T) {
	code, out, errs := run(t, "")
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, `"pd_op.fused_conv2d_add_act"`)
	assert.NotContains(t, out, `"pd_op.batch_norm_"`)
	assert.Contains(t, errs, "conv2d_bn_fold")
	assert.Contains(t, errs, "pd_op.batch_norm_                5 → 0")
}

func TestHelpAndUsage(t *testing.T) {
	code, out, _ := run(t, "", "help")
	assert.Equal(t, exitOK, code)
	for _, cmd := range []string{"apply", "check", "convert", "fmt", "test", "version"} {
		assert.Contains(t, out, "\t"+cmd)
	}
	code, out, _ = run(t, "", "help", "apply")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "usage: drrc apply")
	assert.Contains(t, out, "-verify-each")
	assert.Contains(t, out, "Examples:")

	code, _, errs := run(t, "", "nosuch")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errs, `unknown command "nosuch"`)
	code, _, errs = run(t, "", "apply", "-nosuchflag", "x.pir")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errs, "flag provided but not defined: -nosuchflag")
	code, _, errs = run(t, "", "convert", "x.pir")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errs, "need -o OUTPUT")
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	good := write(t, dir, "good.drr", deinplaceRule)
	bad := write(t, dir, "bad.drr", "rule r {\n  match { %y = pd_op.rleu(%x) }\n  rewrite { replace %y with %x }\n}\n")
	prog := write(t, dir, "p.pir", reluProgram)
	code, _, errs := run(t, "", "check", good, prog)
	assert.Equal(t, exitOK, code, errs)
	assert.Empty(t, errs)
	code, _, errs = run(t, "", "check", bad)
	assert.Equal(t, exitFailure, code)
	assert.Equal(t, bad+":2:16: error: unknown op pd_op.rleu (did you mean pd_op.relu?)\n  match { %y = pd_op.rleu(%x) }\n"+
		"               ^\n", errs)

	broken := write(t, dir, "broken.pir", strings.Replace(reluProgram, "(%1) = \"pd_op.relu_\" (%0)", "(%1) = \"pd_op.relu_\" (%7)", 1))
	code, _, errs = run(t, "", "check", broken)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, broken+":3:")

	// A file that checks is linted: findings are warnings with the source line, and do not fail the check.
	loop := write(t, dir, "loop.drr", "rule a {\n  match { %y = pd_op.relu(%x) }\n  rewrite { replace %y with pd_op.tanh(%x) }\n}\n"+
		"rule b {\n  match { %y = pd_op.tanh(%x) }\n  rewrite { replace %y with pd_op.relu(%x) }\n}\n")
	code, _, errs = run(t, "", "check", loop)
	assert.Equal(t, exitOK, code, errs)
	assert.Contains(t, errs, loop+":5:6: warning: rule b: rules a and b undo each other")
	assert.Contains(t, errs, "\nrule b {\n     ^\n")
	code, _, errs = run(t, "", "check", "-lint=false", loop)
	assert.Equal(t, exitOK, code)
	assert.Empty(t, errs)
	code, _, errs = run(t, "", "check", "-q", loop)
	assert.Equal(t, exitOK, code)
	assert.Empty(t, errs, "-q prints errors only")
}

func TestConvertRoundTripAndAtomicity(t *testing.T) {
	dir := t.TempDir()
	in := write(t, dir, "m.json", string(sample.JSON()))
	pir := filepath.Join(dir, "m.pir")
	back := filepath.Join(dir, "back.json")
	code, _, errs := run(t, "", "convert", in, "-o", pir)
	require.Equal(t, exitOK, code, errs)
	code, _, errs = run(t, "", "convert", pir, "-o", back)
	require.Equal(t, exitOK, code, errs)
	got, err := os.ReadFile(back)
	require.NoError(t, err)
	assert.Equal(t, sample.JSON(), got, "JSON -> text -> JSON is byte-exact")

	// A bad input leaves the output alone.
	bad := write(t, dir, "bad.json", `{"base_code":{"magic":"xyz","trainable":true,"version":1}}`)
	code, _, errs = run(t, "", "convert", bad, "-o", back)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "bad.json:1:")
	got2, _ := os.ReadFile(back)
	assert.Equal(t, got, got2)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		assert.False(t, strings.Contains(e.Name(), ".tmp"), "no temporary file left: %s", e.Name())
	}
}

func TestApply(t *testing.T) {
	dir := t.TempDir()
	rules := write(t, dir, "r.drr", deinplaceRule)
	prog := write(t, dir, "p.pir", reluProgram)
	code, out, errs := run(t, "", "apply", "-rules", rules, prog)
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, `"pd_op.relu" (%0)`)
	assert.Contains(t, errs, "deinplace_relu")
	assert.Contains(t, errs, "applied 1 of 1 matched")

	code, _, errs = run(t, "", "apply", "-rules", rules, "-stats", "json", "-trace", prog, "-o", filepath.Join(dir, "out.pir"))
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, errs, "#1 deinplace_relu: %1 = pd_op.relu_ at "+prog+":3:5 (+1 ops)")
	js := errs[strings.Index(errs, "{"):]
	var res applyResult
	require.NoError(t, json.Unmarshal([]byte(js), &res))
	require.Len(t, res.Program.Passes, 1)
	assert.Equal(t, 1, res.Program.Passes[0].Rewrites)
	assert.Equal(t, "deinplace_relu", res.Program.Passes[0].Rules[0].Rule)
	assert.Positive(t, res.Check, "the judgement of the result is timed apart from the printing (check_ns)")
	assert.Positive(t, res.Print)
	assert.Equal(t, "rules", res.Program.Passes[0].Kind)
	require.NotNil(t, res.Before)
	require.NotNil(t, res.After)
	assert.Equal(t, res.After, res.Program.Passes[0].After, "the figures after the last pass are the program's")
	assert.Equal(t, 1, res.After.RuntimeOps, "relu (data and fetch are the input and the output)")

	code, _, errs = run(t, "", "apply", "-rules", rules, "-timing", prog, "-o", filepath.Join(dir, "out.pir"))
	require.Equal(t, exitOK, code, errs)
	assert.Regexp(t, `deinplace_relu +applied 1 of 1 matched \(1 tried\); match [0-9.]+[µnm]?s, rewrite [0-9.]+[µnm]?s\n`, errs,
		"-timing adds each rule's match and rewrite times")
	assert.Contains(t, errs, "timing: parse ")

	code, _, errs = run(t, "", "apply", "-rules", rules, "-timing", "-stats", "none", prog, "-o", filepath.Join(dir, "out.pir"))
	require.Equal(t, exitOK, code, errs)
	assert.Regexp(t, `^\S+: timing: parse [0-9.]+[µnm]?s, rewrite [0-9.]+[µnm]?s, check [0-9.]+[µnm]?s, print [0-9.]+[µnm]?s\n$`, errs,
		"-timing prints its line without the statistics")

	code, _, errs = run(t, "", "apply", "-set", "nosuch", prog)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, `unknown pass "nosuch"`)
}

func TestApplyBatch(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "in/a.pir", reluProgram)
	write(t, dir, "in/sub/b.pir", reluProgram)
	write(t, dir, "in/c.json", string(sample.JSON()))
	code, _, errs := run(t, "", "apply", "-j", "2", filepath.Join(dir, "in"), "-o", filepath.Join(dir, "out"))
	require.Equal(t, exitOK, code, errs)
	for _, f := range []string{"out/a.pir", "out/sub/b.pir", "out/c.json"} {
		_, err := os.Stat(filepath.Join(dir, f))
		assert.NoError(t, err, f)
	}
	assert.Contains(t, errs, "3 of 3 programs ok")
	code, _, errs = run(t, "", "apply", filepath.Join(dir, "in"))
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errs, "several programs need -o DIR")
}

func TestFmt(t *testing.T) {
	dir := t.TempDir()
	messy := write(t, dir, "m.drr", "rule r { match { %y = \"pd_op.relu_\" (%x) }\nrewrite { replace %y with pd_op.relu(%x) } }\n")
	code, out, _ := run(t, "", "fmt", "-l", messy)
	assert.Equal(t, exitOK, code)
	assert.Equal(t, messy+"\n", out)
	code, out, _ = run(t, "", "fmt", "-d", messy)
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "+  match {")
	code, _, _ = run(t, "", "fmt", "-w", messy)
	assert.Equal(t, exitOK, code)
	code, out, _ = run(t, "", "fmt", "-l", messy)
	assert.Equal(t, exitOK, code)
	assert.Empty(t, out, "formatted files are not listed")
	code, _, errs := run(t, "rule {", "fmt")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "<stdin>:1:")
}

func TestGoldenCommand(t *testing.T) {
	dir := t.TempDir()
	ar := write(t, dir, "t.txtar", "-- rules.drr --\n"+deinplaceRule+"-- input.pir --\n"+reluProgram+"-- output.pir --\n{\n}\n")
	code, out, _ := run(t, "", "test", ar)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, out, "FAIL    "+ar)
	assert.Contains(t, out, "--- want/output.pir")
	code, out, _ = run(t, "", "test", "-update", ar)
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "UPDATED")
	code, out, _ = run(t, "", "test", "-v", dir)
	assert.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "1 archives: 1 passed")
}

func TestStdin(t *testing.T) {
	code, out, errs := run(t, reluProgram, "apply", "-set", "inplace", "-stats", "none", "-")
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, `"pd_op.relu_"`, "relu_ on a program input is not de-inplaced: callers see the buffer")
	code, out, errs = run(t, reluProgram, "convert", "-", "-o", "-", "-format", "json")
	require.Equal(t, exitOK, code, errs)
	assert.True(t, strings.HasPrefix(out, `{"base_code":`))
}

func TestExplainAutomatonGraph(t *testing.T) {
	dir := t.TempDir()
	rules := write(t, dir, "r.drr", deinplaceRule)
	prog := write(t, dir, "p.pir", reluProgram)
	code, out, errs := run(t, "", "explain", "-rules", rules, "-op", "%1", prog)
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, "%1 = pd_op.relu_ at "+prog+":3:5")
	assert.Regexp(t, `rule deinplace_relu \(.*r.drr:1:6\): match`, out)
	code, out, _ = run(t, "", "explain", "-rules", rules, "-op", "@4", prog)
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "no rule has a root that can be pd_op.fetch")
	code, _, errs = run(t, "", "explain", "-rules", rules, "-op", "%9", prog)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "no op has a result %9")

	code, out, errs = run(t, "", "automaton", rules)
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, "deinplace_relu")
	assert.Contains(t, errs, "1 rules")
	code, out, _ = run(t, "", "automaton", "-dot", rules)
	assert.Equal(t, exitOK, code)
	assert.True(t, strings.HasPrefix(out, "digraph"))

	out2 := filepath.Join(dir, "q.pir")
	code, _, errs = run(t, "", "apply", "-rules", rules, prog, "-o", out2)
	require.Equal(t, exitOK, code, errs)
	code, out, errs = run(t, "", "graph", "-diff", prog, out2)
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, `label="%1 = pd_op.relu", fillcolor="#d6ffd6"`)
	assert.Contains(t, out, "label=\"removed\"; style=dashed; color=red; fontcolor=red;\n    n3 [label=\"%1 = pd_op.relu_\", fillcolor=\"#ffd6d6\"")
	assert.Contains(t, out, `n0 -> n1 [label="%0 tensor<4xf32>"]`)
}
