package rewriter

import (
	"fmt"
	"strings"
)

// LimitError reports a rule pass that a limit (Options.MaxRewrites, Options.MaxIterations) stopped before it
// converged: its program is what the rewrites so far made of it, not the rule set's result. A rule set that grows
// the program forever (y = relu(x) rewritten to relu(relu(x))) ends this way, and so does a limit set too low.
type LimitError struct {
	Pass string
	// Reason is the driver's stop reason: "max rewrites (10180)".
	Reason string
	// Firing names the rules of the last rewrites, most frequent first.
	Firing []string
}

func (e *LimitError) Error() string {
	rules := "no rule"
	switch len(e.Firing) {
	case 0:
	case 1:
		rules = "rule " + e.Firing[0]
	default:
		rules = "rules " + strings.Join(e.Firing, ", ")
	}
	return fmt.Sprintf("pass %s stopped at %s before converging: %s kept firing", e.Pass, e.Reason, rules)
}

// CheckLimits returns a *LimitError for the first of results whose driver a limit stopped (Stats.Limited), nil if
// every rule pass converged or stopped for another reason. A caller that writes programs treats such a run as a
// failure: drrc apply writes nothing (unless -keep-going), drrc test records no expectation from it.
func CheckLimits(results []*PassResult) error {
	for _, r := range results {
		if r.Stats != nil && r.Stats.Limited {
			return &LimitError{Pass: r.Pass, Reason: r.Stats.StopReason, Firing: r.Stats.Firing}
		}
	}
	return nil
}
