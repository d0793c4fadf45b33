package drr

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
)

// Rule declarations are checked independently of each other once families and natives are known, so a large rule
// file is checked on every core. Each worker has its own scratch tables and node slabs; diagnostics are kept per
// instance and reported afterwards in declaration order, so the output does not depend on scheduling.

// ruleWork is one rule declaration and the result of checking each of its instances.
type ruleWork struct {
	ast    *Rule
	insts  []binding
	labels []string
	// asts and counts are set for a rule with a variadic group: per instance, the rule written out for its element
	// count (check_each.go).
	asts    []*Rule
	counts  []int
	checked []instance
}

// instance is the outcome of checking one instance of a rule.
type instance struct {
	rule  *rule.Rule
	diags diag.Diagnostics
	arity bool // failed because a family member's signature does not fit the pattern
}

// ruleScratch is what a worker reuses from rule to rule.
type ruleScratch struct {
	maps  *ruleMaps
	nodes ruleNodes
}

// parallelMinRules is the number of rule declarations below which checking stays on one goroutine: starting workers
// costs more than it saves on small files.
var parallelMinRules = 64

// checkAll checks every instance of every rule in work.
func checkAll(c *checker, work []*ruleWork) {
	workers := min(runtime.GOMAXPROCS(0), len(work)/parallelMinRules+1)
	if workers <= 1 {
		s := &ruleScratch{maps: newRuleMaps()}
		for _, w := range work {
			checkWork(c, s, w)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			s := &ruleScratch{maps: newRuleMaps()}
			for {
				// Rules are taken in small batches: one atomic operation per rule is measurable.
				const batch = 16
				i := int(next.Add(batch)) - batch
				if i >= len(work) {
					return
				}
				for _, w := range work[i:min(i+batch, len(work))] {
					checkWork(c, s, w)
				}
			}
		})
	}
	wg.Wait()
}

func checkWork(c *checker, s *ruleScratch, w *ruleWork) {
	w.checked = make([]instance, len(w.insts))
	for i, b := range w.insts {
		rc := &ruleChecker{c: c, s: s, ast: w.ast, bind: b}
		if w.asts != nil {
			rc.ast, rc.count = w.asts[i], w.counts[i]
		}
		rr := rc.check()
		w.checked[i] = instance{rule: rr, diags: rc.diags, arity: rc.arity}
	}
}
