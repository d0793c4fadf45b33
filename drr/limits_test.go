package drr

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/internal/hostile"
)

// The rule of hostile.Rule opens two blocks (the rule's and where's) before its expression.
const ruleBlocks = 2

// TestDepthLimits checks the limits on nesting and expression depth at and just past them: at the limit the file
// parses, checks and formats (to text that parses to the same tree); one past it, the error names the limit at the
// position of the bracket, operator or conditional that crosses it, and nothing recurses without bound.
func TestDepthLimits(t *testing.T) {
	const nest = MaxNesting - ruleBlocks
	tests := []struct {
		name      string
		ok, bad   string
		msg       string
		line, col int // of the error in bad
	}{
		// (((uses(%y) == 1))): uses( is one more level.
		{"parentheses", hostile.ParenExpr(nest - 1), hostile.ParenExpr(nest), "nesting too deep: more than 200 levels", 3, 11 + nest + len("uses")},
		// The conditionals' own parentheses, uses(%y), cross the limit first: the 199th opens level 201.
		{"conditionals", hostile.CondExpr(nest), hostile.CondExpr(nest + 1), "nesting too deep: more than 200 levels", 3,
			11 + strings.Index(hostile.CondExpr(nest+1), "uses(%y) == 199 ?") + len("uses")},
		{"lists", hostile.ListExpr(nest), hostile.ListExpr(nest + 1), "nesting too deep: more than 200 levels", 3, 23 + nest},
		// max(…(uses(%y), 1)…): uses( is one more level.
		{"calls", hostile.CallExpr(nest - 1), hostile.CallExpr(nest), "nesting too deep: more than 200 levels", 3, 11 + 4*nest + len("uses")},
		// uses(%y) + 1 … == n: the comparison is one more level above the chain, and the call's argument one below;
		// the error names the first operator past the limit.
		{"operator chain", hostile.ChainExpr(rule.MaxExprDepth - 3), hostile.ChainExpr(rule.MaxExprDepth),
			"expression too deep: more than 1000 levels", 3, 11 + len("uses(%y) ") + 4*(rule.MaxExprDepth-1)},
		// !…!(uses(%y) == 1): the parentheses, the comparison and the call's argument are three more levels.
		{"negations", hostile.NotExpr(rule.MaxExprDepth - 4), hostile.NotExpr(rule.MaxExprDepth),
			"expression too deep: more than 1000 levels", 3, 11 + rule.MaxExprDepth - 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := hostile.Rule(tt.ok)
			f, err := Parse("ok.drr", []byte(src))
			require.NoError(t, err)
			_, msgs := checkSrc(t, src, CheckOptions{})
			assert.Empty(t, msgs)
			out := Format(f)
			f2, err := Parse("ok.drr", out)
			require.NoError(t, err, "the formatted file does not parse")
			assert.Equal(t, dumpAST(f.Decls), dumpAST(f2.Decls))

			_, err = Parse("bad.drr", []byte(hostile.Rule(tt.bad)))
			require.Error(t, err)
			ds := err.(diag.Diagnostics)
			require.Len(t, ds, 1, "%v", err)
			assert.Contains(t, ds[0].Message, tt.msg)
			assert.Equal(t, [2]int{tt.line, tt.col}, [2]int{ds[0].Pos.Line, ds[0].Pos.Column}, "%v", ds[0])
			_, msgs = checkSrc(t, hostile.Rule(tt.bad), CheckOptions{})
			require.Len(t, msgs, 1)
			assert.Contains(t, msgs[0], tt.msg)
		})
	}
}

// TestHugeExpressions parses the inputs that overflowed the stack before the limits (a 150,000-term chain, 200,000
// parentheses, and the same depth of every other construct): each is one positioned error.
func TestHugeExpressions(t *testing.T) {
	for name, expr := range map[string]string{
		"chain":        hostile.ChainExpr(150000),
		"parentheses":  hostile.ParenExpr(200000),
		"conditionals": hostile.CondExpr(50000),
		"lists":        hostile.ListExpr(100000),
		"negations":    hostile.NotExpr(200000),
		"calls":        hostile.CallExpr(100000),
	} {
		t.Run(name, func(t *testing.T) {
			src := []byte(hostile.Rule(expr))
			_, err := Parse("huge.drr", src)
			require.Error(t, err)
			ds := err.(diag.Diagnostics)
			require.Len(t, ds, 1, "%v", err)
			assert.Equal(t, 3, ds[0].Pos.Line)
			assert.Regexp(t, "^(nesting|expression) too deep", ds[0].Message)
			r := NewReparser("huge.drr")
			_, err = r.Parse(src)
			require.Error(t, err)
		})
	}
}

// TestCheckRefusesDeepTrees checks a syntax tree made in Go, which no parser limited: the checker reports the
// depth instead of recursing through it.
func TestCheckRefusesDeepTrees(t *testing.T) {
	f, err := Parse("t.drr", []byte(hostile.Rule("uses(%y) == 1")))
	require.NoError(t, err)
	r := f.Decls[0].(*Rule)
	var x Expr = &ValueExpr{Name: "y"}
	x = &CallExpr{Func: &OpName{Name: "uses"}, Args: []Expr{x}}
	for i := 0; i < 100000; i++ {
		x = &BinaryExpr{X: x, Op: "+", Y: &BasicLit{Kind: IntLit, Text: "1", Value: "1"}}
	}
	r.Where.Constraints = []Expr{&BinaryExpr{X: x, Op: "==", Y: &BasicLit{Kind: IntLit, Text: "1", Value: "1"}}}
	_, diags := Check(defaultCtx(t), []*File{f}, CheckOptions{})
	require.True(t, diags.HasErrors())
	assert.Contains(t, diags.Error(), "expression too deep")
}

// depthSeeds are rule files at and past the depth limits, for the fuzz targets: each kind of nesting and chain at
// the limit, one past it and far past it.
func depthSeeds() [][]byte {
	const nest = MaxNesting - ruleBlocks
	var out [][]byte
	for _, n := range []int{nest - 1, nest, 5 * MaxNesting} {
		for _, e := range []string{hostile.ParenExpr(n), hostile.CondExpr(n), hostile.ListExpr(n), hostile.CallExpr(n)} {
			out = append(out, []byte(hostile.Rule(e)))
		}
	}
	for _, n := range []int{rule.MaxExprDepth - 4, rule.MaxExprDepth, 5 * rule.MaxExprDepth} {
		out = append(out, []byte(hostile.Rule(hostile.ChainExpr(n))), []byte(hostile.Rule(hostile.NotExpr(n))))
	}
	return out
}

// TestLoadReadsRegularFilesWithinLimit: a rule file, and each file it imports, is a regular file of at most
// LoadOptions.MaxFileSize: import "/dev/zero" grew memory without end (issue 26 item 3).
func TestLoadReadsRegularFilesWithinLimit(t *testing.T) {
	dir := t.TempDir()
	rules := hostile.Rule("uses(%y) == 1")
	big := filepath.Join(dir, "big.drr")
	require.NoError(t, os.WriteFile(big, []byte(rules), 0o644))
	tests := []struct {
		name, src string
		limit     int64
		want      string
	}{
		{"device", `import "/dev/zero"`, 0, `t.drr:1:1: error: cannot read /dev/zero: a device, not a regular file`},
		{"folder", `import "` + dir + `"`, 0, `t.drr:1:1: error: cannot read ` + dir + `: a folder, not a file`},
		{"too large", `import "big.drr"`, 100, `t.drr:1:1: error: cannot read ` + big + `: it is larger than 100 bytes, the size limit of rule files (-max-file-size raises it)`},
		{"within", `import "big.drr"`, int64(len(rules)), ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := LoadSource(defaultCtx(t), LoadOptions{MaxFileSize: tt.limit}, filepath.Join(dir, "t.drr"), []byte(tt.src+"\n"))
			if tt.want == "" {
				assert.False(t, diags.HasErrors(), "%v", diags)
				return
			}
			require.True(t, diags.HasErrors())
			assert.Equal(t, filepath.Join(dir, tt.want), diags[0].Error())
		})
	}
	_, diags := Load(defaultCtx(t), LoadOptions{MaxFileSize: 10}, big)
	require.True(t, diags.HasErrors())
	assert.Contains(t, diags.Error(), "it is larger than 10 bytes, the size limit of rule files")
	_, diags = Load(defaultCtx(t), LoadOptions{FS: os.DirFS(dir), MaxFileSize: 10}, "big.drr")
	assert.Contains(t, diags.Error(), "it is larger than 10 bytes")
}
