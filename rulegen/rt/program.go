package rt

import (
	"fmt"
	"sync"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
)

// Program is a rule set compiled by drrc gen: the generated file declares one and exports its Pass as the
// rewriter.PassFactory of the rule pass.
type Program struct {
	// Name is the pass name.
	Name string
	// Paths are the rule files the pass loads (drr.Load's paths); Files are their texts and those of the files they
	// import.
	Paths []string
	Files []File
	// Unregistered says the rules were checked with drr.CheckOptions.Unregistered (drrc gen -unregistered).
	Unregistered bool
	// Fingerprint is the Fingerprint of the set the code was generated from.
	Fingerprint string
	// Bind binds the generated matcher to a set checked against a Context: it resolves op kinds, literal
	// attributes and native constraints (from reg) once, and returns the factory the pass's driver gets its match
	// function from for each run.
	Bind func(set *rule.Set, reg *rewriter.Registry) (rewriter.MatcherFactory, error)

	mu   sync.Mutex
	ctx  *ir.Context
	reg  *rewriter.Registry
	pass *rewriter.RulePass
}

// Load checks the program's rule files against ctx as drr.Load does (with reg's natives, when reg is not nil: a
// declared native nobody registered is an error) and verifies that the result is the set the code was generated
// from.
func (p *Program) Load(ctx *ir.Context, reg *rewriter.Registry) (*rule.Set, error) {
	if len(p.Paths) == 0 {
		return nil, fmt.Errorf("rule pass %s: no rule files", p.Name)
	}
	opts := drr.LoadOptions{FS: filesFS(p.Files), CheckOptions: drr.CheckOptions{Unregistered: p.Unregistered}}
	if reg != nil {
		opts.Natives = reg.HasNative
	}
	set, diags := drr.Load(ctx, opts, p.Paths...)
	if diags.HasErrors() {
		return nil, fmt.Errorf("rule pass %s: %w", p.Name, diags)
	}
	if fp := Fingerprint(set); fp != p.Fingerprint {
		return nil, fmt.Errorf("rule pass %s: the rules check differently here than where their Go code was generated "+
			"(another op catalog, or another version of pirdrr): run drrc gen again (fingerprint %s, generated for %s)",
			p.Name, fp, p.Fingerprint)
	}
	return set, nil
}

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
	compile, err := p.Bind(set, reg)
	if err != nil {
		return nil, fmt.Errorf("rule pass %s: %w", p.Name, err)
	}
	p.ctx, p.reg = ctx, reg
	p.pass = &rewriter.RulePass{PassName: p.Name, Set: set, Compile: compile}
	return p.pass, nil
}
