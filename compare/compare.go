package compare

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/pirdrr/drr/analysis"
	"github.com/pirdrr/drr/feeds"
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// ErrMismatch is wrapped by the error Programs returns when some output differs beyond the tolerance, has another
// shape or element type, or has no counterpart. Its text is the one drrc verify and the playground have always
// printed (the comparison was package interp's).
var ErrMismatch = errors.New("interp: outputs differ")

// Tiny is the smallest output scale Programs divides by: the relative error of an output that is zero everywhere
// is its absolute error divided by Tiny.
const Tiny = 1e-30

// Options configures Programs.
type Options struct {
	// Options configures evaluation and random data (precision, dynamic sizes, input shapes, parameter ranges).
	feeds.Options
	// Runs is the number K of random input/weight sets (default 3).
	Runs int
	// Seed is the seed of the first set; set k uses Seed+k.
	Seed uint64
	// RelTol is the largest accepted relative error (default 1e-5, the tolerance of Paddle's pass tests).
	RelTol float64
	// AbsTol, when positive, also accepts an output whose largest absolute error is at most AbsTol.
	AbsTol float64
	// BudgetFactor scales the error budget of an output: its tolerance is the larger of RelTol and
	// BudgetFactor·u·√(Vb + Va), u the unit roundoff of the evaluation's precision and Vb, Va the outputs'
	// rounding variances (Output.Rounding). 0 means DefaultBudgetFactor; negative turns the budget off. In
	// float64 the budget is far below RelTol; in float32 it grows with the reductions an output went through.
	BudgetFactor float64
	// NoConfirm turns off the float64 confirmation of a float32 mismatch (see Programs).
	NoConfirm bool
	// KeepDraws bounds the bytes of random weights the before program's evaluation keeps for the after program's,
	// which reads the same numbers without drawing them again (drawing is most of a large transformer's
	// verification); beyond the bound a weight is drawn again. 0 means DefaultKeepDraws; negative keeps none, so
	// that each weight lives only from its first to its last reader in each program. It bounds as well, on their
	// own, the bytes of the values before's evaluation keeps for after's shared ops (see Programs): beyond it, that
	// run evaluates after whole; negative shares nothing.
	KeepDraws int64
	// NoRebatch turns off the evaluation at Options.Batch of programs whose static inputs bake a larger captured
	// batch in (see Programs and feeds.RebatchPrograms).
	NoRebatch bool
	// NoShare evaluates every op of after, including those that compute what an op of before computed on the same
	// operands, whose values are otherwise taken from before's evaluation (see Programs).
	NoShare bool

	// only, when not nil, lists the runs (0 for Seed, 1 for Seed+1, …) to evaluate instead of all Runs: the
	// float64 confirmation evaluates the runs float32 failed.
	only []int
}

// Report is the outcome of Programs.
type Report struct {
	// Runs is the number of input/weight sets evaluated.
	Runs int
	// RelTol and AbsTol are the tolerances applied (RelTol the least relative tolerance of every output).
	RelTol, AbsTol float64
	// Precision is the precision the programs were evaluated in.
	Precision interp.Precision
	// Kernels names the kernel path the matrix products and convolutions ran on ("avx512", "avx2" or "go"; see
	// interp.Kernels).
	Kernels string
	// Outputs has one entry per matched output pair, in the order of the before program.
	Outputs []OutputDiff
	// Unmatched lists the outputs of either program without a counterpart in the other.
	Unmatched []string
	// Published lists the shadow outputs of the after program that publish a parameter unchanged and have no
	// counterpart before (see Programs): no model outputs, so neither compared nor unmatched.
	Published []Publication
	// RecordedBatch is true when the programs were evaluated at the recorded sample's shapes because the before
	// program could not be evaluated at Options.Batch (see Options.RecordedBatch).
	RecordedBatch bool
	// Float32 is the float32 comparison whose mismatch this float64 report confirms or refutes (see Programs);
	// nil when the programs were compared once. This report then evaluated Float32.FailedRuns only (Only).
	Float32 *Report
	// FailedRuns lists the runs (0 for Options.Seed, 1 for Seed+1, …) in which some output exceeded its tolerance,
	// had no counterpart or could not be compared; empty when the report is OK.
	FailedRuns []int
	// Only, when not nil, lists the runs this report evaluated, Runs of them: a float64 confirmation evaluates the
	// runs its float32 comparison failed. Nil means runs 0 … Runs−1.
	Only []int
	// Rebatched, when not nil, says that the programs were evaluated at a smaller batch than the one their static
	// inputs were captured at (see Programs).
	Rebatched *feeds.Rebatch
	// NotRebatched, when not nil, is the comparison at a smaller batch than the captured one that did not stand,
	// with the reason (Rebatch.Why): the programs were compared at their captured batch instead (see Programs).
	NotRebatched *feeds.Rebatch
	// Reused is the number of top-level ops of after that were not evaluated, their values taken from before's
	// evaluation (see Programs), in every run; 0 with Options.NoShare, and when the values after would take from
	// before exceeded Options.KeepDraws in some run (that run evaluated after whole).
	Reused int
}

// Publication is a shadow output that publishes a parameter unchanged (see Programs).
type Publication struct {
	// Name is the shadow output's output_name; Param the parameter's name.
	Name, Param string
}

// String says what the output publishes: `shadow_output "w" publishes parameter "w" unchanged`.
func (p Publication) String() string {
	return fmt.Sprintf("%s %q publishes parameter %q unchanged", interp.ShadowOutput, p.Name, p.Param)
}

// OutputDiff is the comparison of one output over all runs.
type OutputDiff struct {
	// Name is the output's name in the before program; AfterName its counterpart's.
	Name, AfterName string
	// Shape is the output's shape (in the worst run).
	Shape []int
	// MaxAbs is the largest absolute difference max|a−b| over all elements and runs.
	MaxAbs float64
	// MaxRel is the largest relative error over the runs: max|a−b| divided by the scale of the before output,
	// max(max|a|, Tiny), in that run. It is relative to the output's scale, not element-wise, so near-zero elements
	// do not inflate it.
	MaxRel float64
	// Run is the run of MaxRel; Scale is max|a| in that run; Index is the flat index of the largest absolute
	// difference in that run, where the outputs are Before and After.
	Run           int
	Scale         float64
	Index         int
	Before, After float64
	// Problem, if not empty, says why the output cannot be compared (shapes or element types differ).
	Problem string
	// Random is set when the output depends on a random op's draw in either program: the programs draw the same
	// numbers only when they run the same random ops in the same order (see package interp's documentation).
	Random bool
	// Tol is the relative tolerance of this output: RelTol, or its error budget when larger (float32).
	Tol float64
	// Rounding is the larger rounding variance of the two outputs (over the runs).
	Rounding float64
	// OK reports whether the output is within tolerance.
	OK bool
}

// OK reports whether every output matched and is within tolerance.
func (r *Report) OK() bool {
	if len(r.Unmatched) > 0 {
		return false
	}
	for _, o := range r.Outputs {
		if !o.OK {
			return false
		}
	}
	return true
}

// Failures returns the outputs that are not within tolerance.
func (r *Report) Failures() []OutputDiff {
	var out []OutputDiff
	for _, o := range r.Outputs {
		if !o.OK {
			out = append(out, o)
		}
	}
	return out
}

// String formats the report as a table, one line per output.
func (r *Report) String() string {
	var b strings.Builder
	verdict := "ok"
	if !r.OK() {
		verdict = "FAIL"
	}
	fmt.Fprintf(&b, "compare: %d run(s), %s, tolerance rel %g", r.Runs, r.Precision, r.RelTol)
	if r.AbsTol > 0 {
		fmt.Fprintf(&b, " or abs %g", r.AbsTol)
	}
	fmt.Fprintf(&b, ": %s\n", verdict)
	for _, o := range r.Outputs {
		fmt.Fprintf(&b, "  %s: ", o.Name)
		if o.Problem != "" {
			fmt.Fprintf(&b, "FAIL: %s\n", o.Problem)
			continue
		}
		status := "ok"
		if !o.OK {
			status = "FAIL"
		}
		fmt.Fprintf(&b, "shape %v max abs %.3g max rel %.3g (scale %.3g, tol %.3g) %s", o.Shape, o.MaxAbs, o.MaxRel, o.Scale, o.Tol, status)
		if o.Random {
			b.WriteString(" (depends on random ops)")
		}
		if !o.OK && o.Index >= 0 {
			fmt.Fprintf(&b, " (run %d, element %d: %.6g before, %.6g after)", o.Run, o.Index, o.Before, o.After)
		}
		b.WriteByte('\n')
	}
	for _, u := range r.Unmatched {
		fmt.Fprintf(&b, "  unmatched: %s\n", u)
	}
	for _, p := range r.Published {
		fmt.Fprintf(&b, "  not compared: %s\n", p)
	}
	return b.String()
}

// Programs evaluates before and after on opts.Runs random input/weight sets (feeds.Random with seeds Seed, Seed+1, …,
// the same for both programs: inputs matched by name, parameters by name, so weights a rewrite kept get the same
// data and parameters a rewrite computes with ops are computed from them) and compares their outputs. Outputs are
// matched as fetches by name (else column), shadow outputs by output_name, set_parameter outputs by
// parameter_name and sinks in order; if none matches by name but both programs have as many outputs, they are
// matched in order. For each pair it reports the largest absolute error and the largest relative error,
// max|a−b| / max(max|a|, Tiny) per run (relative to the before output's scale). An output fails when its relative
// error exceeds RelTol (default 1e-5) and its absolute error exceeds AbsTol, when shapes or element types differ,
// or when it has no counterpart; Programs then returns the report and an error wrapping ErrMismatch. An error
// evaluating either program is returned without a report. When the before program cannot be evaluated with
// Options.Batch for a dynamic dim 0 that the recorded sample (ir.Program.Feeds) sizes otherwise, both are
// evaluated at the recorded shapes (Options.RecordedBatch) and the report says so.
//
// One kind of output of after is no model output and takes no part in the matching: a shadow output that
// publishes a parameter unchanged — its operand is the result of a builtin.parameter (or builtin.get_parameter) op
// whose parameter after never writes (no builtin.set_parameter of the name, no op writing its buffer:
// analysis.Immutable) — when before has no shadow output of the same output_name. Such an
// output only keeps a weight alive for the executor (Paddle's add_shadow_output_after_dead_parameter_pass adds one
// for each parameter nothing reads) and computes nothing a rewrite could get wrong; the report lists it in
// Published. Everything else still counts: an added shadow output or fetch of a computed value, an added fetch of
// a parameter (a fetch changes what the model returns), an added shadow output of a parameter the program writes,
// and every output of before without counterpart (a removed model output, a removed publication of a parameter)
// are unmatched and fail; a shadow output of a parameter whose output_name before has is compared with before's.
//
// A mismatch found in float32 with the precision chosen automatically (Options.Precision Auto) is confirmed in
// float64 before it is reported, unless NoConfirm: the error budget of float32 counts roundings but cannot see the
// cancellation of a sum whose terms nearly cancel (a scalar training loss), where a correct rewrite that sums in
// another order differs by far more than the budget. The runs that failed in float32 (Report.FailedRuns) are
// evaluated again in float64, which decides them — two evaluations of equivalent programs agree there to about
// 1e-12 — and its report is returned, with the float32 one in Report.Float32; the runs within tolerance in float32
// stand as they are. When the float64 evaluation fails (memory), the float32 verdict stands.
//
// Programs whose static inputs were captured at a batch larger than Options.Batch (GraphNet's vision graphs,
// builtin.tensor<64x3x224x224xf32>, with the batch baked into reshape shapes) are first compared at
// Options.Batch, rebatched (feeds.RebatchPrograms): the inputs and the constants that carry the batch take the smaller one.
// If the rebatched programs agree, that comparison stands (Report.Rebatched); otherwise the multiples of the batch
// are left alone and the programs tried again, and then — either cannot be evaluated, or they differ — they are
// compared at their captured batch, which decides. NoRebatch turns this off.
//
// after is evaluated without its ops that compute what an op of before computes: an op with the same name,
// attributes (but stop_gradient and persistable, which no kernel reads) and result types whose operands are the
// same values — parameters of the same name and variable that neither program writes, the same inputs, and the
// results of ops so matched. Such an op computes the same function of the same elements, and the kernels are
// deterministic (the same bits for the same inputs, whatever GOMAXPROCS), so its values are before's bit for bit:
// after takes them from before's evaluation (interp.Options.Reuse) and the report is the one evaluating every op
// gives. Only ops with a schema, no regions, no random draw and no output are shared; an op must write none of its
// operands (an inplace op whose written operands die at it and alias nothing else counts as its pure form: the
// write is seen by its results only), read each operand before any write to its buffer, and have results no op
// writes later, in both programs; and a result such an inplace op of after writes is not shared when its value of
// before stands for another result of after too (congruent ops of before are one), which would share its buffer.
// A program with region ops shares nothing. Report.Reused counts the ops of after not evaluated; NoShare evaluates
// them all. The values of before that after's evaluated ops read are held from their computation to after's run,
// within KeepDraws bytes; a run whose values exceed it evaluates after whole.
func Programs(before, after *ir.Program, opts Options) (*Report, error) {
	if !opts.RecordedBatch && !opts.NoRebatch {
		if from := feeds.CapturedBatch(opts.Options, before); from > 0 {
			var failed feeds.Rebatch
			for _, multiples := range []bool{true, false} {
				b2, a2, o, rb, mult := feeds.RebatchPrograms(opts.Options, before, after, from, int64(opts.BatchSize()), multiples)
				ro := opts
				ro.Options = o
				rep, err := compareConfirmed(b2, a2, ro)
				if err == nil {
					rep.Rebatched = &rb
					return rep, nil
				}
				failed = rb
				failed.Why = err.Error()
				if !mult {
					break // without multiples, the programs would be the same
				}
			}
			rep, err := compareConfirmed(before, after, opts)
			if rep != nil {
				rep.NotRebatched = &failed
			}
			return rep, err
		}
	}
	return compareConfirmed(before, after, opts)
}

// compareConfirmed compares at the batch of the options (compareAtBatch) and confirms a float32 mismatch in
// float64 (see Programs).
func compareConfirmed(before, after *ir.Program, opts Options) (*Report, error) {
	rep, err := compareAtBatch(before, after, opts)
	if !errors.Is(err, ErrMismatch) || rep == nil || rep.Precision != interp.Float32 || opts.Precision != interp.Auto || opts.NoConfirm {
		return rep, err
	}
	o64 := opts
	o64.Precision = interp.Float64
	o64.only = rep.FailedRuns
	o64.RecordedBatch = opts.RecordedBatch || rep.RecordedBatch
	rep64, err64 := compareAtBatch(before, after, o64)
	if rep64 == nil || err64 != nil && !errors.Is(err64, ErrMismatch) {
		return rep, err
	}
	rep64.Float32 = rep
	rep64.RecordedBatch = rep64.RecordedBatch || rep.RecordedBatch
	return rep64, err64
}

// compareAtBatch compares at Options.Batch, or at the recorded shapes when the before program cannot be evaluated
// there.
func compareAtBatch(before, after *ir.Program, opts Options) (*Report, error) {
	rep, err := compare(before, after, opts)
	if errors.Is(err, errBefore) && feeds.BatchShortened(opts.Options, before) {
		// The before program cannot be evaluated at Options.Batch: its types bake the captured batch in, or its
		// dynamic dim 0 was no batch. Evaluate both at the recorded sample's shapes instead.
		opts.RecordedBatch = true
		if rep2, err2 := compare(before, after, opts); !errors.Is(err2, errBefore) {
			if rep2 != nil {
				rep2.RecordedBatch = true
			}
			return rep2, err2
		}
	}
	return rep, err
}

// errBefore marks the errors of evaluating the before program.
var errBefore = errors.New("before")

func compare(before, after *ir.Program, opts Options) (*Report, error) {
	runs := opts.Runs
	if runs <= 0 {
		runs = 3
	}
	list := opts.only
	if list == nil {
		list = make([]int, runs)
		for k := range list {
			list[k] = k
		}
	}
	rep := &Report{Runs: len(list), Only: opts.only, RelTol: opts.RelTol, AbsTol: opts.AbsTol}
	if rep.RelTol <= 0 {
		rep.RelTol = 1e-5
	}
	opts.Precision = opts.Precision.Resolve(before, after)
	rep.Precision = opts.Precision
	rep.Kernels, _ = interp.Kernels()
	factor := opts.BudgetFactor
	if factor == 0 {
		factor = DefaultBudgetFactor
	}
	u := opts.Precision.UnitRoundoff()
	var pairs [][2]int
	cache := map[string]*interp.Tensor{}
	// The publications of after are not evaluated: reading a dead weight only to leave it out would draw it (a
	// 7-billion-parameter model cut to one layer publishes every other weight).
	opts.Compact = true
	beforeOpts, afterOpts := opts.Options.Options, opts.Options.Options
	afterOpts.SkipOutputs, rep.Published = publications(before, after)
	var shared *sharing
	if !opts.NoShare && opts.keepLimit() > 0 {
		shared = sharedOps(before, after)
	}
	if shared != nil {
		beforeOpts.Keep, afterOpts.Reuse, rep.Reused = shared.keep, shared.reuse, shared.ops
	}
	// diffs[n][i] is output i's relative and absolute error in the n-th run evaluated (list[n]).
	diffs := make([][][2]float64, len(list))
	for n, k := range list {
		feed, err := feeds.Lazy(opts.Seed+uint64(k), opts.Options, opts.keepLimit(), cache, before, after)
		if err != nil {
			return nil, err
		}
		if shared != nil {
			beforeOpts.Carry = interp.NewCarry(int64(opts.keepLimit()))
		}
		rb, err := interp.Evaluate(before, feed, beforeOpts)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", errBefore, err)
		}
		ao := afterOpts
		if c := beforeOpts.Carry; c != nil && c.Complete() {
			ao.Carry = c
		} else {
			ao.Reuse, rep.Reused = nil, 0 // the values to take over exceeded KeepDraws: after is evaluated whole
		}
		ra, err := interp.Evaluate(after, feed, ao)
		beforeOpts.Carry = nil // the values before kept are garbage once after has run
		if err != nil {
			return nil, fmt.Errorf("after: %w", err)
		}
		if n == 0 {
			pairs, rep.Unmatched = matchOutputs(rb.Outputs, ra.Outputs)
			for _, p := range pairs {
				rep.Outputs = append(rep.Outputs, OutputDiff{Name: rb.Outputs[p[0]].Name,
					AfterName: ra.Outputs[p[1]].Name, Index: -1, MaxRel: -1})
			}
		} else if len(rb.Outputs) <= maxIndex(pairs, 0) || len(ra.Outputs) <= maxIndex(pairs, 1) {
			return nil, fmt.Errorf("interp: the number of outputs changed between runs")
		}
		for i, p := range pairs {
			ob, oa := rb.Outputs[p[0]], ra.Outputs[p[1]]
			o := &rep.Outputs[i]
			rel, abs := o.add(k, ob, oa)
			diffs[n] = append(diffs[n], [2]float64{rel, abs})
			o.Random = o.Random || ob.Random || oa.Random
			o.Rounding = max(o.Rounding, ob.Rounding, oa.Rounding)
			if factor > 0 {
				o.Tol = max(o.Tol, budget(factor, u, ob.Rounding, oa.Rounding))
			}
		}
	}
	for i := range rep.Outputs {
		o := &rep.Outputs[i]
		if o.MaxRel < 0 {
			o.MaxRel = 0
		}
		o.Tol = max(o.Tol, rep.RelTol)
		o.OK = o.Problem == "" && (o.MaxRel <= o.Tol || opts.AbsTol > 0 && o.MaxAbs <= opts.AbsTol)
	}
	if rep.OK() {
		return rep, nil
	}
	for n, k := range list {
		failed := len(rep.Unmatched) > 0
		for i, d := range diffs[n] {
			o := rep.Outputs[i]
			failed = failed || o.Problem != "" || d[0] > o.Tol && !(opts.AbsTol > 0 && d[1] <= opts.AbsTol)
		}
		if failed {
			rep.FailedRuns = append(rep.FailedRuns, k)
		}
	}
	var bad []string
	for _, o := range rep.Failures() {
		if o.Problem != "" {
			bad = append(bad, fmt.Sprintf("%s (%s)", o.Name, o.Problem))
		} else {
			note := ""
			if o.Random {
				note = ", depends on random ops"
			}
			bad = append(bad, fmt.Sprintf("%s (max rel %.3g > tol %.3g, max abs %.3g%s)", o.Name, o.MaxRel, o.Tol, o.MaxAbs, note))
		}
	}
	bad = append(bad, rep.Unmatched...)
	return rep, fmt.Errorf("%w: %s", ErrMismatch, strings.Join(bad, "; "))
}

// DefaultKeepDraws is Options.KeepDraws by default: 1 GiB of draws kept for the after program.
const DefaultKeepDraws = 1 << 30

// keepLimit is KeepDraws with its default, as an int.
func (o Options) keepLimit() int {
	switch {
	case o.KeepDraws < 0:
		return 0
	case o.KeepDraws == 0:
		return DefaultKeepDraws
	}
	return int(min(o.KeepDraws, math.MaxInt))
}

func maxIndex(pairs [][2]int, side int) int {
	m := -1
	for _, p := range pairs {
		m = max(m, p[side])
	}
	return m
}

// add accumulates the comparison of one run of outputs ob (before) and oa (after) and returns the run's relative
// and absolute error (NaN when the outputs cannot be compared).
func (o *OutputDiff) add(run int, ob, oa interp.Output) (rel, abs float64) {
	if o.Problem != "" {
		return math.NaN(), math.NaN()
	}
	a, b := ob.Value, oa.Value
	if !slices.Equal(a.Shape, b.Shape) {
		o.Problem = fmt.Sprintf("shape %v before, %v after", a.Shape, b.Shape)
		return math.NaN(), math.NaN()
	}
	if a.DType != b.DType {
		o.Problem = fmt.Sprintf("element type %s before, %s after", a.DType, b.DType)
		return math.NaN(), math.NaN()
	}
	var maxAbs, scale, before, after float64
	var at int
	ra32, ok32 := ob.Elems.([]float32)
	rb32, okb32 := oa.Elems.([]float32)
	ra64, ok64 := ob.Elems.([]float64)
	rb64, okb64 := oa.Elems.([]float64)
	switch {
	case ok32 && okb32 && len(ra32) == len(rb32):
		maxAbs, at, scale, before, after = diffElems(ra32, rb32)
	case ok64 && okb64 && len(ra64) == len(rb64):
		maxAbs, at, scale, before, after = diffElems(ra64, rb64)
	case ob.Elems == nil && oa.Elems == nil && len(a.Data) == len(b.Data):
		maxAbs, at, scale, before, after = diffElems(a.Data, b.Data)
	default:
		o.Problem = "the outputs were held in different forms (internal error)"
		return math.NaN(), math.NaN()
	}
	rel = maxAbs / max(scale, Tiny)
	o.MaxAbs = max(o.MaxAbs, maxAbs)
	if rel > o.MaxRel {
		o.MaxRel, o.Run, o.Scale, o.Shape, o.Index = rel, run, scale, a.Shape, at
		if at >= 0 {
			o.Before, o.After = before, after
		}
	}
	return rel, maxAbs
}

// diffElems returns the largest |a[i]−b[i]| (elemDiff), its index (-1 when empty), the scale max|a[i]| over the
// finite elements, and a[at], b[at].
func diffElems[T tensor.Float](a, b []T) (maxAbs float64, at int, scale, before, after float64) {
	at = -1
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		d := tensor.ElemDiff(x, y)
		if at < 0 || d > maxAbs {
			maxAbs, at = d, i
		}
		if v := math.Abs(x); !math.IsInf(v, 0) && !math.IsNaN(v) && v > scale {
			scale = v
		}
	}
	if at >= 0 {
		before, after = float64(a[at]), float64(b[at])
	}
	return maxAbs, at, scale, before, after
}

// matchOutputs pairs the outputs of two programs (indices into before and after) and lists the unmatched ones.
func matchOutputs(before, after []interp.Output) (pairs [][2]int, unmatched []string) {
	used := make([]bool, len(after))
	find := func(ok func(a interp.Output) bool) int {
		for j, a := range after {
			if !used[j] && ok(a) {
				return j
			}
		}
		return -1
	}
	var sinksB, sinksA []int
	for j, a := range after {
		if a.Kind == interp.SinkOutput && !used[j] {
			sinksA = append(sinksA, j)
		}
	}
	for i, b := range before {
		j := -1
		switch b.Kind {
		case interp.FetchOutput:
			j = find(func(a interp.Output) bool { return a.Kind == interp.FetchOutput && a.Name == b.Name })
			if j < 0 && b.Col >= 0 {
				j = find(func(a interp.Output) bool { return a.Kind == interp.FetchOutput && a.Col == b.Col })
			}
		case interp.ShadowOutput, interp.ParameterOutput:
			j = find(func(a interp.Output) bool { return a.Kind == b.Kind && a.Name == b.Name })
		case interp.SinkOutput:
			if k := len(sinksB); k < len(sinksA) {
				j = sinksA[k]
			}
			sinksB = append(sinksB, i)
		}
		if j >= 0 {
			used[j] = true
			pairs = append(pairs, [2]int{i, j})
		}
	}
	if rest := unusedIndices(used); len(pairs) == 0 && len(before) == len(rest) {
		for i := range before {
			pairs = append(pairs, [2]int{i, rest[i]})
		}
		return pairs, nil
	}
	matchedB := make([]bool, len(before))
	for _, p := range pairs {
		matchedB[p[0]] = true
	}
	for i, b := range before {
		if !matchedB[i] {
			unmatched = append(unmatched, fmt.Sprintf("%s %q of before has no counterpart after", b.Kind, b.Name))
		}
	}
	for j, a := range after {
		if !used[j] {
			unmatched = append(unmatched, fmt.Sprintf("%s %q of after has no counterpart before", a.Kind, a.Name))
		}
	}
	return pairs, unmatched
}

// publications returns the shadow outputs of after that publish a parameter unchanged (publishedParam) under an
// output_name no shadow output of before has: they take no part in the comparison (Programs' doc), and are not
// even evaluated (interp.Options.SkipOutputs).
func publications(before, after *ir.Program) (skip map[*ir.Op]bool, published []Publication) {
	names := map[string]bool{}
	for op := range before.Walk() {
		if op.Name() == ir.ShadowOutputOpName {
			if n, ok := ir.AsString(op.Attr("output_name")); ok {
				names[n] = true
			}
		}
	}
	for op := range after.Walk() {
		if op.Name() != ir.ShadowOutputOpName || op.NumOperands() == 0 {
			continue
		}
		n, ok := ir.AsString(op.Attr("output_name"))
		param := publishedParam(after, op.Operand(0))
		if !ok || param == "" || names[n] {
			continue
		}
		if skip == nil {
			skip = map[*ir.Op]bool{}
		}
		skip[op] = true
		published = append(published, Publication{Name: n, Param: param})
	}
	return skip, published
}

// publishedParam returns the name of the parameter v is read from when the program never writes it
// (analysis.Immutable of a builtin.parameter or builtin.get_parameter result), else "": a shadow output of v then
// publishes the parameter unchanged.
func publishedParam(p *ir.Program, v *ir.Value) string {
	if v == nil || !analysis.IsParam(v) || !analysis.Immutable(p, v) {
		return ""
	}
	return analysis.ParamName(v)
}

// unusedIndices returns the indices of the false entries of used, in order.
func unusedIndices(used []bool) []int {
	var out []int
	for j, u := range used {
		if !u {
			out = append(out, j)
		}
	}
	return out
}
