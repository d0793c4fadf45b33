package playground

import (
	"net/http"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/matcher"
	"github.com/pirdrr/drr/rewriter"
)

// explainRequest is the body of POST /api/runs/{id}/explain: an op of a stage.
type explainRequest struct {
	Stage int    `json:"stage"`
	Op    string `json:"op"` // its key
}

// explainResult is what every rule of the run makes of the op (drrc explain).
type explainResult struct {
	Op string `json:"op"` // the op, as drrc explain heads its answer: %3 = pd_op.conv2d
	// Rules has one entry per rule whose root could be the op, of every rule set the run ran (the editor's first).
	Rules []explanation `json:"rules"`
}

// explanation is matcher.Explanation for the page.
type explanation struct {
	Set   string `json:"set"`  // the pass the rule runs in ("rules": the editor's)
	Rule  string `json:"rule"` // the rule instance's ID
	File  string `json:"file"`
	Line  int    `json:"line"`
	Match bool   `json:"match"`
	// Bindings render the match; Bound are the keys of the ops it bound.
	Bindings []binding `json:"bindings,omitempty"`
	Bound    []string  `json:"bound,omitempty"`
	// Failure is the first check that failed; Others those of the other alternatives tried.
	Failure *failure  `json:"failure,omitempty"`
	Others  []failure `json:"others,omitempty"`
	Text    string    `json:"text"` // as drrc explain prints it
}

type binding struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type failure struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
}

// explain answers POST /api/runs/{id}/explain: for an op of a stage, each rule's match or the first check that
// failed, as drrc explain reports it.
func (s *Server) explain(w http.ResponseWriter, r *http.Request) {
	rn := s.runOf(w, r)
	if rn == nil {
		return
	}
	var req explainRequest
	if !readJSON(w, r, 1<<16, &req) {
		return
	}
	if req.Stage < 0 || req.Stage >= len(rn.stages) {
		writeError(w, http.StatusBadRequest, "stage %d: the run has stages 0 to %d", req.Stage, len(rn.stages)-1)
		return
	}
	st := rn.stages[req.Stage]
	st.mu.Lock()
	defer st.mu.Unlock()
	op := st.opByKey(req.Op)
	if op == nil {
		writeError(w, http.StatusNotFound, "stage %d has no op %q", req.Stage, req.Op)
		return
	}
	st.collectParams()
	num := st.numbering()
	rename := st.renamer() // the stable ids (stable.go), as the graph shows them
	res := explainResult{Op: rename.text(num.Describe(op)), Rules: []explanation{}}
	oracle := rule.WithParams(rewriter.NewOracle(st.prog, s.opts.Registry), rn.params)
	for _, ns := range rn.ruleSets {
		for _, e := range matcher.Explain(ns.set, "", op, oracle, num) {
			x := explanation{Set: ns.pass, Rule: e.Rule.ID(), File: e.Rule.Pos.Filename, Line: e.Rule.Pos.Line,
				Match: e.Match != nil, Text: rename.text(e.String())}
			for _, b := range e.Bindings {
				x.Bindings = append(x.Bindings, binding{b.Name, rename.text(b.Value)})
			}
			if e.Match != nil {
				for _, b := range e.Match.Ops {
					if b != nil {
						x.Bound = append(x.Bound, st.key(b))
					}
				}
			}
			if f := e.Failure; f != nil {
				x.Failure = &failure{File: f.Pos.Filename, Line: f.Pos.Line, Col: f.Pos.Column, Message: rename.text(f.Message)}
			}
			for _, f := range e.Others {
				x.Others = append(x.Others, failure{File: f.Pos.Filename, Line: f.Pos.Line, Col: f.Pos.Column, Message: rename.text(f.Message)})
			}
			res.Rules = append(res.Rules, x)
		}
	}
	writeJSON(w, http.StatusOK, res)
}
