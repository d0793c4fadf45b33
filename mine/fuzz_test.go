package mine

import (
	"strings"
	"testing"

	"github.com/pirdrr/drr/diag"
)

// FuzzRuleBlocks: the scanner that copies a rule's where and rewrite blocks from its source never panics, and what
// it returns lies in the source after the rule's position.
func FuzzRuleBlocks(f *testing.F) {
	f.Add("rule r {\n  match { %y = pd_op.relu(%x) }\n  where { uses(%x) == 1 }\n  rewrite { replace %y with pd_op.relu6(%x) }\n}\n", 1, 6)
	f.Add("rule r { rewrite { \"}\" // }\n } }", 1, 6)
	f.Add("rule r {", 1, 1)
	f.Add("", 3, 9)
	f.Add("rule r { where { { } } rewrite {", 1, 6)
	f.Fuzz(func(t *testing.T, src string, line, col int) {
		blocks, ok := ruleBlocks([]byte(src), diag.Position{Line: line, Column: col})
		if !ok {
			return
		}
		off, _ := offsetOf([]byte(src), line, col)
		for name, b := range blocks {
			if !strings.Contains(src[off:], b) {
				t.Fatalf("block %s %q is not in the source after the rule", name, b)
			}
		}
	})
}

func TestRuleBlocks(t *testing.T) {
	src := "// r\nrule r {\n  match { %y = pd_op.relu(%x) {a: \"{\"} }\n  where { uses(%x) == 1 } // }\n  rewrite { replace %y with pd_op.relu6(%x) }\n}\nrule s { rewrite { erase %z } }\n"
	blocks, ok := ruleBlocks([]byte(src), diag.Position{Line: 2, Column: 6})
	if !ok {
		t.Fatal("no rule at 2:6")
	}
	if got, want := blocks["where"], " uses(%x) == 1 "; got != want {
		t.Errorf("where: %q, want %q", got, want)
	}
	if got, want := blocks["rewrite"], " replace %y with pd_op.relu6(%x) "; got != want {
		t.Errorf("rewrite: %q, want %q", got, want)
	}
	if _, ok := ruleBlocks([]byte(src), diag.Position{Line: 9, Column: 1}); ok {
		t.Error("a position past the end found a rule")
	}
}
