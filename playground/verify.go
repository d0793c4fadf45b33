package playground

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/pirdrr/drr/compare"
	"github.com/pirdrr/drr/ir"

	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/verify"
)

// Verification: drrc verify's program mode on a run's input and pipeline. Every call into packages interp and verify is in
// this file.

// verifyRequest is the body of POST /api/runs/{id}/verify; zero fields take drrc verify's defaults (3 runs from
// seed 1, relative tolerance 1e-5, dynamic dims batch 1 and size 32). With Stream the answer is a stream of JSON
// lines (application/x-ndjson): a verifyEvent when the passes ran and after each run, the table of the runs so far
// in each, and the final table last; the client cancels by closing the request.
type verifyRequest struct {
	Runs   int     `json:"runs"`
	Seed   uint64  `json:"seed"`
	RTol   float64 `json:"rtol"`
	Batch  int     `json:"batch"`
	Size   int     `json:"size"`
	Stream bool    `json:"stream"`
}

// The bounds of a verification's request (the page's controls show them; /api/info lists them).
const (
	verifyMaxRuns  = 10
	verifyMaxBatch = 64
	verifyMaxSize  = 1024
)

// verifyEvent is a line of a streamed verification: its phase ("passes" while the pipeline runs on the copy,
// "run" while the interpreter evaluates run Done+1 of Runs, "done" for the final table), and the table of the
// runs finished so far (the final one with "done").
type verifyEvent struct {
	Phase  string        `json:"phase"`
	Done   int           `json:"done"`
	Runs   int           `json:"runs"`
	Result *verifyResult `json:"result,omitempty"`
}

// verifyResult is the per-output error table of drrc verify.
type verifyResult struct {
	OK bool `json:"ok"`
	// Error says why the verification failed or stopped: an op the interpreter cannot evaluate (named, with its
	// position), outputs beyond the tolerance, the time budget.
	Error string `json:"error,omitempty"`
	// Runs is the number of runs asked for; Done those evaluated. Partial says that the verification stopped before
	// its last run (the time budget ran out, or the client cancelled) and the table holds the runs done: Error says
	// why. An error of the passes or the interpreter ends a verification without Partial.
	Runs    int            `json:"runs"`
	Done    int            `json:"done"`
	Partial bool           `json:"partial,omitempty"`
	Seed    uint64         `json:"seed"`
	RTol    float64        `json:"rtol"`
	Batch   int            `json:"batch"`
	Size    int            `json:"size"`
	Outputs []verifyOutput `json:"outputs"`
	// Unmatched are the outputs of either program without a counterpart in the other.
	Unmatched []string `json:"unmatched,omitempty"`
	// Published are the shadow outputs the passes added that publish a parameter unchanged (compare.Publication,
	// add_shadow_output_after_dead_parameter's keep-alives): no model outputs, not compared.
	Published []string `json:"published,omitempty"`
	// Anchored is the number of sink outputs given a fetch (programs without fetch ops, such as GraphNet's).
	Anchored int `json:"anchored,omitempty"`
	// Kernels names the kernel path the interpreter ran on (interp.Kernels: "avx512", "avx2" or "go").
	Kernels string `json:"kernels,omitempty"`
	// PassMillis and CompareMillis are the time of the passes on the copy and of the runs evaluated; Millis the
	// whole verification's.
	PassMillis    float64 `json:"passMs"`
	CompareMillis float64 `json:"compareMs"`
	Millis        float64 `json:"ms"`
}

// verifyOutput is a line of the table: an output, its shape, its largest absolute and relative errors.
type verifyOutput struct {
	Name    string `json:"name"`
	Shape   []int  `json:"shape"`
	MaxAbs  number `json:"maxAbs"`
	MaxRel  number `json:"maxRel"`
	OK      bool   `json:"ok"`
	Problem string `json:"problem,omitempty"`
	// Worst is the worst element of an output beyond the tolerance (nil for the others): every field is present,
	// a value of 0 too.
	Worst *worstElement `json:"worst,omitempty"`
}

// worstElement is where an output is furthest from its value before the passes: the run, the flat index, the value
// before and after.
type worstElement struct {
	Run    int    `json:"run"`
	Index  int    `json:"index"`
	Before number `json:"before"`
	After  number `json:"after"`
}

// Interpreter bounds of a verification: no tensor beyond verifyMaxElements elements (128 MiB in float64) and no
// op beyond verifyMaxMACs multiply-accumulates (a second or so), so that one op cannot outlast the time budget by
// much.
const (
	verifyMaxElements = 1 << 24
	verifyMaxMACs     = 1 << 31
)

// verify answers POST /api/runs/{id}/verify: the run's pipeline is run again on a copy of its input, and both are
// evaluated by the reference interpreter on the same random inputs and weights, one run at a time, so that a
// stream reports each run and a verification stopped by its budget or by the client still has the runs done.
func (s *Server) verify(w http.ResponseWriter, r *http.Request) {
	rn := s.runOf(w, r)
	if rn == nil {
		return
	}
	var req verifyRequest
	if !readJSON(w, r, 1<<16, &req) {
		return
	}
	if req.Runs < 0 || req.Runs > verifyMaxRuns || req.RTol < 0 || req.Batch < 0 || req.Batch > verifyMaxBatch || req.Size < 0 ||
		req.Size > verifyMaxSize {
		writeError(w, http.StatusBadRequest, "verify: runs 1–%d, rtol > 0, batch 1–%d, size 1–%d", verifyMaxRuns, verifyMaxBatch, verifyMaxSize)
		return
	}
	release, err := s.gate.enter(r.Context())
	if err != nil {
		writeError(w, statusOf(err), "%v", err)
		return
	}
	in := rn.stages[0]
	in.mu.Lock()
	p := in.prog.Clone()
	in.mu.Unlock()

	opts := verify.PipelineOptions{
		Compare:  compare.Options{Runs: cmp.Or(req.Runs, 3), Seed: cmp.Or(req.Seed, 1), RelTol: cmp.Or(req.RTol, 1e-5)},
		Registry: s.opts.Registry,
	}
	opts.Compare.Batch, opts.Compare.DynamicSize = cmp.Or(req.Batch, 1), cmp.Or(req.Size, 32)
	opts.Compare.MaxElements, opts.Compare.MaxMACs = verifyMaxElements, verifyMaxMACs
	ctx, cancel := context.WithTimeoutCause(context.Background(), s.lim.VerifyTime, timeBudget("verification", s.lim.VerifyTime))
	defer cancel() // here, not in the goroutine: the budget's case below must mean the budget ran out
	opts.Rewrite = rewriter.Options{Context: ctx, Target: rn.target, Params: rn.params}
	opts.Compare.Context = ctx // the interpreter stops between ops once the budget runs out or the client has gone

	var stream *json.Encoder
	var flush func()
	if req.Stream {
		w.Header().Set("Content-Type", "application/x-ndjson; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusOK)
		stream = json.NewEncoder(w)
		stream.SetEscapeHTML(false)
		rc := http.NewResponseController(w)
		flush = func() { _ = rc.Flush() }
	}
	send := func(ev verifyEvent) {
		if stream != nil {
			_ = stream.Encode(ev)
			flush()
		}
	}

	start := time.Now()
	// The worker sends the table after the passes and after each run, and closes events when it is done. Past the
	// budget or a cancellation the answer goes out with the runs done; the run under way stops before its next op
	// (the interpreter looks at ctx, cancelled when this handler returns), holding its turn at the gate until then
	// (so the server never evaluates more than Concurrent programs at once); no run starts after stop.
	events := make(chan verifyEvent, opts.Compare.Runs+2)
	var stop atomic.Bool
	go func() {
		defer release()
		defer close(events)
		defer func() {
			if v := recover(); v != nil {
				s.opts.Logf("internal error in verify: %v", v)
				res := newVerifyResult(opts)
				res.Error = "internal error in the interpreter (see the server's log)"
				events <- verifyEvent{Phase: "done", Result: res}
			}
		}()
		verifyRuns(p, rn.pipeline, opts, &stop, events)
	}()
	last := newVerifyResult(opts)
	final := func(res *verifyResult) {
		res.Millis = float64(time.Since(start).Microseconds()) / 1000
		if stream != nil {
			send(verifyEvent{Phase: "done", Done: res.Done, Runs: res.Runs, Result: res})
			return
		}
		writeJSON(w, http.StatusOK, res)
	}
	for {
		select {
		case ev, ok := <-events:
			if !ok || ev.Phase == "done" {
				if ev.Result != nil {
					last = ev.Result
				}
				final(last)
				return
			}
			if ev.Result != nil {
				last = ev.Result
			}
			send(ev)
		case <-ctx.Done():
			stop.Store(true)
			// An answer that came as the budget ran out wins over the budget (select picks either of two ready cases).
			for drained := false; !drained; {
				select {
				case ev, ok := <-events:
					if ok && ev.Result != nil {
						last = ev.Result
					}
					if !ok || ev.Phase == "done" {
						final(last)
						return
					}
				default:
					drained = true
				}
			}
			stopped := *last
			stopped.OK, stopped.Partial = false, true
			stopped.Error = fmt.Sprintf("%v after %d of %d runs", context.Cause(ctx), last.Done, last.Runs)
			final(&stopped)
			return
		case <-r.Context().Done():
			stop.Store(true) // the client cancelled: no run starts after the one under way
			return
		}
	}
}

// newVerifyResult is the table of a verification before any run.
func newVerifyResult(opts verify.PipelineOptions) *verifyResult {
	return &verifyResult{Runs: opts.Compare.Runs, Seed: opts.Compare.Seed, RTol: opts.Compare.RelTol, Batch: opts.Compare.Batch, Size: opts.Compare.DynamicSize,
		Outputs: []verifyOutput{}}
}

// verifyRuns verifies pl on p one run at a time (run k with seed Seed+k, as drrc verify's K runs: the same data),
// sending the table after the passes and after each run to events, then the final one ("done"). It stops before a
// run when stop is set. A mismatch does not stop it (the table shows the worst of every run); an evaluation error
// does.
func verifyRuns(p *ir.Program, pl rewriter.Pipeline, opts verify.PipelineOptions, stop *atomic.Bool, events chan<- verifyEvent) {
	runs := opts.Compare.Runs
	res := newVerifyResult(opts)
	finish := func(err error) {
		res.Partial = err == nil && res.Done < runs // stopped; an error ends it instead (and says why)
		if err != nil {
			res.Error, res.OK = err.Error(), false
		} else if res.Partial {
			res.Error, res.OK = fmt.Sprintf("cancelled after %d of %d runs", res.Done, runs), false
		}
		events <- verifyEvent{Phase: "done", Done: res.Done, Runs: runs, Result: res}
	}
	events <- verifyEvent{Phase: "passes", Runs: runs}
	one := opts
	one.Compare.Runs = 1
	pv, err := verify.Pipeline(p, pl, one)
	if pv != nil {
		res.Anchored = pv.AnchoredSinks
		res.PassMillis = float64(pv.PassTime.Microseconds()) / 1000
		res.CompareMillis = float64(pv.CompareTime.Microseconds()) / 1000
	}
	if pv == nil || pv.Report == nil || err != nil && !errors.Is(err, compare.ErrMismatch) {
		finish(err)
		return
	}
	merged := pv.Report
	for k := 1; ; k++ {
		res.Done = k
		fillVerify(res, merged)
		if k == runs {
			break
		}
		snapshot := *res // the handler encodes it while the next run fills res: nothing shared
		snapshot.Outputs = slices.Clone(res.Outputs)
		snapshot.Unmatched = slices.Clone(res.Unmatched)
		snapshot.Published = slices.Clone(res.Published)
		events <- verifyEvent{Phase: "run", Done: k, Runs: runs, Result: &snapshot}
		if stop.Load() {
			finish(nil)
			return
		}
		one.Compare.Seed = opts.Compare.Seed + uint64(k)
		t0 := time.Now()
		rep, err := compare.Programs(pv.Before, pv.After, one.Compare)
		res.CompareMillis += float64(time.Since(t0).Microseconds()) / 1000
		if rep == nil || err != nil && !errors.Is(err, compare.ErrMismatch) {
			finish(err)
			return
		}
		for i := range rep.Outputs {
			rep.Outputs[i].Run = k
		}
		merged = mergeReports(merged, rep)
	}
	finish(nil)
}

// mergeReports adds the outputs of a report of one more run to a report: the larger errors, the worst element of
// the run with the largest relative error, OK only when every run was.
func mergeReports(a, b *compare.Report) *compare.Report {
	out := *a
	out.Runs = a.Runs + b.Runs
	out.Outputs = slices.Clone(a.Outputs)
	byName := map[string]int{}
	for i, o := range out.Outputs {
		byName[o.Name] = i
	}
	for _, o := range b.Outputs {
		i, ok := byName[o.Name]
		if !ok {
			out.Outputs = append(out.Outputs, o)
			continue
		}
		m := &out.Outputs[i]
		if o.MaxRel > m.MaxRel || math.IsNaN(o.MaxRel) && !math.IsNaN(m.MaxRel) {
			abs := max(m.MaxAbs, o.MaxAbs)
			ok := m.OK && o.OK
			problem := cmp.Or(m.Problem, o.Problem)
			*m = o
			m.MaxAbs, m.OK, m.Problem = abs, ok, problem
		} else {
			m.MaxAbs = max(m.MaxAbs, o.MaxAbs)
			m.OK = m.OK && o.OK
			m.Problem = cmp.Or(m.Problem, o.Problem)
		}
	}
	for _, u := range b.Unmatched {
		if !slices.Contains(out.Unmatched, u) {
			out.Unmatched = append(out.Unmatched, u)
		}
	}
	return &out
}

// fillVerify puts interp's report into the table: its outputs, and when some differ, the error naming them as
// compare.Programs does.
func fillVerify(res *verifyResult, rep *compare.Report) {
	res.RTol, res.Kernels = rep.RelTol, rep.Kernels
	res.Outputs = []verifyOutput{}
	var bad []string
	for _, o := range rep.Outputs {
		vo := verifyOutput{Name: o.Name, Shape: o.Shape, MaxAbs: number(o.MaxAbs), MaxRel: number(o.MaxRel), OK: o.OK, Problem: o.Problem}
		switch {
		case o.OK:
		case o.Problem != "":
			bad = append(bad, fmt.Sprintf("%s (%s)", o.Name, o.Problem))
		default:
			vo.Worst = &worstElement{Run: o.Run, Index: o.Index, Before: number(o.Before), After: number(o.After)}
			bad = append(bad, fmt.Sprintf("%s (max rel %.3g > tol %.3g, max abs %.3g)", o.Name, o.MaxRel, o.Tol, o.MaxAbs))
		}
		res.Outputs = append(res.Outputs, vo)
	}
	res.Unmatched = rep.Unmatched
	bad = append(bad, rep.Unmatched...)
	res.Published = nil
	for _, p := range rep.Published {
		res.Published = append(res.Published, p.String())
	}
	res.OK = len(bad) == 0
	res.Error = ""
	if !res.OK {
		res.Error = fmt.Sprintf("%v: %s", compare.ErrMismatch, strings.Join(bad, "; "))
	}
}

// number is a float64 that JSON carries even when it is NaN or infinite (as the strings "NaN", "Infinity",
// "-Infinity", which JavaScript's Number() reads back).
type number float64

// MarshalJSON writes the number, or its name when JSON has no number for it.
func (x number) MarshalJSON() ([]byte, error) {
	f := float64(x)
	switch {
	case math.IsNaN(f):
		return []byte(`"NaN"`), nil
	case math.IsInf(f, 1):
		return []byte(`"Infinity"`), nil
	case math.IsInf(f, -1):
		return []byte(`"-Infinity"`), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}
