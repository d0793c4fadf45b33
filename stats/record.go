package stats

import (
	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
)

// Recorder holds the cost figures of a program measured around the passes of an instrumented pipeline.
type Recorder struct {
	model  *cost.Model
	before *cost.Summary
	after  []*cost.Summary // by pass position
}

// Instrument returns pl with every pass wrapped so that it measures the program with m: before the first pass and
// after each (the passes keep their names). The Recorder turns the run's results into a Program record.
func Instrument(pl rewriter.Pipeline, m *cost.Model) (rewriter.Pipeline, *Recorder) {
	rec := &Recorder{model: m, after: make([]*cost.Summary, len(pl))}
	out := make(rewriter.Pipeline, len(pl))
	for i, p := range pl {
		out[i] = &measuredPass{Pass: p, rec: rec, index: i}
	}
	return out, rec
}

// measuredPass runs a pass and measures the program around it.
type measuredPass struct {
	rewriter.Pass
	rec   *Recorder
	index int
}

// Run runs the pass, measuring the program before it (the first pass) and after it.
func (mp *measuredPass) Run(p *ir.Program, env *rewriter.Env) (*rewriter.PassResult, error) {
	if mp.index == 0 {
		mp.rec.before = mp.rec.measure(p)
	}
	res, err := mp.Pass.Run(p, env)
	mp.rec.after[mp.index] = mp.rec.measure(p)
	return res, err
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
// pass, After after the last that ran. With no passes, p (if not nil) is measured for both.
func (r *Recorder) Program(name string, results []*rewriter.PassResult, p *ir.Program) Program {
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
