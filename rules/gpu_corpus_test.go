package rules_test

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/graphnet"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rules"
)

// TestGraphNetCorpusGPUInference is issue 15's corpus test: for each GraphNet graph of the shared corpus (every
// tenth by default; PIRDRR_CORPUS=full runs all 811) it applies the pipeline gpu_inference, requires no failed
// rewrite and an output that checks, and requires that no matmul whose result is added to a 1-D parameter bias
// is left on a transformer graph (each became an fc). It logs, per model family, the rewrites of every rule (the
// numbers of docs/gpu-inference.md) and the time of the whole run. PIRDRR_PARAMS sets rule-set parameters for the
// run, as drrc apply -param does: PIRDRR_PARAMS=sm_version=80,use_cutlass=true.
func TestGraphNetCorpusGPUInference(t *testing.T) {
	graphs := corpus.RequireGraphs(t, 0)
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	// One registry and pipeline for the whole run, as drrc apply has: the rule sets are parsed and their automaton
	// compiled once, so the time logged is the pipeline's.
	reg := rewriter.NewRegistry()
	require.NoError(t, rules.Register(reg))
	pl, err := reg.Pipeline(ctx, "gpu_inference")
	require.NoError(t, err)
	var assigns []string
	if env := os.Getenv("PIRDRR_PARAMS"); env != "" {
		assigns = strings.Split(env, ",")
	}
	params, err := drr.ParseParams(ctx, pl.Params(), assigns)
	require.NoError(t, err, "PIRDRR_PARAMS")
	start := time.Now()
	perFamily := map[string]map[string]int{}
	graphsPerFamily := map[string]int{}
	var opsIn, opsOut, done int
	for _, g := range graphs {
		fam := modelFamily(g)
		t.Run(g.Rel, func(t *testing.T) {
			p, err := graphnet.Read(ctx, g.Dir)
			require.NoError(t, err)
			in := p.NumOps()
			counts := perFamily[fam]
			if counts == nil {
				counts = map[string]int{}
				perFamily[fam] = counts
			}
			results, err := pl.Run(p, &rewriter.Env{Registry: reg, Options: rewriter.Options{Params: params}})
			require.NoError(t, err)
			for _, res := range results {
				require.Empty(t, res.Warnings, "pass %s", res.Pass)
				if res.Stats == nil {
					if res.Changes > 0 && goPassCounted[res.Pass] {
						counts[res.Pass] += res.Changes
					}
					continue
				}
				for _, rs := range res.Stats.Rules {
					require.Zerof(t, rs.Failed, "pass %s, rule %s: %s", res.Pass, rs.Name, rs.FirstFailure)
					if rs.Applied > 0 {
						counts[res.Pass+"."+baseRuleName(rs.Name)] += rs.Applied
					}
				}
			}
			require.Empty(t, ir.Verify(p).Errors(), "the output checks")
			left := matmulsWithParamBias(p)
			if transformerFamily[fam] {
				require.Empty(t, left, "matmuls added to a 1-D parameter bias left on a %s graph", fam)
			} else if len(left) > 0 {
				t.Logf("%s: %d matmul + 1-D parameter bias left: %s", fam, len(left), strings.Join(left, "; "))
			}
			graphsPerFamily[fam]++
			opsIn += in
			opsOut += p.NumOps()
			done++
		})
	}
	var fams []string
	for f := range perFamily {
		fams = append(fams, f)
	}
	sort.Strings(fams)
	var b strings.Builder
	for _, f := range fams {
		var rules []string
		for name, n := range perFamily[f] {
			rules = append(rules, fmt.Sprintf("%s %d", name, n))
		}
		sort.Strings(rules)
		fmt.Fprintf(&b, "\n  %s (%d graphs): %s", f, graphsPerFamily[f], strings.Join(rules, ", "))
	}
	t.Logf("gpu_inference on %d of %d graphs (corpus.Full()=%v, parameters %v): ops %d → %d, %v; rewrites per family:%s",
		done, len(graphs), corpus.Full(), assigns, opsIn, opsOut, time.Since(start).Round(time.Millisecond), b.String())
}

// goPassCounted names the Go passes of gpu_inference whose changes the corpus table counts: constants
// merged, dead parameters published (not fold_constants and dce, which tidy up). horizontal_fuse is a rule set.
var goPassCounted = map[string]bool{"cse_constants": true,
	"add_shadow_output_after_dead_parameter": true}

// baseRuleName drops the family instance of a rule name: "conv2d_bn_fold[pd_op.conv2d,pd_op.batch_norm_]" is
// "conv2d_bn_fold".
func baseRuleName(name string) string {
	if i := strings.IndexByte(name, '['); i >= 0 {
		return name[:i]
	}
	return name
}

// matmulsWithParamBias lists the adds of p that add a 1-D parameter to a matmul's result (either operand order).
func matmulsWithParamBias(p *ir.Program) []string {
	var out []string
	for op := range p.Walk() {
		if op.Name() != "pd_op.add" || op.NumOperands() != 2 {
			continue
		}
		for i := 0; i < 2; i++ {
			m, b := op.Operand(i).DefiningOp(), op.Operand(1-i)
			if m == nil || m.Name() != "pd_op.matmul" || !isParam1D(b) {
				continue
			}
			tx, _ := ir.AsBool(m.AttrOrDefault("transpose_x"))
			ty, _ := ir.AsBool(m.AttrOrDefault("transpose_y"))
			out = append(out, fmt.Sprintf("matmul(%s, %s){transpose_x: %v, transpose_y: %v} + %s", m.Operand(0).Type(),
				m.Operand(1).Type(), tx, ty, b.Type()))
			break
		}
	}
	return out
}

// isParam1D reports whether v is a 1-D tensor read from a parameter (directly or through pd_op.assign).
func isParam1D(v *ir.Value) bool {
	t := ir.TensorOf(v.Type())
	if t == nil || t.Rank() != 1 {
		return false
	}
	for d := v.DefiningOp(); d != nil; d = d.Operand(0).DefiningOp() {
		switch d.Name() {
		case ir.ParameterOpName:
			return true
		case "pd_op.assign":
			continue
		}
		return false
	}
	return false
}

// transformerFamily marks the model families issue 15's done-when speaks of (PaddleNLP, CLIP, Swin, recognizers).
var transformerFamily = map[string]bool{"BERT-like": true, "ERNIE": true, "GPT/LLaMA": true, "T5/BART": true,
	"CLIP/ViT/Swin": true, "OCR rec": true}

// modelFamily is the model family of a GraphNet sample, by its folder name, as the research for issue 15 grouped
// the corpus (docs/gpu-inference.md).
func modelFamily(g corpus.Graph) string {
	s := strings.ToLower(g.Sample)
	has := func(prefixes ...string) bool {
		for _, p := range prefixes {
			if strings.HasPrefix(s, p) {
				return true
			}
		}
		return false
	}
	switch g.Collection {
	case "PaddleScience":
		return "science"
	case "PaddleNLP":
		switch {
		case has("ernie", "skep", "rocketqa", "utc"):
			return "ERNIE"
		case has("facebook_llama", "gpt"):
			return "GPT/LLaMA"
		case has("t5", "bart", "mbart", "blenderbot", "prophetnet"):
			return "T5/BART"
		}
		return "BERT-like"
	}
	switch {
	case has("clip", "pp-shituv2_rec_clip", "swintransformer"):
		return "CLIP/ViT/Swin"
	case strings.HasSuffix(s, "_rec") || has("pp-formulanet", "slanet"):
		return "OCR rec"
	case has("deeplab", "ocrnet", "pp-liteseg", "segformer", "seaformer", "maskformer", "stfpm"):
		return "segmentation"
	case strings.Contains(s, "linear") || has("nonstationary", "patchtst", "timesnet", "autoencoder"):
		return "time series"
	case has("blazeface", "cascade", "centernet", "co-dino", "detr", "fcos", "fasterrcnn", "mask-rt-detr", "maskrcnn",
		"pp-doclayout", "pp-shituv2_det", "pp-yoloe", "picodet", "yolov3", "rt-detr") || strings.HasSuffix(s, "_det"):
		return "detection"
	}
	return "CNN"
}
