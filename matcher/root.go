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
// Malformed patterns (indices out of range) are tolerated: it then returns the last op. It returns 0 for a pattern
// without ops.
func ChooseRoot(p *rule.Pattern) int {
	n := len(p.Ops)
	if n == 0 {
		return 0
	}
	if !indicesOK(p) {
		return n - 1
	}
	used := make([]bool, n)
	for _, op := range p.Ops {
		for _, o := range op.Operands {
			if o.Kind == rule.OperandValue {
				if d := p.Values[o.Value].Def; d >= 0 {
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

func indicesOK(p *rule.Pattern) bool {
	for _, op := range p.Ops {
		for _, o := range op.Operands {
			if (o.Kind == rule.OperandValue || o.Kind == rule.OperandList) && (o.Value < 0 || o.Value >= len(p.Values)) {
				return false
			}
		}
		for _, r := range op.Results {
			if r.Value >= len(p.Values) {
				return false
			}
		}
	}
	for _, v := range p.Values {
		if v.Def >= len(p.Ops) {
			return false
		}
	}
	return true
}

// upwardSteps counts the ops the plan rooted at root reaches through users, and reports whether it reaches all.
func upwardSteps(p *rule.Pattern, root int) (int, bool) {
	boundOp := make([]bool, len(p.Ops))
	boundVal := make([]bool, len(p.Values))
	var down func(k int)
	down = func(k int) {
		boundOp[k] = true
		for _, r := range p.Ops[k].Results {
			if r.Value >= 0 {
				boundVal[r.Value] = true
			}
		}
		for _, o := range p.Ops[k].Operands {
			switch o.Kind {
			case rule.OperandValue:
				if boundVal[o.Value] {
					continue
				}
				boundVal[o.Value] = true
				if d := p.Values[o.Value].Def; d >= 0 && !boundOp[d] {
					down(d)
				}
			case rule.OperandList:
				boundVal[o.Value] = true
			}
		}
	}
	down(root)
	steps := 0
	for {
		k, _, _ := nextPivot(p, boundOp, boundVal)
		if k < 0 {
			break
		}
		steps++
		down(k)
	}
	for _, b := range boundOp {
		if !b {
			return steps, false
		}
	}
	return steps, true
}
