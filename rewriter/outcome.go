package rewriter

import (
	"fmt"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
)

// The judgement of a finished pipeline run: may the program it left be written? One place, for every command
// that writes or reports rewritten programs (drrc apply, the default job, drrc cost).

// InvalidProgramError reports a rewritten program that fails checking (ir.Verify): a pass broke it, and writing
// it would hand the user something Paddle rejects.
type InvalidProgramError struct {
	// Diags are the checker's errors.
	Diags diag.Diagnostics
}

func (e *InvalidProgramError) Error() string {
	noun := "errors"
	if len(e.Diags) == 1 {
		noun = "error"
	}
	return fmt.Sprintf("the rewritten program fails checking (%d %s):\n%s", len(e.Diags), noun, e.Diags.Error())
}

// FailedRewritesError reports matches whose rewrite could not be carried out (Applier errors: an attribute out of
// range, a type rule that refuses the new op): the program is not what the rules would have made of it.
type FailedRewritesError struct {
	// N counts the failed rewrites of the run.
	N int
	// First says which rule's rewrite failed first, and why: "rule conv2d_bn_fold: attribute epsilon: …".
	First string
}

func (e *FailedRewritesError) Error() string {
	noun := "rewrites"
	if e.N == 1 {
		noun = "rewrite"
	}
	return fmt.Sprintf("%d %s failed (first: %s)", e.N, noun, e.First)
}

// Outcome judges a pipeline run that returned without error on p, and returns what keeps its program from being
// the rules' result, most serious first: an *InvalidProgramError when p fails checking (never to be written), a
// *LimitError when a rule pass stopped at a limit (CheckLimits), a *FailedRewritesError when rewrites failed. The
// last two are what drrc apply -keep-going writes anyway, as warnings. No findings: nil.
func Outcome(p *ir.Program, results []*PassResult) []error {
	var out []error
	if errs := ir.Verify(p).Errors(); len(errs) > 0 {
		out = append(out, &InvalidProgramError{Diags: errs})
	}
	if err := CheckLimits(results); err != nil {
		out = append(out, err)
	}
	if err := failedRewrites(results); err != nil {
		out = append(out, err)
	}
	return out
}

// failedRewrites counts the failed rewrites of a run into a *FailedRewritesError, nil when none failed.
func failedRewrites(results []*PassResult) error {
	e := &FailedRewritesError{}
	for _, pr := range results {
		if pr.Stats == nil {
			continue
		}
		for _, rs := range pr.Stats.Rules {
			if rs.Failed > 0 && e.First == "" {
				e.First = "rule " + rs.Name + ": " + rs.FirstFailure
			}
			e.N += rs.Failed
		}
	}
	if e.N == 0 {
		return nil
	}
	return e
}
