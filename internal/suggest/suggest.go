// Package suggest finds the name a user probably meant: the "did you mean X?" of command-line flags and format
// names that name something unknown.
package suggest

import (
	"sort"
	"strconv"
	"strings"
)

// Closest returns the candidate nearest to name, and whether one is near enough to suggest: within an edit
// distance of a third of the name's length (at least 2), ignoring case, or the only candidate that starts with
// name. Ties go to the candidate listed first.
func Closest(name string, candidates []string) (string, bool) {
	lower := strings.ToLower(name)
	best, bestD := "", max(2, len(name)/3)+1
	for _, c := range candidates {
		if d := Distance(lower, strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	if best != "" {
		return best, true
	}
	prefixed := ""
	for _, c := range candidates {
		if name != "" && strings.HasPrefix(strings.ToLower(c), lower) {
			if prefixed != "" {
				return "", false // ambiguous
			}
			prefixed = c
		}
	}
	return prefixed, prefixed != ""
}

// Unknown renders the error text for a name that is not one of the candidates: `unknown KIND "name" (did you
// mean X?)`, or, with nothing near, the list of candidates (sorted; at most 12, then a count).
func Unknown(kind, name string, candidates []string) string {
	msg := "unknown " + kind + " " + quote(name)
	if best, ok := Closest(name, candidates); ok {
		return msg + " (did you mean " + best + "?)"
	}
	if len(candidates) == 0 {
		return msg + " (there are none)"
	}
	list := append([]string(nil), candidates...)
	sort.Strings(list)
	const show = 12
	tail := ""
	if len(list) > show {
		tail = ", … (" + strconv.Itoa(len(list)-show) + " more)"
		list = list[:show]
	}
	return msg + " (known: " + strings.Join(list, ", ") + tail + ")"
}

// Distance is the optimal-string-alignment distance of a and b in bytes: insertions, deletions, substitutions and
// transpositions of adjacent characters cost 1 each.
func Distance(a, b string) int {
	if a == b {
		return 0
	}
	// Three rows: the one before the previous (for transpositions), the previous and the current.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

func quote(s string) string { return `"` + s + `"` }
