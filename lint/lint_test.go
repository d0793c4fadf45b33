package lint_test

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/lint"
	"github.com/pirdrr/drr/rules"
)

func lintSource(t *testing.T, src string, unregistered bool) []lint.Finding {
	t.Helper()
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	set, diags := drr.LoadSource(ctx, drr.LoadOptions{CheckOptions: drr.CheckOptions{Unregistered: unregistered}},
		"lint.drr", []byte(src))
	require.False(t, diags.HasErrors(), "%v", diags)
	return lint.Run(set)
}

// findingsText renders findings one per line as file:line:col: rule R: message.
func findingsText(fs []lint.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.String() + "\n")
	}
	return b.String()
}

// overlappingRules are two rules rooted at pd_op.relu with the same benefit: the lint reports their overlap.
const overlappingRules = `
rule relu_of_exp {
  match {
    %e = pd_op.exp(%x)
    %r = pd_op.relu(%e)
  }
  rewrite { replace %r with pd_op.exp(%x) }
}
rule relu_of_any {
  benefit 2
  match { %r = pd_op.relu(%y) }
  rewrite { replace %r with pd_op.sigmoid(%y) }
}
`

func TestRunOverlap(t *testing.T) {
	tests := []struct {
		name string
		src  string
		// want lists substrings of the findings' messages, one per finding, in order ("" entries: none).
		want []string
		line int // the line of the (only) finding
	}{
		{
			name: "same root, same benefit",
			src:  overlappingRules,
			want: []string{"rules relu_of_exp and relu_of_any can both match the same pd_op.relu op with benefit 2, e.g. pd_op.relu(pd_op.exp(…)); the one earlier in the set (relu_of_exp, lint.drr:2:6) wins by order alone"},
			line: 9,
		},
		{
			name: "different benefits order the rules",
			src: `
rule relu_of_exp {
  benefit 2
  match {
    %e = pd_op.exp(%x)
    %r = pd_op.relu(%e)
  }
  rewrite { replace %r with pd_op.exp(%x) }
}
rule relu_of_any {
  match { %r = pd_op.relu(%y) }
  rewrite { replace %r with pd_op.sigmoid(%y) }
}
`,
		},
		{
			name: "different producers",
			src: `
rule relu_of_exp {
  match {
    %e = pd_op.exp(%x)
    %r = pd_op.relu(%e)
  }
  rewrite { replace %r with pd_op.exp(%x) }
}
rule relu_of_tanh {
  match {
    %e = pd_op.tanh(%x)
    %r = pd_op.relu(%e)
  }
  rewrite { replace %r with pd_op.tanh(%x) }
}
`,
		},
		{
			name: "contradicting attribute literals",
			src: `
rule nchw {
  match { %y = pd_op.conv2d(%x, %w) {data_format: "NCHW"} }
  rewrite { replace %y with pd_op.depthwise_conv2d(%x, %w) {data_format: "NCHW"} }
}
rule nhwc {
  match { %y = pd_op.conv2d(%x, %w) {data_format: "NHWC"} }
  rewrite { replace %y with pd_op.depthwise_conv2d(%x, %w) {data_format: "NHWC"} }
}
`,
		},
		{
			name: "a literal against a where clause",
			src: `
rule nchw {
  match { %y = pd_op.conv2d(%x, %w) {data_format: "NCHW"} }
  rewrite { replace %y with pd_op.depthwise_conv2d(%x, %w) {data_format: "NCHW"} }
}
rule channels_last {
  match { %y = pd_op.conv2d(%x, %w) {data_format: $f} }
  where { $f in ["NHWC", "NDHWC"] }
  rewrite { replace %y with pd_op.depthwise_conv2d(%x, %w) {data_format: $f} }
}
`,
		},
		{
			name: "where clauses that exclude each other",
			src: `
rule small_groups {
  match { %y = pd_op.conv2d(%x, %w) {groups: $g} }
  where { $g == 1 }
  rewrite { replace %y with pd_op.depthwise_conv2d(%x, %w) {groups: $g} }
}
rule grouped {
  match { %y = pd_op.conv2d(%x, %w) {groups: $h} }
  where { $h != 1 && $h in [1, 2] }
  rewrite { replace %y with pd_op.depthwise_conv2d(%x, %w) {groups: $h} }
}
`,
		},
		{
			name: "where clauses that can hold together",
			src: `
rule a {
  match { %y = pd_op.conv2d(%x, %w) {groups: $g} }
  where { $g in [1, 2] }
  rewrite { replace %y with pd_op.depthwise_conv2d(%x, %w) {groups: $g} }
}
rule b {
  match { %y = pd_op.conv2d(%x, %w) {groups: $h} }
  where { $h in [2, 3] }
  rewrite { replace %y with pd_op.depthwise_conv2d(%x, %w) {groups: $h} }
}
`,
			want: []string{"rules a and b can both match the same pd_op.conv2d op with benefit 1"},
			line: 7,
		},
		{
			name: "commutative operands",
			src: `
rule add_exp_first {
  match {
    %e = pd_op.exp(%x)
    %s = pd_op.add(%e, %y)
  }
  rewrite { replace %s with pd_op.subtract(%y, %e) }
}
rule add_either_tanh {
  match {
    %t = pd_op.tanh(%z)
    %s = pd_op.add(either(%t, %u))
  }
  rewrite { replace %s with pd_op.subtract(%u, %t) }
}
`,
			want: []string{"e.g. pd_op.add(pd_op.tanh(…), pd_op.exp(…))"},
			line: 9,
		},
		{
			name: "a null operand against a value",
			src: `
rule no_bias {
  match { %f, _ = pd_op.fused_conv2d_add_act(%x, %w, null, null) }
  rewrite { replace %f with pd_op.conv2d(%x, %w) }
}
rule bias {
  match { %f, _ = pd_op.fused_conv2d_add_act(%x, %w, %b, null) }
  rewrite { replace %f with pd_op.conv2d(%x, %w) }
}
`,
		},
		{
			name: "value types that exclude each other",
			src: `
rule on_tensors {
  match { %y = pd_op.relu(%x: tensor<*x?>) }
  rewrite { replace %y with pd_op.sigmoid(%x) }
}
rule on_value_tensors {
  match { %y = pd_op.relu(%x: pd_op.v_tensor<*x?>) }
  rewrite { replace %y with pd_op.tanh(%x) }
}
`,
		},
		{
			name: "instances of one family rule",
			src: `
family unary = [pd_op.sigmoid, pd_op.tanh]
rule twice {
  for A in unary
  match { %y = pd_op.relu(%x) }
  rewrite { replace %y with A(%x) }
}
`,
			want: []string{"instances twice[pd_op.sigmoid] and twice[pd_op.tanh] of rule twice can both match the same pd_op.relu op"},
			line: 3,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := lintSource(t, tc.src, false)
			var got []lint.Finding
			for _, f := range fs {
				if strings.Contains(f.Message, "can both match") {
					got = append(got, f)
				}
			}
			require.Len(t, got, len(tc.want), "%s", findingsText(fs))
			for i, w := range tc.want {
				assert.Contains(t, got[i].Message, w)
				assert.Equal(t, tc.line, got[i].Pos.Line, "%s", got[i])
			}
		})
	}
}

func TestRunLoop(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string // substring of the only loop finding, or "" for none
		line int
	}{
		{
			name: "operands swapped forever",
			src: `
rule swap {
  match { %s = pd_op.add(%x, %y) }
  rewrite { replace %s with pd_op.add(%y, %x) }
}
`,
			want: "the pd_op.add this rule creates (in place of the matched pd_op.add) matches the rule's own pattern again",
			line: 4,
		},
		{
			name: "a chain that shrinks",
			src: `
rule relu_relu {
  match {
    %a = pd_op.relu(%x)
    %b = pd_op.relu(%a)
  }
  rewrite { replace %b with pd_op.relu(%x) }
}
`,
		},
		{
			name: "the result carries another literal",
			src: `
rule to_half {
  match { %y = pd_op.cast(%x) {dtype: float32} }
  rewrite { replace %y with pd_op.cast(%x) {dtype: float16} }
}
`,
		},
		{
			name: "the result fails a where clause",
			src: `
rule to_nhwc {
  match { %y = pd_op.conv2d(%x, %w) {data_format: $f, strides: $s, paddings: $p, padding_algorithm: $a, dilations: $d, groups: $g} }
  where { $f == "NCHW" }
  rewrite { replace %y with pd_op.conv2d(%x, %w) {data_format: "NHWC", strides: $s, paddings: $p, padding_algorithm: $a, dilations: $d, groups: $g} }
}
`,
		},
		{
			name: "the result keeps the literal",
			src: `
rule rebuild {
  match { %y = pd_op.conv2d(%x, %w) {data_format: "NCHW", groups: $g} }
  rewrite { replace %y with pd_op.conv2d(%x, %w) {data_format: "NCHW", groups: $g} }
}
`,
			want: "matches the rule's own pattern again",
			line: 4,
		},
		{
			name: "the result's producer differs",
			src: `
rule exp_relu {
  match {
    %e = pd_op.exp(%x)
    %r = pd_op.relu(%e)
  }
  rewrite { replace %r with pd_op.relu(pd_op.tanh(%x)) }
}
`,
		},
		{
			name: "the result's producer matches",
			src: `
rule exp_relu {
  match {
    %e = pd_op.exp(%x)
    %r = pd_op.relu(%e)
  }
  rewrite { replace %r with pd_op.relu(pd_op.exp(pd_op.abs(%x))) }
}
`,
			want: "matches the rule's own pattern again",
			line: 7,
		},
		{
			name: "two rules that undo each other",
			src: `
rule relu_to_inplace {
  match { %y = pd_op.relu(%x) }
  rewrite { replace %y with pd_op.relu_(%x) }
}
rule relu_from_inplace {
  match { %y = pd_op.relu_(%x) }
  rewrite { replace %y with pd_op.relu(%x) }
}
`,
			want: "rules relu_to_inplace and relu_from_inplace undo each other: the pd_op.relu_ relu_to_inplace creates matches relu_from_inplace's pattern, and the pd_op.relu relu_from_inplace creates matches relu_to_inplace's",
			line: 6,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := lintSource(t, tc.src, false)
			var got []lint.Finding
			for _, f := range fs {
				if strings.Contains(f.Message, "forever") {
					got = append(got, f)
				}
			}
			if tc.want == "" {
				assert.Empty(t, got, "%s", findingsText(got))
				return
			}
			require.Len(t, got, 1, "%s", findingsText(fs))
			assert.Contains(t, got[0].Message, tc.want)
			assert.Equal(t, tc.line, got[0].Pos.Line, "%s", got[0])
		})
	}
}

func TestRunNeverFires(t *testing.T) {
	tests := []struct {
		name         string
		src          string
		unregistered bool
		want         string // substring of the only finding, or "" for none
		line, col    int
	}{
		{
			name: "a constant false where clause",
			src: `
rule never {
  match { %y = pd_op.relu(%x) }
  where { 1 > 2 }
  rewrite { replace %y with pd_op.sigmoid(%x) }
}
`,
			want: "can never fire: its where clause `1 > 2` is always false",
			line: 4, col: 13,
		},
		{
			name: "a false conjunct",
			src: `
rule never {
  match { %y = pd_op.relu(%x) }
  where { uses(%x) == 1 && len([1, 2]) == 3 }
  rewrite { replace %y with pd_op.sigmoid(%x) }
}
`,
			want: "its where clause `len([1, 2]) == 3` is always false",
		},
		{
			name: "contradicting equalities on one hole",
			src: `
rule never {
  match { %y = pd_op.conv2d(%x, %w) {data_format: $f} }
  where {
    $f == "NCHW"
    $f == "NHWC"
  }
  rewrite { replace %y with pd_op.relu(%x) }
}
`,
			want: "its where clauses `$f == \"NCHW\"` and `$f == \"NHWC\"` cannot all hold: no value of $f satisfies them",
			line: 6, col: 8,
		},
		{
			name: "contradicting literals through a repeated hole",
			src: `
rule never {
  match {
    %y = pd_op.conv2d(%x, %w) {data_format: $f}
    %z = pd_op.depthwise_conv2d(%y, %v) {data_format: $g}
  }
  where {
    $f == $g
    $f in ["NCHW", "AnyLayout"]
    $g == "NHWC"
  }
  rewrite { replace %z with pd_op.relu(%x) }
}
`,
			want: "cannot all hold",
		},
		{
			name: "an excluded value",
			src: `
rule never {
  match { %y = pd_op.conv2d(%x, %w) {groups: $g} }
  where { $g == 1 && $g != 1 }
  rewrite { replace %y with pd_op.relu(%x) }
}
`,
			want: "its where clauses `$g == 1` and `$g != 1` cannot all hold",
		},
		{
			name: "satisfiable",
			src: `
rule fine {
  match { %y = pd_op.conv2d(%x, %w) {groups: $g, data_format: $f} }
  where { $g >= 1 && $f in ["NCHW", "NHWC"] && $f != "NHWC" && (1 > 2 || uses(%y) == 1) }
  rewrite { replace %y with pd_op.relu(%x) }
}
`,
		},
		{
			name: "a trait the op does not have",
			src: `
rule never {
  match { %y = pd_op.relu_(%x) }
  where { has_trait(%y, "SideEffects") }
  rewrite { replace %y with pd_op.relu(%x) }
}
`,
			want: "its where clause `has_trait(%y, \"SideEffects\")` is always false",
		},
		{
			name: "an op that is not inplace",
			src: `
rule never {
  match { %y = pd_op.relu(%x) }
  where { inplace_op("pd_op.relu", 0, 0) }
  rewrite { replace %y with pd_op.relu_(%x) }
}
`,
			want: "is always false",
		},
		{
			name: "every instance of a family is dead",
			src: `
family acts = [pd_op.relu, pd_op.tanh]
rule never {
  for A in acts
  match { %y = A(%x) }
  where { defined_by(%y, "pd_op.exp") }
  rewrite { replace %y with pd_op.sigmoid(%x) }
}
`,
			want: "can never fire: none of its 2 instances can (never[pd_op.relu]: its where clause `defined_by(%y, \"pd_op.exp\")` is always false)",
		},
		{
			name: "some instances of a family are dead",
			src: `
family acts = [pd_op.relu, pd_op.exp]
rule some {
  for A in acts
  match { %y = A(%x) }
  where { defined_by(%y, "pd_op.exp") }
  rewrite { replace %y with pd_op.sigmoid(%x) }
}
`,
		},
		{
			name:         "an op its dialect does not have",
			unregistered: true,
			src: `
rule typo {
  match { %y = pd_op.convv2d(%x, %w) }
  rewrite { replace %y with pd_op.relu(%x) }
}
`,
			want: "its pattern needs pd_op.convv2d, which dialect pd_op does not have, so the rule can only match an unregistered op of that name (did you mean pd_op.conv2d?)",
			line: 3, col: 16,
		},
		{
			name:         "an op of an unregistered dialect",
			unregistered: true,
			src: `
rule mine {
  match { %y = my.op(%x) }
  rewrite { replace %y with pd_op.relu(%x) }
}
`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := lintSource(t, tc.src, tc.unregistered)
			if tc.want == "" {
				assert.Empty(t, fs, "%s", findingsText(fs))
				return
			}
			require.Len(t, fs, 1, "%s", findingsText(fs))
			assert.Contains(t, fs[0].Message, tc.want)
			assert.Contains(t, fs[0].Message, "can never fire")
			if tc.line > 0 {
				assert.Equal(t, [3]any{"lint.drr", tc.line, tc.col}, [3]any{fs[0].Pos.Filename, fs[0].Pos.Line, fs[0].Pos.Column})
			}
		})
	}
}

// TestRunDeadInstancesSkipped: an instance that can never fire competes with nothing.
func TestRunDeadInstancesSkipped(t *testing.T) {
	fs := lintSource(t, `
rule never {
  match { %y = pd_op.relu(%x) }
  where { 1 > 2 }
  rewrite { replace %y with pd_op.relu(%x) }
}
rule other {
  match { %y = pd_op.relu(%x) }
  rewrite { replace %y with pd_op.sigmoid(%x) }
}
`, false)
	require.Len(t, fs, 1, "%s", findingsText(fs))
	assert.Contains(t, fs[0].Message, "can never fire")
}

// TestRunDeterministic: findings come out sorted by position, the same on every run.
func TestRunDeterministic(t *testing.T) {
	src := `
rule swap {
  match { %s = pd_op.add(%x, %y) }
  rewrite { replace %s with pd_op.add(%y, %x) }
}
rule swap2 {
  match { %s = pd_op.add(%x, %y) }
  where { uses(%x) >= 1 }
  rewrite { replace %s with pd_op.add(%y, %x) }
}
rule never {
  match { %y = pd_op.relu(%x) }
  where { "a" == "b" }
  rewrite { replace %y with pd_op.sigmoid(%x) }
}
`
	first := findingsText(lintSource(t, src, false))
	for range 5 {
		assert.Equal(t, first, findingsText(lintSource(t, src, false)))
	}
	want := strings.ReplaceAll(`lint.drr:4:29: rule swap: the pd_op.add this rule creates (in place of the matched pd_op.add) matches the rule's own pattern again: every rewrite makes a new match, so the driver can rewrite forever (until its cycle detector or rewrite limit stops it). Make the result differ from the pattern, or add a condition the result fails
lint.drr:6:6: rule swap2: rules swap and swap2 can both match the same pd_op.add op with benefit 1, e.g. pd_op.add(_, _); the one earlier in the set (swap, lint.drr:2:6) wins by order alone. Give one a higher benefit, or make their patterns exclude each other
lint.drr:9:29: rule swap2: the pd_op.add this rule creates (in place of the matched pd_op.add) matches the rule's own pattern again: every rewrite makes a new match, so the driver can rewrite forever (until its cycle detector or rewrite limit stops it). Make the result differ from the pattern, or add a condition the result fails
lint.drr:13:15: rule never: can never fire: its where clause §"a" == "b"§ is always false
`, "§", "`")
	assert.Equal(t, want, first)
}

// TestRunShippedSets runs the lint on the rule sets that ship with pirdrr: they are clean, so that drrc check on a
// copied shipped file prints nothing. (conv_bn_relu's fused_conv2d_add_residual_then_act has benefit 8 because of
// this check: two earlier rules of equal benefit could read the same relu.)
func TestRunShippedSets(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	for _, name := range rules.Sets() {
		t.Run(name, func(t *testing.T) {
			set, err := rules.Load(ctx, name)
			require.NoError(t, err)
			fs := lint.Run(set)
			t.Logf("%s: %d rules, %d findings\n%s", name, len(set.Rules), len(fs), findingsText(fs))
			require.Empty(t, fs, "%s", findingsText(fs))
		})
	}
}

// TestRunInplaceWithReinplace: the two directions of inplace.drr and reinplace.drr in one set undo each
// other (which is why they ship as separate sets).
func TestRunInplaceWithReinplace(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	inplace, err := fs.ReadFile(rules.FS(), "inplace.drr")
	require.NoError(t, err)
	reinplace, err := fs.ReadFile(rules.FS(), "reinplace.drr")
	require.NoError(t, err)
	// reinplace.drr declares the family inplace.drr does; rename it to load both files into one set.
	reinplace = []byte(strings.ReplaceAll(string(reinplace), "inplace_ops", "inplace_ops2"))
	set, diags := drr.Load(ctx, drr.LoadOptions{FS: fstest.MapFS{
		"inplace.drr": {Data: inplace}, "reinplace.drr": {Data: reinplace},
	}}, "inplace.drr", "reinplace.drr")
	require.False(t, diags.HasErrors(), "%v", diags)
	findings := lint.Run(set)
	require.Len(t, findings, 1, "%s", findingsText(findings))
	assert.Contains(t, findings[0].Message, "rules deinplace[")
	assert.Contains(t, findings[0].Message, "undo each other")
	assert.Equal(t, "reinplace", findings[0].Rule)
}

func TestAnalyzersDocumented(t *testing.T) {
	names := map[string]bool{}
	for _, a := range lint.Analyzers {
		assert.NotEmpty(t, a.Doc, a.Name)
		assert.False(t, names[a.Name], "duplicate analyzer %s", a.Name)
		names[a.Name] = true
		assert.Equal(t, a.Name, a.String())
	}
	assert.Nil(t, lint.Run(nil))
}

// TestDiagnostics: drrc check and the language server get the lint's findings as warnings at their positions,
// "rule R: message", through one conversion.
func TestDiagnostics(t *testing.T) {
	src := overlappingRules
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	set, diags := drr.LoadSource(ctx, drr.LoadOptions{}, "lint.drr", []byte(src))
	require.False(t, diags.HasErrors(), "%v", diags)
	findings := lint.Run(set)
	got := lint.Diagnostics(set)
	require.Len(t, got, len(findings))
	require.NotEmpty(t, got)
	for i, d := range got {
		f := findings[i]
		assert.Equal(t, diag.Warning, d.Severity)
		assert.Equal(t, diag.Position{Filename: "lint.drr", Line: f.Pos.Line, Column: f.Pos.Column}, d.Pos)
		assert.Equal(t, f.String(), d.Pos.String()+": "+d.Message, "the diagnostic reads as the finding")
	}
}
