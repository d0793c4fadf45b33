package playground

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/pirdrr/drr/graphview"
	"github.com/pirdrr/drr/ir"
)

// The requests that look into a finished run: a stage's program and its diff, a stage's graph.

// runOf returns the run a request names, answering 404 (and nil) when it is not kept.
func (s *Server) runOf(w http.ResponseWriter, r *http.Request) *run {
	rn := s.runs.get(r.PathValue("id"))
	if rn == nil {
		writeError(w, http.StatusNotFound, "no run %q (the server keeps the latest runs only: run again)", r.PathValue("id"))
	}
	return rn
}

// stageIndex reads a stage number of a run, answering 400 (and -1) when it is not one.
func stageIndex(w http.ResponseWriter, rn *run, s string) int {
	k, err := strconv.Atoi(s)
	if err != nil || k < 0 || k >= len(rn.stages) {
		writeError(w, http.StatusBadRequest, "stage %q: the run has stages 0 to %d", s, len(rn.stages)-1)
		return -1
	}
	return k
}

// stageResult is the answer to GET /api/runs/{id}/stages/{k}.
type stageResult struct {
	Stage int    `json:"stage"`
	Pass  string `json:"pass"`
	Ops   int    `json:"ops"`
	// Text is the program in PIR text (cut at maxText bytes: Truncated); OpLines[i] is the line of the op with key
	// "o<i>".
	Text      string `json:"text"`
	Truncated bool   `json:"truncated,omitempty"`
	OpLines   []int  `json:"opLines"`
	// OpTexts are the ops' printed lines with the stable value ids (a value keeps its id of the input through every
	// pass; one a pass created has an id above them: stable.go), what the page searches and the diff shows; Origins
	// are the keys of the ops of the input (stage 0) each op copies, "" for an op a pass created.
	OpTexts []string `json:"opTexts"`
	Origins []string `json:"origins"`
	// From is the stage the diff is from (the previous one unless ?from= says otherwise; -1 for stage 0), Diff its
	// hunks.
	From int        `json:"from"`
	Diff []diffHunk `json:"diff"`
	// Added and Removed count the ops of the diff.
	Added   int `json:"added"`
	Removed int `json:"removed"`
}

// stage answers GET /api/runs/{id}/stages/{k}[?from=j]: stage k's program and its diff from stage j (default k-1).
func (s *Server) stage(w http.ResponseWriter, r *http.Request) {
	rn := s.runOf(w, r)
	if rn == nil {
		return
	}
	k := stageIndex(w, rn, r.PathValue("k"))
	if k < 0 {
		return
	}
	from := k - 1
	if f := r.URL.Query().Get("from"); f != "" {
		if from = stageIndex(w, rn, f); from < 0 {
			return
		}
	}
	st := rn.stages[k]
	in := rn.stages[0]
	in.mu.Lock()
	in.index0() // built once, then only read: origins reads it under stage k's lock
	in.mu.Unlock()
	st.mu.Lock()
	text, opLine := st.printed()
	bText := st.stableTexts()
	bKeys := keysOf(st)
	res := stageResult{Stage: k, Pass: st.pass, Ops: len(st.ops), OpLines: opLine, OpTexts: bText, Origins: rn.origins(k), From: from,
		Diff: []diffHunk{}}
	st.mu.Unlock()
	if res.Pass == "" {
		res.Pass = "input"
	}
	res.Text, res.Truncated = cut(text, maxText)
	if from >= 0 && from != k {
		old := rn.stages[from]
		old.mu.Lock()
		aText := old.stableTexts()
		aKeys := keysOf(old)
		a := opKeys(old)
		old.mu.Unlock()
		st.mu.Lock()
		b := opKeys(st)
		st.mu.Unlock()
		script := editScript(a, b)
		res.Diff = hunks(script, aText, bText, aKeys, bKeys)
		for _, c := range script {
			switch c {
			case '+':
				res.Added++
			case '-':
				res.Removed++
			}
		}
	}
	writeJSON(w, http.StatusOK, res)
}

// keysOf returns the keys of a stage's ops in order. Call with mu held.
func keysOf(st *stage) []string {
	st.index0()
	out := make([]string, len(st.ops))
	for i := range st.ops {
		out[i] = "o" + strconv.Itoa(i)
	}
	return out
}

// opKeys returns what the diff compares the stage's ops by. Call with mu held.
func opKeys(st *stage) []string {
	st.index0()
	out := make([]string, len(st.ops))
	for i, op := range st.ops {
		out[i] = graphview.OpKey(op)
	}
	return out
}

// graph answers GET /api/runs/{id}/graph?stage=k&collapse=1&view=V: the laid-out graph of stage k. The views mark
// different ops: "pass" (the default) the ops the stage's pass created ("added") and, for the stage the editor's
// rules ran on, the ops their matches bound ("matched"); "diff" the ops that are new since the input ("added") and
// the input's ops that are gone, drawn apart ("removed").
func (s *Server) graph(w http.ResponseWriter, r *http.Request) {
	rn := s.runOf(w, r)
	if rn == nil {
		return
	}
	q := r.URL.Query()
	k := stageIndex(w, rn, q.Get("stage"))
	if k < 0 {
		return
	}
	view := q.Get("view")
	if view == "" {
		view = "pass"
	}
	if view != "pass" && view != "diff" {
		writeError(w, http.StatusBadRequest, "view %q: pass or diff", view)
		return
	}
	collapse := q.Get("collapse") != "0"
	cacheKey := fmt.Sprintf("%d/%s/%t", k, view, collapse)
	rn.mu.Lock()
	d := rn.graphs[cacheKey]
	rn.mu.Unlock()
	if d == nil {
		release, err := s.gate.enter(r.Context())
		if err != nil {
			writeError(w, statusOf(err), "%v", err)
			return
		}
		d, err = s.draw(rn, k, view, collapse)
		release()
		if err != nil {
			writeError(w, http.StatusBadRequest, "%v", err)
			return
		}
		rn.mu.Lock()
		rn.graphs[cacheKey] = d
		rn.mu.Unlock()
	}
	writeJSON(w, http.StatusOK, d)
}

// draw builds and lays out the graph of stage k.
func (s *Server) draw(rn *run, k int, view string, collapse bool) (*graphview.Drawing, error) {
	st, in := rn.stages[k], rn.stages[0]
	diff := view == "diff" && k > 0
	// Locks in stage order (the input first), so that two drawings cannot wait for each other.
	if diff {
		in.mu.Lock()
		defer in.mu.Unlock()
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.index0()
	classes := map[*ir.Op][]string{}
	var removed []*ir.Op
	if diff {
		var added map[*ir.Op]bool
		added, removed = rn.diffOps(k)
		for op := range added {
			classes[op] = []string{"added"}
		}
	} else {
		for op := range st.created {
			classes[op] = []string{"added"}
		}
		if k == rn.result.MatchStage {
			for _, m := range rn.result.Matches {
				for _, b := range m.Ops {
					if op := st.opByKey(b.Key); op != nil {
						classes[op] = []string{"matched"}
					}
				}
			}
		}
	}
	title := st.pass
	if title == "" {
		title = "input"
	}
	g := graphview.Build(st.prog, graphview.Options{Collapse: collapse, Classes: classes, Title: title})
	if len(g.Nodes) > s.lim.MaxDrawnOps {
		return nil, fmt.Errorf("the graph has %d ops to draw, more than %d: collapse repeated blocks", len(g.Nodes), s.lim.MaxDrawnOps)
	}
	// The stage's ops are named by the stable ids (stable.go); the removed ops drawn beside them come from the input,
	// whose ids are the stable ones already.
	rename := st.renamer()
	for _, n := range g.Nodes {
		n.Label, n.Detail = rename.text(n.Label), rename.text(n.Detail)
	}
	for _, e := range g.Edges {
		e.Label = rename.text(e.Label)
	}
	g.AddDetached(in.prog, removed, "removed")
	key := func(op *ir.Op) string {
		if i, ok := st.index[op]; ok {
			return "o" + strconv.Itoa(i)
		}
		return "" // a removed op of the input
	}
	g.Layout()
	return g.Export(key), nil
}
