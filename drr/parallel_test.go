package drr

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/pirdrr/drr/diag"
	"github.com/stretchr/testify/require"
)

// TestParallelParseMatchesSequential: splitting a large file into regions
// parsed concurrently gives exactly the tree, comments and diagnostics of a
// sequential parse.
func TestParallelParseMatchesSequential(t *testing.T) {
	var b strings.Builder
	b.WriteString("// header\nimport \"a.drr\"\n\n")
	b.Write(generateRules(150))
	b.WriteString("family f = [a.b,\n") // unclosed: the next rule starts a region anyway
	b.Write(generateRules(100))
	b.WriteString("rule broken {\n  match {\n    %y = a.b(%x\n  }\n  rewrite {\n    erase\n  }\n}\n")
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&b, "/// doc %d\nnative constraint c%d(%%v: value)\n", i, i)
	}
	b.WriteString("rule tail {\n  match {\n    %y = a.b(%x)\n  }\n  rewrite {}\n") // no closing brace at EOF
	src := []byte(b.String())
	require.Greater(t, len(src), 64<<10)

	parse := func(min int) (*File, error) {
		old := parallelMinBytes
		defer func() { parallelMinBytes = old }()
		parallelMinBytes = min
		return Parse("big.drr", src)
	}
	seqFile, seqErr := parse(1 << 30)
	parFile, parErr := parse(0)
	require.Error(t, seqErr)
	require.Equal(t, seqErr.Error(), parErr.Error())
	require.Equal(t, seqFile, parFile)
	require.Len(t, parFile.Rules, 251) // the unclosed last rule is dropped
	require.Len(t, parFile.Natives, 50)
	require.Equal(t, "doc 49", parFile.Natives[49].Doc.Text())
}

// TestSplitRegions checks where large files are split.
func TestSplitRegions(t *testing.T) {
	src := "// c\nrule a {\n}\n  rule b {\nrule\nrule.x y\nfamily f = x\nimport \"p\"\nnative rewrite g()\n"
	var starts []string
	for _, r := range splitRegions(src) {
		line := src[r.start:]
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		starts = append(starts, fmt.Sprintf("%d:%s", r.line, line))
	}
	require.Equal(t, []string{"1:// c", "2:rule a {", "7:family f = x", "8:import \"p\"", "9:native rewrite g()"}, starts)
}

// TestParallelCheckMatchesSequential: checking rule declarations on several workers gives exactly the rules,
// diagnostics and order of a sequential check, with errors, warnings, shadowed rules and family rules mixed in.
func TestParallelCheckMatchesSequential(t *testing.T) {
	for _, withErrors := range []bool{false, true} {
		t.Run(fmt.Sprint("errors=", withErrors), func(t *testing.T) { testParallelCheck(t, withErrors) })
	}
}

func testParallelCheck(t *testing.T, withErrors bool) {
	var b strings.Builder
	b.WriteString("family acts = [pd_op.relu, pd_op.sigmoid, pd_op.tanh]\n")
	for i := range 400 {
		switch {
		case withErrors && i%37 == 0:
			fmt.Fprintf(&b, "rule bad_%d {\n  match {\n    %%y = pd_op.reluu(%%x)\n  }\n  rewrite {\n    replace %%y with %%x\n  }\n}\n", i)
		case i%41 == 0:
			fmt.Fprintf(&b, "rule unused_%d {\n  match {\n    %%y = pd_op.scale(%%x, %%f) {bias: $s}\n  }\n  where {\n    rank(%%x) == %d\n  }\n  rewrite {\n    replace %%y with %%x\n  }\n}\n", i, i)
		case i%5 == 0:
			fmt.Fprintf(&b, "rule fam_%d {\n  for a in acts\n  match {\n    %%y = a(%%x)\n  }\n  where {\n    rank(%%x) == %d\n  }\n  rewrite {\n    replace %%y with %%x\n  }\n}\n", i, i)
		default:
			r := fmt.Sprintf(benchRule, i, i)
			b.WriteString(strings.Replace(r, `$fmt in ["NCHW", "NHWC"]`, fmt.Sprintf(`$fmt in ["NCHW", "NHWC"] && $g != %d`, -i-1), 1))
		}
	}
	src := []byte(b.String())
	ctx := defaultCtx(t)
	check := func(min int) (string, diag.Diagnostics) {
		old := parallelMinRules
		defer func() { parallelMinRules = old }()
		parallelMinRules = min
		set, diags := LoadSource(ctx, LoadOptions{CheckOptions: CheckOptions{}}, "big.drr", src)
		var out strings.Builder
		if set != nil {
			for _, r := range set.Rules {
				fmt.Fprintf(&out, "%d %s %s\n%s\n", r.Index, r.ID(), r.Pos, canonical(r))
			}
		}
		return out.String(), diags
	}
	seqRules, seqDiags := check(1 << 30)
	require.NotEmpty(t, seqDiags, "the unused holes are warned about")
	if withErrors {
		require.True(t, seqDiags.HasErrors())
	} else {
		require.False(t, seqDiags.HasErrors(), "%v", seqDiags)
		// 10 unused_ rules, 78 family rules of 3 instances, 312 fold rules.
		require.Len(t, regexp.MustCompile(`(?m)^\d+ `).FindAllString(seqRules, -1), 10+78*3+312)
	}
	parRules, parDiags := check(1)
	require.Equal(t, seqRules, parRules)
	require.Equal(t, seqDiags.Error(), parDiags.Error())
	require.Equal(t, len(seqDiags), len(parDiags))
}
