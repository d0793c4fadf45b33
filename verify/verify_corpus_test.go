package verify_test

import (
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/compare"
	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/verify"
)

// The real models of ../shared/corpus before and after the default inference pipeline, at 1×3×64×64.

func loadCorpus(t testing.TB, ctx *ir.Context, rel string) *ir.Program {
	t.Helper()
	path := corpus.Path(t, rel)
	if _, err := os.Stat(path); os.IsNotExist(err) {
		t.Skipf("corpus program %s is absent", path)
	}
	p, _, err := pirfile.Load(ctx, path)
	require.NoError(t, err)
	return p
}

var corpusModels = []struct {
	name, file, input string
	// heavy models are skipped in -short mode and under the race detector.
	heavy bool
	// training marks MobileNetV2, captured with is_test=false: its batch norms must stay.
	training bool
}{
	{"ResNet18", "graphnet/graphnet_PaddleX_ResNet18.pir", "data_0", false, false},
	{"ResNet50", "graphnet/graphnet_PaddleX_ResNet50.pir", "data_0", true, false},
	{"MobileNetV2 (training mode)", "graphnet/graphnet_PaddleX_MobileNetV2_x1_0.pir", "data_0", false, true},
	{"PP-OCRv5_mobile_det", "pir_json/nanaikaros__PP-OCRv5_mobile_det_infer.inference.json", "x", false, false},
	{"PP-OCRv5_server_det", "pir_json/nanaikaros__PP-OCRv5_server_det_infer.inference.json", "x", true, false},
}

func corpusOptions(input string) compare.Options {
	o := compare.Options{Runs: 3, Seed: 1}
	if underRace {
		o.Runs = 1
	}
	o.InputShapes = map[string][]int{input: {1, 3, 64, 64}}
	o.IgnoreDeclaredShapes = true
	return o
}

func skipHeavy(t *testing.T, heavy bool) {
	t.Helper()
	if heavy && testing.Short() {
		t.Skip("heavy model skipped in -short mode")
	}
	if heavy && underRace {
		t.Skip("heavy model skipped under the race detector")
	}
}

// TestVerifyCorpusInference: the default inference pipeline preserves the outputs of the real models.
func TestVerifyCorpusInference(t *testing.T) {
	for _, m := range corpusModels {
		t.Run(m.name, func(t *testing.T) {
			skipHeavy(t, m.heavy)
			ctx := newCtx(t)
			p := loadCorpus(t, ctx, m.file)
			reg := shippedRegistry(t)
			start := time.Now()
			res, err := verify.Pipeline(p, pipeline(t, ctx, reg, "inference"),
				verify.PipelineOptions{Compare: corpusOptions(m.input), Registry: reg})
			require.NoError(t, err, "%v", res.Report)
			require.NotEmpty(t, res.Report.Outputs)
			for _, o := range res.Report.Outputs {
				assert.LessOrEqual(t, o.MaxRel, 1e-12, "%s: exact rewrites agree to rounding in float64", o.Name)
			}
			bn := countOps(res.Before, "pd_op.batch_norm_")
			switch {
			case m.training:
				assert.Equal(t, bn, countOps(res.After, "pd_op.batch_norm_"), "training batch norms are not folded")
				assert.Positive(t, bn)
			case bn > 0:
				assert.Less(t, countOps(res.After, "pd_op.batch_norm_"), bn, "inference batch norms are folded")
			}
			if res.AnchoredSinks > 0 {
				assert.Equal(t, 1, res.AnchoredSinks, "the GraphNet captures have one sink")
			}
			o := res.Report.Outputs[0]
			t.Logf("%s at 1×3×64×64: %d output(s), max abs %.3g, max rel %.3g, %d run(s); ops %d → %d, batch_norm_ %d → %d; passes %v, evaluation %v, total %v",
				m.name, len(res.Report.Outputs), o.MaxAbs, o.MaxRel, res.Report.Runs, res.Before.NumOps(), res.After.NumOps(),
				bn, countOps(res.After, "pd_op.batch_norm_"), res.PassTime.Round(time.Millisecond),
				res.CompareTime.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
		})
	}
}

// TestVerifyCorpusFoldConstants: with random weight data, inference + fold_constants leaves no arithmetic on
// weights, and the outputs agree within the float32 rounding of the folded weights.
func TestVerifyCorpusFoldConstants(t *testing.T) {
	for _, m := range corpusModels {
		t.Run(m.name, func(t *testing.T) {
			skipHeavy(t, m.heavy)
			if underRace && m.name != "ResNet18" {
				t.Skip("one model is enough under the race detector")
			}
			ctx := newCtx(t)
			p := loadCorpus(t, ctx, m.file)
			reg := shippedRegistry(t)
			start := time.Now()
			res, err := verify.Pipeline(p, pipeline(t, ctx, reg, "inference", "fold_constants"),
				verify.PipelineOptions{Compare: corpusOptions(m.input), Registry: reg, FillWeights: true, WeightSeed: 5})
			require.NoError(t, err, "%v", res.Report)
			if m.training {
				// The training batch norms write their running statistics: those parameters are not constants.
				assert.Positive(t, countOps(res.After, "pd_op.batch_norm_"))
			} else {
				assert.Empty(t, res.WeightOps, "no weight arithmetic left")
				for _, name := range []string{"pd_op.sqrt", "pd_op.sqrt_", "pd_op.divide", "pd_op.subtract"} {
					assert.Zero(t, countOps(res.After, name), name)
				}
			}
			o := res.Report.Outputs[0]
			t.Logf("%s + fold_constants at 1×3×64×64: max abs %.3g, max rel %.3g; parameters %d → %d; %v",
				m.name, o.MaxAbs, o.MaxRel, len(res.Before.Params), len(res.After.Params), time.Since(start).Round(time.Millisecond))
		})
	}
}
