package matcher

import (
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// Reference returns the reference matcher (per rule, backtracking) to the external tests, which may import the
// shipped rule sets (package matcher's own tests cannot: rules imports matcher).
func Reference() func(set *rule.Set, op *ir.Op, o Oracle) []*rule.Match {
	rm := newRef()
	return func(set *rule.Set, op *ir.Op, o Oracle) []*rule.Match { return rm.match(set, op, o) }
}

// SameMatches reports whether two match lists bind the same rules to the same ops, values and holes, in order.
var SameMatches = sameMatches
