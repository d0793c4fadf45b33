package interp

import (
	"flag"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirjson"
	"github.com/pirdrr/drr/ir/pirtext"
)

// Whole transformer layers as PIR text programs (testdata/models): a BERT encoder layer and a LLaMA decoder layer,
// each once with the ops a framework exports (matmul with transposes, layer_norm or an RMS norm spelled out,
// softmax with an attention mask, gelu, rotary embedding by halves, swiglu) and once with the fused ops Paddle's GPU
// inference passes make of them (multihead_matmul, fc, fused_bias_residual_layernorm,
// fused_fc_elementwise_layernorm; rms_norm, fused_rotary_position_embedding, flash_attn). The pairs must compute the
// same numbers. go test ./interp -run TestTransformerLayers -update rewrites the files from the builders below.

var update = flag.Bool("update", false, "rewrite testdata/models/*.pir from their builders")

const (
	tfHidden = 32
	tfHeads  = 4
	tfHead   = tfHidden / tfHeads
	tfSeq    = 6
	tfFFN    = 48
)

// bertLayer is one BERT encoder layer over x [2, S, H] with a boolean token mask [2, S].
func bertLayer(t testing.TB, fused bool) *ir.Program {
	b := newBuilderIn(t, kctx(t))
	x := b.data("x", 2, tfSeq, tfHidden)
	mask := b.dataT("mask", ir.DTypeBool, 2, tfSeq) // 0/1 tokens (random integers would make −10000·(1 − mask) huge)
	p := func(name string, dims ...int64) *ir.Value { return b.param(name, dims...) }
	scale := func(v *ir.Value, s, bias float64) *ir.Value {
		return b.va("pd_op.scale", []*ir.Value{v, b.full([]int64{1}, s)}, attr("bias", b.fl(float32(bias))), attr("bias_after_scale", b.bo(true)))
	}
	// (1 − mask)·(−10000), [2, 1, 1, S]
	mb := b.va("pd_op.cast", []*ir.Value{mask}, attr("dtype", b.ctx.DataType(ir.DTypeFloat32)))
	mb = scale(scale(mb, -1, 1), -10000, 0)
	mb = b.va("pd_op.unsqueeze", []*ir.Value{mb, b.ints(1, 2)})
	wq, wk, wv, wo := p("wq", tfHidden, tfHidden), p("wk", tfHidden, tfHidden), p("wv", tfHidden, tfHidden), p("wo", tfHidden, tfHidden)
	bq, bk, bv, bo := p("bq", tfHidden), p("bk", tfHidden), p("bv", tfHidden), p("bo", tfHidden)
	ln1s, ln1b, ln2s, ln2b := p("ln1_scale", tfHidden), p("ln1_bias", tfHidden), p("ln2_scale", tfHidden), p("ln2_bias", tfHidden)
	w1, b1, w2, b2 := p("w1", tfHidden, tfFFN), p("b1", tfFFN), p("w2", tfFFN, tfHidden), p("b2", tfHidden)
	alpha := float64(float32(1 / math.Sqrt(tfHead))) // multihead_matmul's alpha is an f32 attribute
	eps := attr("epsilon", b.fl(1e-12))
	var out *ir.Value
	if fused {
		wqkv := b.ops("pd_op.stack", []*ir.Value{b.combine(wq, wk, wv)}, []ir.Type{b.f32(tfHidden, 3, tfHidden)}, attr("axis", b.i32(1)))[0]
		bqkv := b.ops("pd_op.stack", []*ir.Value{b.combine(bq, bk, bv)}, []ir.Type{b.f32(3, tfHidden)}, attr("axis", b.i32(0)))[0]
		ctx := b.va("pd_op.multihead_matmul", []*ir.Value{x, wqkv, bqkv, mb}, attr("alpha", b.fl(float32(alpha))), attr("head_number", b.i32(tfHeads)))
		o := b.va("pd_op.fc", []*ir.Value{ctx, wo, bo}, attr("in_num_col_dims", b.i32(2)))
		h := b.op("pd_op.fused_bias_residual_layernorm", []*ir.Value{o, nil, x, ln1s, ln1b}, eps, attr("residual_alpha", b.fl(1)),
			attr("begin_norm_axis", b.i32(2)), attr("quant_scale", b.fl(-1)), attr("quant_round_type", b.i32(0)),
			attr("quant_max_bound", b.fl(0)), attr("quant_min_bound", b.fl(0))).Result(0)
		f := b.va("pd_op.gelu", []*ir.Value{b.va("pd_op.fc", []*ir.Value{h, w1, b1}, attr("in_num_col_dims", b.i32(2)))}, attr("approximate", b.bo(false)))
		out = b.op("pd_op.fused_fc_elementwise_layernorm", []*ir.Value{f, w2, h, b2, ln2s, ln2b}, attr("x_num_col_dims", b.i32(2)),
			attr("epsilon", b.fl(1e-12)), attr("begin_norm_axis", b.i32(2))).Result(0)
	} else {
		heads := func(w, bias *ir.Value) *ir.Value {
			v := b.v("pd_op.add", b.v("pd_op.matmul", x, w), bias)
			v = b.va("pd_op.reshape", []*ir.Value{v, b.ints(0, 0, tfHeads, tfHead)})
			return b.va("pd_op.transpose", []*ir.Value{v}, attr("perm", b.i32s(0, 2, 1, 3)))
		}
		q, k, v := heads(wq, bq), heads(wk, bk), heads(wv, bv)
		s := b.va("pd_op.matmul", []*ir.Value{q, k}, attr("transpose_x", b.bo(false)), attr("transpose_y", b.bo(true)))
		s = b.v("pd_op.add", scale(s, alpha, 0), mb)
		pr := b.va("pd_op.softmax", []*ir.Value{s}, attr("axis", b.i32(-1)))
		pr = b.ops("pd_op.dropout", []*ir.Value{pr, nil, b.full([]int64{1}, 0.1)}, []ir.Type{pr.Type(), b.typ(ir.DTypeUint8, 2, tfHeads, tfSeq, tfSeq)},
			attr("is_test", b.bo(true)), attr("mode", b.st("upscale_in_train")), attr("seed", b.i32(0)), attr("fix_seed", b.bo(false)))[0]
		ctx := b.va("pd_op.transpose", []*ir.Value{b.v("pd_op.matmul", pr, v)}, attr("perm", b.i32s(0, 2, 1, 3)))
		ctx = b.va("pd_op.reshape", []*ir.Value{ctx, b.ints(0, 0, tfHidden)})
		h := b.v("pd_op.add", b.v("pd_op.add", b.v("pd_op.matmul", ctx, wo), bo), x)
		h = b.ops("pd_op.layer_norm", []*ir.Value{h, ln1s, ln1b}, []ir.Type{h.Type(), b.f32(2, tfSeq), b.f32(2, tfSeq)}, eps,
			attr("begin_norm_axis", b.i32(2)))[0]
		f := b.va("pd_op.gelu", []*ir.Value{b.v("pd_op.add", b.v("pd_op.matmul", h, w1), b1)}, attr("approximate", b.bo(false)))
		f = b.v("pd_op.add", b.v("pd_op.add", b.v("pd_op.matmul", f, w2), b2), h)
		out = b.ops("pd_op.layer_norm", []*ir.Value{f, ln2s, ln2b}, []ir.Type{f.Type(), b.f32(2, tfSeq), b.f32(2, tfSeq)}, eps,
			attr("begin_norm_axis", b.i32(2)))[0]
	}
	b.fetch(out, "hidden", 0)
	return b.p
}

// llamaLayer is one LLaMA decoder layer over x [1, S, H] with rotary tables sin, cos [1, S, 1, D].
func llamaLayer(t testing.TB, fused bool) *ir.Program {
	b := newBuilderIn(t, kctx(t))
	x := b.data("x", 1, tfSeq, tfHidden)
	sin, cos := b.data("sin", 1, tfSeq, 1, tfHead), b.data("cos", 1, tfSeq, 1, tfHead)
	p := func(name string, dims ...int64) *ir.Value { return b.param(name, dims...) }
	wq, wk, wv, wo := p("wq", tfHidden, tfHidden), p("wk", tfHidden, tfHidden), p("wv", tfHidden, tfHidden), p("wo", tfHidden, tfHidden)
	wg, wu, wd := p("w_gate", tfHidden, tfFFN), p("w_up", tfHidden, tfFFN), p("w_down", tfFFN, tfHidden)
	n1, n2 := p("attn_norm", tfHidden), p("ffn_norm", tfHidden)
	const eps = 1e-6
	scale := func(v *ir.Value, s, bias float64) *ir.Value {
		return b.va("pd_op.scale", []*ir.Value{v, b.full([]int64{1}, s)}, attr("bias", b.fl(float32(bias))), attr("bias_after_scale", b.bo(true)))
	}
	rms := func(v, w *ir.Value) *ir.Value {
		ss := b.va("pd_op.sum", []*ir.Value{b.v("pd_op.multiply", v, v), b.ints(-1)}, attr("keepdim", b.bo(true)))
		r := b.v("pd_op.rsqrt", scale(ss, 1.0/tfHidden, eps))
		return b.v("pd_op.multiply", b.v("pd_op.multiply", v, r), w)
	}
	proj := func(v, w *ir.Value) *ir.Value {
		return b.va("pd_op.reshape", []*ir.Value{b.v("pd_op.matmul", v, w), b.ints(0, 0, tfHeads, tfHead)})
	}
	normAttrs := []ir.NamedAttr{attr("epsilon", b.fl(eps)), attr("begin_norm_axis", b.i32(2)), attr("quant_scale", b.fl(-1)),
		attr("quant_round_type", b.i32(0)), attr("quant_max_bound", b.fl(0)), attr("quant_min_bound", b.fl(0))}
	var out *ir.Value
	if fused {
		h := b.op("pd_op.rms_norm", []*ir.Value{x, nil, nil, n1, nil}, normAttrs...).Result(0)
		q, k, v := proj(h, wq), proj(h, wk), proj(h, wv)
		rope := b.op("pd_op.fused_rotary_position_embedding", []*ir.Value{q, k, nil, sin, cos, nil}, attr("use_neox_rotary_style", b.bo(false)))
		att := b.op("pd_op.flash_attn", []*ir.Value{rope.Result(0), rope.Result(1), v, nil, nil}, attr("causal", b.bo(true)), attr("is_test", b.bo(true))).Result(0)
		o := b.v("pd_op.matmul", b.va("pd_op.reshape", []*ir.Value{att, b.ints(0, 0, tfHidden)}), wo)
		norm := b.op("pd_op.rms_norm", []*ir.Value{o, nil, x, n2, nil}, normAttrs...)
		h2, res := norm.Result(0), norm.Result(1)
		f := b.ops("pd_op.swiglu", []*ir.Value{b.v("pd_op.matmul", h2, wg), b.v("pd_op.matmul", h2, wu)}, []ir.Type{b.f32(1, tfSeq, tfFFN)})[0]
		out = b.v("pd_op.add", b.v("pd_op.matmul", f, wd), res)
	} else {
		h := rms(x, n1)
		rotate := func(v *ir.Value) *ir.Value {
			half := b.f32(1, tfSeq, tfHeads, tfHead/2)
			sp := b.opT("pd_op.split", []*ir.Value{v, b.ints(tfHead/2, tfHead/2), b.full([]int64{1}, -1, ir.DTypeInt32)}, []ir.Type{b.ctx.Vector(half, half)})
			hs := b.opT("builtin.split", []*ir.Value{sp.Result(0)}, []ir.Type{half, half}).Results()
			r := b.va("pd_op.concat", []*ir.Value{b.combine(scale(hs[1], -1, 0), hs[0]), b.full([]int64{1}, -1, ir.DTypeInt32)})
			return b.v("pd_op.add", b.v("pd_op.multiply", v, cos), b.v("pd_op.multiply", r, sin))
		}
		tr := func(v *ir.Value) *ir.Value {
			return b.va("pd_op.transpose", []*ir.Value{v}, attr("perm", b.i32s(0, 2, 1, 3)))
		}
		q, k, v := tr(rotate(proj(h, wq))), tr(rotate(proj(h, wk))), tr(proj(h, wv))
		s := b.va("pd_op.matmul", []*ir.Value{q, k}, attr("transpose_x", b.bo(false)), attr("transpose_y", b.bo(true)))
		causal := b.va("pd_op.triu", []*ir.Value{b.full([]int64{tfSeq, tfSeq}, math.Inf(-1))}, attr("diagonal", b.i32(1)))
		pr := b.va("pd_op.softmax", []*ir.Value{b.v("pd_op.add", scale(s, 1/math.Sqrt(tfHead), 0), causal)}, attr("axis", b.i32(-1)))
		att := b.va("pd_op.reshape", []*ir.Value{tr(b.v("pd_op.matmul", pr, v)), b.ints(0, 0, tfHidden)})
		res := b.v("pd_op.add", b.v("pd_op.matmul", att, wo), x)
		h2 := rms(res, n2)
		g := b.v("pd_op.matmul", h2, wg)
		f := b.v("pd_op.multiply", b.v("pd_op.silu", g), b.v("pd_op.matmul", h2, wu))
		out = b.v("pd_op.add", b.v("pd_op.matmul", f, wd), res)
	}
	b.fetch(out, "hidden", 0)
	return b.p
}

// modelPrograms maps the testdata files to their builders.
var modelPrograms = map[string]func(testing.TB, bool) *ir.Program{"bert_layer": bertLayer, "llama_layer": llamaLayer}

// readModel reads testdata/models/NAME.pir.
func readModel(t testing.TB, name string) *ir.Program {
	t.Helper()
	path := filepath.Join("testdata", "models", name+".pir")
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	p, _, err := pirtext.Parse(kctx(t), path, src, pirtext.ReadOptions{})
	require.NoError(t, err)
	require.Empty(t, ir.Verify(p).Errors())
	return p
}

func TestTransformerLayers(t *testing.T) {
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Join("testdata", "models"), 0o755))
		for name, build := range modelPrograms {
			for _, fused := range []bool{false, true} {
				file := name
				if fused {
					file += "_fused"
				}
				src := pirtext.Print(build(t, fused), pirtext.WriteOptions{})
				require.NoError(t, os.WriteFile(filepath.Join("testdata", "models", file+".pir"), src, 0o644))
			}
		}
	}
	for name := range modelPrograms {
		t.Run(name, func(t *testing.T) {
			plain, fused := readModel(t, name), readModel(t, name+"_fused")
			assert.Zero(t, opCount(plain, "pd_op.flash_attn")+opCount(plain, "pd_op.multihead_matmul"), "the plain layer has no fused ops")
			// Exact arithmetic: the fused ops compute what the unfused ones do.
			rep, err := Compare(plain, fused, CompareOptions{Runs: 2, RelTol: 1e-9})
			require.NoError(t, err, "%s", rep)
			assert.Equal(t, []int{tfShape(name)[0], tfSeq, tfHidden}, rep.Outputs[0].Shape)
			// Float32, as Paddle computes them: within the error budget.
			rep32, err := Compare(plain, fused, CompareOptions{Runs: 2, Options: Options{Precision: Auto}})
			require.NoError(t, err, "%s", rep32)
			assert.Equal(t, Float32, rep32.Precision)
			t.Logf("%s: float64 max rel %.3g; float32 max rel %.3g (tolerance %.3g)", name, rep.Outputs[0].MaxRel,
				rep32.Outputs[0].MaxRel, rep32.Outputs[0].Tol)
		})
	}
}

func tfShape(name string) []int {
	if name == "bert_layer" {
		return []int{2}
	}
	return []int{1}
}

// TestErrorBudgetCoversFloat32 measures how far a float32 evaluation is from the float64 one, on the transformer
// layers and the corpus models that read today, against the error estimate √V·u the budget is built on: the
// measured error must stay well inside DefaultBudgetFactor·√2 times the estimate (the budget of a comparison).
func TestErrorBudgetCoversFloat32(t *testing.T) {
	progs := map[string]struct {
		p  *ir.Program
		in map[string][]int
	}{}
	for name := range modelPrograms {
		progs[name] = struct {
			p  *ir.Program
			in map[string][]int
		}{readModel(t, name), nil}
	}
	for _, g := range graphnet[:2] {
		if raceEnabled {
			break // minutes under the race detector; the transformer layers are checked
		}
		if p := readCorpusOptional(t, g.file); p != nil {
			progs[g.file] = struct {
				p  *ir.Program
				in map[string][]int
			}{p, map[string][]int{"data_0": {1, 3, 64, 64}}}
		}
	}
	for _, ocr := range []struct {
		file  string
		shape []int
	}{
		{"pir_json/nanaikaros__korean_PP-OCRv5_mobile_rec_infer.inference.json", []int{1, 3, 48, 160}},
		{"pir_json/nanaikaros__PP-OCRv5_mobile_det_infer.inference.json", []int{1, 3, 96, 96}},
	} {
		if testing.Short() || raceEnabled {
			break
		}
		if p := readCorpusOptional(t, ocr.file); p != nil {
			progs[ocr.file] = struct {
				p  *ir.Program
				in map[string][]int
			}{p, map[string][]int{"x": ocr.shape}}
		}
	}
	for name, tc := range progs {
		opts := Options{InputShapes: tc.in, IgnoreDeclaredShapes: tc.in != nil}
		feed, err := RandomFeed(3, opts, tc.p)
		require.NoError(t, err)
		o64, o32 := opts, opts
		o64.Precision, o32.Precision = Float64, Float32
		r64, err := Evaluate(tc.p, feed, o64)
		require.NoError(t, err, name)
		r32, err := Evaluate(tc.p, feed, o32)
		require.NoError(t, err, name)
		for i, o := range r32.Outputs {
			a, b := r64.Outputs[i].Value, o.Value
			diff, scale := 0.0, 0.0
			for k := range a.Data {
				diff, scale = max(diff, math.Abs(a.Data[k]-b.Data[k])), max(scale, math.Abs(a.Data[k]))
			}
			estimate := math.Sqrt(o.Rounding) * 0x1p-24
			ratio := diff / scale / estimate
			t.Logf("%s: float32 error %.3g, estimate %.3g (ratio %.3g)", name, diff/scale, estimate, ratio)
			assert.Less(t, ratio, DefaultBudgetFactor*math.Sqrt2/4, "%s: the budget keeps a margin of 4 over the measured error", name)
			assert.Greater(t, o.Rounding, 0.0)
		}
	}
}

// readCorpusOptional reads a corpus program, or returns nil when the corpus is absent.
func readCorpusOptional(t *testing.T, rel string) *ir.Program {
	path, ok := sharedCorpusPath(rel)
	if !ok {
		t.Logf("corpus program %s is absent", rel)
		return nil
	}
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	if strings.HasSuffix(rel, ".json") {
		p, err := pirjson.Read(kctx(t), path, src, pirjson.ReadOptions{})
		require.NoError(t, err)
		return p
	}
	p, _, err := pirtext.Parse(kctx(t), path, src, pirtext.ReadOptions{})
	require.NoError(t, err)
	return p
}

// Kernels run in parallel; an evaluation gives the same bits for every GOMAXPROCS.
func TestEvaluationIsTheSameForEveryGOMAXPROCS(t *testing.T) {
	progs := []*ir.Program{readModel(t, "bert_layer"), readModel(t, "llama_layer_fused")}
	opts := Options{}
	if p := readCorpusOptional(t, graphnet[0].file); p != nil {
		progs = append(progs, p)
		opts = smallInput(48)
	}
	for _, p := range progs {
		feed, err := RandomFeed(9, opts, p)
		require.NoError(t, err)
		var want []Output
		for _, procs := range []int{1, 2, 5} {
			prev := runtime.GOMAXPROCS(procs)
			for _, prec := range []Precision{Float64, Float32} {
				o := opts
				o.Precision = prec
				res, err := Evaluate(p, feed, o)
				require.NoError(t, err)
				if prec == Float32 {
					if want == nil {
						want = res.Outputs
					} else {
						require.Equal(t, want, res.Outputs, "%s with GOMAXPROCS %d", p.File, procs)
					}
				}
			}
			runtime.GOMAXPROCS(prev)
		}
	}
}

// Auto is float32 for a float32 model even when it passes float64 scalars (to arange, as 141 GraphNet graphs do),
// and float64 when a float64 tensor of more than one element takes part.
func TestAutoPrecision(t *testing.T) {
	b := newBuilder(t)
	b.fetch(b.v("pd_op.relu", b.data("x", 4)), "out", 0)
	b.full([]int64{1}, 2, ir.DTypeFloat64)
	assert.Equal(t, Float32, Auto.resolve(b.p))
	c := newBuilder(t)
	c.fetch(c.v("pd_op.relu", c.dataT("x", ir.DTypeFloat64, 4)), "out", 0)
	assert.Equal(t, Float64, Auto.resolve(c.p))
	d := newBuilder(t)
	d.fetch(d.v("pd_op.relu", d.dataT("x", ir.DTypeFloat64, -1)), "out", 0)
	assert.Equal(t, Float64, Auto.resolve(d.p), "dynamic dims may hold many elements")
	assert.Equal(t, Float64, Auto.resolve(b.p, c.p), "either program decides")
	assert.Equal(t, Float32, Float32.resolve(c.p))
}
