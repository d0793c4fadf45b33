package rewriter

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/pirdrr/drr/analysis"
	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// MatchFunc returns the matches of a rule set at op, best first (benefit, then rule order), appended to dst. The
// matcher's automaton provides it.
type MatchFunc func(dst []*rule.Match, op *ir.Op) []*rule.Match

// Options configure a Driver.
type Options struct {
	// MaxIterations bounds the sweeps over the program (each re-seeds the worklist with every op); 0 means 10.
	MaxIterations int
	// MaxRewrites bounds the number of rewrites; 0 means 20 per op of the input plus 10,000.
	MaxRewrites int
	// BottomUp visits users before producers; the default is top-down (program order).
	BottomUp bool
	// Shuffle pops the worklist in a random order seeded by Seed, to expose order dependence.
	Shuffle bool
	Seed    uint64
	// VerifyEach runs ir.Verify after every rewrite; a failure stops the driver naming the rule.
	VerifyEach bool
	// NoDCE keeps ops that become dead. By default an op a rewrite leaves without uses is erased when it has no
	// side effects and writes no operand; ops that had no uses before the run are kept (the dce pass erases those).
	NoDCE bool
	// Trace, if set, is called after every rewrite.
	Trace func(TraceEvent)
	// Enabled, if set, filters the rules the driver may apply.
	Enabled func(*rule.Rule) bool
	// KeepErased keeps the ops the driver erases recognisable (Erased reports true) after the run. By default
	// their memory goes to the ops the driver creates later in the run (ir.Allocator.Reuse), so a pointer to an
	// erased op held across Run may come to designate another op. Recycling is off anyway with Trace, with
	// listeners (AddListener) and for rule sets with native constraints or rewrites, which might hold ops.
	KeepErased bool
	// Params are values of rule-set parameters (drrc -param): the rules of a set that declares a parameter of
	// that name read the value, the others keep their defaults. A RulePass gives them to its matcher and its driver
	// through the oracle (rule.WithParams); a caller of NewDriver passes an oracle that has them to its matcher (the
	// driver itself wraps its oracle, for the rewrites). Check the names against the sets (Pipeline.Params,
	// drr.ParseParams) first: a name no set declares is ignored here.
	Params rule.Params
	// Target is the device the program is rewritten for (drrc -target): the Go passes that depend on it read it
	// (kernel_check checks every op against the target's kernel table). Rule sets see it only through the
	// parameter it sets, sm_version (drr.TargetParams), which callers put into Params.
	Target ir.Target
	// Context, if set, stops the driver when it is done (a deadline passed, a caller gave up): the driver checks it
	// between ops, stops with the stop reason "cancelled: " and the context's cause, and Run returns that cause. The
	// program is left valid, with the rewrites made so far.
	Context context.Context
}

// TraceEvent describes one rewrite.
type TraceEvent struct {
	Seq  int
	Rule *rule.Rule
	// Root describes the matched root op: its printed result ids (as numbered in the input) and name.
	Root string
	// Loc is the root's position in the input file, if known.
	File string
	Loc  ir.Loc
	// Created is the number of ops the rewrite created.
	Created int
}

// String formats the event as one trace line.
func (e TraceEvent) String() string {
	pos := ""
	if e.Loc.IsKnown() {
		pos = fmt.Sprintf(" at %s:%d:%d", e.File, e.Loc.Line, e.Loc.Col)
	}
	return fmt.Sprintf("#%d %s: %s%s (+%d ops)", e.Seq, e.Rule.ID(), e.Root, pos, e.Created)
}

// Stats reports what a driver run did.
type Stats struct {
	// Converged is true when a sweep found nothing to do.
	Converged bool
	// StopReason says why the driver stopped: "converged", "max iterations (N)", "max rewrites (N)", "cycle …",
	// "cancelled: …" (Options.Context).
	StopReason string
	Iterations int
	Rewrites   int
	// Erased counts dead ops the driver removed (ops erased by rewrites are not counted).
	Erased int
	// Rules holds per-rule statistics, in rule-set order (one entry per rule name).
	Rules []*RuleStats
	// Cycle names the rules of a detected rewrite cycle.
	Cycle []string
	// Limited is set when a limit (MaxRewrites, MaxIterations) stopped the driver before it converged: the program
	// is what the rewrites so far made of it, not what the rule set makes of it, and a rule set that grows the
	// program forever looks like this. Firing then names the rules of the last rewrites, most frequent first.
	// CheckLimits turns it into an error.
	Limited bool
	Firing  []string
	// Duration is the time the run took; the rules' Time fields say how much of it went into rewriting.
	Duration time.Duration
}

// RuleStats are one rule's statistics: a rule name's, which sum those of its instances when it is a family rule,
// or one instance's (in Instances).
type RuleStats struct {
	// Name is the rule's name, or the instance's ID (rule.Rule.ID: name[member,…]) in Instances.
	Name string
	// Tried counts the visits of an op of the instance's root kind: the driver asked the automaton for its matches
	// there (a rule name's Tried sums its instances', so an op two instances can root at counts twice). Matched
	// counts the matches the driver then considered, best first, up to and including the one it applied (a match
	// ranked after the applied one at the same visit is not counted; an op visited again counts again). Applied
	// counts the rewrites carried out; Failed the matches whose rewrite could not be (the driver then tried the next
	// match), so Applied + Failed <= Matched.
	Tried, Matched, Applied, Failed int
	// FirstFailure says why the first failed rewrite could not be carried out, and where (the root op, with its
	// source position when the program was read from a file).
	FirstFailure string
	// Time is the time spent rewriting with this rule. MatchTime is the rule's share of the time spent matching:
	// the merged automaton matches every rule rooted at an op kind at once, so the time of a match attempt is
	// divided evenly among the rules tried at that op. Both are estimates from sampled events (see sampler):
	// exact for the first rewrites and attempts, then one event in sampleEvery is timed.
	Time, MatchTime time.Duration
	// Instances are the statistics of a family rule's instances (rule.Rule.Instance set), in set order; nil for a
	// rule that is not a family.
	Instances []*RuleStats
}

// CycleError reports rules that rewrite back and forth.
type CycleError struct{ Rules []string }

func (e *CycleError) Error() string {
	return "rewrite cycle detected between rules " + strings.Join(e.Rules, ", ")
}

// VerifyError reports a program the verifier rejected after a rewrite (with Options.VerifyEach).
type VerifyError struct {
	Rule  *rule.Rule
	Root  string
	Diags diag.Diagnostics
}

func (e *VerifyError) Error() string {
	return fmt.Sprintf("verify-each: the program is invalid after rule %s rewrote %s:\n%s", e.Rule.ID(), e.Root, e.Diags.Error())
}

// Driver applies a rule set to a program greedily, with the semantics of MLIR's GreedyPatternRewriteDriver: a
// worklist seeded with every op (nested regions included), popped one op at a time; the best match at the op is
// applied; everything a rewrite changes goes back on the worklist through the rewriter's listener; ops that become
// dead and have no side effects are erased; sweeps repeat until one changes nothing or a limit is hit.
type Driver struct {
	Program *ir.Program
	Set     *rule.Set
	Match   MatchFunc
	Applier *Applier
	Options Options

	wl        *worklist
	stats     *Stats
	ruleStat  []*RuleStats // by rule index in the set: the instance's statistics
	nameStat  []*RuleStats // by rule index: the statistics of the rule's name, which sum its instances'
	instances map[*RuleStats][]*RuleStats
	byRule    map[*rule.Rule]int // rule positions, for sets whose rules' Index fields are not their positions
	rewriteT  []sampler          // by rule index: the time of its rewrites
	rootStats [][]*RuleStats     // by OpInfo ID: the stats of the rules rooted at that op kind
	matchT    []sampler          // by OpInfo ID: the time of match attempts at ops of that kind
	anyRoot   []*RuleStats
	names     *ir.Numbering
	cycles    *cycleDetector
	// recent holds the rule indexes of the last rewrites (a ring of firingWindow, nrecent written in all), to name
	// the rules still firing when a limit stops the driver.
	recent    []int32
	nrecent   int
	lastCount int // ops pushed by the last seeding: the next worklist's capacity
	// walked and pushed count the ops of the seeding under way; seedAll pushes every op.
	walked, pushed int
	seedAll        bool
	seedEvery      bool // for tests: push every op, as if every kind had rules (see push)
	listeners      ir.Listeners
	// recycling says whether the rewriter's allocator recycles erased ops (see Options.KeepErased).
	recycling bool
	// done is Options.Context's Done channel (nil: never), polled every cancelPoll pops.
	done  <-chan struct{}
	polls int
}

// cancelPoll is how many ops the driver pops between looks at its context: a look costs a few nanoseconds, a pop
// with a match attempt a few hundred.
const cancelPoll = 64

// NewDriver returns a driver for applying set to p with the given matcher; natives resolves native rewrites and
// oracle answers program builtins in rewrite expressions (both may be nil).
func NewDriver(p *ir.Program, set *rule.Set, match MatchFunc, natives map[string]NativeRewrite, oracle rule.Oracle, opts Options) *Driver {
	d := &Driver{Program: p, Set: set, Match: match, Options: opts}
	d.Applier = &Applier{Rewriter: ir.NewRewriter(p.Ctx, nil), Program: p, Natives: natives, Oracle: withParams(oracle, opts.Params)}
	return d
}

// AddListener adds a listener that sees every change the driver's rewriter makes.
func (d *Driver) AddListener(l ir.Listener) { d.listeners = append(d.listeners, l) }

// driverListener feeds the worklist.
type driverListener struct{ d *Driver }

func (l driverListener) OpInserted(op *ir.Op) { l.d.push(op) }
func (l driverListener) OpModified(op *ir.Op) { l.d.push(op) }
func (l driverListener) OpErased(op *ir.Op) {
	l.d.wl.remove(op)
	for i := range op.NumOperands() {
		if v := op.Operand(i); v != nil {
			if def := v.DefiningOp(); def != nil && !op.IsAncestorOf(def) {
				if onlyUsedBy(def, op) {
					l.d.orphan(def) // erasing op leaves it without uses
				}
				l.d.push(def)
			}
		}
	}
}

// UseRemoved makes the producer of v a candidate for erasure when it has no uses left.
func (l driverListener) UseRemoved(v *ir.Value) {
	if def := v.DefiningOp(); def != nil && !def.Erased() {
		if !def.HasUses() {
			l.d.orphan(def)
		}
		l.d.push(def)
	}
}

// orphan marks op as having lost its uses during the run (the listener pushes it on the worklist too). Only such
// ops are erased when dead: an op that had no uses to begin with is an output of the program (GraphNet captures
// have no fetch ops), or the work of a dce pass. The mark matters until the op is popped: if it is not dead
// then, only losing a use again (which marks it again) can make it dead.
func (d *Driver) orphan(op *ir.Op) { op.SetMark(op.Mark() | orphanedBit) }

// onlyUsedBy reports whether every use of def's results is an operand of op (or of an op nested in op).
func onlyUsedBy(def, op *ir.Op) bool {
	for i := range def.NumResults() {
		for u := def.Result(i).FirstUse(); u != nil; u = u.Next() {
			if o := u.Owner(); o != op && !op.IsAncestorOf(o) {
				return false
			}
		}
	}
	return true
}

// Run applies the rules until convergence or a limit. It returns the statistics and, for a rewrite cycle, a
// failed verify-each or a rewrite that failed after changing the program, an error.
func (d *Driver) Run() (*Stats, error) {
	start := time.Now()
	p := d.Program
	opts := d.Options
	maxIter := opts.MaxIterations
	if maxIter <= 0 {
		maxIter = 10
	}
	var rng *rand.Rand
	if opts.Shuffle {
		rng = rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15))
	}
	d.stats = &Stats{}
	d.nrecent = 0
	d.initStats()
	d.wl = newWorklist(max(d.lastCount, p.Body().Len()), rng)
	nops := d.seed()
	maxRewrites := opts.MaxRewrites
	if maxRewrites <= 0 {
		maxRewrites = 20*nops + 10000
	}
	if opts.Trace != nil {
		d.names = ir.NumberValues(p.Body())
	}
	d.cycles = newCycleDetector(nops + 1000)
	if len(d.listeners) == 0 {
		d.Applier.Rewriter.Listener = driverListener{d} // no fan-out to go through for every change
	} else {
		d.Applier.Rewriter.Listener = append(ir.Listeners{driverListener{d}}, d.listeners...)
	}
	alloc := d.Applier.Rewriter.Alloc
	if alloc == nil {
		alloc = p.Allocator()
		d.Applier.Rewriter.Alloc = alloc
	}
	d.recycling = !opts.KeepErased && opts.Trace == nil && len(d.listeners) == 0 && !hasNatives(d.Set)
	alloc.TrackErased(d.recycling)
	defer func() {
		alloc.TrackErased(false)
		d.Applier.Rewriter.Listener = nil
		d.wl.clear()
		d.finishStats()
	}()

	if opts.Context != nil {
		d.done = opts.Context.Done()
	}
	var err error
	for iter := 1; ; iter++ {
		if iter > maxIter {
			d.stopAtLimit(fmt.Sprintf("max iterations (%d)", maxIter))
			break
		}
		d.stats.Iterations = iter
		if iter > 1 {
			d.seed()
		}
		var changed bool
		changed, err = d.sweep(maxRewrites)
		if err != nil || d.stats.StopReason != "" {
			break
		}
		if !changed {
			d.stats.Converged = true
			d.stats.StopReason = "converged"
			break
		}
	}
	d.stats.Duration = time.Since(start)
	return d.stats, err
}

// sweep processes the worklist until it is empty.
func (d *Driver) sweep(maxRewrites int) (bool, error) {
	changed := false
	var buf []*rule.Match
	rw := d.Applier.Rewriter
	alloc := rw.Alloc
	for {
		if d.recycling {
			// Nothing refers to the ops erased since the last pop any more: the worklist dropped them, the
			// matches are used up and no listener or native code saw them.
			alloc.Reuse()
		}
		if d.done != nil {
			if d.polls++; d.polls%cancelPoll == 1 { // the first pop, then every cancelPoll-th
				select {
				case <-d.done:
					cause := context.Cause(d.Options.Context)
					d.stats.StopReason = "cancelled: " + cause.Error()
					return changed, cause
				default:
				}
			}
		}
		op := d.wl.pop()
		if op == nil {
			return changed, nil
		}
		if op.Erased() || op.Block() == nil {
			continue
		}
		orphaned := op.Mark()&orphanedBit != 0
		op.SetMark(0)
		if !d.Options.NoDCE && orphaned && triviallyDead(op) {
			if rw.Erase(op) == nil {
				d.stats.Erased++
				changed = true
			}
			continue
		}
		id := op.Info().ID
		if id >= len(d.rootStats) && len(d.anyRoot) > 0 {
			d.growRoots(id) // an op kind created during the run, tried against the rules that match any op
		}
		var mt *sampler
		if id < len(d.rootStats) {
			for _, rs := range d.rootStats[id] {
				rs.Tried++
			}
			mt = &d.matchT[id]
		}
		for _, rs := range d.anyRoot {
			rs.Tried++
		}
		if mt != nil && mt.want() {
			t0 := time.Now()
			buf = d.Match(buf[:0], op)
			mt.add(time.Since(t0))
		} else {
			buf = d.Match(buf[:0], op)
		}
		for _, m := range buf {
			if d.Options.Enabled != nil && !d.Options.Enabled(m.Rule) {
				continue
			}
			ri := d.indexOf(m.Rule)
			rs := d.ruleStat[ri]
			rs.Matched++
			root := ""
			if d.Options.Trace != nil || d.Options.VerifyEach {
				root = d.describe(op)
			}
			var created []*ir.Op
			var err error
			if rt := &d.rewriteT[ri]; rt.want() {
				t1 := time.Now()
				created, err = d.Applier.Apply(m)
				rt.add(time.Since(t1))
			} else {
				created, err = d.Applier.Apply(m)
			}
			if err != nil {
				var ae *ApplyError
				if errors.As(err, &ae) && !ae.Committed {
					rs.Failed++
					if rs.FirstFailure == "" {
						rs.FirstFailure = failureText(d.Program, ae)
						if name := d.nameStat[ri]; name.FirstFailure == "" {
							name.FirstFailure = rs.FirstFailure
						}
					}
					continue
				}
				return changed, err
			}
			rs.Applied++
			d.stats.Rewrites++
			changed = true
			d.recordFiring(ri)
			if d.Options.Trace != nil {
				d.Options.Trace(TraceEvent{Seq: d.stats.Rewrites, Rule: m.Rule, Root: root, File: d.Program.File, Loc: op.Loc, Created: len(created)})
			}
			if d.Options.VerifyEach {
				if errs := ir.Verify(d.Program).Errors(); len(errs) > 0 {
					return changed, &VerifyError{Rule: m.Rule, Root: root, Diags: errs}
				}
			}
			if d.recycling && d.cycles.fingerprinting() {
				// Fingerprints identify ops by address: recycling would alias them.
				d.recycling = false
				alloc.TrackErased(false)
			}
			if cyc := d.cycles.record(m.Rule, created); cyc != nil {
				d.stats.Cycle = cyc
				d.stats.StopReason = "cycle between rules " + strings.Join(cyc, ", ")
				return changed, &CycleError{Rules: cyc}
			}
			if d.stats.Rewrites >= maxRewrites {
				d.stopAtLimit(fmt.Sprintf("max rewrites (%d)", maxRewrites))
				return changed, nil
			}
			break
		}
	}
}

// firingWindow is how many of the last rewrites name the rules still firing when a limit stops the driver.
const firingWindow = 256

// recordFiring notes a rewrite by the rule at index ri.
func (d *Driver) recordFiring(ri int) {
	if d.recent == nil {
		d.recent = make([]int32, firingWindow)
	}
	d.recent[d.nrecent%firingWindow] = int32(ri)
	d.nrecent++
}

// stopAtLimit stops the driver at a limit (reason: "max rewrites (N)"), naming the rules of the last rewrites.
func (d *Driver) stopAtLimit(reason string) {
	d.stats.StopReason = reason
	d.stats.Limited = true
	count := map[string]int{}
	for _, ri := range d.recent[:min(d.nrecent, firingWindow)] {
		count[d.ruleStat[ri].Name]++
	}
	d.stats.Firing = d.stats.Firing[:0]
	for name := range count {
		d.stats.Firing = append(d.stats.Firing, name)
	}
	sort.Slice(d.stats.Firing, func(i, j int) bool {
		a, b := d.stats.Firing[i], d.stats.Firing[j]
		if count[a] != count[b] {
			return count[a] > count[b]
		}
		return a < b
	})
}

// hasNatives reports whether a rule set declares or calls native Go code, which might keep pointers to ops.
func hasNatives(set *rule.Set) bool {
	if len(set.Natives) > 0 {
		return true
	}
	for _, r := range set.Rules {
		for _, act := range r.Actions {
			if _, ok := act.(*rule.NativeRewrite); ok {
				return true
			}
		}
	}
	return false
}

// failureText describes a failed rewrite: the error, at the root op.
func failureText(p *ir.Program, ae *ApplyError) string {
	at := ae.Root.Name()
	if l := ae.Root.Loc; l.IsKnown() && p.File != "" {
		at = fmt.Sprintf("%s at %s:%d:%d", at, p.File, l.Line, l.Col)
	} else if l.IsKnown() {
		at = fmt.Sprintf("%s at line %d, column %d", at, l.Line, l.Col)
	}
	return fmt.Sprintf("%v (at %s)", ae.Err, at)
}

func (d *Driver) describe(op *ir.Op) string {
	if d.names == nil {
		return op.Name()
	}
	return d.names.Describe(op)
}

// triviallyDead reports whether op can be erased: no result is used, it is registered (unregistered ops may have
// effects nobody declared), it is no output op (ir.IsOutputOp: whatever its catalog declares), has no side effects,
// is no terminator, and writes no operand's buffer (relu_(a) with an unused result still changes what later readers
// of a see).
func triviallyDead(op *ir.Op) bool {
	s := op.Schema()
	if s == nil || op.HasUses() || ir.IsOutputOp(op) || s.Has(ir.SideEffects) || s.Has(ir.Terminator) ||
		op.Name() == ir.ModuleOpName {
		return false
	}
	if len(s.Inplace) > 0 {
		for i := range op.NumOperands() {
			if analysis.Writes(op, i) {
				return false
			}
		}
	}
	return true
}

// LabelFilter returns an Options.Enabled filter: a rule is disabled if it has a label in disable, unless it also
// has one in enable (or its name is in enable). nil means every rule is enabled.
func LabelFilter(enable, disable []string) func(*rule.Rule) bool {
	if len(disable) == 0 {
		return nil
	}
	off := map[string]bool{}
	for _, l := range disable {
		off[l] = true
	}
	on := map[string]bool{}
	for _, l := range enable {
		on[l] = true
	}
	return func(r *rule.Rule) bool {
		if on[r.Name] {
			return true
		}
		disabled := off[r.Name]
		for _, l := range r.Labels {
			if on[l] {
				return true
			}
			disabled = disabled || off[l]
		}
		return !disabled
	}
}

// withParams gives oracle the parameters p, unless it gives each of them already (a RulePass's oracle does).
func withParams(oracle rule.Oracle, p rule.Params) rule.Oracle {
	for name, v := range p {
		if got, ok := rule.OracleParam(oracle, name); !ok || !rule.Equal(got, v) {
			return rule.WithParams(oracle, p)
		}
	}
	return oracle
}
