package rules

import (
	"errors"
	"sync"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/kernels"
	"github.com/pirdrr/drr/rewriter"
)

// KernelCheckPass is the pass kernel_check: the kernel check of drrc check -target as the last pass of a pipeline.
// It changes nothing; it fails, listing them, when the program has ops Paddle has no kernel for on the run's
// target (rewriter.Options.Target, drrc -target), and warns about the ops the target's kernel table does not list.
// A run without a target is an error: there is nothing to check against.
type KernelCheckPass struct {
	mu     sync.Mutex
	ctx    *ir.Context
	target string
	table  *kernels.Table
}

// Name returns "kernel_check".
func (*KernelCheckPass) Name() string { return "kernel_check" }

// Run checks p against the kernel table of env.Options.Target.
func (kc *KernelCheckPass) Run(p *ir.Program, env *rewriter.Env) (*rewriter.PassResult, error) {
	target := env.Options.Target
	if target.IsZero() {
		return nil, errors.New("kernel_check needs a target: give -target (gpu:sm80, cpu)")
	}
	t, err := kc.tableFor(p.Ctx, target)
	if err != nil {
		return nil, err
	}
	res := &rewriter.PassResult{Pass: kc.Name()}
	findings := kernels.Check(p, t, target)
	var errs []kernels.Finding
	for _, f := range findings {
		if f.Warning {
			res.Warnings = append(res.Warnings, kernels.Diagnostics(p, target, []kernels.Finding{f})[0].Error())
			continue
		}
		errs = append(errs, f)
	}
	if len(errs) > 0 {
		return res, &kernels.Error{Target: target, Diags: kernels.Diagnostics(p, target, errs)}
	}
	return res, nil
}

// tableFor loads the target's table once per Context and kind of target.
func (kc *KernelCheckPass) tableFor(ctx *ir.Context, target ir.Target) (*kernels.Table, error) {
	kc.mu.Lock()
	defer kc.mu.Unlock()
	if kc.table == nil || kc.ctx != ctx || kc.target != target.KernelTable() {
		t, err := kernels.Load(ctx, target)
		if err != nil {
			return nil, err
		}
		kc.ctx, kc.target, kc.table = ctx, target.KernelTable(), t
	}
	return kc.table, nil
}
