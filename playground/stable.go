package playground

import (
	"iter"
	"regexp"
	"strconv"

	"github.com/pirdrr/drr/ir"
)

// Stable value ids. PIR text numbers values in print order, so a rewrite renumbers every value after it: the
// result of a run printed %54 where the input had %61, and a removed op of the input drawn beside it kept its %54.
// The page names values by their id in the input instead: a value that survives every pass keeps the id it had in
// the input (stage 0), and a value a pass created gets a fresh id, above every id of the input and of the stages
// before. Graph labels, diff lines, search texts and explanations all use these ids; the Program tab shows the
// result as PIR text, numbered as PIR numbers it.

// lineage records, for a stage made by cloning the previous one, which op and value of the previous stage each op
// and value of the clone copies (taken before the pass runs: the clone keeps the order of ops, results and block
// arguments).
type lineage struct {
	ops    map[*ir.Op]*ir.Op
	values map[*ir.Value]*ir.Value
}

// cloneLineage pairs the ops and values of p with those of its fresh clone c.
func cloneLineage(p, c *ir.Program) lineage {
	l := lineage{ops: map[*ir.Op]*ir.Op{}, values: map[*ir.Value]*ir.Value{}}
	pairBlocks(p.Body(), c.Body(), l)
	return l
}

func pairBlocks(a, b *ir.Block, l lineage) {
	for i, v := range a.Args() {
		if i < b.NumArgs() {
			l.values[b.Arg(i)] = v
		}
	}
	next, stop := iter.Pull(b.Ops())
	defer stop()
	for op := range a.Ops() {
		cp, ok := next()
		if !ok {
			return
		}
		l.ops[cp] = op
		for i := range min(op.NumResults(), cp.NumResults()) {
			l.values[cp.Result(i)] = op.Result(i)
		}
		for ri := range min(op.NumRegions(), cp.NumRegions()) {
			ra, rb := op.Region(ri), cp.Region(ri)
			for bi := range min(ra.NumBlocks(), rb.NumBlocks()) {
				pairBlocks(ra.Block(bi), rb.Block(bi), l)
			}
		}
	}
}

// stableIDs names the values of a stage: those with a lineage to a value of the previous stage take its name
// (prev), the others fresh ids from next (results %N, block arguments %arg_N). With no previous stage, the names are
// PIR's numbering.
type stableIDs struct {
	names map[*ir.Value]string
}

// idCounter hands out the fresh ids of a run.
type idCounter struct{ result, arg int }

func newStableIDs(p *ir.Program, prev *stableIDs, l lineage, next *idCounter) *stableIDs {
	s := &stableIDs{names: map[*ir.Value]string{}}
	var walk func(b *ir.Block)
	name := func(v *ir.Value, arg bool) {
		if prev != nil {
			if o := l.values[v]; o != nil {
				if n, ok := prev.names[o]; ok {
					s.names[v] = n
					return
				}
			}
		}
		if arg {
			s.names[v] = "%arg_" + strconv.Itoa(next.arg)
			next.arg++
			return
		}
		s.names[v] = "%" + strconv.Itoa(next.result)
		next.result++
	}
	walk = func(b *ir.Block) {
		for _, a := range b.Args() {
			name(a, true)
		}
		for op := range b.Ops() {
			for i := range op.NumResults() {
				name(op.Result(i), false)
			}
			for ri := range op.NumRegions() {
				for _, nb := range op.Region(ri).Blocks() {
					walk(nb)
				}
			}
		}
	}
	walk(p.Body())
	return s
}

// renamer rewrites the value ids of a text printed with PIR's numbering of a stage into the stage's stable ids.
type renamer map[string]string

// renamer returns the map from the PIR ids of the stage's values to their stable ids (nil when they are the same).
// Call with mu held.
func (st *stage) renamer() renamer {
	if st.rename != nil || st.ids == nil {
		return st.rename
	}
	num := st.numbering()
	r := renamer{}
	same := true
	for v, n := range st.ids.names {
		p := num.Name(v)
		if p == "%?" {
			continue // a value of an erased op
		}
		r[p] = n
		same = same && p == n
	}
	if same {
		r = renamer{}
	}
	st.rename = r
	return r
}

var valueID = regexp.MustCompile(`%(arg_)?[0-9]+\b`)

// text rewrites the ids of s.
func (r renamer) text(s string) string {
	if len(r) == 0 {
		return s
	}
	return valueID.ReplaceAllStringFunc(s, func(id string) string {
		if n, ok := r[id]; ok {
			return n
		}
		return id
	})
}

// origin returns the op of stage 0 an op of stage k copies through every pass, or nil for an op a pass created.
func (rn *run) origin(k int, op *ir.Op) *ir.Op {
	for ; k > 0 && op != nil; k-- {
		op = rn.stages[k].lineage.ops[op]
	}
	return op
}

// stableTexts returns the printed line of each op with the stable ids. Call with mu held.
func (st *stage) stableTexts() []string {
	r := st.renamer()
	texts := st.opTexts()
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = r.text(t)
	}
	return out
}

// origins returns, for each op of stage k in order, the key of the op of the input it copies ("" for one a pass
// created). Call with stage k's mu held (stage 0's keys are fixed once indexed: index0 ran when it was printed).
func (rn *run) origins(k int) []string {
	st := rn.stages[k]
	st.index0()
	out := make([]string, len(st.ops))
	in := rn.stages[0]
	for i, op := range st.ops {
		if k == 0 {
			out[i] = "o" + strconv.Itoa(i)
			continue
		}
		if o := rn.origin(k, op); o != nil {
			if j, ok := in.index[o]; ok {
				out[i] = "o" + strconv.Itoa(j)
			}
		}
	}
	return out
}

// diffOps returns the ops of stage k that a pass created (no op of the input copies to them) and the ops of the
// input that no op of stage k copies (the removed ones, parameters left out), by lineage: exact where a diff by op
// keys (graphview.DiffOps) pairs ops of the same kind and types in order, and may call a kept add removed and the
// removed one kept. Call with the input's and stage k's mu held.
func (rn *run) diffOps(k int) (added map[*ir.Op]bool, removed []*ir.Op) {
	added = map[*ir.Op]bool{}
	kept := map[*ir.Op]bool{}
	for op := range rn.stages[k].prog.Walk() {
		if o := rn.origin(k, op); o != nil {
			kept[o] = true
		} else {
			added[op] = true
		}
	}
	for op := range rn.stages[0].prog.Walk() {
		if !kept[op] && op.Name() != ir.ParameterOpName {
			removed = append(removed, op)
		}
	}
	return added, removed
}
