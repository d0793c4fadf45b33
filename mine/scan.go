package mine

import (
	"slices"

	"github.com/pirdrr/drr/analysis"
	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/matcher"
)

// Scan is what one program holds: its candidates' occurrences, sites and savings, to merge with Miner.Add.
type Scan struct {
	Source Source
	Stats  Stats
	found  []*found
}

// scanner is the state of one program's scan.
type scanner struct {
	m      *Miner
	p      *ir.Program
	rep    *cost.Report
	idx    map[*ir.Op]int // op -> its record in rep.Ops
	canon  *canonicalizer
	byKey  map[string]*found
	scan   *Scan
	names  *ir.Numbering
	oracle rule.Oracle // for explanations (Options.Catalog), made on the first
}

// Scan enumerates the subgraphs of p (see the package documentation) and returns what it found; it does not change
// the miner, and may run on several goroutines at once.
func (m *Miner) Scan(src Source, p *ir.Program) *Scan {
	s := &scanner{m: m, p: p, rep: m.opts.Model.Analyze(p), canon: newCanonicalizer(), byKey: map[string]*found{},
		scan: &Scan{Source: src}}
	s.idx = make(map[*ir.Op]int, len(s.rep.Ops))
	for i := range s.rep.Ops {
		s.idx[s.rep.Ops[i].Op] = i
	}
	s.scan.Stats.Programs = 1
	s.scan.Stats.Ops = len(s.rep.Ops)
	for i := range s.rep.Ops {
		root := s.rep.Ops[i].Op
		if !s.eligible(root) || !usedResult(root) {
			continue
		}
		s.scan.Stats.Roots++
		s.grow(root)
	}
	return s.scan
}

// eligible reports whether op may be part of a subgraph: a costed runtime compute op without regions, side
// effects or in-place writes (which other readers of the buffer would see).
func (s *scanner) eligible(op *ir.Op) bool {
	i, ok := s.idx[op]
	if !ok {
		return false
	}
	c := &s.rep.Ops[i]
	if !c.Counted() || !c.Runtime || c.Branch || c.Err != nil || op.NumRegions() > 0 || op.NumResults() == 0 {
		return false
	}
	if sch := op.Schema(); sch == nil || sch.Has(ir.SideEffects) || len(sch.Inplace) > 0 {
		return false // an unregistered op may do anything
	}
	return true
}

// matrix reports whether op's work runs on the matrix units (a matrix product, a convolution, attention): a fused
// kernel is built around one such op, with the element-wise work before and after it.
func (s *scanner) matrix(op *ir.Op) bool {
	return s.rep.Ops[s.idx[op]].Work.Unit == cost.Matrix
}

func usedResult(op *ir.Op) bool {
	for _, r := range op.Results() {
		if r.HasUses() {
			return true
		}
	}
	return false
}

// grow enumerates the subgraphs rooted at root breadth first: each adds a producer of an operand of its ops whose
// results only its ops read, in root's block, up to MaxOps ops and MaxPerRoot subgraphs.
func (s *scanner) grow(root *ir.Op) {
	o := &s.m.opts
	seen := map[string]bool{}
	queue := [][]*ir.Op{{root}}
	grown := 0
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if len(cur) >= o.MinOps {
			s.scan.Stats.Subgraphs++
			s.emit(cur, root)
		}
		if len(cur) == o.MaxOps {
			continue
		}
		for _, op := range cur {
			for i := 0; i < op.NumOperands(); i++ {
				v := op.Operand(i)
				if v == nil {
					continue
				}
				def := v.DefiningOp()
				if def == nil || def.Block() != root.Block() || slices.Contains(cur, def) || !s.eligible(def) || !readOnlyBy(def, cur) {
					continue
				}
				if s.matrix(def) && slices.ContainsFunc(cur, s.matrix) {
					continue // one matrix product or convolution per fused kernel
				}
				next := append(append(make([]*ir.Op, 0, len(cur)+1), cur...), def)
				key := s.setKey(next)
				if seen[key] {
					continue
				}
				if grown == o.MaxPerRoot {
					s.scan.Stats.Truncated++
					return
				}
				seen[key] = true
				grown++
				queue = append(queue, next)
			}
		}
	}
}

// readOnlyBy reports whether every use of op's results is by an op of ops.
func readOnlyBy(op *ir.Op, ops []*ir.Op) bool {
	for _, r := range op.Results() {
		for u := range r.Uses() {
			if !slices.Contains(ops, u.Owner()) {
				return false
			}
		}
	}
	return true
}

// setKey identifies a set of ops whatever their order.
func (s *scanner) setKey(ops []*ir.Op) string {
	ids := make([]int, len(ops))
	for i, op := range ops {
		ids[i] = s.idx[op]
	}
	slices.Sort(ids)
	b := make([]byte, 0, 4*len(ids))
	for _, id := range ids {
		b = append(b, byte(id), byte(id>>8), byte(id>>16), byte(id>>24))
	}
	return string(b)
}

// emit records one subgraph: its key's occurrence, unless it overlaps an occurrence of the same key counted in
// this program.
func (s *scanner) emit(ops []*ir.Op, root *ir.Op) {
	key := s.canon.key(ops, root)
	f := s.byKey[key]
	if f == nil {
		chain, _ := s.canon.chain()
		f = &found{chain: keyed{Chain: chain, key: key}, ops: map[*ir.Op]bool{}}
		s.byKey[key] = f
		s.scan.found = append(s.scan.found, f)
		f.refusals = s.explain(&f.chain.Chain, root)
	}
	for _, op := range ops {
		if f.ops[op] {
			return
		}
	}
	for _, op := range ops {
		f.ops[op] = true
	}
	f.occurrences++
	f.saving = f.saving.add(s.saving(ops, root))
	if len(f.sites) < s.m.opts.MaxSites {
		f.sites = append(f.sites, s.site(root))
	}
}

// site names root's occurrence.
func (s *scanner) site(root *ir.Op) Site {
	if s.names == nil {
		s.names = ir.NumberValues(s.p.Body())
	}
	v := root.Result(0)
	for _, r := range root.Results() {
		if r.HasUses() {
			v = r
			break
		}
	}
	return Site{Program: s.scan.Source.Program, Family: s.scan.Source.Family, Value: s.names.Name(v), Op: root.Name()}
}

// saving is what fusing one occurrence saves: the ops' kernels but one, their bytes less the fused op's (its
// inputs read once, the root's results written), their time less the fused kernel's, timed as cost times a
// kernel (launch plus the longer of compute and memory).
func (s *scanner) saving(ops []*ir.Op, root *ir.Op) Saving {
	m := s.m.opts.Model
	d := m.Device
	var kernels, bytes int64
	var high, compute float64
	for _, op := range ops {
		c := &s.rep.Ops[s.idx[op]]
		kernels += int64(c.Work.Kernels)
		bytes += c.Work.Bytes()
		high += c.Time.High
		if c.Work.FLOPs > 0 {
			compute += float64(c.Work.FLOPs) / d.Rate(c.Work.Unit, c.Work.DType)
		}
	}
	if kernels == 0 {
		return Saving{}
	}
	var fused int64
	var read []*ir.Value
	for _, op := range ops {
		for i := 0; i < op.NumOperands(); i++ {
			v := op.Operand(i)
			if v == nil || slices.Contains(read, v) {
				continue
			}
			if def := v.DefiningOp(); def != nil && slices.Contains(ops, def) {
				continue
			}
			read = append(read, v)
			fused += m.ValueBytes(v)
		}
	}
	for _, r := range root.Results() {
		if r.HasUses() {
			fused += m.ValueBytes(r)
		}
	}
	launch := d.LaunchOverhead.Value
	fusedHigh := launch + max(compute, float64(fused)/d.MemoryBandwidth.Value)
	return Saving{
		Kernels: kernels - 1,
		Bytes:   max(bytes-fused, 0),
		Time:    cost.Interval{Low: float64(kernels-1) * launch, High: high - fusedHigh},
	}
}

// explain says, for each constrained rule of the miner's catalog whose pattern is ch, why it did not fire at root
// (ch's first occurrence in this program): its first failed check there.
func (s *scanner) explain(ch *Chain, root *ir.Op) []Refusal {
	cat := s.m.opts.Catalog
	if cat == nil {
		return nil
	}
	var out []Refusal
	for _, f := range cat.Lookup(ch) {
		if !f.Constrained {
			continue
		}
		if s.oracle == nil {
			if s.m.opts.Oracle != nil {
				s.oracle = s.m.opts.Oracle(s.p)
			} else {
				s.oracle = rule.NewOracle(analysis.NewFacts(s.p), nil)
			}
			if s.names == nil {
				s.names = ir.NumberValues(s.p.Body())
			}
		}
		r := Refusal{Rule: f.Rule, Site: s.site(root)}
		for _, e := range matcher.Explain(f.set, f.Rule, root, s.oracle, s.names) {
			if fl := furthest(e); fl != nil {
				r.Check = fl.String()
			}
		}
		out = append(out, r)
	}
	return out
}

// furthest is the failed check of e that came furthest into the rule: of the alternatives explored (commutative
// operand orders, users of a value), the one that failed at the latest position of the rule text — a where
// constraint rather than the first operand of a swapped add.
func furthest(e matcher.Explanation) *matcher.Failure {
	if e.Failure == nil {
		return nil
	}
	best := *e.Failure
	for _, o := range e.Others {
		if o.Pos.Line > best.Pos.Line || o.Pos.Line == best.Pos.Line && o.Pos.Column > best.Pos.Column {
			best = o
		}
	}
	return &best
}
