package playground

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/verify"
)

// Verification: drrc verify's program mode on a run's input and pipeline. Every call into packages interp and verify is in
// this file.

// verifyRequest is the body of POST /api/runs/{id}/verify; zero fields take drrc verify's defaults (3 runs from
// seed 1, relative tolerance 1e-5, dynamic dims batch 1 and size 32).
type verifyRequest struct {
	Runs  int     `json:"runs"`
	Seed  uint64  `json:"seed"`
	RTol  float64 `json:"rtol"`
	Batch int     `json:"batch"`
	Size  int     `json:"size"`
}

// verifyResult is the per-output error table of drrc verify.
type verifyResult struct {
	OK bool `json:"ok"`
	// Error says why the verification failed or stopped: an op the interpreter cannot evaluate (named, with its
	// position), outputs beyond the tolerance, the time budget.
	Error   string         `json:"error,omitempty"`
	Runs    int            `json:"runs"`
	Seed    uint64         `json:"seed"`
	RTol    float64        `json:"rtol"`
	Outputs []verifyOutput `json:"outputs"`
	// Unmatched are the outputs of either program without a counterpart in the other.
	Unmatched []string `json:"unmatched,omitempty"`
	// Published are the shadow outputs the passes added that publish a parameter unchanged (interp.Publication,
	// add_shadow_output_after_dead_parameter's keep-alives): no model outputs, not compared.
	Published []string `json:"published,omitempty"`
	// Anchored is the number of sink outputs given a fetch (programs without fetch ops, such as GraphNet's).
	Anchored int `json:"anchored,omitempty"`
	// Kernels names the kernel path the interpreter ran on (interp.Kernels: "avx512", "avx2" or "go").
	Kernels string  `json:"kernels,omitempty"`
	Millis  float64 `json:"ms"`
}

// verifyOutput is a line of the table: an output, its shape, its largest absolute and relative errors.
type verifyOutput struct {
	Name    string `json:"name"`
	Shape   []int  `json:"shape"`
	MaxAbs  number `json:"maxAbs"`
	MaxRel  number `json:"maxRel"`
	OK      bool   `json:"ok"`
	Problem string `json:"problem,omitempty"`
	// Where is the worst element (run, flat index, value before and after) of an output beyond the tolerance.
	Run    int    `json:"run,omitempty"`
	Index  int    `json:"index,omitempty"`
	Before number `json:"before,omitempty"`
	After  number `json:"after,omitempty"`
}

// Interpreter bounds of a verification: no tensor beyond verifyMaxElements elements (128 MiB in float64) and no
// op beyond verifyMaxMACs multiply-accumulates (a second or so), so that one op cannot outlast the time budget by
// much.
const (
	verifyMaxElements = 1 << 24
	verifyMaxMACs     = 1 << 31
)

// verify answers POST /api/runs/{id}/verify: the run's pipeline is run again on a copy of its input, and both are
// evaluated by the reference interpreter on the same random inputs and weights.
func (s *Server) verify(w http.ResponseWriter, r *http.Request) {
	rn := s.runOf(w, r)
	if rn == nil {
		return
	}
	var req verifyRequest
	if !readJSON(w, r, 1<<16, &req) {
		return
	}
	if req.Runs < 0 || req.Runs > 10 || req.RTol < 0 || req.Batch < 0 || req.Batch > 64 || req.Size < 0 || req.Size > 1024 {
		writeError(w, http.StatusBadRequest, "verify: runs 1–10, rtol > 0, batch 1–64, size 1–1024")
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

	opts := verify.VerifyOptions{
		CompareOptions: interp.CompareOptions{Runs: req.Runs, Seed: req.Seed, RelTol: req.RTol},
		Registry:       s.opts.Registry,
	}
	if opts.Runs == 0 {
		opts.Runs = 3
	}
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	if opts.RelTol == 0 {
		opts.RelTol = 1e-5
	}
	opts.Batch, opts.DynamicSize = req.Batch, req.Size
	opts.MaxElements, opts.MaxMACs = verifyMaxElements, verifyMaxMACs
	ctx, cancel := context.WithTimeoutCause(context.Background(), s.lim.VerifyTime, timeBudget("verification", s.lim.VerifyTime))
	defer cancel() // here, not in the goroutine: the budget's case below must mean the budget ran out
	opts.Rewrite = rewriter.Options{Context: ctx, Target: rn.target, Params: rn.params}

	start := time.Now()
	type outcome struct {
		pv  *verify.PassVerification
		err error
	}
	done := make(chan outcome, 1)
	// The interpreter does not look at a context: past the budget the answer goes out, and the evaluation finishes
	// on its own, holding its turn at the gate until then (so the server never evaluates more than Concurrent
	// programs at once).
	go func() {
		defer release()
		defer func() {
			if v := recover(); v != nil {
				s.opts.Logf("internal error in verify: %v", v)
				done <- outcome{err: errors.New("internal error in the interpreter (see the server's log)")}
			}
		}()
		pv, err := verify.VerifyPasses(p, rn.pipeline, opts)
		done <- outcome{pv, err}
	}()
	res := verifyResult{Runs: opts.Runs, Seed: opts.Seed, RTol: opts.RelTol, Outputs: []verifyOutput{}}
	select {
	case o := <-done:
		fillVerify(&res, o.pv, o.err)
	case <-ctx.Done():
		// An answer that came as the budget ran out wins over the budget (select picks either of two ready cases).
		select {
		case o := <-done:
			fillVerify(&res, o.pv, o.err)
		default:
			res.Error = context.Cause(ctx).Error()
		}
	case <-r.Context().Done():
		return
	}
	res.Millis = float64(time.Since(start).Microseconds()) / 1000
	writeJSON(w, http.StatusOK, res)
}

// fillVerify turns interp's verification into the table.
func fillVerify(res *verifyResult, pv *verify.PassVerification, err error) {
	if err != nil {
		res.Error = err.Error()
	}
	if pv == nil {
		return
	}
	res.Anchored = pv.AnchoredSinks
	rep := pv.Report
	if rep == nil {
		return
	}
	res.Runs, res.RTol, res.Kernels = rep.Runs, rep.RelTol, rep.Kernels
	for _, o := range rep.Outputs {
		vo := verifyOutput{Name: o.Name, Shape: o.Shape, MaxAbs: number(o.MaxAbs), MaxRel: number(o.MaxRel), OK: o.OK, Problem: o.Problem}
		if !o.OK && o.Problem == "" {
			vo.Run, vo.Index, vo.Before, vo.After = o.Run, o.Index, number(o.Before), number(o.After)
		}
		res.Outputs = append(res.Outputs, vo)
	}
	res.Unmatched = rep.Unmatched
	for _, p := range rep.Published {
		res.Published = append(res.Published, p.String())
	}
	res.OK = err == nil && rep.OK()
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
