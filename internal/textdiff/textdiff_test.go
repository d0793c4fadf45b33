package textdiff

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestUnified(t *testing.T) {
	tests := []struct {
		name, a, b, want string
	}{
		{"equal", "x\ny\n", "x\ny\n", ""},
		{"change", "a\nb\nc\n", "a\nB\nc\n", "--- a\n+++ b\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"append", "a\n", "a\nb\n", "--- a\n+++ b\n@@ -1 +1,2 @@\n a\n+b\n"},
		{"from empty", "", "a\n", "--- a\n+++ b\n@@ -0,0 +1 @@\n+a\n"},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\nX\n3\n4\n5\n6\n7\n8\n9\n10\nY\n12\n",
			"--- a\n+++ b\n@@ -1,5 +1,5 @@\n 1\n-2\n+X\n 3\n 4\n 5\n@@ -8,5 +8,5 @@\n 8\n 9\n 10\n-11\n+Y\n 12\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Unified("a", "b", tt.a, tt.b))
		})
	}
}

func TestWordDiff(t *testing.T) {
	long := `    (%1) = "pd_op.relu" (%0) {stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>`
	tests := []struct {
		name, a, b, want string
		ok               bool
	}{
		{"one word", "a b c", "a X c", "a [-b-]{+X+} c", true},
		{"inside a long line", long, strings.Replace(long, "false", "true", 1),
			`…pd_op.relu" (%0) {stop_gradient:[[-false-]{+true+}]} : (builtin.tensor<4xf32…`, true},
		{"a number", "value:(Float)1e-05,x", "value:(Float)1e-06,x", "value:(Float)1e-[-05-]{+06+},x", true},
		{"appended", "abc def", "abc def ghi", "abc def{+ ghi+}", true},
		{"nothing in common", "abc", "xyz", "", false},
		{"equal", "abc", "abc", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := WordDiff(tt.a, tt.b)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestUnifiedWords(t *testing.T) {
	a := "x\n  (%1) = pd_op.relu(%0) {alpha: 1}\ny\n"
	b := "x\n  (%1) = pd_op.relu(%0) {alpha: 2}\nnew line\ny\n"
	assert.Equal(t, "--- a\n+++ b\n@@ -1,3 +1,4 @@\n x\n-  (%1) = pd_op.relu(%0) {alpha: 1}\n+  (%1) = pd_op.relu(%0) {alpha: 2}\n"+
		"+new line\n~  (%1) = pd_op.relu(%0) {alpha: [-1-]{+2+}}\n y\n", UnifiedWords("a", "b", a, b))
	assert.NotContains(t, Unified("a", "b", a, b), "~", "Unified stays a patch")
	assert.Equal(t, "", UnifiedWords("a", "b", a, a))
}
