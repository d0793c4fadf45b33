package drrtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/golden"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rules"
)

// go test ./drrtest -update rewrites the archives of testdata/driver, as drrc test -update does.
func init() { golden.Register() }

func TestDriverGoldens(t *testing.T) {
	Run(t, "../testdata/driver", Options{})
}

const program = `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4],stop_gradient:[true]} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.relu" (%0) {stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%2) = "pd_op.fetch" (%1) {col:(Int32)0,name:"out",persistable:[true],stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
}
`

// pluginRules need the native constraint rank_is, which only a plugin registers.
const pluginRules = "native constraint rank_is(%v: value, $n: i64)\n\n" +
	"rule relu_to_tanh {\n  labels act\n  match { %y = pd_op.relu(%x) }\n  where { rank_is(%x, 1) }\n  rewrite { replace %y with pd_op.tanh(%x) }\n}\n"

func archive(t *testing.T, rulesText, extra string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "a.txtar")
	data := "-- rules.drr --\n" + rulesText + "-- input.pir --\n" + program + extra
	require.NoError(t, os.WriteFile(path, []byte(data), 0o644))
	return path
}

func pluginRegistry(t *testing.T) *rewriter.Registry {
	t.Helper()
	reg := rewriter.NewRegistry()
	require.NoError(t, rules.Register(reg))
	require.NoError(t, reg.RegisterConstraint("rank_is", func(args []any) (bool, error) {
		tt := ir.TensorOf(args[0].(*ir.Value).Type())
		return tt != nil && tt.Rank() == int(args[1].(int64)), nil
	}))
	return reg
}

// TestUpdateNeverFromFailedRun: -update does not write a failed run's errors over an expected output (issue 20
// item 2), nor an output over expected errors; the registry given is the one the archive runs with.
func TestUpdateNeverFromFailedRun(t *testing.T) {
	stale := "-- output.pir --\n{\n}\n"
	path := archive(t, pluginRules, stale)
	before, err := os.ReadFile(path)
	require.NoError(t, err)

	// Without the plugin the rules do not check: a failure, and nothing is written, -update or not.
	for _, update := range []bool{false, true} {
		res, err := RunFile(path, Options{Update: update})
		require.NoError(t, err)
		assert.False(t, res.Updated)
		require.Len(t, res.Failures, 1)
		assert.Contains(t, res.Failures[0], "the run failed, but the archive expects an output")
		assert.Contains(t, res.Failures[0], "rank_is")
		after, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, string(before), string(after), "the archive is unchanged")
	}

	// With the plugin's registry the rules run, and -update writes the output.
	res, err := RunFile(path, Options{Registry: pluginRegistry(t)})
	require.NoError(t, err)
	require.Len(t, res.Failures, 1)
	assert.Contains(t, res.Failures[0], "output.pir differs")
	res, err = RunFile(path, Options{Registry: pluginRegistry(t), Update: true})
	require.NoError(t, err)
	assert.True(t, res.Updated)
	res, err = RunFile(path, Options{Registry: pluginRegistry(t)})
	require.NoError(t, err)
	assert.True(t, res.OK(), res.Failures)
	data, _ := os.ReadFile(path)
	assert.Contains(t, string(data), `"pd_op.tanh" (%0)`)

	// An archive that expects errors keeps them when the run succeeds.
	errs := archive(t, pluginRules, "-- errors --\nsomething\n")
	res, err = RunFile(errs, Options{Registry: pluginRegistry(t), Update: true})
	require.NoError(t, err)
	assert.False(t, res.Updated)
	require.Len(t, res.Failures, 1)
	assert.Contains(t, res.Failures[0], "the run succeeded, but the archive expects errors")
	// ... and -update refreshes errors from a run that fails as expected.
	res, err = RunFile(errs, Options{Update: true})
	require.NoError(t, err)
	assert.True(t, res.Updated)
	data, _ = os.ReadFile(errs)
	assert.Contains(t, string(data), "-- errors --\n")
	assert.Contains(t, string(data), "rank_is")
}

// TestUpdateNeverFromLimitedRun: a rule that grows the program forever stops at the rewrite limit, which fails the
// run; -update records nothing from it (issue 26 item 4).
func TestUpdateNeverFromLimitedRun(t *testing.T) {
	grow := "rule relu_grow { match { %y = pd_op.relu(%x) } rewrite { replace %y with pd_op.relu(pd_op.relu(%x)) } }\n"
	for _, opts := range []string{"", "-- options --\n-max-rewrites 50\n"} {
		path := archive(t, grow, opts+"-- output.pir --\n{\n}\n")
		before, err := os.ReadFile(path)
		require.NoError(t, err)
		res, err := RunFile(path, Options{Update: true})
		require.NoError(t, err)
		assert.False(t, res.Updated)
		require.Len(t, res.Failures, 1)
		assert.Contains(t, res.Failures[0], "the run failed, but the archive expects an output")
		assert.Regexp(t, `pass rules stopped at max rewrites \(\d+\) before converging: rule relu_grow kept firing`, res.Failures[0])
		after, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, string(before), string(after), "the archive is unchanged")
	}
}

// TestFailureWordDiff: a golden failure marks what differs inside the line (issue 20 item 10).
func TestFailureWordDiff(t *testing.T) {
	want := strings.Replace(program, `"pd_op.relu"`, `"pd_op.tanh"`, 1)
	want = strings.Replace(want, "stop_gradient:[false]} : (builtin", "stop_gradient:[true]} : (builtin", 1)
	path := archive(t, pluginRules, "-- output.pir --\n"+want)
	res, err := RunFile(path, Options{Registry: pluginRegistry(t)})
	require.NoError(t, err)
	require.Len(t, res.Failures, 1)
	assert.Contains(t, res.Failures[0], "\n~"+`…pd_op.tanh" (%0) {stop_gradient:[[-true-]{+false+}]} : (builtin.tensor<4xf32…`+"\n")
}

// TestArchiveNames: unknown pass names and labels in an archive are errors that suggest the nearest name (item 3).
func TestArchiveNames(t *testing.T) {
	tests := []struct{ extra, want string }{
		{"-- passes --\nrules,dec\n", `passes: unknown pass "dec" (did you mean dce?)`},
		{"-- options --\n-disable acts\n", `options: -disable: unknown rule name or label "acts" (did you mean act?)`},
		{"-- options --\n-enable relu_to_tahn\n", `options: -enable: unknown rule name or label "relu_to_tahn" (did you mean relu_to_tanh?)`},
	}
	for _, tt := range tests {
		_, err := RunFile(archive(t, pluginRules, tt.extra), Options{Registry: pluginRegistry(t)})
		require.Error(t, err, tt.extra)
		assert.Contains(t, err.Error(), tt.want)
	}
	res, err := RunFile(archive(t, pluginRules, "-- options --\n-disable act\n-- output.pir --\n"+program), Options{Registry: pluginRegistry(t)})
	require.NoError(t, err)
	assert.True(t, res.OK(), "a known label: %v", res.Failures)
}

// TestGraphNetArchives: archives whose input is a GraphNet graph (sections under input/), with the expected output
// as a GraphNet graph (sections under output/) or in PIR text, and a malformed graph's positioned error.
func TestGraphNetArchives(t *testing.T) {
	Run(t, "testdata/graphnet", Options{})
}

// paramRules turn relu into tanh only when the parameter on is true.
const paramRules = "/// Whether to rewrite.\nparam on: bool = false\n\n" +
	"rule relu_to_tanh {\n  match { %y = pd_op.relu(%x) }\n  where { $on }\n  rewrite { replace %y with pd_op.tanh(%x) }\n}\n"

// TestArchiveParams: an archive sets rule-set parameters with -param in its options section; Options.Params sets
// them for every archive (the archive's own win); an unknown name is an error.
func TestArchiveParams(t *testing.T) {
	for _, tc := range []struct {
		name, options string
		params        []string
		want          string // "tanh", "relu" or an error substring
	}{
		{"default", "", nil, "relu"},
		{"archive sets it", "-- options --\n-param on=true\n", nil, "tanh"},
		{"run sets it", "", []string{"on=true"}, "tanh"},
		{"archive wins", "-- options --\n-param on=false\n", []string{"on=true"}, "relu"},
		{"unknown", "-- options --\n-param of=true\n", nil, `unknown parameter "of" (did you mean on?)`},
		{"wrong kind", "-- options --\n-param on=3\n", nil, `"3" is not a bool`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := archive(t, paramRules, tc.options)
			res, err := RunPath(path, Options{Update: true, Params: tc.params})
			if tc.want != "tanh" && tc.want != "relu" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.want)
				return
			}
			require.NoError(t, err)
			require.Len(t, res, 1)
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			out := string(data)[strings.Index(string(data), "-- output.pir --"):]
			assert.Contains(t, out, `"pd_op.`+tc.want+`"`)
		})
	}
}

// targetRules turn relu into tanh only on an sm 80 GPU: they read the parameter a target sets.
const targetRules = "param sm_version: i64 = 0\n\n" +
	"rule relu_to_tanh {\n  match { %y = pd_op.relu(%x) }\n  where { $sm_version == 80 }\n  rewrite { replace %y with pd_op.tanh(%x) }\n}\n"

// TestArchiveTarget: an archive's -target sets sm_version, as drrc's -target does; Options.Target sets it for
// every archive (the archive's own wins); -param sm_version stays an alias that must agree; a bad target is an
// error that says how to write one.
func TestArchiveTarget(t *testing.T) {
	for _, tc := range []struct {
		name, options string
		target        ir.Target
		want          string // "tanh", "relu" or an error substring
	}{
		{"none", "", ir.Target{}, "relu"},
		{"archive sets it", "-- options --\n-target gpu:sm80\n", ir.Target{}, "tanh"},
		{"run sets it", "", ir.GPU(80), "tanh"},
		{"archive wins", "-- options --\n-target gpu:sm86\n", ir.GPU(80), "relu"},
		{"cpu", "-- options --\n-target cpu\n", ir.Target{}, "relu"},
		{"alias agrees", "-- options --\n-target gpu:sm80 -param sm_version=80\n", ir.Target{}, "tanh"},
		{"alias disagrees", "-- options --\n-target gpu:sm80 -param sm_version=75\n", ir.Target{},
			"options: -param sm_version=75 contradicts -target gpu:sm80, which sets sm_version=80"},
		{"bad target", "-- options --\n-target gpu:ampere\n", ir.Target{}, `target "gpu:ampere": the GPU architecture is written smNN`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := archive(t, targetRules, tc.options)
			res, err := RunPath(path, Options{Update: true, Target: tc.target})
			if tc.want != "tanh" && tc.want != "relu" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.want)
				return
			}
			require.NoError(t, err)
			require.Len(t, res, 1)
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			out := string(data)[strings.Index(string(data), "-- output.pir --"):]
			assert.Contains(t, out, `"pd_op.`+tc.want+`"`)
		})
	}
}

// TestArchiveImportsBesideIt: an archive's rules may import the rule file under test from beside the archive
// (relative to the archive's folder, not the working directory), or by an absolute path kept as it is; a diagnostic
// of the imported file names it as the import does.
func TestArchiveImportsBesideIt(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "rules"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "tests"), 0o755))
	real := filepath.Join(dir, "rules", "r.drr")
	require.NoError(t, os.WriteFile(real, []byte("rule relu_to_tanh {\n  match { %y = pd_op.relu(%x) }\n  rewrite { replace %y with pd_op.tanh(%x) }\n}\n"), 0o644))
	for _, tc := range []struct{ name, imp string }{
		{"relative", "../rules/r.drr"},
		{"absolute", filepath.ToSlash(real)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, "tests", tc.name+".txtar")
			require.NoError(t, os.WriteFile(path, []byte("-- rules.drr --\nimport \""+tc.imp+"\"\n-- input.pir --\n"+program), 0o644))
			res, err := RunPath(path, Options{Update: true})
			require.NoError(t, err)
			require.Len(t, res, 1)
			require.Empty(t, res[0].Failures)
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Contains(t, string(data)[strings.Index(string(data), "-- output.pir --"):], `"pd_op.tanh"`)
		})
	}
	// A broken rule file is reported under the name the archive imports it by.
	require.NoError(t, os.WriteFile(real, []byte("family f = [pd_op.rleu]\n"), 0o644))
	path := filepath.Join(dir, "tests", "broken.txtar")
	require.NoError(t, os.WriteFile(path, []byte("-- rules.drr --\nimport \"../rules/r.drr\"\n-- input.pir --\n"+program+
		"-- errors --\n"), 0o644))
	_, err := RunPath(path, Options{Update: true})
	require.NoError(t, err)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(data), "-- errors --\n../rules/r.drr:1:13: error: unknown op pd_op.rleu")
}

// TestArchivePassesExtendPipeline: an archive's passes section extends a pipeline at a named point, as -passes does.
func TestArchivePassesExtendPipeline(t *testing.T) {
	rulesText := "rule relu_to_tanh {\n  match { %y = pd_op.relu(%x) }\n  rewrite { replace %y with pd_op.tanh(%x) }\n}\n"
	path := archive(t, rulesText, "-- passes --\ninference[\n  before reinplace: rules\n]\n")
	res, err := RunPath(path, Options{Update: true})
	require.NoError(t, err)
	require.Len(t, res, 1)
	require.Empty(t, res[0].Failures)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	out := string(data)[strings.Index(string(data), "-- output.pir --"):]
	assert.Contains(t, out, `"pd_op.tanh"`)

	path = archive(t, rulesText, "-- passes --\ninference[before reinplac: rules]\n")
	_, err = RunPath(path, Options{Update: true})
	assert.ErrorContains(t, err, "passes: inference has no pass reinplac (did you mean reinplace?)")
}
