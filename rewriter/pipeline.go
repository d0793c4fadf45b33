package rewriter

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/pirdrr/drr/analysis"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/matcher"
)

// Pass is one step of a pipeline: a rule set applied by the greedy driver, or a pass written in Go.
type Pass interface {
	Name() string
	Run(p *ir.Program, env *Env) (*PassResult, error)
}

// Env is what passes get besides the program: the registry for natives and the driver options for rule passes.
type Env struct {
	Registry *Registry
	Options  Options
	// Listeners see every change (statistics, tracing, …).
	Listeners []ir.Listener
}

// PassResult reports what a pass did.
type PassResult struct {
	Pass string
	// Stats are the driver statistics of a rule pass (nil for Go passes).
	Stats *Stats
	// Changes counts what a Go pass changed (its own unit: ops erased, ops rewritten, …).
	Changes  int
	Duration time.Duration
	// Warnings are what the pass wants the user to know about the program (the dce pass keeping a program without
	// outputs whole).
	Warnings []string
}

// Pipeline is a sequence of passes.
type Pipeline []Pass

// Run runs the passes in order, stopping at the first error.
func (pl Pipeline) Run(p *ir.Program, env *Env) ([]*PassResult, error) {
	var out []*PassResult
	for _, pass := range pl {
		start := time.Now()
		res, err := pass.Run(p, env)
		if res == nil {
			res = &PassResult{Pass: pass.Name()}
		}
		res.Duration = time.Since(start)
		out = append(out, res)
		if err != nil {
			return out, fmt.Errorf("pass %s: %w", pass.Name(), err)
		}
	}
	return out, nil
}

// MatcherFactory compiles a rule set into a match function for one program (the matcher package provides it;
// the oracle answers program builtins and native constraints).
type MatcherFactory func(set *rule.Set, oracle rule.Oracle) (MatchFunc, error)

// RulePass applies a rule set with the greedy driver.
type RulePass struct {
	PassName string
	Set      *rule.Set
	// Compile, if set, builds the matcher for each Run; by default the pass compiles the set into the matcher's
	// automaton once and uses it for every program.
	Compile MatcherFactory

	once    sync.Once
	auto    *matcher.Automaton
	autoErr error
}

// Name returns the pass name.
func (rp *RulePass) Name() string { return rp.PassName }

// Run applies the rules to p.
func (rp *RulePass) Run(p *ir.Program, env *Env) (*PassResult, error) {
	reg := env.Registry
	if reg == nil {
		reg = NewRegistry()
	}
	oracle := rule.WithParams(NewOracle(p, reg), env.Options.Params)
	var match MatchFunc
	if rp.Compile != nil {
		m, err := rp.Compile(rp.Set, oracle)
		if err != nil {
			return nil, err
		}
		match = m
	} else {
		a, err := rp.automaton()
		if err != nil {
			return nil, err
		}
		m := a.NewMatcher()
		match = func(dst []*rule.Match, op *ir.Op) []*rule.Match { return m.MatchInto(dst, op, oracle) }
	}
	opts := env.Options
	var warnings []string
	if !opts.NoDCE && !ir.HasOutputs(p) {
		// Without outputs nothing says which values matter: a rewrite that replaces a sink (y = assign(x) by x)
		// leaves the sink's producers without uses, and erasing them would destroy what the program computes.
		opts.NoDCE = true
		warnings = append(warnings, NoOutputsDriverWarning)
	}
	d := NewDriver(p, rp.Set, match, reg.Rewrites(), oracle, opts)
	for _, l := range env.Listeners {
		d.AddListener(l)
	}
	st, err := d.Run()
	return &PassResult{Pass: rp.PassName, Stats: st, Warnings: warnings}, err
}

// Params returns the parameters the rule sets of the pipeline's rule passes declare, in pass order (a name may
// come several times, once per set declaring it).
func (pl Pipeline) Params() []*rule.ParamDecl {
	var out []*rule.ParamDecl
	for _, p := range pl {
		if rp, ok := p.(*RulePass); ok && rp.Set != nil {
			out = append(out, rp.Set.Params...)
		}
	}
	return out
}

// NewOracle returns the oracle a rule pass uses for p: program builtins from the facts package analysis computes
// (analysis.Facts), native constraints from reg.
func NewOracle(p *ir.Program, reg *Registry) rule.Oracle {
	return rule.NewOracle(analysis.NewFacts(p), func(name string, args []rule.Val) (rule.Val, error) {
		f, ok := reg.Constraint(name)
		if !ok {
			return nil, errors.New(rule.UnregisteredNative("constraint", name))
		}
		return f(args)
	})
}

// GoPass is a pass written in Go: Fn changes the program through the rewriter it is given (whose listener feeds the
// pipeline's listeners) and returns how many changes it made.
type GoPass struct {
	PassName string
	Fn       func(p *ir.Program, rw *ir.Rewriter) (int, error)
}

// Name returns the pass name.
func (gp *GoPass) Name() string { return gp.PassName }

// Run runs the function. With Options.VerifyEach the program is verified after the pass, and a failure names it.
func (gp *GoPass) Run(p *ir.Program, env *Env) (*PassResult, error) {
	rw := ir.NewRewriter(p.Ctx, ir.Listeners(env.Listeners))
	n, err := gp.Fn(p, rw)
	res := &PassResult{Pass: gp.PassName, Changes: n}
	if err == nil && env.Options.VerifyEach {
		if errs := ir.Verify(p).Errors(); len(errs) > 0 {
			err = fmt.Errorf("verify-each: the program is invalid after Go pass %s:\n%s", gp.PassName, errs.Error())
		}
	}
	return res, err
}

// NewRulePass returns a pass applying set with the matcher's automaton, compiled once on first use.
func NewRulePass(name string, set *rule.Set) *RulePass {
	return &RulePass{PassName: name, Set: set}
}

// automaton returns the pass's compiled automaton.
func (rp *RulePass) automaton() (*matcher.Automaton, error) {
	rp.once.Do(func() { rp.auto, rp.autoErr = matcher.Compile(rp.Set, matcher.Options{}) })
	return rp.auto, rp.autoErr
}
