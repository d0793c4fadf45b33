package lint

import (
	"fmt"

	"github.com/pirdrr/drr/drr/rule"
)

// CheckCandidatePairs compares the overlap check's pin index with unifying every pair of live rules of one
// benefit in set: it returns the pairs of one benefit, the candidate pairs the index leaves, the pairs that
// overlap, and a description of every overlapping pair (or malformed candidate) the index gets wrong.
func CheckCandidatePairs(set *rule.Set) (all, candidates, overlapping int, wrong []string) {
	lf := newLintFacts(set)
	cand := map[[2]int]bool{}
	for _, p := range lf.overlapCandidates() {
		if p[0] >= p[1] || cand[p] {
			wrong = append(wrong, fmt.Sprintf("candidate %v out of order or twice", p))
		}
		cand[p] = true
	}
	candidates = len(cand)
	for j, b := range lf.rules {
		for i, a := range lf.rules[:j] {
			if a.dead != "" || b.dead != "" || a.r.Benefit != b.r.Benefit {
				continue
			}
			all++
			u := &unifier{lf: lf, a: a, b: b}
			if u.solve(newUState(), [][2]int{{a.r.Pattern.Root, b.r.Pattern.Root}}) == nil {
				continue
			}
			overlapping++
			if !cand[[2]int{i, j}] {
				wrong = append(wrong, fmt.Sprintf("%s and %s overlap but are no candidate pair", a.r.ID(), b.r.ID()))
			}
		}
	}
	return all, candidates, overlapping, wrong
}
