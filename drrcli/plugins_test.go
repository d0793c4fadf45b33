package drrcli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
)

// TestPlugins: a drrc built with plugins resolves their natives in rule files and their passes in -passes; the
// stock drrc reports both as unknown.
func TestPlugins(t *testing.T) {
	plugins := rewriter.NewRegistry()
	var seen []int
	require.NoError(t, plugins.RegisterConstraint("rank_is", func(args []any) (bool, error) {
		v := args[0].(*ir.Value)
		n := args[1].(int64)
		seen = append(seen, int(n))
		return ir.TensorOf(v.Type()) != nil && ir.TensorOf(v.Type()).Rank() == int(n), nil
	}))
	require.NoError(t, plugins.RegisterPass("count_fetches", "counts fetch ops", func(*ir.Context, *rewriter.Registry) (rewriter.Pass, error) {
		return &rewriter.GoPass{PassName: "count_fetches", Fn: func(p *ir.Program, _ *ir.Rewriter) (int, error) {
			n := 0
			for op := range p.Walk() {
				if op.Name() == "pd_op.fetch" {
					n++
				}
			}
			return n, nil
		}}, nil
	}))
	dir := t.TempDir()
	rules := write(t, dir, "r.drr", "native constraint rank_is(%v: value, $n: i64)\n\n"+
		"rule relu_to_tanh {\n  match { %y = pd_op.relu_(%x) }\n  where { rank_is(%x, 1) }\n  rewrite { replace %y with pd_op.tanh(%x) }\n}\n")
	prog := write(t, dir, "p.pir", reluProgram)
	out := filepath.Join(dir, "out.pir")

	withPlugins := func(args ...string) (int, string) {
		var o, e bytes.Buffer
		c := &CLI{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e, Plugins: plugins}
		return c.Run(args), e.String()
	}
	code, errs := withPlugins("apply", "-rules", rules, "-passes", "count_fetches", "-o", out, prog)
	require.Equal(t, exitOK, code, errs)
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Contains(t, string(got), `"pd_op.tanh"`)
	assert.NotContains(t, string(got), `"pd_op.relu_"`)
	assert.Equal(t, []int{1}, seen, "the native ran once, with the rule's argument")
	assert.Regexp(t, `count_fetches +1 change`, errs)

	code, errs = withPlugins("check", rules)
	assert.Equal(t, exitOK, code, errs)

	// drrc test runs archives with the same registry: the plugin's rules check and run, and -update writes their
	// output.
	ar := write(t, dir, "t.txtar", "-- rules.drr --\n"+strings.Replace(string(mustRead(t, rules)), "relu_", "relu", -1)+
		"-- input.pir --\n"+strings.Replace(reluProgram, `"pd_op.relu_"`, `"pd_op.relu"`, 1)+"-- output.pir --\n{\n}\n")
	var o, e bytes.Buffer
	c := &CLI{Stdout: &o, Stderr: &e, Plugins: plugins}
	code = c.Run([]string{"test", "-update", ar})
	require.Equal(t, exitOK, code, o.String()+e.String())
	assert.Contains(t, o.String(), "UPDATED")
	data, err := os.ReadFile(ar)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"pd_op.tanh" (%0)`)
	// The stock drrc fails on the archive, and -update leaves it alone.
	code, stdout, _ := run(t, "", "test", "-update", ar)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, stdout, "the run failed, but the archive expects an output")
	assert.NotContains(t, stdout, "UPDATED")
	again, err := os.ReadFile(ar)
	require.NoError(t, err)
	assert.Equal(t, data, again)

	// The stock drrc does not know them.
	code, _, errs = run(t, "", "apply", "-rules", rules, "-o", out, prog)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "rank_is")
	code, _, errs = run(t, "", "apply", "-passes", "count_fetches", "-o", out, prog)
	assert.NotEqual(t, exitOK, code)
	assert.Contains(t, errs, "count_fetches")

	// A plugin may not take a shipped name.
	clash := rewriter.NewRegistry()
	require.NoError(t, clash.RegisterPass("inference", "mine", nil))
	o.Reset()
	e.Reset()
	c = &CLI{Stdout: &o, Stderr: &e, Plugins: clash}
	assert.Equal(t, exitFailure, c.Run([]string{"apply", "-o", out, prog}))
	assert.Contains(t, e.String(), "plugins: pass inference is already registered")
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return data
}
