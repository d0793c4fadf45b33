package stats

import (
	"sync"

	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
)

// Recorder holds the cost figures of a program measured around the passes of an instrumented pipeline.
//
// By default it measures on the goroutine running the pipeline. A caller with read-only work to do on the same
// program can overlap the measurements with it (the cost model reads the whole program, a tenth of drrc apply's
// work on a large one): StartBefore measures the program before the first pass on another goroutine while the
// caller checks it, and with Background the program after the last pass is measured on another goroutine while
// the caller checks and prints the result. The caller must not change the program while a measurement runs:
// from StartBefore to Wait (or to the first pass, which waits), and from the end of the last pass to Wait (or
// Program, which waits).
type Recorder struct {
	model      *cost.Model
	before     *cost.Summary
	after      []*cost.Summary // by pass position
	background bool
	running    sync.WaitGroup
}

// Instrument returns pl with every pass wrapped so that it measures the program with m: before the first pass and
// after each (the passes keep their names). The Recorder turns the run's results into a Program record.
func Instrument(pl rewriter.Pipeline, m *cost.Model) (rewriter.Pipeline, *Recorder) {
	rec := NewRecorder(m)
	return rec.Instrument(pl), rec
}

// NewRecorder returns a Recorder measuring with m, for a pipeline its Instrument wraps.
func NewRecorder(m *cost.Model) *Recorder { return &Recorder{model: m} }

// Instrument returns pl with every pass wrapped so that it measures the program into r: before the first pass and
// after each. A Recorder instruments one pipeline.
func (r *Recorder) Instrument(pl rewriter.Pipeline) rewriter.Pipeline {
	r.after = make([]*cost.Summary, len(pl))
	out := make(rewriter.Pipeline, len(pl))
	for i, p := range pl {
		out[i] = &measuredPass{Pass: p, rec: r, index: i}
	}
	return out
}

// measuredPass runs a pass and measures the program around it.
type measuredPass struct {
	rewriter.Pass
	rec   *Recorder
	index int
}

// Run runs the pass, measuring the program before it (the first pass) and after it.
func (mp *measuredPass) Run(p *ir.Program, env *rewriter.Env) (*rewriter.PassResult, error) {
	r := mp.rec
	if mp.index == 0 {
		r.Wait()
		if r.before == nil {
			r.before = r.measure(p)
		}
	}
	res, err := mp.Pass.Run(p, env)
	if r.background && mp.index == len(r.after)-1 {
		r.start(func() { r.after[mp.index] = r.measure(p) })
	} else {
		r.after[mp.index] = r.measure(p)
	}
	return res, err
}

// StartBefore starts measuring p, the program the first pass will be given, on another goroutine: the caller may
// read p meanwhile (check it), not change it, until Wait returns or the first pass starts.
func (r *Recorder) StartBefore(p *ir.Program) {
	r.start(func() { r.before = r.measure(p) })
}

// Background makes the Recorder measure the program after the last pass on another goroutine, so that the
// caller's reading of the result (checking, printing) overlaps it: the caller must not change the program from
// the end of the run until Wait or Program returns.
func (r *Recorder) Background() { r.background = true }

// Wait waits for the measurements running on other goroutines.
func (r *Recorder) Wait() { r.running.Wait() }

func (r *Recorder) start(measure func()) {
	r.running.Add(1)
	go func() {
		defer r.running.Done()
		measure()
	}()
}

func (r *Recorder) measure(p *ir.Program) *cost.Summary {
	s := r.model.Summarize(p)
	return &s
}

// Unwrap returns the pass an instrumented pass wraps (the pass itself for any other).
func Unwrap(p rewriter.Pass) rewriter.Pass {
	if mp, ok := p.(*measuredPass); ok {
		return mp.Pass
	}
	return p
}

// Program returns the record of the run whose pass results are results: Before is the program before the first
// pass, After after the last that ran. With no passes, p (if not nil) is measured for both. It waits for the
// measurements running on other goroutines.
func (r *Recorder) Program(name string, results []*rewriter.PassResult, p *ir.Program) Program {
	r.Wait()
	out := Program{Program: name, Before: r.before, Passes: []Pass{}}
	for i, pr := range results {
		var after *cost.Summary
		if i < len(r.after) {
			after = r.after[i]
		}
		out.Passes = append(out.Passes, FromPassResult(pr, after))
		if after != nil {
			out.After = after
		}
	}
	if out.Before == nil && p != nil {
		out.Before = r.measure(p)
	}
	if out.After == nil {
		out.After = out.Before
	}
	return out
}
