package rules_test

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/graphnet"
	"github.com/pirdrr/drr/ir/kernels"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rules"
)

// TestKernelTableCoversCreatedOps: every op a rule set of gpu_inference creates has an entry in the GPU kernel
// table (an op the table does not list would leave the kernel check blind where the rules act). The inplace and
// reinplace families create the twin of the op they match, whichever it is: that the table lists the twin of
// every op it lists is TestTwinsListedTogether's (package ir/kernels).
func TestKernelTableCoversCreatedOps(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	tab, err := kernels.Load(ctx, ir.GPU(80))
	require.NoError(t, err)
	reg := rewriter.NewRegistry()
	require.NoError(t, rules.Register(reg))
	pl, err := reg.Pipeline(ctx, "gpu_inference")
	require.NoError(t, err)
	created := map[string][]string{}
	for _, p := range pl {
		rp, ok := p.(*rewriter.RulePass)
		if !ok || rp.PassName == "inplace" || rp.PassName == "reinplace" {
			continue
		}
		for _, r := range rp.Set.Rules {
			for _, a := range r.Actions {
				if c, ok := a.(*rule.Create); ok {
					created[c.Op] = append(created[c.Op], rp.PassName+"."+r.ID())
				}
			}
		}
	}
	require.NotEmpty(t, created)
	for op, by := range created {
		assert.NotNil(t, tab.Lookup(op), "%s (created by %s) has no entry in %s", op, by[0], tab.File)
	}
}

// TestGPUInferenceKernelCheck is the done-when of issue 27 item 4: on the corpus (the PIR JSON models and every
// tenth GraphNet graph by default; PIRDRR_CORPUS=full runs all 811), the output of gpu_inference for gpu:sm80 has a
// Paddle kernel for every op — the kernel check finds nothing — with Paddle's defaults and with -param
// use_cutlass=true (issue 27 item 2: the cutlass convolutions only with use_cutlass, in the layout the kernel
// reads). The programs as captured check clean too (the table agrees with what Paddle ran), and every op of the
// corpus, as captured and after the pipeline, has an entry in the table: an op the check reports as not checked
// fails the test. It logs the findings by constraint (-v), the numbers of docs/kernel-check.md.
func TestGPUInferenceKernelCheck(t *testing.T) {
	graphs := corpus.RequireGraphs(t, 0)
	type program struct {
		name string
		load func() (*ir.Program, error)
	}
	var progs []program
	jsonDir := corpus.Path(t, "pir_json")
	jsons, err := filepath.Glob(filepath.Join(jsonDir, "*.json"))
	require.NoError(t, err)
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	for _, f := range jsons {
		progs = append(progs, program{"pir_json/" + filepath.Base(f), func() (*ir.Program, error) {
			p, _, err := pirfile.Load(ctx, f)
			return p, err
		}})
	}
	for _, g := range graphs {
		progs = append(progs, program{g.Rel, func() (*ir.Program, error) { return graphnet.Read(ctx, g.Dir) }})
	}
	target := ir.GPU(80)
	tab, err := kernels.Load(ctx, target)
	require.NoError(t, err)
	reg := rewriter.NewRegistry()
	require.NoError(t, rules.Register(reg))
	pl, err := reg.Pipeline(ctx, "gpu_inference")
	require.NoError(t, err)
	runs := []struct {
		name   string
		assign []string
	}{{"defaults", nil}, {"use_cutlass", []string{"use_cutlass=true"}}}
	for _, run := range runs {
		params, err := drr.ParseParams(ctx, pl.Params(), run.assign)
		require.NoError(t, err)
		params, err = drr.TargetParams(pl.Params(), params, target)
		require.NoError(t, err)
		opts := rewriter.Options{Target: target, Params: params}
		byConstraint := map[string]int{}
		unlisted := map[string]bool{}
		names := map[string]bool{} // the op names checked, as captured and after the pipeline
		for _, g := range progs {
			p, err := g.load()
			require.NoError(t, err, g.name)
			if run.name == "defaults" {
				for op := range p.Walk() {
					names[op.Name()] = true
				}
				for _, f := range kernels.Check(p, tab, target) {
					if f.Warning {
						unlisted[f.Op.Name()] = true
						continue
					}
					t.Errorf("%s as captured: %s", g.name, f)
				}
			}
			_, err = pl.Run(p, &rewriter.Env{Registry: reg, Options: opts})
			require.NoError(t, err, g.name)
			for op := range p.Walk() {
				names[op.Name()] = true
			}
			for _, f := range kernels.Check(p, tab, target) {
				if f.Warning {
					unlisted[f.Op.Name()] = true
					continue
				}
				byConstraint[f.Op.Name()+" "+f.Constraint]++
				t.Errorf("%s after gpu_inference (%s): %s", g.name, run.name, f)
			}
		}
		var keys []string
		for k := range byConstraint {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "  %6d %s\n", byConstraint[k], k)
		}
		t.Logf("%s, %d programs (%d GraphNet graphs), %d op names, gpu_inference for %s: %d kinds of finding\n%s",
			run.name, len(progs), len(graphs), len(names), target, len(keys), b.String())
		var missing []string
		for name := range unlisted {
			missing = append(missing, name)
		}
		sort.Strings(missing)
		assert.Empty(t, missing, "ops of the corpus %s does not list (the kernel check warns that they are not checked)", tab.File)
	}
}
