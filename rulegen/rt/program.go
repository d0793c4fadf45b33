package rt

import (
	"fmt"
	"io/fs"
	"slices"
	"sync"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/matcher"
	"github.com/pirdrr/drr/rewriter"
)

// Program is a rule set compiled by drrc gen: the generated file declares one and exports its Pass as the
// rewriter.PassFactory of the rule pass.
type Program struct {
	// Name is the pass name.
	Name string
	// Paths are the rule files the pass loads (drr.Load's paths), read from FS, or else from Files: the texts of
	// the rule files and of the files they import, embedded in the generated file.
	Paths []string
	FS    fs.FS
	Files []File
	// Unregistered says the rules were checked with drr.CheckOptions.Unregistered (drrc gen -unregistered).
	Unregistered bool
	// Fingerprint is the Fingerprint of the set the code was generated from.
	Fingerprint string
	// Rules are the generated match functions, each with the instances of one rule it matches.
	Rules []Rule

	mu   sync.Mutex
	ctx  *ir.Context
	reg  *rewriter.Registry
	pass *rewriter.RulePass
}

// Rule is a generated match function and the instances of a rule it matches: the instances of the set named Name
// whose Rule.Instance is in Members, or the rule's only instance when Members is nil (a rule without a family).
// The instances of a family that differ only in their op kinds, literal attributes and schema defaults share one
// function; an instance of the set that no Rule lists can never match in the catalog the code was generated for
// (a constraint the catalog decides is false: Fold).
type Rule struct {
	Name    string
	Members []string
	Match   Func
}

// Func is a generated match function: it tries its rule's instance in at op, the instance's root, and emits the
// first match it finds into m.
type Func func(m *Matcher, in *Instance, op *ir.Op) bool

// Load checks the program's rule files against ctx as drr.Load does (with reg's natives, when reg is not nil: a
// declared native nobody registered is an error) and verifies that the result is the set the code was generated
// from.
func (p *Program) Load(ctx *ir.Context, reg *rewriter.Registry) (*rule.Set, error) {
	if len(p.Paths) == 0 {
		return nil, fmt.Errorf("rule pass %s: no rule files", p.Name)
	}
	fsys := p.FS
	if fsys == nil {
		fsys = filesFS(p.Files)
	}
	opts := drr.LoadOptions{FS: fsys, CheckOptions: drr.CheckOptions{Unregistered: p.Unregistered}}
	if reg != nil {
		opts.Natives = reg.HasNative
	}
	set, diags := drr.Load(ctx, opts, p.Paths...)
	if diags.HasErrors() {
		return nil, fmt.Errorf("rule pass %s: %w", p.Name, diags)
	}
	if fp := Fingerprint(set); fp != p.Fingerprint {
		return nil, fmt.Errorf("rule pass %s: %w (fingerprint %s, generated for %s)", p.Name, ErrStale, fp,
			p.Fingerprint)
	}
	return set, nil
}

// ErrStale is the error of a Program whose rules check differently than where its Go code was generated.
var ErrStale = fmt.Errorf("the rules check differently here than where their Go code was generated " +
	"(another op catalog, or another version of pirdrr): run drrc gen again")

// Pass returns the compiled rule pass for programs of ctx, with natives from reg. It has the signature of a
// rewriter.PassFactory. The pass is built once per Context and registry, like the shipped interpreted sets.
func (p *Program) Pass(ctx *ir.Context, reg *rewriter.Registry) (rewriter.Pass, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pass != nil && p.ctx == ctx && p.reg == reg {
		return p.pass, nil
	}
	set, err := p.Load(ctx, reg)
	if err != nil {
		return nil, err
	}
	d := p.bind(set)
	p.ctx, p.reg = ctx, reg
	p.pass = &rewriter.RulePass{PassName: p.Name, Set: set,
		Compile: func(_ *rule.Set, o rule.Oracle) (rewriter.MatchFunc, error) {
			m := &Matcher{Oracle: o, d: d}
			return m.match, nil
		}}
	return p.pass, nil
}

// candidate is an instance to try at an op, with its function. When the instance's plan requires, before any
// choice, that operand j of the root be a result of an op of kind def, the dispatch checks that first (j >= 0): the
// first question of the automaton's decision tree, which tells apart rules rooted at one kind (relu after
// batch_norm, after conv2d, …) for the price of a comparison instead of a call.
type candidate struct {
	match Func
	in    *Instance
	j     int
	def   *ir.OpInfo
}

// dispatch lists, per op kind (by ir.OpInfo.ID), the instances rooted at that kind and those rooted at any op,
// best first (benefit, then rule order); other is the list for kinds no rule names.
type dispatch struct {
	kinds [][]candidate
	infos []*ir.OpInfo
	other []candidate
}

// bind binds every instance of set that a generated function matches to its function and its constants, and
// sorts them by the op kind of their root.
func (p *Program) bind(set *rule.Set) *dispatch {
	funcs := map[string]Func{}
	for _, r := range p.Rules {
		if r.Members == nil {
			funcs[r.Name+"\x00"] = r.Match
		}
		for _, m := range r.Members {
			funcs[r.Name+"\x00"+m] = r.Match
		}
	}
	var all []candidate
	for _, r := range set.Rules {
		f, ok := funcs[r.Name+"\x00"+r.Instance]
		if !ok {
			continue
		}
		c := candidate{match: f, in: NewInstance(set.Ctx, r), j: -1}
		c.j, c.def = producerKind(set.Ctx, r)
		all = append(all, c)
	}
	// Benefit, higher first, then rule order: the order matches come out in.
	slices.SortStableFunc(all, func(a, b candidate) int {
		if ra, rb := a.in.Rule, b.in.Rule; ra.Benefit != rb.Benefit {
			return rb.Benefit - ra.Benefit
		}
		return a.in.Rule.Index - b.in.Rule.Index
	})
	d := &dispatch{}
	for _, c := range all {
		root := c.in.Ops[c.in.Rule.Pattern.Root]
		if root == nil {
			d.other = append(d.other, c)
			continue
		}
		for len(d.kinds) <= root.ID {
			d.kinds = append(d.kinds, nil)
			d.infos = append(d.infos, nil)
		}
		d.infos[root.ID] = root
	}
	for _, c := range all {
		root := c.in.Ops[c.in.Rule.Pattern.Root]
		for id, info := range d.infos {
			if info != nil && (root == nil || root == info) {
				d.kinds[id] = append(d.kinds[id], c)
			}
		}
	}
	return d
}

// producerKind returns the operand j of r's root whose producer r's plan checks the kind of before any choice,
// and that kind (j = -1: none).
func producerKind(ctx *ir.Context, r *rule.Rule) (int, *ir.OpInfo) {
	pl, err := matcher.NewPlan(r)
	if err != nil {
		return -1, nil
	}
	root := r.Pattern.Root
	operandOf := map[int]int{} // value hole → root operand it was bound from
	defOf := map[int]int{}     // pattern op → root operand its value came from
	for _, in := range pl.Instrs {
		switch in.Code {
		case matcher.ChooseSwap, matcher.ChooseUser, matcher.ChooseAlt:
			return -1, nil
		case matcher.BindOperand:
			if in.Op == root {
				operandOf[in.Value] = in.Index
			}
		case matcher.BindDef:
			if j, ok := operandOf[in.Value]; ok {
				defOf[in.Op] = j
			}
		case matcher.CheckName:
			if j, ok := defOf[in.Op]; ok {
				return j, ctx.OpInfo(in.Name)
			}
		}
	}
	return -1, nil
}

// at returns the candidates at op: those of its kind, or for a kind no rule names (or an op of another Context)
// the rules rooted at any op.
func (d *dispatch) at(op *ir.Op) []candidate {
	info := op.Info()
	if id := info.ID; id < len(d.kinds) && d.infos[id] == info {
		return d.kinds[id]
	}
	return d.other
}
