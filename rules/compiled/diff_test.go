package compiled_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drrtest"
	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/internal/difftest"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/ir/pirtext"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rules"
	"github.com/pirdrr/drr/rules/compiled"
)

// registry returns the shipped registry with the compiled sets in place of the interpreted ones.
func registry(t testing.TB) *rewriter.Registry {
	reg := rewriter.NewRegistry()
	require.NoError(t, rules.Register(reg))
	require.NoError(t, compiled.Register(reg))
	return reg
}

// TestEverySetCompiled: every shipped set has its compiled pass, and no compiled pass lacks its set.
func TestEverySetCompiled(t *testing.T) {
	var names []string
	for name := range compiled.Passes {
		names = append(names, name)
	}
	sort.Strings(names)
	require.Equal(t, rules.Sets(), names)
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	reg := registry(t)
	for _, name := range names {
		pl, err := reg.Pipeline(ctx, name)
		require.NoError(t, err)
		require.Len(t, pl, 1)
		require.Equal(t, 1, difftest.Compiled(pl), "%s is compiled", name)
		require.Equal(t, name, pl[0].Name())
	}
}

// TestRegisterNeedsShippedSets: Register replaces registered sets; on an empty registry it says what is missing.
func TestRegisterNeedsShippedSets(t *testing.T) {
	err := compiled.Register(rewriter.NewRegistry())
	require.ErrorContains(t, err, "is not registered (register the shipped sets first, with rules.Register)")
}

// TestGoldensDifferential runs every golden archive of the shipped sets (rules/testdata) with the compiled sets
// and with the interpreted ones, in the archive's order and in every other: the outputs and statistics must be
// the same.
func TestGoldensDifferential(t *testing.T) {
	files, err := drrtest.Files("../testdata")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	reg := registry(t)
	n := 0
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(f), "../testdata/"), ".txtar")
		t.Run(name, func(t *testing.T) {
			a := difftest.ReadArchive(t, f)
			if a.Has("errors") {
				t.Skip("the archive expects errors")
			}
			if a.Has("rules.drr") {
				t.Skip("the archive's own rules: rulegen/internal/gentest compiles those of its archives (users.txtar)")
			}
			ctx := a.Context(t)
			pl := a.Pipeline(t, ctx, reg, nil)
			if difftest.Compiled(pl) == 0 {
				t.Skip("no rule set in the archive's passes")
			}
			load := a.Input(t, ctx)
			for _, order := range append([]rewriter.Options{a.Options}, difftest.Orders...) {
				o := difftest.WithOrder(a.Options, order)
				t.Run(difftest.OrderName(o), func(t *testing.T) {
					difftest.Compare(t, load, pl, &rewriter.Env{Registry: reg, Options: o})
				})
			}
			n++
		})
	}
	t.Logf("%d archives of %d compared in every order", n, len(files))
}

// corpusPrograms returns the corpus programs: every readable PIR text, PIR JSON and GraphNet-derived text
// program, and the GraphNet graphs (sampled unless PIRDRR_CORPUS=full: every tenth, every thirtieth under the race
// detector).
func corpusPrograms(t *testing.T) []string {
	root := corpus.Require(t)
	var out []string
	for _, dir := range []string{"pir_text", "pir_json", "graphnet"} {
		entries, err := os.ReadDir(filepath.Join(root, dir))
		require.NoError(t, err)
		for _, e := range entries {
			// 24 is a fragment of the 2023 'new IR' syntax that no reader accepts (SOURCES.md).
			if !strings.HasPrefix(e.Name(), "24_") {
				out = append(out, filepath.Join(root, dir, e.Name()))
			}
		}
	}
	for _, g := range corpus.RequireGraphs(t, raceStride) {
		out = append(out, g.Dir)
	}
	return out
}

// corpusPipelines returns what the corpus differential runs: the inference and gpu_inference pipelines,
// conv_bn_relu alone (on the programs as read, without the value-semantics passes before it), and every shipped set
// that neither pipeline runs, alone (a rule file added to rules/ is compared on the corpus without a change here).
// With PIRDRR_CORPUS=full every set gpu_inference runs is also compared alone, on the programs as read.
func corpusPipelines(t *testing.T, ctx *ir.Context, reg *rewriter.Registry) []string {
	inPipeline := map[string]bool{}
	for _, name := range []string{"inference", "gpu_inference"} {
		pl, err := reg.Pipeline(ctx, name)
		require.NoError(t, err)
		for _, pass := range pl {
			inPipeline[pass.Name()] = true
		}
	}
	out := []string{"inference", "gpu_inference", "conv_bn_relu"}
	for _, name := range rules.Sets() {
		if name != "conv_bn_relu" && (!inPipeline[name] || corpus.Full()) {
			out = append(out, name)
		}
	}
	return out
}

// TestCorpusDifferential runs the pipelines of corpusPipelines on every corpus program, compiled and interpreted,
// top-down and shuffled.
func TestCorpusDifferential(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	reg := registry(t)
	root, _ := corpus.Root()
	rewrites, programs := 0, corpusPrograms(t)
	pipelines := corpusPipelines(t, ctx, reg)
	for _, path := range programs {
		rel, _ := filepath.Rel(root, path)
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			load := func() *ir.Program {
				p, _, err := pirfile.Load(ctx, path)
				require.NoError(t, err)
				return p
			}
			for _, pipeline := range pipelines {
				pl, err := reg.Pipeline(ctx, pipeline)
				require.NoError(t, err)
				for _, o := range []rewriter.Options{{}, {Shuffle: true, Seed: 1}} {
					t.Run(pipeline+"/"+difftest.OrderName(o), func(t *testing.T) {
						out := difftest.Compare(t, load, pl, &rewriter.Env{Registry: reg, Options: o})
						rewrites += out.Rewrites
					})
				}
			}
		})
	}
	t.Logf("%d programs, %d rewrites in all runs", len(programs), rewrites)
}

// TestStaleFallsBack: in a Context whose catalog gives the inplace family another member (a dialect like drrc
// -dialect loads), the compiled inplace set is stale; the registered pass is then the interpreted set, and it
// rewrites the new member too. The other sets stay compiled.
func TestStaleFallsBack(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	_, err = ctx.LoadCatalog("widget.dialect", []byte("dialect widget id 77\n\nop scale(x) -> (out)\n\n"+
		"op scale_(x) -> (out)\n    inplace(x -> out)\n"))
	require.NoError(t, err)
	reg := registry(t)
	pl, err := reg.Pipeline(ctx, "inplace", "conv_bn_relu")
	require.NoError(t, err)
	require.Equal(t, 1, difftest.Compiled(pl), "conv_bn_relu is compiled, inplace is not")
	require.Nil(t, pl[0].(*rewriter.RulePass).Compile, "inplace is the interpreted set")
	require.NotNil(t, pl[1].(*rewriter.RulePass).Compile)
	p, _, err := pirtext.Parse(ctx, "w.pir", []byte(`{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[2],stop_gradient:[true]} : () -> builtin.tensor<2xf32>
    (%1) = "pd_op.relu" (%0) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>
    (%2) = "widget.scale_" (%1) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>
    (%3) = "pd_op.fetch" (%2) {col:(Int32)0,name:"out"} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>
}`), pirtext.ReadOptions{})
	require.NoError(t, err)
	res, err := pl[:1].Run(p, &rewriter.Env{Registry: reg})
	require.NoError(t, err)
	require.Equal(t, 1, res[0].Stats.Rewrites, "widget.scale_ became widget.scale")
}
