package compare

import "math"

// Error budgets. Every output of an evaluation carries a rounding variance V in units of u² (interp.Output.Rounding,
// u the unit roundoff of the evaluation's precision). Modelling the roundings as independent (Higham and Mary's
// probabilistic error analysis), an output differs from its exact value by about √V·u of its scale, and two
// evaluations (before and after a rewrite) differ by about u·√(Vbefore + Vafter): an output's tolerance is the
// larger of RelTol and BudgetFactor times that.

// DefaultBudgetFactor is the multiple of the estimated rounding error Programs accepts by default: it covers the
// tails of the probabilistic model and the moderate error amplification of exponentials and subtractions that
// the count of roundings does not see.
const DefaultBudgetFactor = 4

// budget is the relative difference two evaluations of outputs with rounding variances va and vb may show.
func budget(factor, u, va, vb float64) float64 {
	return factor * u * math.Sqrt(va+vb)
}
