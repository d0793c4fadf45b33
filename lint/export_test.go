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
	pin := make([]map[pinKey]string, len(lf.rules))
	byBenefit := map[int][]int{}
	for i, rf := range lf.rules {
		if rf.dead == "" {
			pin[i] = pins(rf)
			byBenefit[rf.r.Benefit] = append(byBenefit[rf.r.Benefit], i)
		}
	}
	for _, g := range byBenefit {
		cand := map[[2]int]bool{}
		for _, p := range candidatePairs(g, pin) {
			if p[0] >= p[1] || cand[p] {
				wrong = append(wrong, fmt.Sprintf("candidate %v out of order or twice", p))
			}
			cand[p] = true
		}
		candidates += len(cand)
		for x := range g {
			for y := x + 1; y < len(g); y++ {
				a, b := lf.rules[g[x]], lf.rules[g[y]]
				all++
				u := &unifier{lf: lf, a: a, b: b}
				if u.solve(newUState(), [][2]int{{a.r.Pattern.Root, b.r.Pattern.Root}}) == nil {
					continue
				}
				overlapping++
				if !cand[[2]int{g[x], g[y]}] {
					wrong = append(wrong, fmt.Sprintf("%s and %s overlap but are no candidate pair", a.r.ID(), b.r.ID()))
				}
			}
		}
	}
	return all, candidates, overlapping, wrong
}
