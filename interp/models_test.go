package interp_test

import (
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/compare"
	"github.com/pirdrr/drr/feeds"
	"github.com/pirdrr/drr/internal/golden"
	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/interp"
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

const (
	tfHidden = 32
	tfHeads  = 4
	tfHead   = tfHidden / tfHeads
	tfSeq    = 6
	tfFFN    = 48
)

// bertLayer is one BERT encoder layer over x [2, S, H] with a boolean token mask [2, S].
func bertLayer(t testing.TB, fused bool) *ir.Program {
	b := progtest.NewIn(t, interp.Kctx(t))
	x := b.Data("x", 2, tfSeq, tfHidden)
	mask := b.DataT("mask", ir.DTypeBool, 2, tfSeq) // 0/1 tokens (random integers would make −10000·(1 − mask) huge)
	p := func(name string, dims ...int64) *ir.Value { return b.Param(name, dims...) }
	scale := func(v *ir.Value, s, bias float64) *ir.Value {
		return b.VA("pd_op.scale", []*ir.Value{v, b.Full([]int64{1}, s)}, progtest.Attr("bias", b.Fl(float32(bias))), progtest.Attr("bias_after_scale", b.Bo(true)))
	}
	// (1 − mask)·(−10000), [2, 1, 1, S]
	mb := b.VA("pd_op.cast", []*ir.Value{mask}, progtest.Attr("dtype", b.Ctx.DataType(ir.DTypeFloat32)))
	mb = scale(scale(mb, -1, 1), -10000, 0)
	mb = b.VA("pd_op.unsqueeze", []*ir.Value{mb, b.Ints(1, 2)})
	wq, wk, wv, wo := p("wq", tfHidden, tfHidden), p("wk", tfHidden, tfHidden), p("wv", tfHidden, tfHidden), p("wo", tfHidden, tfHidden)
	bq, bk, bv, bo := p("bq", tfHidden), p("bk", tfHidden), p("bv", tfHidden), p("bo", tfHidden)
	ln1s, ln1b, ln2s, ln2b := p("ln1_scale", tfHidden), p("ln1_bias", tfHidden), p("ln2_scale", tfHidden), p("ln2_bias", tfHidden)
	w1, b1, w2, b2 := p("w1", tfHidden, tfFFN), p("b1", tfFFN), p("w2", tfFFN, tfHidden), p("b2", tfHidden)
	alpha := float64(float32(1 / math.Sqrt(tfHead))) // multihead_matmul's alpha is an f32 attribute
	eps := progtest.Attr("epsilon", b.Fl(1e-12))
	var out *ir.Value
	if fused {
		wqkv := b.Ops("pd_op.stack", []*ir.Value{b.Combine(wq, wk, wv)}, []ir.Type{b.F32(tfHidden, 3, tfHidden)}, progtest.Attr("axis", b.I32(1)))[0]
		bqkv := b.Ops("pd_op.stack", []*ir.Value{b.Combine(bq, bk, bv)}, []ir.Type{b.F32(3, tfHidden)}, progtest.Attr("axis", b.I32(0)))[0]
		ctx := b.VA("pd_op.multihead_matmul", []*ir.Value{x, wqkv, bqkv, mb}, progtest.Attr("alpha", b.Fl(float32(alpha))), progtest.Attr("head_number", b.I32(tfHeads)))
		o := b.VA("pd_op.fc", []*ir.Value{ctx, wo, bo}, progtest.Attr("in_num_col_dims", b.I32(2)))
		h := b.Op("pd_op.fused_bias_residual_layernorm", []*ir.Value{o, nil, x, ln1s, ln1b}, eps, progtest.Attr("residual_alpha", b.Fl(1)),
			progtest.Attr("begin_norm_axis", b.I32(2)), progtest.Attr("quant_scale", b.Fl(-1)), progtest.Attr("quant_round_type", b.I32(0)),
			progtest.Attr("quant_max_bound", b.Fl(0)), progtest.Attr("quant_min_bound", b.Fl(0))).Result(0)
		f := b.VA("pd_op.gelu", []*ir.Value{b.VA("pd_op.fc", []*ir.Value{h, w1, b1}, progtest.Attr("in_num_col_dims", b.I32(2)))}, progtest.Attr("approximate", b.Bo(false)))
		out = b.Op("pd_op.fused_fc_elementwise_layernorm", []*ir.Value{f, w2, h, b2, ln2s, ln2b}, progtest.Attr("x_num_col_dims", b.I32(2)),
			progtest.Attr("epsilon", b.Fl(1e-12)), progtest.Attr("begin_norm_axis", b.I32(2))).Result(0)
	} else {
		heads := func(w, bias *ir.Value) *ir.Value {
			v := b.V("pd_op.add", b.V("pd_op.matmul", x, w), bias)
			v = b.VA("pd_op.reshape", []*ir.Value{v, b.Ints(0, 0, tfHeads, tfHead)})
			return b.VA("pd_op.transpose", []*ir.Value{v}, progtest.Attr("perm", b.I32s(0, 2, 1, 3)))
		}
		q, k, v := heads(wq, bq), heads(wk, bk), heads(wv, bv)
		s := b.VA("pd_op.matmul", []*ir.Value{q, k}, progtest.Attr("transpose_x", b.Bo(false)), progtest.Attr("transpose_y", b.Bo(true)))
		s = b.V("pd_op.add", scale(s, alpha, 0), mb)
		pr := b.VA("pd_op.softmax", []*ir.Value{s}, progtest.Attr("axis", b.I32(-1)))
		pr = b.Ops("pd_op.dropout", []*ir.Value{pr, nil, b.Full([]int64{1}, 0.1)}, []ir.Type{pr.Type(), b.Typ(ir.DTypeUint8, 2, tfHeads, tfSeq, tfSeq)},
			progtest.Attr("is_test", b.Bo(true)), progtest.Attr("mode", b.St("upscale_in_train")), progtest.Attr("seed", b.I32(0)), progtest.Attr("fix_seed", b.Bo(false)))[0]
		ctx := b.VA("pd_op.transpose", []*ir.Value{b.V("pd_op.matmul", pr, v)}, progtest.Attr("perm", b.I32s(0, 2, 1, 3)))
		ctx = b.VA("pd_op.reshape", []*ir.Value{ctx, b.Ints(0, 0, tfHidden)})
		h := b.V("pd_op.add", b.V("pd_op.add", b.V("pd_op.matmul", ctx, wo), bo), x)
		h = b.Ops("pd_op.layer_norm", []*ir.Value{h, ln1s, ln1b}, []ir.Type{h.Type(), b.F32(2, tfSeq), b.F32(2, tfSeq)}, eps,
			progtest.Attr("begin_norm_axis", b.I32(2)))[0]
		f := b.VA("pd_op.gelu", []*ir.Value{b.V("pd_op.add", b.V("pd_op.matmul", h, w1), b1)}, progtest.Attr("approximate", b.Bo(false)))
		f = b.V("pd_op.add", b.V("pd_op.add", b.V("pd_op.matmul", f, w2), b2), h)
		out = b.Ops("pd_op.layer_norm", []*ir.Value{f, ln2s, ln2b}, []ir.Type{f.Type(), b.F32(2, tfSeq), b.F32(2, tfSeq)}, eps,
			progtest.Attr("begin_norm_axis", b.I32(2)))[0]
	}
	b.Fetch(out, "hidden", 0)
	return b.P
}

// llamaLayer is one LLaMA decoder layer over x [1, S, H] with rotary tables sin, cos [1, S, 1, D].
func llamaLayer(t testing.TB, fused bool) *ir.Program {
	b := progtest.NewIn(t, interp.Kctx(t))
	x := b.Data("x", 1, tfSeq, tfHidden)
	sin, cos := b.Data("sin", 1, tfSeq, 1, tfHead), b.Data("cos", 1, tfSeq, 1, tfHead)
	p := func(name string, dims ...int64) *ir.Value { return b.Param(name, dims...) }
	wq, wk, wv, wo := p("wq", tfHidden, tfHidden), p("wk", tfHidden, tfHidden), p("wv", tfHidden, tfHidden), p("wo", tfHidden, tfHidden)
	wg, wu, wd := p("w_gate", tfHidden, tfFFN), p("w_up", tfHidden, tfFFN), p("w_down", tfFFN, tfHidden)
	n1, n2 := p("attn_norm", tfHidden), p("ffn_norm", tfHidden)
	const eps = 1e-6
	scale := func(v *ir.Value, s, bias float64) *ir.Value {
		return b.VA("pd_op.scale", []*ir.Value{v, b.Full([]int64{1}, s)}, progtest.Attr("bias", b.Fl(float32(bias))), progtest.Attr("bias_after_scale", b.Bo(true)))
	}
	rms := func(v, w *ir.Value) *ir.Value {
		ss := b.VA("pd_op.sum", []*ir.Value{b.V("pd_op.multiply", v, v), b.Ints(-1)}, progtest.Attr("keepdim", b.Bo(true)))
		r := b.V("pd_op.rsqrt", scale(ss, 1.0/tfHidden, eps))
		return b.V("pd_op.multiply", b.V("pd_op.multiply", v, r), w)
	}
	proj := func(v, w *ir.Value) *ir.Value {
		return b.VA("pd_op.reshape", []*ir.Value{b.V("pd_op.matmul", v, w), b.Ints(0, 0, tfHeads, tfHead)})
	}
	normAttrs := []ir.NamedAttr{progtest.Attr("epsilon", b.Fl(eps)), progtest.Attr("begin_norm_axis", b.I32(2)), progtest.Attr("quant_scale", b.Fl(-1)),
		progtest.Attr("quant_round_type", b.I32(0)), progtest.Attr("quant_max_bound", b.Fl(0)), progtest.Attr("quant_min_bound", b.Fl(0))}
	var out *ir.Value
	if fused {
		h := b.Op("pd_op.rms_norm", []*ir.Value{x, nil, nil, n1, nil}, normAttrs...).Result(0)
		q, k, v := proj(h, wq), proj(h, wk), proj(h, wv)
		rope := b.Op("pd_op.fused_rotary_position_embedding", []*ir.Value{q, k, nil, sin, cos, nil}, progtest.Attr("use_neox_rotary_style", b.Bo(false)))
		att := b.Op("pd_op.flash_attn", []*ir.Value{rope.Result(0), rope.Result(1), v, nil, nil}, progtest.Attr("causal", b.Bo(true)), progtest.Attr("is_test", b.Bo(true))).Result(0)
		o := b.V("pd_op.matmul", b.VA("pd_op.reshape", []*ir.Value{att, b.Ints(0, 0, tfHidden)}), wo)
		norm := b.Op("pd_op.rms_norm", []*ir.Value{o, nil, x, n2, nil}, normAttrs...)
		h2, res := norm.Result(0), norm.Result(1)
		f := b.Ops("pd_op.swiglu", []*ir.Value{b.V("pd_op.matmul", h2, wg), b.V("pd_op.matmul", h2, wu)}, []ir.Type{b.F32(1, tfSeq, tfFFN)})[0]
		out = b.V("pd_op.add", b.V("pd_op.matmul", f, wd), res)
	} else {
		h := rms(x, n1)
		rotate := func(v *ir.Value) *ir.Value {
			half := b.F32(1, tfSeq, tfHeads, tfHead/2)
			sp := b.OpT("pd_op.split", []*ir.Value{v, b.Ints(tfHead/2, tfHead/2), b.Full([]int64{1}, -1, ir.DTypeInt32)}, []ir.Type{b.Ctx.Vector(half, half)})
			hs := b.OpT("builtin.split", []*ir.Value{sp.Result(0)}, []ir.Type{half, half}).Results()
			r := b.VA("pd_op.concat", []*ir.Value{b.Combine(scale(hs[1], -1, 0), hs[0]), b.Full([]int64{1}, -1, ir.DTypeInt32)})
			return b.V("pd_op.add", b.V("pd_op.multiply", v, cos), b.V("pd_op.multiply", r, sin))
		}
		tr := func(v *ir.Value) *ir.Value {
			return b.VA("pd_op.transpose", []*ir.Value{v}, progtest.Attr("perm", b.I32s(0, 2, 1, 3)))
		}
		q, k, v := tr(rotate(proj(h, wq))), tr(rotate(proj(h, wk))), tr(proj(h, wv))
		s := b.VA("pd_op.matmul", []*ir.Value{q, k}, progtest.Attr("transpose_x", b.Bo(false)), progtest.Attr("transpose_y", b.Bo(true)))
		causal := b.VA("pd_op.triu", []*ir.Value{b.Full([]int64{tfSeq, tfSeq}, math.Inf(-1))}, progtest.Attr("diagonal", b.I32(1)))
		pr := b.VA("pd_op.softmax", []*ir.Value{b.V("pd_op.add", scale(s, 1/math.Sqrt(tfHead), 0), causal)}, progtest.Attr("axis", b.I32(-1)))
		att := b.VA("pd_op.reshape", []*ir.Value{tr(b.V("pd_op.matmul", pr, v)), b.Ints(0, 0, tfHidden)})
		res := b.V("pd_op.add", b.V("pd_op.matmul", att, wo), x)
		h2 := rms(res, n2)
		g := b.V("pd_op.matmul", h2, wg)
		f := b.V("pd_op.multiply", b.V("pd_op.silu", g), b.V("pd_op.matmul", h2, wu))
		out = b.V("pd_op.add", b.V("pd_op.matmul", f, wd), res)
	}
	b.Fetch(out, "hidden", 0)
	return b.P
}

// modelPrograms maps the testdata files to their builders.
var modelPrograms = map[string]func(testing.TB, bool) *ir.Program{"bert_layer": bertLayer, "llama_layer": llamaLayer}

// readModel reads testdata/models/NAME.pir.
func readModel(t testing.TB, name string) *ir.Program {
	t.Helper()
	path := filepath.Join("testdata", "models", name+".pir")
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	p, _, err := pirtext.Parse(interp.Kctx(t), path, src, pirtext.ReadOptions{})
	require.NoError(t, err)
	require.Empty(t, ir.Verify(p).Errors())
	return p
}

func TestTransformerLayers(t *testing.T) {
	if golden.Update() {
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
			assert.Zero(t, progtest.OpCount(plain, "pd_op.flash_attn")+progtest.OpCount(plain, "pd_op.multihead_matmul"), "the plain layer has no fused ops")
			// Exact arithmetic: the fused ops compute what the unfused ones do.
			rep, err := compare.Programs(plain, fused, compare.Options{Runs: 2, RelTol: 1e-9})
			require.NoError(t, err, "%s", rep)
			assert.Equal(t, []int{tfShape(name)[0], tfSeq, tfHidden}, rep.Outputs[0].Shape)
			// Float32, as Paddle computes them: within the error budget.
			rep32, err := compare.Programs(plain, fused, compare.Options{Runs: 2, Options: feeds.Options{Options: interp.Options{Precision: interp.Auto}}})
			require.NoError(t, err, "%s", rep32)
			assert.Equal(t, interp.Float32, rep32.Precision)
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
		if progtest.RaceEnabled {
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
		if testing.Short() || progtest.RaceEnabled {
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
		opts := feeds.Options{InputShapes: tc.in, Options: interp.Options{IgnoreDeclaredShapes: tc.in != nil}}
		feed, err := feeds.Random(3, opts, tc.p)
		require.NoError(t, err)
		o64, o32 := opts, opts
		o64.Precision, o32.Precision = interp.Float64, interp.Float32
		r64, err := interp.Evaluate(tc.p, feed, o64.Options)
		require.NoError(t, err, name)
		r32, err := interp.Evaluate(tc.p, feed, o32.Options)
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
			assert.Less(t, ratio, compare.DefaultBudgetFactor*math.Sqrt2/4, "%s: the budget keeps a margin of 4 over the measured error", name)
			assert.Greater(t, o.Rounding, 0.0)
		}
	}
}

// readCorpusOptional reads a corpus program, or returns nil when the corpus is absent.
func readCorpusOptional(t *testing.T, rel string) *ir.Program {
	path, ok := interp.SharedCorpusPath(rel)
	if !ok {
		t.Logf("corpus program %s is absent", rel)
		return nil
	}
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	if strings.HasSuffix(rel, ".json") {
		p, err := pirjson.Read(interp.Kctx(t), path, src, pirjson.ReadOptions{})
		require.NoError(t, err)
		return p
	}
	p, _, err := pirtext.Parse(interp.Kctx(t), path, src, pirtext.ReadOptions{})
	require.NoError(t, err)
	return p
}

// Kernels run in parallel; an evaluation gives the same bits for every GOMAXPROCS.
func TestEvaluationIsTheSameForEveryGOMAXPROCS(t *testing.T) {
	progs := []*ir.Program{readModel(t, "bert_layer"), readModel(t, "llama_layer_fused")}
	opts := feeds.Options{}
	if p := readCorpusOptional(t, graphnet[0].file); p != nil {
		progs = append(progs, p)
		opts = smallInput(48)
	}
	for _, p := range progs {
		feed, err := feeds.Random(9, opts, p)
		require.NoError(t, err)
		var want []interp.Output
		for _, procs := range []int{1, 2, 5} {
			prev := runtime.GOMAXPROCS(procs)
			for _, prec := range []interp.Precision{interp.Float64, interp.Float32} {
				o := opts
				o.Precision = prec
				res, err := interp.Evaluate(p, feed, o.Options)
				require.NoError(t, err)
				if prec == interp.Float32 {
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
	b := progtest.New(t)
	b.Fetch(b.V("pd_op.relu", b.Data("x", 4)), "out", 0)
	b.Full([]int64{1}, 2, ir.DTypeFloat64)
	assert.Equal(t, interp.Float32, interp.Auto.Resolve(b.P))
	c := progtest.New(t)
	c.Fetch(c.V("pd_op.relu", c.DataT("x", ir.DTypeFloat64, 4)), "out", 0)
	assert.Equal(t, interp.Float64, interp.Auto.Resolve(c.P))
	d := progtest.New(t)
	d.Fetch(d.V("pd_op.relu", d.DataT("x", ir.DTypeFloat64, -1)), "out", 0)
	assert.Equal(t, interp.Float64, interp.Auto.Resolve(d.P), "dynamic dims may hold many elements")
	assert.Equal(t, interp.Float64, interp.Auto.Resolve(b.P, c.P), "either program decides")
	assert.Equal(t, interp.Float32, interp.Float32.Resolve(c.P))
}
