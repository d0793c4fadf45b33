package lint

import (
	"sort"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/drr/rule"
)

// The overlap check unifies pairs of rules, which is quadratic in the rules of one root and benefit: a generated
// set of 1,000 rules of one root took 10 s. The index below finds the pairs worth unifying without looking at every
// pair. Each rule gets its pins: facts every op it matches must satisfy at a fixed position under the root (the op
// name there, an attribute's one allowed value). Two rules with different pins for one position can never match
// the same op — the unifier pairs the ops at that position and fails on them — so the rules of a group are split
// by the value of the pin most of them have, recursively, and only rules in one part (or without that pin) are
// compared. The pins are conservative: a position is followed only through operands that the unifier pairs in
// order (not through a commutative op, not past a variadic operand), and a value that might equal another under
// rule.Equal without an equal key (a dtype, an attribute of another kind) is no pin.

// pinKey is a position under the root (operand indices, "0.1" is operand 1 of operand 0's producer; "" the root)
// and an attribute name there ("" for the op name).
type pinKey struct{ path, attr string }

// maxPins bounds the pins of one rule (fewer pins only mean more pairs to unify).
const maxPins = 256

// pins computes the pins of rule rf.
func pins(rf *ruleFacts) map[pinKey]string {
	p := rf.r.Pattern
	// The one value a class of holes may take, when its where clauses leave exactly one.
	single := map[int]string{}
	classes := map[int][]holeConstraint{}
	for _, c := range rf.cons {
		k := rf.find(c.hole)
		classes[k] = append(classes[k], c)
	}
	for k, cs := range classes {
		var dom []rule.Val
		restricted := false
		for _, c := range cs {
			if !c.hasAllowed {
				continue
			}
			if !restricted {
				dom, restricted = append([]rule.Val(nil), c.allowed...), true
			} else {
				dom = intersect(dom, c.allowed)
			}
		}
		if restricted && len(dom) == 1 {
			if key, ok := valKey(dom[0]); ok {
				single[k] = key
			}
		}
	}
	out := map[pinKey]string{}
	var walk func(op int, path string, depth int)
	walk = func(op int, path string, depth int) {
		o := p.Ops[op]
		if o.Name != "" {
			out[pinKey{path, ""}] = o.Name
		}
		for _, a := range o.Attrs {
			switch a.Kind {
			case rule.AttrEquals:
				if key, ok := valKey(rule.AttrVal(a.Literal)); ok {
					out[pinKey{path, a.Name}] = key
				}
			case rule.AttrBind:
				if key, ok := single[rf.find(a.Hole)]; ok {
					out[pinKey{path, a.Name}] = key
				}
			}
		}
		// A pattern is a DAG: paths through shared producers can multiply, so the walk stops at a bound.
		if o.Commutative || depth >= len(p.Ops) || len(out) > maxPins {
			return
		}
		for k, x := range o.Operands {
			if x.Kind == rule.OperandList {
				break
			}
			if x.Kind != rule.OperandValue {
				continue
			}
			if h := p.Values[x.Value]; h.Def >= 0 {
				walk(h.Def, path+"."+strconv.Itoa(k), depth+1)
			}
		}
	}
	walk(p.Root, "", 0)
	return out
}

// valKey is a key equal for values rule.Equal finds equal: numbers by their float64 value, booleans, strings,
// and lists of those; ok is false for the other kinds.
func valKey(v rule.Val) (string, bool) {
	switch v := v.(type) {
	case int64:
		return "n" + strconv.FormatFloat(float64(v), 'g', -1, 64), true
	case float64:
		return "n" + strconv.FormatFloat(v, 'g', -1, 64), true
	case bool:
		return "b" + strconv.FormatBool(v), true
	case string:
		return "s" + strconv.Quote(v), true
	case []rule.Val:
		var b strings.Builder
		b.WriteString("[")
		for _, x := range v {
			k, ok := valKey(x)
			if !ok {
				return "", false
			}
			b.WriteString(k)
			b.WriteString(",")
		}
		b.WriteString("]")
		return b.String(), true
	}
	return "", false
}

// pinsConflict reports whether two rules' pins differ at a position both pin.
func pinsConflict(a, b map[pinKey]string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	for k, v := range a {
		if w, ok := b[k]; ok && w != v {
			return true
		}
	}
	return false
}

// overlapCandidates returns the pairs (i, j), i < j, of live rules of lf of one benefit whose pins do not
// conflict — the pairs worth unifying —, ordered by j then i.
func (lf *lintFacts) overlapCandidates() [][2]int {
	pin := make([]map[pinKey]string, len(lf.rules))
	byBenefit := map[int][]int{}
	for i, rf := range lf.rules {
		if rf.dead == "" {
			pin[i] = pins(rf)
			byBenefit[rf.r.Benefit] = append(byBenefit[rf.r.Benefit], i)
		}
	}
	var out [][2]int
	for _, g := range byBenefit {
		out = append(out, candidatePairs(g, pin)...)
	}
	sort.Slice(out, func(x, y int) bool {
		if out[x][1] != out[y][1] {
			return out[x][1] < out[y][1]
		}
		return out[x][0] < out[y][0]
	})
	return out
}

// candidatePairs returns the pairs (i, j), i < j, of the rules of group (indices into pin, ascending) whose pins
// do not conflict, in no particular order.
func candidatePairs(group []int, pin []map[pinKey]string) [][2]int {
	var out [][2]int
	add := func(x, y int) {
		if x > y {
			x, y = y, x
		}
		if !pinsConflict(pin[x], pin[y]) {
			out = append(out, [2]int{x, y})
		}
	}
	var within func(g []int, used map[pinKey]bool)
	within = func(g []int, used map[pinKey]bool) {
		if len(g) < 2 {
			return
		}
		// The pin most rules of g have, not used to split g yet; without one, every pair.
		count := map[pinKey]int{}
		for _, r := range g {
			for k := range pin[r] {
				if !used[k] {
					count[k]++
				}
			}
		}
		var best pinKey
		bestN := 0
		for k, n := range count {
			if n > bestN || n == bestN && (k.path < best.path || k.path == best.path && k.attr < best.attr) {
				best, bestN = k, n
			}
		}
		if bestN == 0 {
			for x := range g {
				for y := x + 1; y < len(g); y++ {
					add(g[x], g[y])
				}
			}
			return
		}
		u := map[pinKey]bool{best: true}
		for k := range used {
			u[k] = true
		}
		parts := map[string][]int{}
		var unpinned []int
		for _, r := range g {
			if v, ok := pin[r][best]; ok {
				parts[v] = append(parts[v], r)
			} else {
				unpinned = append(unpinned, r)
			}
		}
		for _, part := range parts {
			within(part, u)
			for _, r := range part {
				for _, s := range unpinned {
					add(r, s)
				}
			}
		}
		within(unpinned, u)
	}
	within(group, map[pinKey]bool{})
	return out
}
