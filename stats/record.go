package stats

import (
	"sync"

	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
)

// Recorder holds the cost figures of a program measured around the passes of an instrumented pipeline.
//
// By default it measures on the goroutine running the pipeline, when each pass ends. A caller with read-only work
// to do on the same program can schedule the measurements around it (the cost model reads the whole program, a
// tenth of drrc apply's work on a large one): StartBefore measures the program before the first pass on another
// goroutine while the caller checks it, and with MeasureLastAtEnd the program after the last pass is measured when
// the record is made (Program), after the caller has checked and written the result. The caller must not change
// the program while a measurement may run: from StartBefore to Wait (or to the first pass, which waits), and with
// MeasureLastAtEnd from the end of the last pass to Program.
type Recorder struct {
	model   *cost.Model
	before  *cost.Summary
	after   []*cost.Summary // by pass position
	atEnd   bool
	last    func() // the measurement after the last pass, with atEnd, until Program makes it
	running sync.WaitGroup
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
	if r.atEnd && mp.index == len(r.after)-1 {
		i := mp.index
		r.last = func() { r.after[i] = r.measure(p) }
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

// MeasureLastAtEnd makes the Recorder measure the program after the last pass when Program makes the record, not
// when the pass returns, so that the caller checks and writes the result first: drrc apply's output is then
// written without the measurement competing for the cores (at gen.py's 1M blocks the cost model's summary of the
// result takes as much CPU as checking it or printing it; measured on a goroutine of its own alongside them, it
// made the printing a quarter slower, and the run no faster). The caller must not change the program from the end
// of the run until Program returns.
func (r *Recorder) MeasureLastAtEnd() { r.atEnd = true }

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
// measurements running on other goroutines, and makes the one MeasureLastAtEnd left for it.
func (r *Recorder) Program(name string, results []*rewriter.PassResult, p *ir.Program) Program {
	r.Wait()
	if r.last != nil {
		r.last()
		r.last = nil
	}
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
