package matcher

import "github.com/pirdrr/drr/drr/rule"

// ChooseRoot picks the root of a pattern deterministically, for the checker to store in Pattern.Root:
//
//  1. Candidates are the ops whose results no pattern op uses (the pattern's outputs).
//  2. Among them, the one that leaves the fewest ops to be reached through users (upward steps, each a search
//     over a value's users at match time) once the root's producers have been followed wins; a candidate from
//     which some op cannot be reached at all counts as worst.
//  3. Ties go to the candidate last in statement order (the pattern's final statement, as a rule author writes
//     it).
//
// Malformed patterns (those Compile rejects whatever the root) are tolerated: it then returns the last op. It
// returns 0 for a pattern without ops.
func ChooseRoot(p *rule.Pattern) int {
	n := len(p.Ops)
	if n == 0 {
		return 0
	}
	q := *p
	q.Root = 0 // validate wants a root in range; every root is tried below
	if validate(&rule.Rule{Pattern: &q}) != nil {
		return n - 1
	}
	used := make([]bool, n)
	for _, op := range p.Ops {
		for _, o := range op.Operands {
			if o.Kind == rule.OperandList {
				continue
			}
			for _, h := range p.Reads(o) {
				if d := p.Values[h].Def; d >= 0 {
					used[d] = true
				}
			}
		}
	}
	best, bestSteps := -1, 0
	for k := range p.Ops {
		if used[k] {
			continue
		}
		steps, ok := upwardSteps(p, k)
		if !ok {
			steps = n + 1
		}
		if best < 0 || steps <= bestSteps {
			best, bestSteps = k, steps
		}
	}
	if best < 0 {
		return n - 1
	}
	return best
}

// upwardSteps counts the ops the plan rooted at root reaches through users (its ChooseUser instructions), and
// reports whether it reaches them all.
func upwardSteps(p *rule.Pattern, root int) (int, bool) {
	pl, err := plan(p, root, nil)
	if err != nil {
		return 0, false
	}
	steps := 0
	for _, in := range pl.Instrs {
		if in.Code == ChooseUser {
			steps++
		}
	}
	return steps, true
}
