package compare

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/feeds"
	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirjson"
)

// Benchmarks of verification (Compare of a program with itself: two evaluations per run, weights drawn lazily)
// reporting seconds and the peak of the Go heap per operation. go test ./interp -run '^$' -bench Verify -benchtime 1x

// peakHeap samples the heap in use while f runs and returns the largest value seen.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	f()
	close(stop)
	wg.Wait()
	return peak.Load()
}

func benchCompare(b *testing.B, p *ir.Program, opts Options) {
	b.Helper()
	q := p.Clone()
	var peak uint64
	start, cpu0 := time.Now(), progtest.CPUTime()
	for range b.N {
		peak = max(peak, peakHeap(func() {
			_, err := Programs(p, q, opts)
			require.NoError(b, err)
		}))
	}
	b.ReportMetric(time.Since(start).Seconds()/float64(b.N), "s/op")
	if cpu := progtest.CPUTime() - cpu0; cpu > 0 {
		// CPU time, which other jobs on a shared machine do not inflate (wall time grows with their load).
		b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
}

func readJSONCorpus(b *testing.B, rel string) *ir.Program {
	path := corpus.Path(b, rel)
	src, err := os.ReadFile(path)
	require.NoError(b, err)
	p, err := pirjson.Read(kctx(b), path, src, pirjson.ReadOptions{})
	require.NoError(b, err)
	return p
}

// BenchmarkVerify covers the programs that read today: the median-sized corpus programs (the PP-OCRv5
// recognizer, the mobile detector), the largest (the server detector at 640×640) and ResNet-50 at 224×224.
func BenchmarkVerify(b *testing.B) {
	auto := feeds.Options{Options: interp.Options{Precision: interp.Auto, IgnoreDeclaredShapes: true}}
	with := func(in map[string][]int) Options {
		o := Options{Runs: 1, Options: auto}
		o.InputShapes = in
		return o
	}
	b.Run("korean_PP-OCRv5_mobile_rec_1x3x48x320", func(b *testing.B) {
		p := readJSONCorpus(b, "pir_json/nanaikaros__korean_PP-OCRv5_mobile_rec_infer.inference.json")
		benchCompare(b, p, with(map[string][]int{"x": {1, 3, 48, 320}}))
	})
	b.Run("PP-OCRv5_mobile_det_1x3x640x640", func(b *testing.B) {
		p := readJSONCorpus(b, "pir_json/nanaikaros__PP-OCRv5_mobile_det_infer.inference.json")
		benchCompare(b, p, with(map[string][]int{"x": {1, 3, 640, 640}}))
	})
	b.Run("PP-OCRv5_server_det_1x3x640x640", func(b *testing.B) {
		// Its 9×9 convolutions from 256 to 64 channels at 160×160 are 34 GMAC each.
		p := readJSONCorpus(b, "pir_json/nanaikaros__PP-OCRv5_server_det_infer.inference.json")
		benchCompare(b, p, with(map[string][]int{"x": {1, 3, 640, 640}}))
	})
	b.Run("ResNet50_1x3x224x224", func(b *testing.B) {
		p := readCorpus(b, "graphnet/graphnet_PaddleX_ResNet50.pir")
		benchCompare(b, p, Options{Runs: 1, Options: feeds.Options{Options: interp.Options{Precision: interp.Auto}}})
	})
	b.Run("llama_shaped_4_layers_hidden_2048", func(b *testing.B) {
		p := llamaShaped(b, 4, 2048, 5504, 32000, 16)
		benchCompare(b, p, Options{Runs: 1, Options: feeds.Options{Options: interp.Options{Precision: interp.Auto}}})
	})
}

// BenchmarkVerifyLLaMA7B verifies a program with LLaMA-7B's shapes (32 layers, hidden 4096, 11008, 32000 tokens:
// 6.7 billion float32 parameters, 27 GB, drawn from recorded statistics as a GraphNet capture has them) on a
// sequence of 8 tokens: the weights are drawn when first read and dropped after their last reader, so the heap
// stays far below the weights' size. Long: run it alone (-bench VerifyLLaMA7B -benchtime 1x).
func BenchmarkVerifyLLaMA7B(b *testing.B) {
	if os.Getenv("PIRDRR_BIG") == "" {
		b.Skip("set PIRDRR_BIG=1 to run the LLaMA-7B-shaped verification (minutes, 2 evaluations of 56 GMAC)")
	}
	p := llamaShaped(b, 32, 4096, 11008, 32000, 8)
	benchCompare(b, p, Options{Runs: 1, Options: feeds.Options{Options: interp.Options{Precision: interp.Auto}}})
}

// llamaShaped builds a LLaMA decoder (embedding, layers of RMS norm, attention with rotary embedding by halves,
// SwiGLU feed-forward, final norm and LM head) as the GraphNet reader builds programs: parameters without data but
// with recorded statistics, the token ids an input with a recorded range.
func llamaShaped(t testing.TB, layers, hidden, ffn, vocab, seq int64) *ir.Program {
	b := progtest.NewIn(t, kctx(t))
	heads := hidden / 128
	hd := int64(128)
	ids := b.DataT("input_ids", ir.DTypeInt64, 1, seq)
	b.P.Feeds = map[string]*ir.Variable{"input_ids": {Name: "input_ids", Type: ids.Type(), Stats: &ir.TensorStats{Min: 0, Max: float64(vocab - 1)}}}
	param := func(name string, std float64, dims ...int64) *ir.Value {
		v := b.Param(name, dims...)
		b.P.Params[name].Stats = &ir.TensorStats{Min: -6 * std, Max: 6 * std, Mean: 0, Std: std}
		return v
	}
	ones := func(name string, dims ...int64) *ir.Value {
		v := b.Param(name, dims...)
		b.P.Params[name].Stats = &ir.TensorStats{Min: 1, Max: 1, Mean: 1}
		return v
	}
	scale := func(v *ir.Value, s, bias float64) *ir.Value {
		return b.VA("pd_op.scale", []*ir.Value{v, b.Full([]int64{1}, s)}, progtest.Attr("bias", b.Fl(float32(bias))), progtest.Attr("bias_after_scale", b.Bo(true)))
	}
	rms := func(v, w *ir.Value) *ir.Value {
		ss := b.VA("pd_op.sum", []*ir.Value{b.V("pd_op.multiply", v, v), b.Ints(-1)}, progtest.Attr("keepdim", b.Bo(true)))
		return b.V("pd_op.multiply", b.V("pd_op.multiply", v, b.V("pd_op.rsqrt", scale(ss, 1/float64(hidden), 1e-6))), w)
	}
	sin, cos := b.Data("sin", 1, seq, 1, hd), b.Data("cos", 1, seq, 1, hd)
	causal := b.VA("pd_op.triu", []*ir.Value{b.Full([]int64{seq, seq}, -1e30)}, progtest.Attr("diagonal", b.I32(1)))
	emb := param("embed_tokens", 0.02, vocab, hidden)
	x := b.Ops("pd_op.embedding", []*ir.Value{ids, emb}, []ir.Type{b.F32(1, seq, hidden)})[0]
	w := 1 / float64(hidden)
	for l := range layers {
		n := func(s string) string { return fmt.Sprintf("layers.%d.%s", l, s) }
		h := rms(x, ones(n("input_norm"), hidden))
		proj := func(name string) *ir.Value {
			v := b.V("pd_op.matmul", h, param(n(name), w, hidden, hidden))
			return b.VA("pd_op.reshape", []*ir.Value{v, b.Ints(0, 0, heads, hd)})
		}
		rotate := func(v *ir.Value) *ir.Value {
			half := b.F32(1, seq, heads, hd/2)
			sp := b.OpT("pd_op.split", []*ir.Value{v, b.Ints(hd/2, hd/2), b.Full([]int64{1}, -1, ir.DTypeInt32)}, []ir.Type{b.Ctx.Vector(half, half)})
			hs := b.OpT("builtin.split", []*ir.Value{sp.Result(0)}, []ir.Type{half, half}).Results()
			r := b.VA("pd_op.concat", []*ir.Value{b.Combine(scale(hs[1], -1, 0), hs[0]), b.Full([]int64{1}, -1, ir.DTypeInt32)})
			return b.V("pd_op.add", b.V("pd_op.multiply", v, cos), b.V("pd_op.multiply", r, sin))
		}
		tr := func(v *ir.Value) *ir.Value {
			return b.VA("pd_op.transpose", []*ir.Value{v}, progtest.Attr("perm", b.I32s(0, 2, 1, 3)))
		}
		q, k, v := tr(rotate(proj("q_proj"))), tr(rotate(proj("k_proj"))), tr(proj("v_proj"))
		s := b.VA("pd_op.matmul", []*ir.Value{q, k}, progtest.Attr("transpose_x", b.Bo(false)), progtest.Attr("transpose_y", b.Bo(true)))
		p := b.VA("pd_op.softmax", []*ir.Value{b.V("pd_op.add", scale(s, 1/11.3137, 0), causal)}, progtest.Attr("axis", b.I32(-1)))
		att := b.VA("pd_op.reshape", []*ir.Value{tr(b.V("pd_op.matmul", p, v)), b.Ints(0, 0, hidden)})
		x = b.V("pd_op.add", b.V("pd_op.matmul", att, param(n("o_proj"), w, hidden, hidden)), x)
		h2 := rms(x, ones(n("post_norm"), hidden))
		g := b.V("pd_op.matmul", h2, param(n("gate_proj"), w, hidden, ffn))
		u := b.V("pd_op.matmul", h2, param(n("up_proj"), w, hidden, ffn))
		d := b.V("pd_op.matmul", b.V("pd_op.multiply", b.V("pd_op.silu", g), u), param(n("down_proj"), 1/float64(ffn), ffn, hidden))
		x = b.V("pd_op.add", d, x)
	}
	logits := b.V("pd_op.matmul", rms(x, ones("norm", hidden)), param("lm_head", w, hidden, vocab))
	b.Fetch(logits, "logits", 0)
	return b.P
}

// TestLLaMAShapedVerifies runs the LLaMA-shaped program at a small size: it verifies against itself, and without
// kept draws (KeepDraws < 0, what a model too large for the default bound gets beyond it) the heap stays near the
// largest single weight, not the sum of the weights.
func TestLLaMAShapedVerifies(t *testing.T) {
	progtest.Heavy(t)
	p := llamaShaped(t, 4, 512, 1376, 8000, 8)
	total := 0
	for _, v := range p.Params {
		if tt := ir.TensorOf(v.Type); tt != nil {
			total += prod(mustInts(tt.Dims))
		}
	}
	var rep *Report
	var peak uint64
	live := peakLive(func() {
		peak = peakHeap(func() {
			var err error
			rep, err = Programs(p, p.Clone(), Options{Runs: 1, Options: feeds.Options{Options: interp.Options{Precision: interp.Float32}}, KeepDraws: -1})
			require.NoError(t, err)
		})
	})
	require.Len(t, rep.Outputs, 1)
	require.Zero(t, rep.Outputs[0].MaxAbs, "a program agrees with its copy exactly")
	weights := uint64(total) * 4
	t.Logf("%d parameters (%d MiB in float32), peak heap %d MiB, peak live heap %d MiB", total, weights>>20, peak>>20, live>>20)
	// The live heap, not the heap in use: the latter also holds the garbage of the collector's cycle, and where in
	// that cycle a sample falls varies from run to run (32 to 41 MiB here, against 39.8 for weights/2).
	require.Less(t, live, weights/2, "weights are drawn when read and dropped after their last reader")
}

// peakLive returns the largest live heap (what the garbage collector found reachable, runtime/metrics'
// /gc/heap/live:bytes) at the end of the collections during f: unlike the heap in use, it does not depend on when
// the collector runs.
func peakLive(f func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var peak atomic.Uint64
	read := func() {
		metrics.Read(sample)
		if v := sample[0].Value.Uint64(); v > peak.Load() {
			peak.Store(v)
		}
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			read()
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	f()
	close(stop)
	<-done
	runtime.GC() // the last cycle's live heap (what f left reachable at its end) counts too
	read()
	return peak.Load()
}

func mustInts(d []int64) []int {
	out := make([]int, len(d))
	for i, v := range d {
		out[i] = int(v)
	}
	return out
}
