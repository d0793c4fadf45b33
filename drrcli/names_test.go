package drrcli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestUnknownNames: every flag that takes the name of a pass, set, rule or label rejects an unknown one and
// suggests the nearest (issue 20 item 3).
func TestUnknownNames(t *testing.T) {
	dir := t.TempDir()
	rules := write(t, dir, "r.drr", strings.Replace(deinplaceRule, "  match", "  labels activation\n  match", 1))
	prog := write(t, dir, "p.pir", reluProgram)
	out := filepath.Join(dir, "out.pir")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"apply -disable", []string{"apply", "-disable", "no_such_label", prog, "-o", out},
			`-disable: unknown rule name or label "no_such_label"`},
		{"apply -disable near", []string{"apply", "-rules", rules, "-disable", "deinplace_rleu", prog, "-o", out},
			`-disable: unknown rule name or label "deinplace_rleu" (did you mean deinplace_relu?)`},
		{"apply -enable", []string{"apply", "-set", "inplace", "-enable", "inplce", prog, "-o", out},
			`-enable: unknown rule name or label "inplce"`},
		{"apply -passes", []string{"apply", "-passes", "inplce", prog, "-o", out},
			`-passes: unknown pass "inplce" (did you mean inplace?)`},
		{"apply -passes rules", []string{"apply", "-passes", "rules", prog, "-o", out},
			`"rules" stands for the rule files, and there are none`},
		{"apply -set", []string{"apply", "-set", "conv_bn_rleu", prog, "-o", out},
			`-set: unknown pass "conv_bn_rleu" (did you mean conv_bn_relu?)`},
		{"apply -print-ir-after", []string{"apply", "-passes", "inplace,dce", "-print-ir-after", "inplace,dec", prog, "-o", out},
			`-print-ir-after: unknown pass "dec" (did you mean dce?) in this pipeline`},
		{"apply -print-ir-before", []string{"apply", "-passes", "inplace,dce", "-print-ir-before", "dec", prog, "-o", out},
			`-print-ir-before: unknown pass "dec" (did you mean dce?) in this pipeline`},
		{"verify -set", []string{"verify", "-set", "inplce"}, `-set: unknown pass "inplce" (did you mean inplace?)`},
		{"verify -passes", []string{"verify", "-passes", "inplce", prog}, `-passes: unknown pass "inplce" (did you mean inplace?)`},
		{"explain -rule", []string{"explain", "-rules", rules, "-rule", "deinplace_rleu", "-op", "%1", prog},
			`-rule: unknown rule "deinplace_rleu" (did you mean deinplace_relu?)`},
		{"explain -set", []string{"explain", "-set", "inplce", "-op", "%1", prog}, `-set: unknown rule set "inplce" (did you mean inplace?)`},
		{"automaton -set", []string{"automaton", "-set", "conv_bn"}, `-set: unknown rule set "conv_bn" (did you mean conv_bn_relu?)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errs := run(t, "", tt.args...)
			assert.Equal(t, exitFailure, code, errs)
			assert.Contains(t, errs, tt.want)
			assert.NoFileExists(t, out, "nothing is written")
		})
	}
	for _, args := range [][]string{{"aply", "x.pir"}, {"help", "aply"}} {
		code, _, errs := run(t, "", args...)
		assert.Equal(t, exitUsage, code)
		assert.Contains(t, errs, `unknown command "aply" (did you mean apply?)`)
	}

	// Known names are accepted: a label, a rule name, -enable of a label -disable turned off.
	for _, args := range [][]string{
		{"apply", "-rules", rules, "-disable", "activation", prog, "-o", out},
		{"apply", "-rules", rules, "-disable", "activation", "-enable", "deinplace_relu", prog, "-o", out},
		{"explain", "-rules", rules, "-rule", "deinplace_relu", "-op", "%1", prog},
	} {
		code, _, errs := run(t, "", args...)
		assert.Equal(t, exitOK, code, "%v: %s", args, errs)
	}
}
