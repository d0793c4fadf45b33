package playground

import (
	"strconv"
	"strings"
	"sync"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/graphview"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
	"github.com/pirdrr/drr/rewriter"
)

// run is a finished run, kept for the requests that look into it: its stages (the program before the first pass
// and after each), the rules and pipeline it ran, and what the page was told.
type run struct {
	id       string
	srv      *Server
	stages   []*stage
	pipeline rewriter.Pipeline
	// target and params are what the passes ran with (the request's target, and the sm_version it sets).
	target   ir.Target
	params   rule.Params
	ruleSets []namedSet // the rule sets of the pipeline, the editor's first: what explain explains
	result   *runResult
	ops      int // the ops of all stages, what keeping the run costs

	mu     sync.Mutex
	graphs map[string]*graphview.Drawing // by stage, view and collapse
}

// stage is the program at one point of a run: the input (stage 0) or the result of a pass. Its program is never
// changed after the pass; requests read it under mu (reads fill caches of the IR: the parameter table, order
// numbers).
type stage struct {
	pass    string          // the pass that made it ("" for the input)
	prog    *ir.Program     // the program
	created map[*ir.Op]bool // the ops the pass created that are still there
	// lineage pairs the stage's ops and values with those of the previous stage they copy; ids are the stable
	// value ids (stable.go).
	lineage lineage
	ids     *stableIDs

	mu     sync.Mutex
	ops    []*ir.Op       // in program order (Walk)
	index  map[*ir.Op]int // position in ops
	text   string         // the program in PIR text
	opLine []int          // the line (1-based) of each op in text
	num    *ir.Numbering  // value ids, as the text prints them
	rename renamer        // PIR ids → stable ids
	params bool           // prog's parameter table is current
}

// key names an op of the stage in the API: "o" and its position in program order. Call with mu held.
func (st *stage) key(op *ir.Op) string {
	st.index0()
	i, ok := st.index[op]
	if !ok {
		return ""
	}
	return "o" + strconv.Itoa(i)
}

// opByKey returns the op a key names, or nil. Call with mu held.
func (st *stage) opByKey(k string) *ir.Op {
	st.index0()
	n, err := strconv.Atoi(strings.TrimPrefix(k, "o"))
	if err != nil || !strings.HasPrefix(k, "o") || n < 0 || n >= len(st.ops) {
		return nil
	}
	return st.ops[n]
}

func (st *stage) index0() {
	if st.index != nil {
		return
	}
	st.index = map[*ir.Op]int{}
	for op := range st.prog.Walk() {
		st.index[op] = len(st.ops)
		st.ops = append(st.ops, op)
	}
}

// numbering returns the value ids of the stage's program. Call with mu held.
func (st *stage) numbering() *ir.Numbering {
	if st.num == nil {
		st.num = ir.NumberValues(st.prog.Body())
	}
	return st.num
}

// printed returns the program as PIR text and the line of each op. Call with mu held.
func (st *stage) printed() (string, []int) {
	if st.opLine != nil || st.text != "" {
		return st.text, st.opLine
	}
	st.index0()
	text := string(pirtext.Print(st.prog, pirtext.WriteOptions{}))
	// One op per line, in program order: the lines that start (after the indentation) with the op's results.
	lines := strings.Split(text, "\n")
	var opLine []int
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimLeft(l, " "), "(") {
			opLine = append(opLine, i+1)
		}
	}
	if len(opLine) != len(st.ops) {
		// Not the layout expected: a line per op described by its ids, so that keys still find their lines.
		var b strings.Builder
		opLine = opLine[:0]
		num := st.numbering()
		for i, op := range st.ops {
			b.WriteString(num.Describe(op))
			b.WriteByte('\n')
			opLine = append(opLine, i+1)
		}
		text = b.String()
	}
	st.text, st.opLine = text, opLine
	return text, opLine
}

// opText returns the printed line of each op (without its indentation). Call with mu held.
func (st *stage) opTexts() []string {
	text, opLine := st.printed()
	lines := strings.Split(text, "\n")
	out := make([]string, len(opLine))
	for i, l := range opLine {
		out[i] = strings.TrimLeft(lines[l-1], " ")
	}
	return out
}

// collectParams brings the parameter table up to date once (the oracle of explain would otherwise do it, writing
// the program while another request reads it). Call with mu held.
func (st *stage) collectParams() {
	if !st.params {
		st.prog.CollectParams()
		st.params = true
	}
}

// runStore keeps the finished runs, newest last, while their ops fit in KeptOps (the newest is always kept).
type runStore struct {
	mu    sync.Mutex
	limit int
	ops   int
	byID  map[string]*run
	order []string
}

func newRunStore(limit int) *runStore { return &runStore{limit: limit, byID: map[string]*run{}} }

func (rs *runStore) add(r *run) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.byID[r.id] = r
	rs.order = append(rs.order, r.id)
	rs.ops += r.ops
	for len(rs.order) > 1 && rs.ops > rs.limit {
		old := rs.byID[rs.order[0]]
		rs.ops -= old.ops
		delete(rs.byID, old.id)
		rs.order = rs.order[1:]
	}
}

func (rs *runStore) get(id string) *run {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.byID[id]
}
