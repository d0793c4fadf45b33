package mine

import (
	"sort"

	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// Options bound the enumeration and say how savings are costed.
type Options struct {
	// Model costs the ops and the fused ops (its device and dynamic dims); required.
	Model *cost.Model
	// MinOps and MaxOps bound the subgraphs' sizes: 0 means 2 and 6.
	MinOps, MaxOps int
	// MaxPerRoot bounds the subgraphs enumerated per root op: 0 means DefaultMaxPerRoot.
	MaxPerRoot int
	// MaxSites bounds the sites a candidate keeps: 0 means DefaultMaxSites.
	MaxSites int
	// Catalog, when set, lets a scan say why a rule of it did not fire on a chain its pattern matches: at the
	// chain's first occurrence in each program, each such rule with constraints is explained there
	// (matcher.Explain) and the first failed check kept (Fused.Refused, set by Catalog.Annotate).
	Catalog *Catalog
	// Oracle evaluates the explained rules' program builtins and natives on a program (nil: the program builtins
	// of package analysis, no natives).
	Oracle func(p *ir.Program) rule.Oracle
}

// Defaults of Options.
const (
	DefaultMinOps     = 2
	DefaultMaxOps     = 6
	DefaultMaxPerRoot = 64
	DefaultMaxSites   = 10
)

func (o Options) withDefaults() Options {
	if o.MinOps <= 0 {
		o.MinOps = DefaultMinOps
	}
	if o.MaxOps <= 0 {
		o.MaxOps = DefaultMaxOps
	}
	if o.MaxPerRoot <= 0 {
		o.MaxPerRoot = DefaultMaxPerRoot
	}
	if o.MaxSites <= 0 {
		o.MaxSites = DefaultMaxSites
	}
	return o
}

// Source names a program being mined: its name (a path) and its model family (Family).
type Source struct {
	Program string
	Family  string
}

// Site is one occurrence of a candidate: the program and the chain's root op, by the printed name of its first
// result read (%N, in the program as the pipeline left it), and its op name.
type Site struct {
	Program string `json:"program"`
	Family  string `json:"family"`
	Value   string `json:"value"`
	Op      string `json:"op"`
}

// Saving is what fusing chains saves per inference, by the cost model: the kernels removed, the bytes not moved
// through device memory, and the estimated time (Low: the launches alone; High: launches and bytes).
type Saving struct {
	Kernels int64         `json:"kernels"`
	Bytes   int64         `json:"bytes"`
	Time    cost.Interval `json:"time_s"`
}

func (s Saving) add(t Saving) Saving {
	return Saving{Kernels: s.Kernels + t.Kernels, Bytes: s.Bytes + t.Bytes, Time: s.Time.Add(t.Time)}
}

// Candidate is a chain the corpus leaves unfused, with its support and saving.
type Candidate struct {
	// Key is Chain.Key.
	Key   string
	Chain Chain
	// Occurrences counts the chain's occurrences (overlapping ones of a program once), Graphs the programs that
	// hold one, Families their model families (sorted).
	Occurrences int
	Graphs      int
	Families    []string
	// Saving is summed over the occurrences.
	Saving Saving
	// Sites are the first occurrences found (Options.MaxSites), in the order the programs were added.
	Sites []Site
	// Fused names the rules of the catalog, and their fused ops, that compute the same chain (Catalog.Annotate).
	Fused []*Fused

	refusals map[string]Refusal // by rule ID: the first site where a scan explained why the rule did not fire
}

// Stats count what a scan did.
type Stats struct {
	// Programs and Ops count the programs scanned and their ops; Roots the ops a subgraph was grown from;
	// Subgraphs the subgraphs enumerated (of MinOps to MaxOps ops); Truncated the roots whose enumeration stopped
	// at Options.MaxPerRoot.
	Programs  int `json:"programs"`
	Ops       int `json:"ops"`
	Roots     int `json:"roots"`
	Subgraphs int `json:"subgraphs"`
	Truncated int `json:"truncated,omitempty"`
}

func (s Stats) add(t Stats) Stats {
	return Stats{s.Programs + t.Programs, s.Ops + t.Ops, s.Roots + t.Roots, s.Subgraphs + t.Subgraphs, s.Truncated + t.Truncated}
}

// Miner accumulates the candidates of the programs added to it. Scan may run on several goroutines at once; Add
// merges scans in the order it is called, which makes the result deterministic.
type Miner struct {
	opts  Options
	cands map[string]*Candidate
	order []*Candidate
	fams  map[string]map[string]bool
	stats Stats
}

// New returns a miner.
func New(opts Options) *Miner {
	return &Miner{opts: opts.withDefaults(), cands: map[string]*Candidate{}, fams: map[string]map[string]bool{}}
}

// Options returns the miner's options with their defaults filled in.
func (m *Miner) Options() Options { return m.opts }

// Stats returns what the scans added so far did.
func (m *Miner) Stats() Stats { return m.stats }

// Add merges a program's scan.
func (m *Miner) Add(s *Scan) {
	m.stats = m.stats.add(s.Stats)
	for _, f := range s.found {
		c := m.cands[f.chain.key]
		if c == nil {
			c = &Candidate{Key: f.chain.key, Chain: f.chain.Chain}
			m.cands[c.Key] = c
			m.order = append(m.order, c)
			m.fams[c.Key] = map[string]bool{}
		}
		c.Occurrences += f.occurrences
		c.Graphs++
		c.Saving = c.Saving.add(f.saving)
		if s.Source.Family != "" && !m.fams[c.Key][s.Source.Family] {
			m.fams[c.Key][s.Source.Family] = true
			c.Families = append(c.Families, s.Source.Family)
		}
		for _, site := range f.sites {
			if len(c.Sites) < m.opts.MaxSites {
				c.Sites = append(c.Sites, site)
			}
		}
		for _, r := range f.refusals {
			if c.refusals == nil {
				c.refusals = map[string]Refusal{}
			}
			if _, seen := c.refusals[r.Rule]; !seen {
				c.refusals[r.Rule] = r
			}
		}
	}
}

// Candidates returns the candidates found so far that save something (a kernel or time), the largest time saved
// first (the estimate's upper end), then by kernels, bytes and key.
func (m *Miner) Candidates() []*Candidate {
	var out []*Candidate
	for _, c := range m.order {
		if c.Saving.Kernels <= 0 && c.Saving.Time.High <= 0 {
			continue
		}
		sort.Strings(c.Families)
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Saving, out[j].Saving
		if a.Time.High != b.Time.High {
			return a.Time.High > b.Time.High
		}
		if a.Kernels != b.Kernels {
			return a.Kernels > b.Kernels
		}
		if a.Bytes != b.Bytes {
			return a.Bytes > b.Bytes
		}
		return out[i].Key < out[j].Key
	})
	return out
}

// keyed is a chain with its key computed once.
type keyed struct {
	Chain
	key string
}

// found is what a scan found of one key in one program.
type found struct {
	chain       keyed
	occurrences int
	saving      Saving
	sites       []Site
	ops         map[*ir.Op]bool // the ops of the occurrences counted (an overlapping one is not)
	refusals    []Refusal       // why the catalog's constrained rules for the chain did not fire at its first site
}
