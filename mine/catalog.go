package mine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// Fused says that a rule of the catalog makes one op of a candidate's chain: its match side is the same chain.
type Fused struct {
	// Op is the op the rule replaces the chain's result with.
	Op string `json:"op"`
	// Set and Rule name the rule (Rule is rule.Rule.ID: its name, or name[instance] for a family member); Pos is
	// where it is written.
	Set  string `json:"set"`
	Rule string `json:"rule"`
	Pos  string `json:"pos"`
	// Constrained is set when the rule has a where clause: that it did not fire on the sites (the chain is left
	// after the pipeline) means its constraints refused them, or its set did not run.
	Constrained bool `json:"constrained"`
	// Refused, when the miner had the catalog (Options.Catalog), is the check of the rule that failed at a site:
	// the first program where the rule was explained at the chain's first occurrence.
	Refused *Refusal `json:"refused,omitempty"`

	rule  *rule.Rule
	set   *rule.Set
	match pmatch
	src   func(file string) ([]byte, error)
}

// NamedSet is a checked rule set with the name it is known by (a shipped set's name).
type NamedSet struct {
	Name string
	Set  *rule.Set
	// Source returns the text of the set's rule files by the names their positions carry (nil: skeletons of the
	// set's chains name its rule but cannot copy its rewrite).
	Source func(file string) ([]byte, error)
}

// Catalog holds the fusion rules chains are compared with: the rules labelled "fusion" of the sets it is built
// from whose rewrite replaces the pattern's result with a created op. It reads the rules as data (their patterns
// and actions): no list of op names.
type Catalog struct {
	entries []catalogEntry
}

type catalogEntry struct {
	set  string
	src  func(file string) ([]byte, error)
	s    *rule.Set
	r    *rule.Rule
	op   string
	size int
}

// NewCatalog returns the catalog of the fusion rules of sets.
func NewCatalog(sets []NamedSet) *Catalog {
	c := &Catalog{}
	for _, ns := range sets {
		for _, r := range ns.Set.Rules {
			if !slices.Contains(r.Labels, "fusion") || r.Pattern == nil {
				continue
			}
			if op := createdRoot(r); op != "" {
				c.entries = append(c.entries, catalogEntry{set: ns.Name, src: ns.Source, s: ns.Set, r: r, op: op,
					size: len(r.Pattern.Ops) - constantOps(r.Pattern)})
			}
		}
	}
	return c
}

// constantOps counts the pattern's constant ops (ops without operands: pd_op.full), which match a chain's constant
// inputs (Chain.Constants) rather than its ops.
func constantOps(p *rule.Pattern) int {
	n := 0
	for k, po := range p.Ops {
		if len(po.Operands) == 0 && k != p.Root {
			n++
		}
	}
	return n
}

// Len returns the number of fusion rules in the catalog.
func (c *Catalog) Len() int { return len(c.entries) }

// createdRoot returns the name of the op whose result replaces the pattern root's result ("" if none does).
func createdRoot(r *rule.Rule) string {
	for _, a := range r.Actions {
		rep, ok := a.(*rule.Replace)
		if !ok || rep.Value.New || !rep.With.New {
			continue
		}
		if h := r.Pattern.Values[rep.Value.Index]; h.Def != r.Pattern.Root {
			continue
		}
		for _, b := range r.Actions {
			if cr, ok := b.(*rule.Create); ok && slices.Contains(cr.Results, rep.With.Index) {
				return cr.Op
			}
		}
	}
	return ""
}

// Lookup returns the rules of the catalog whose pattern is ch, in the catalog's order.
func (c *Catalog) Lookup(ch *Chain) []*Fused {
	var out []*Fused
	for i := range c.entries {
		e := &c.entries[i]
		if e.size != len(ch.Ops) {
			continue
		}
		if m, ok := matchPattern(e.r.Pattern, ch); ok {
			out = append(out, &Fused{Op: e.op, Set: e.set, Rule: e.r.ID(), Pos: e.r.Pos.String(), Constrained: len(e.r.Where) > 0,
				rule: e.r, set: e.s, match: m, src: e.src})
		}
	}
	return out
}

// Annotate sets the Fused of each candidate, with why each did not fire where a scan explained it.
func (c *Catalog) Annotate(cands []*Candidate) {
	for _, cand := range cands {
		cand.Fused = c.Lookup(&cand.Chain)
		for _, f := range cand.Fused {
			if r, ok := cand.refusals[f.Rule]; ok {
				f.Refused = &r
			}
		}
	}
}

// Refusal is why a catalog rule whose pattern is a chain did not fire at one of its sites: the first check of
// the rule that failed there (matcher.Explain), or that it matched (its set did not run, or a rule before it took
// the op).
type Refusal struct {
	// Rule is the rule's ID.
	Rule string `json:"rule"`
	// Site is where the rule was explained.
	Site Site `json:"site"`
	// Check is the failed check, "file:line:col: message"; empty when the rule matched there.
	Check string `json:"check,omitempty"`
}

// String renders the refusal: "did not fire at PROGRAM %N: CHECK", or, when the rule matches there, "matches at
// PROGRAM %N: its set did not run, or another rule took the op first".
func (r Refusal) String() string {
	if r.Check == "" {
		return fmt.Sprintf("matches at %s %s: its set did not run, or another rule took the op first", r.Site.Program, r.Site.Value)
	}
	return fmt.Sprintf("did not fire at %s %s: %s", r.Site.Program, r.Site.Value, r.Check)
}

// pmatch is a partial match of a pattern on a chain: pattern ops to chain ops, value holes to chain operands.
type pmatch struct {
	ops  []int // pattern op -> chain op (-1: not yet)
	used []bool
	vals map[int]Ref
}

func (m pmatch) clone() pmatch {
	n := pmatch{ops: slices.Clone(m.ops), used: slices.Clone(m.used), vals: make(map[int]Ref, len(m.vals))}
	for k, v := range m.vals {
		n.vals[k] = v
	}
	return n
}

// matchPattern reports whether p matches the whole of ch, rooted at ch's root: the same ops, operand structure
// (either order for a commutative op) and the attribute values p requires. Constraints and type patterns are not
// compared: the chain's sites are where they decide.
func matchPattern(p *rule.Pattern, ch *Chain) (pmatch, bool) {
	if p.Root < 0 || p.Root >= len(p.Ops) {
		return pmatch{}, false
	}
	start := pmatch{ops: make([]int, len(p.Ops)), used: make([]bool, len(ch.Ops)), vals: map[int]Ref{}}
	for i := range start.ops {
		start.ops[i] = -1
	}
	for _, m := range matchOp(p, ch, start, p.Root, len(ch.Ops)-1) {
		if !slices.Contains(m.used, false) && !slices.Contains(m.ops, -1) { // constant ops are < -1
			return m, true
		}
	}
	return pmatch{}, false
}

func matchOp(p *rule.Pattern, ch *Chain, m pmatch, k, ci int) []pmatch {
	po, co := p.Ops[k], &ch.Ops[ci]
	if po.Name != co.Name || m.used[ci] {
		return nil
	}
	if len(po.Results) > len(co.Results) || !po.MoreResults && len(po.Results) != len(co.Results) {
		return nil
	}
	for _, a := range po.Attrs {
		if a.Kind != rule.AttrEquals {
			continue
		}
		i := slices.IndexFunc(co.Attrs, func(na ir.NamedAttr) bool { return na.Name == a.Name })
		if i < 0 || a.Literal == nil || co.Attrs[i].Value.String() != a.Literal.String() {
			return nil
		}
	}
	if len(po.Operands) != len(co.Operands) {
		return nil
	}
	m = m.clone()
	m.ops[k], m.used[ci] = ci, true
	orders := [][]int{identity(len(po.Operands))}
	if po.Commutative && len(po.Operands) == 2 {
		orders = append(orders, []int{1, 0})
	}
	var out []pmatch
	for _, order := range orders {
		states := []pmatch{m}
		for j, pj := range order {
			var next []pmatch
			for _, s := range states {
				next = append(next, matchOperand(p, ch, s, po.Operands[pj], co.Operands[j])...)
			}
			states = next
		}
		out = append(out, states...)
	}
	return out
}

func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func matchOperand(p *rule.Pattern, ch *Chain, m pmatch, po rule.OperandPattern, r Ref) []pmatch {
	switch po.Kind {
	case rule.OperandNull:
		if r.Null {
			return []pmatch{m}
		}
		return nil
	case rule.OperandAny:
		if r.Op >= 0 {
			return nil // the chain's op would be left out of the pattern
		}
		return []pmatch{m}
	case rule.OperandList:
		return nil
	}
	if r.Null {
		return nil
	}
	h := p.Values[po.Value]
	if bound, ok := m.vals[po.Value]; ok {
		if bound == r {
			return []pmatch{m}
		}
		return nil
	}
	if h.Def < 0 {
		if r.Op >= 0 {
			return nil
		}
		m = m.clone()
		m.vals[po.Value] = r
		return []pmatch{m}
	}
	if r.Op < 0 && len(p.Ops[h.Def].Operands) == 0 {
		return matchConstant(p, ch, m, po.Value, h.Def, r)
	}
	if r.Op < 0 || r.Result != h.Result {
		return nil
	}
	if at := m.ops[h.Def]; at >= 0 {
		if at != r.Op {
			return nil
		}
		m = m.clone()
		m.vals[po.Value] = r
		return []pmatch{m}
	}
	var out []pmatch
	for _, s := range matchOp(p, ch, m, h.Def, r.Op) {
		s.vals[po.Value] = r
		out = append(out, s)
	}
	return out
}

// matchConstant matches pattern op k, a constant op (no operands), with the chain's input r when a constant op of
// the same name defines it, with the attribute values the pattern requires; pattern op k is then mapped to
// -2-r.Input.
func matchConstant(p *rule.Pattern, ch *Chain, m pmatch, v, k int, r Ref) []pmatch {
	po := p.Ops[k]
	c := ch.Constants[r.Input]
	if c != po.Name && !strings.HasPrefix(c, po.Name+"{") {
		return nil
	}
	if at := m.ops[k]; at != -1 {
		if at != -2-r.Input {
			return nil
		}
	}
	for _, a := range po.Attrs {
		if a.Kind == rule.AttrEquals && (a.Literal == nil || !strings.Contains(c, a.Name+": "+a.Literal.String())) {
			return nil
		}
	}
	m = m.clone()
	m.ops[k] = -2 - r.Input
	m.vals[v] = r
	return []pmatch{m}
}
