// Package textdiff renders line-based unified diffs, for drrc fmt -d and golden-test failures, and marks what
// changed inside a changed line (a word diff), so that a long line that differs in one attribute shows that
// attribute rather than two whole lines to compare by eye.
package textdiff

import (
	"fmt"
	"strings"
)

// Unified returns the unified diff (3 lines of context) that turns a into b, with the given file names in the
// header, or "" if they are equal. The result is a patch (patch(1) applies it).
func Unified(aName, bName, a, b string) string { return unified(aName, bName, a, b, false) }

// UnifiedWords is Unified for people: after each run of removed lines followed by added lines, every pair of a
// removed and an added line that share most of their words gets a line starting with "~" that shows the line
// once, with what was removed in [-…-] and what was added in {+…+} (git's --word-diff=plain notation); long
// unchanged stretches are shortened to "…". The result is not a patch.
func UnifiedWords(aName, bName, a, b string) string { return unified(aName, bName, a, b, true) }

func unified(aName, bName, a, b string, words bool) string {
	if a == b {
		return ""
	}
	al, bl := splitLines(a), splitLines(b)
	ops := diffLines(al, bl)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", aName, bName)
	const ctx = 3
	// Group edits into hunks with up to ctx lines of context around them.
	i := 0
	for i < len(ops) {
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i >= len(ops) {
			break
		}
		start := max(i-ctx, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run-end > 2*ctx || run == len(ops) {
				end = min(end+ctx, len(ops))
				break
			}
			end = run
		}
		aStart, bStart, aLen, bLen := -1, -1, 0, 0
		for _, o := range ops[start:end] {
			if o.kind != '+' {
				if aStart < 0 {
					aStart = o.a
				}
				aLen++
			}
			if o.kind != '-' {
				if bStart < 0 {
					bStart = o.b
				}
				bLen++
			}
		}
		if aStart < 0 {
			aStart = ops[start].a // no line of a in the hunk: the number of lines before it
		}
		if bStart < 0 {
			bStart = ops[start].b
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
		hunk := ops[start:end]
		for k := 0; k < len(hunk); k++ {
			o := hunk[k]
			out.WriteByte(o.kind)
			out.WriteString(o.text)
			out.WriteByte('\n')
			if words && o.kind == '+' && (k+1 == len(hunk) || hunk[k+1].kind != '+') {
				writeWordLines(&out, hunk[:k+1])
			}
		}
		i = end
	}
	return out.String()
}

func hunkRange(start, n int) string {
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

type lineOp struct {
	kind byte // ' ', '-', '+'
	text string
	a, b int // line indices in a and b (0-based) where applicable
}

// diffLines computes an edit script with the longest common subsequence (quadratic, fine for the file sizes diffs
// are shown for; huge inputs fall back to replacing everything).
func diffLines(a, b []string) []lineOp {
	if len(a)*len(b) > 25_000_000 {
		var ops []lineOp
		for i, l := range a {
			ops = append(ops, lineOp{'-', l, i, 0})
		}
		for j, l := range b {
			ops = append(ops, lineOp{'+', l, len(a), j})
		}
		return ops
	}
	n, m := len(a), len(b)
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []lineOp
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			ops = append(ops, lineOp{' ', a[i], i, j})
			i++
			j++
		case lcs[i+1][j] >= lcs[i][j+1]:
			ops = append(ops, lineOp{'-', a[i], i, j})
			i++
		default:
			ops = append(ops, lineOp{'+', b[j], i, j})
			j++
		}
	}
	for ; i < n; i++ {
		ops = append(ops, lineOp{'-', a[i], i, j})
	}
	for ; j < m; j++ {
		ops = append(ops, lineOp{'+', b[j], i, j})
	}
	return ops
}
