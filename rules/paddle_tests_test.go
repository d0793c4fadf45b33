package rules_test

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/compare"
	"github.com/pirdrr/drr/drrtest"
	"github.com/pirdrr/drr/ir"
)

// The archives of testdata/paddle_tests are the programs of Paddle's own pass tests (test/ir/pir/fused_pass/ and
// test/ir/pir/ in PaddlePaddle/Paddle), each written from its Python: one folder per Paddle pass of
// kPirGpuPasses, one archive per program the test builds (positive and negative). Each archive
//
//   - names its source on its first line ("Source: PaddlePaddle/Paddle@COMMIT PATH CLASS"; for a pass without a
//     Paddle test, the C++ pass), says what the program is, and whether the port does the same as Paddle's test
//     or differs on purpose (and why);
//   - runs the pass alone (passes, options) and requires the test's valid_op_map (ops): for the set conv_bn_relu,
//     which ports conv2d_bn_fuse, conv2d_add_act_fuse and conv2d_add_fuse, "alone" is the rules of that pass,
//     selected by their label (no pass merges equal constants first: patterns match constants by value, so the
//     programs built op by op, with a constant per reader, match as Paddle's exported ones with shared constants);
//   - runs the whole gpu_inference pipeline (the run gpu_inference) and requires the valid_op_map again, or, where
//     a later pass goes on to rewrite the result, the counts it leaves, with the reason.
//
// TestPaddleTestsPreserveValues runs every output of every run in the reference interpreter against the input.
// Regenerate the outputs with go test ./rules -run PaddleTests -update (the ops sections are never rewritten).
const paddleTestsDir = "testdata/paddle_tests"

func TestPaddleTests(t *testing.T) {
	drrtest.Run(t, paddleTestsDir, drrtest.Options{Update: *update})
}

// paddleTestPasses are the folders of testdata/paddle_tests: the passes of Paddle's kPirGpuPasses as ported by
// gpu_inference, by Paddle's name without _pass (the sets of pirdrr's own that gpu_inference runs beside them,
// rotary_shared_ids, rotary_single_tensor, weight_only_linear_bias and group_norm_swish, port no Paddle pass).
var paddleTestPasses = []string{
	"add_shadow_output_after_dead_parameter", "delete_quant_dequant_linear_op", "delete_weight_dequant_linear_op",
	"map_op_to_another", "identity_op_clean", "silu_fuse", "conv2d_bn_fuse", "conv2d_add_act_fuse", "conv2d_add_fuse",
	"embedding_eltwise_layernorm_fuse", "fused_rotary_position_embedding", "fused_flash_attn", "multihead_matmul_fuse",
	"fused_weight_only_linear", "matmul_add_act_fuse", "fc_elementwise_layernorm_fuse", "add_norm_fuse",
	"group_norm_silu_fuse", "matmul_scale_fuse", "matmul_transpose_fuse", "transpose_flatten_concat_fuse",
	"remove_redundant_transpose", "horizontal_fuse",
}

// sourceLine is the first line of a Paddle test archive: the file of PaddlePaddle/Paddle it comes from, at a commit.
var sourceLine = regexp.MustCompile(`^Source: .*PaddlePaddle/Paddle@[0-9a-f]{40} (test|paddle)/\S+`)

// TestPaddleTestsComplete: every pass of gpu_inference that ports a Paddle pass has a folder of archives, and every
// archive names its Paddle source, states the test's op counts for the pass alone and runs gpu_inference with op
// counts too.
func TestPaddleTestsComplete(t *testing.T) {
	for _, pass := range paddleTestPasses {
		files, err := drrtest.Files(filepath.Join(paddleTestsDir, pass))
		if err != nil || len(files) == 0 {
			t.Errorf("pass %s has no archive under %s/%s (%v)", pass, paddleTestsDir, pass, err)
		}
	}
	dirs, err := os.ReadDir(paddleTestsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !contains(paddleTestPasses, d.Name()) {
			t.Errorf("%s/%s is no pass of gpu_inference", paddleTestsDir, d.Name())
		}
	}
	files, err := drrtest.Files(paddleTestsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ar := txtar.Parse(data)
		if first, _, _ := strings.Cut(string(ar.Comment), "\n"); !sourceLine.MatchString(first) {
			t.Errorf("%s: the first line does not name the Paddle source (Source: … PaddlePaddle/Paddle@COMMIT PATH): %q", f, first)
		}
		if !strings.Contains(string(ar.Comment), "Paddle's test: ") {
			t.Errorf("%s: the comment does not say whether the port does what Paddle's test expects (\"Paddle's test: same\" or \"differs …\")", f)
		}
		for _, want := range []string{"passes", "ops", "gpu_inference:passes", "gpu_inference:ops"} {
			if !hasSection(ar, want) {
				t.Errorf("%s: no section %s", f, want)
			}
		}
	}
}

func hasSection(ar *txtar.Archive, name string) bool {
	for _, f := range ar.Files {
		if f.Name == name {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestPaddleTestsPreserveValues runs the input of every Paddle test archive and the output of each of its runs in
// the reference interpreter on random inputs and weights: a fusion that computes something else than the ops it
// replaced fails, whatever the op counts say.
func TestPaddleTestsPreserveValues(t *testing.T) {
	files, err := drrtest.Files(paddleTestsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(f), paddleTestsDir+"/"), ".txtar")
		var input string
		outputs := map[string]string{}
		var runs []string
		for _, sec := range txtar.Parse(data).Files {
			switch {
			case sec.Name == "input.pir":
				input = string(sec.Data)
			case strings.HasSuffix(sec.Name, "output.pir"):
				run := strings.TrimSuffix(strings.TrimSuffix(sec.Name, "output.pir"), ":")
				if run == "" {
					run = "alone"
				}
				outputs[run] = string(sec.Data)
				runs = append(runs, run)
			}
		}
		for _, run := range runs {
			t.Run(name+"/"+run, func(t *testing.T) {
				if input == "" {
					t.Fatal("no input.pir")
				}
				before, after := parse(t, input), parse(t, outputs[run])
				opts := compare.Options{Runs: 1}
				folder, _, _ := strings.Cut(name, "/")
				if setup := paddleTestCompare[folder]; setup != nil {
					setup(&opts, before, after)
				}
				rep, err := compare.Programs(before, after, opts)
				if err != nil {
					if rep != nil && errors.Is(err, compare.ErrMismatch) {
						t.Fatalf("%v\n%s", err, rep)
					}
					t.Fatal(err)
				}
				if len(rep.Outputs) == 0 {
					t.Fatalf("no outputs compared")
				}
			})
		}
	}
}

// paddleTestCompare adapts the interpreter's comparison to the programs of a folder, where the test's data or sizes
// need it.
var paddleTestCompare = map[string]func(opts *compare.Options, progs ...*ir.Program){
	// The weight-only programs multiply x [3, 128, 4096] by a [4096, 2048] weight: 3 GMAC a run, seconds each in the
	// interpreter. The rows of x are independent, and what the pass checks (K, N, the dtypes) does not depend on
	// them: x is evaluated as [1, 2, 4096].
	"fused_weight_only_linear": func(opts *compare.Options, _ ...*ir.Program) {
		opts.InputShapes = map[string][]int{"x": {1, 2, 4096}}
		opts.IgnoreDeclaredShapes = true
	},
	// Paddle's test feeds the token ids np.random.random((1, 30)).astype("int64"): zeros (the interpreter's own
	// draw, 0 to 7, would index past the 2-row token-type table).
	"embedding_eltwise_layernorm_fuse": func(_ *compare.Options, progs ...*ir.Program) {
		for _, p := range progs {
			p.Feeds = map[string]*ir.Variable{}
			for _, name := range []string{"x1", "x2"} {
				p.Feeds[name] = &ir.Variable{Name: name, Type: p.Ctx.Tensor("builtin.tensor", []int64{1, 30},
					p.Ctx.Scalar(ir.DTypeInt64)), Data: make([]byte, 30*8)}
			}
		}
	},
}
