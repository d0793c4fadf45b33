package drrtest

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tanhProgram is program with its relu rewritten by relu_to_tanh.
var tanhProgram = strings.Replace(program, `"pd_op.relu"`, `"pd_op.tanh"`, 1)

// TestOpsSection: an ops section is checked against the output's top-level ops, and -update, which rewrites the
// output, never rewrites the ops section: it is the requirement the output is held to.
func TestOpsSection(t *testing.T) {
	for _, tc := range []struct {
		name, ops string
		ok        bool
		want      []string // in the failure
	}{
		{"counts hold", "pd_op.tanh: 1\npd_op.relu: 0\n# a comment\n\npd_op.fetch: 1 # trailing\n", true, nil},
		{"names counted together", "pd_op.tanh + pd_op.tanh_: 1\npd_op.relu+pd_op.relu_+pd_op.data: 1\n", true, nil},
		{"an op not there counts 0", "pd_op.softmax: 0\n", true, nil},
		{"counts differ", "pd_op.tanh: 0\npd_op.relu: 1\npd_op.data: 1\npd_op.tanh_ + pd_op.fetch: 2\n", false,
			[]string{"ops: the output's op counts differ", "pd_op.tanh: want 0, got 1", "pd_op.relu: want 1, got 0",
				"pd_op.tanh_ + pd_op.fetch: want 2, got 1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := archive(t, pluginRules, "-- ops --\n"+tc.ops+"-- output.pir --\n"+tanhProgram)
			for _, update := range []bool{false, true} {
				res, err := RunFile(path, Options{Registry: pluginRegistry(t), Update: update})
				require.NoError(t, err)
				assert.Equal(t, tc.ok, res.OK(), res.Failures)
				assert.False(t, res.Updated, "nothing else differs, and the ops section is never rewritten")
				for _, w := range tc.want {
					require.Len(t, res.Failures, 1)
					assert.Contains(t, res.Failures[0], w)
				}
			}
			if !tc.ok {
				assert.NotContains(t, tc.want[0], "pd_op.data", "a count that holds is not reported")
			}
		})
	}
}

// TestOpsSectionErrors: a malformed ops section is an error of the archive, with its line.
func TestOpsSectionErrors(t *testing.T) {
	for _, tc := range []struct{ ops, want string }{
		{"pd_op.tanh 1\n", `section ops, line 1: want "OP_NAME: COUNT"`},
		{"pd_op.tanh: -1\n", "line 1"},
		{"\npd_op.tanh: x\n", "line 2"},
		{"pd_op.tanh: 1\npd_op.tanh: 1\n", "section ops, line 2: pd_op.tanh is counted twice"},
		{"pd_op.tanh + pd_op.relu: 1\npd_op.relu: 1\n", "section ops, line 2: pd_op.relu is counted twice"},
		{"pd_op.tanh + : 1\n", "line 1"},
		{"pd op.tanh: 1\n", "line 1"},
	} {
		_, err := RunFile(archive(t, pluginRules, "-- ops --\n"+tc.ops), Options{Registry: pluginRegistry(t)})
		require.Error(t, err, tc.ops)
		assert.Contains(t, err.Error(), tc.want)
	}
}

// TestNamedRuns: a RUN:passes section runs the input again with its own passes, options, expected output, stats
// and ops; -update fills the sections of every run.
func TestNamedRuns(t *testing.T) {
	extra := "-- output.pir --\n" + tanhProgram +
		"-- off:passes --\nrules\n-- off:options --\n-disable act\n-- off:ops --\npd_op.relu: 1\n-- off:output.pir --\n{\n}\n" +
		"-- again:passes --\nrules, dce\n-- again:ops --\npd_op.tanh: 1\n"
	path := archive(t, pluginRules, extra)
	res, err := RunFile(path, Options{Registry: pluginRegistry(t)})
	require.NoError(t, err)
	require.Len(t, res.Failures, 2, "off's stale output, again's missing one: %v", res.Failures)
	assert.Contains(t, res.Failures[0], "off:output.pir differs")
	assert.Contains(t, res.Failures[1], "missing section again:output.pir")

	res, err = RunFile(path, Options{Registry: pluginRegistry(t), Update: true})
	require.NoError(t, err)
	assert.True(t, res.Updated)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	text := string(data)
	assert.Contains(t, text, "-- off:output.pir --\n"+program, "the run with the rule disabled keeps the relu")
	assert.Contains(t, text, "-- again:output.pir --\n"+tanhProgram)
	assert.Contains(t, text, "-- off:ops --\npd_op.relu: 1\n")

	res, err = RunFile(path, Options{Registry: pluginRegistry(t)})
	require.NoError(t, err)
	assert.True(t, res.OK(), res.Failures)

	// A named run's ops are checked like the first run's, and named in the failure.
	bad := archive(t, pluginRules, "-- output.pir --\n"+tanhProgram+"-- x:passes --\nrules\n-- x:ops --\npd_op.relu: 1\n")
	res, err = RunFile(bad, Options{Registry: pluginRegistry(t), Update: true})
	require.NoError(t, err)
	require.Len(t, res.Failures, 1)
	assert.Contains(t, res.Failures[0], "x:ops: the output's op counts differ")
	assert.Contains(t, res.Failures[0], "pd_op.relu: want 1, got 0")

	// A named run that fails where an output is expected says which run.
	failing := archive(t, pluginRules, "-- output.pir --\n"+tanhProgram+"-- x:passes --\nrules\n-- x:output.pir --\n{\n}\n")
	res, err = RunFile(failing, Options{})
	require.NoError(t, err)
	require.NotEmpty(t, res.Failures)
	assert.Contains(t, res.Failures[len(res.Failures)-1], "run x: the run failed")
}

// TestNamedRunErrors: a section of no declared run, of a kind no run has, or a run name that is not a name, is an
// error of the archive (a misspelt run would otherwise never run).
func TestNamedRunErrors(t *testing.T) {
	for _, tc := range []struct{ extra, want string }{
		{"-- gpu:ops --\npd_op.tanh: 1\n", "section gpu:ops belongs to no run: the archive has no section gpu:passes"},
		{"-- gpu:passes --\nrules\n-- gpu:outputs.pir --\n", "section gpu:outputs.pir: a run's sections are passes, options, stats, ops, errors"},
		{"-- a b:passes --\nrules\n", "section a b:passes: a run's name is letters, digits, _ and -"},
		{"-- gpu:passes --\nrules\n-- gpu:passes --\nrules\n", "section gpu:passes appears twice"},
		{"-- gpu:passes --\nrulez\n", `gpu:passes: unknown pass "rulez"`},
		{"-- gpu:passes --\nrules\n-- gpu:options --\n-disable acts\n", "gpu:options: -disable: unknown rule name or label"},
	} {
		_, err := RunFile(archive(t, pluginRules, tc.extra), Options{Registry: pluginRegistry(t)})
		require.Error(t, err, tc.extra)
		assert.Contains(t, err.Error(), tc.want)
	}
}
