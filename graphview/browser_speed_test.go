package graphview

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/graphnet"
)

// Issue 35's targets for a real model's graph, and the margin the test allows over them on a shared machine.
const (
	targetRenderMs = 2000.0
	targetFrameMs  = 50.0
	targetSearchMs = 100.0
	speedMargin    = 3.0
	speedRuns      = 5
)

// TestPageSpeedInChromium measures drrc graph's page on the largest graph of the corpus, SegFormer-B5 subgraph_1
// (4,376 ops), collapsed and whole: the first render (from the page's start to the canvas's first frame: the page
// parsed, the drawing's JSON read, the first frame painted), the frames of wheel zooms and of a drag (from the input
// event to the painted frame), and a search over every op with a jump to the first hit. It logs the medians of
// speedRuns runs and asserts speedMargin times the targets. It also checks the semantic zoom on the real model: the
// page starts with legible labels, and zoomed out to the whole drawing it draws blocks' summaries, no labels.
func TestPageSpeedInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the speed of the page on a 4,000-op model is measured without it")
	}
	dir := corpus.Path(t, "graphnet_samples/PaddleX/SegFormer-B5/subgraph_1")
	exe := chromium(t)
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	p, err := graphnet.Read(ctx, dir)
	require.NoError(t, err)
	bctx := newPageBrowser(t, exe)
	for _, collapse := range []bool{true, false} {
		t.Run(fmt.Sprintf("collapse=%t", collapse), func(t *testing.T) {
			eval := func(expr string) string {
				t.Helper()
				v, err := chromedp.Run(bctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
				require.NoError(t, err, expr)
				return v
			}
			number := func(expr string) float64 {
				t.Helper()
				var x float64
				_, err := fmt.Sscan(eval(`String(`+expr+`)`), &x)
				require.NoError(t, err, expr)
				return x
			}
			settle := func() { eval(`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(""))))`) }
			g := Build(p, Options{Collapse: collapse, Title: "SegFormer-B5/subgraph_1"})
			t0 := time.Now()
			g.Layout()
			layout := time.Since(t0)
			page := filepath.Join(t.TempDir(), "page.html")
			f, err := os.Create(page)
			require.NoError(t, err)
			require.NoError(t, WriteHTML(f, "SegFormer-B5/subgraph_1", g))
			require.NoError(t, f.Close())
			st, err := os.Stat(page)
			require.NoError(t, err)

			var renders []float64
			for range speedRuns {
				require.NoError(t, chromedp.Do(bctx, chromedp.Navigate("file://"+page)))
				deadline := time.Now().Add(60 * time.Second)
				for number(`window.graphview ? window.graphview.views[0].firstFrameAt : 0`) == 0 {
					require.True(t, time.Now().Before(deadline), "the page's first frame")
					time.Sleep(20 * time.Millisecond)
				}
				renders = append(renders, number(`window.graphview.views[0].firstFrameAt`))
			}
			assert.Positive(t, number(`window.graphview.views[0].last.labels`), "the page starts at a legible scale")

			// Frames: from the input event to the painted frame (a capturing listener sees the event first).
			eval(`(function () { const v = document.querySelector(".gv-viewport"); window.__latency = [];
				["wheel", "pointermove"].forEach(function (type) {
					v.addEventListener(type, function (e) {
						if (type === "pointermove" && !e.buttons) return;
						const t0 = performance.now();
						requestAnimationFrame(() => requestAnimationFrame(() => window.__latency.push(performance.now() - t0)));
					}, { capture: true });
				}); return "" })()`)
			var vp struct{ X, Y float64 }
			require.NoError(t, json.Unmarshal([]byte(eval(`(function () { const r = document.querySelector(".gv-viewport").getBoundingClientRect();
				return JSON.stringify({X: r.left + r.width / 2, Y: r.top + r.height / 3}) })()`)), &vp))
			latencies := func(act func()) []float64 {
				eval(`window.__latency = [], ""`)
				act()
				settle()
				var out []float64
				require.NoError(t, json.Unmarshal([]byte(eval(`JSON.stringify(window.__latency)`)), &out))
				require.NotEmpty(t, out, "the events reached the page")
				return out
			}
			var zooms, pans []float64
			for range speedRuns {
				zooms = append(zooms, latencies(func() {
					for range 5 {
						// Chromium wants both deltas of a wheel event; cdproto leaves a zero out of the message.
						require.NoError(t, chromedp.Do(bctx, chromedp.MouseEvent(chromedp.MouseWheel, vp.X, vp.Y,
							func(p *input.DispatchMouseEventParams) { p.DeltaX, p.DeltaY = 1e-6, 240 })))
						settle()
					}
				})...)
				pans = append(pans, latencies(func() {
					require.NoError(t, chromedp.Do(bctx, chromedp.MouseEvent(chromedp.MousePressed, vp.X, vp.Y, chromedp.ButtonLeft, chromedp.ClickCount(1))))
					for i := 1; i <= 8; i++ {
						require.NoError(t, chromedp.Do(bctx, chromedp.MouseEvent(chromedp.MouseMoved, vp.X+float64(10*i), vp.Y-float64(15*i), chromedp.ButtonLeft)))
						settle()
					}
					require.NoError(t, chromedp.Do(bctx, chromedp.MouseEvent(chromedp.MouseReleased, vp.X+80, vp.Y-120, chromedp.ButtonLeft, chromedp.ClickCount(1))))
				})...)
			}

			// Zoomed out to the whole drawing, no label is drawn; the blocks show their summaries.
			eval(`(function () { const v = window.graphview.views[0]; v.fit(); v.render(); return "" })()`)
			assert.Zero(t, number(`window.graphview.views[0].last.labels`), "no label below a legible size")
			assert.Positive(t, number(`window.graphview.views[0].last.summaries`), "the blocks' summaries in their place")

			// Search: every op (the ops of collapsed blocks too), then the first hit marked and centred.
			// A value id the drawing names (a result or an operand) that begins another one (%287 and %2875): the
			// search for it must not find the other.
			id := eval(`(function () { const ids = new Set();
				for (const n of window.graphview.views[0].drawing.nodes) for (const m of (n.label + " " + n.detail).matchAll(/%\d+/g)) ids.add(m[0]);
				const all = Array.from(ids);
				for (const a of all) if (all.some(b => b !== a && b.startsWith(a))) return a;
				return "" })()`)
			require.NotEmpty(t, id)
			var searches []float64
			for _, q := range []string{id, "pd_op.matmul", "layer_norm", "pd_op.softmax", "pd_op.add"}[:speedRuns] {
				var ms float64
				_, err := fmt.Sscan(eval(`(async function () { const t0 = performance.now();
					window.graphview.search(`+jsString(q)+`); window.graphview.next(1);
					await new Promise(r => requestAnimationFrame(r)); return String(performance.now() - t0) })()`), &ms)
				require.NoError(t, err)
				searches = append(searches, ms)
				assert.Regexp(t, `^1 of \d+`, eval(`document.getElementById("gv-count").textContent`), q)
				assert.Equal(t, "1", eval(`String(window.graphview.views[0].all("current").length)`), q)
			}
			// Its hits (the op defining it, the ops using it) all name it exactly.
			assert.Equal(t, "true", eval(`(function () { const v = window.graphview.views[0]; window.graphview.search(`+jsString(id)+`);
				const re = new RegExp(`+jsString(id)+` + "(?![\\w.])");
				return String(v.hits.length > 0 && v.hits.every(n => re.test(n.data.label + "\n" + n.data.detail + "\n" + (n.data.also || []).join("\n")))) })()`),
				"%s is that value only", id)
			// Collapsed, the ops of the later repetitions of a block are found too.
			if collapse {
				also := eval(`(function () { const n = window.graphview.views[0].drawing.nodes.find(n => n.also && n.also.length > 1);
					return n ? n.also[1] : "" })()`)
				require.NotEmpty(t, also, "a collapsed block")
				q := also[:strings.Index(also, " =")]
				assert.Regexp(t, `^1 of 1 \(.* in a collapsed block\)$`, eval(`window.graphview.search(`+jsString(q)+`), window.graphview.next(1), document.getElementById("gv-count").textContent`),
					"%s, an op of a later repetition", q)
			}

			render, zoom, pan, search := median(renders), median(slices.Clone(zooms)), median(slices.Clone(pans)), median(searches)
			t.Logf("SegFormer-B5/subgraph_1, collapse=%t: %d boxes, layout %v, page %.1f MB; first render %.0f ms; zoom frames %.1f ms (max %.1f); "+
				"pan frames %.1f ms (max %.1f); search %.1f ms", collapse, len(g.Nodes), layout.Round(time.Millisecond), float64(st.Size())/1e6,
				render, zoom, slices.Max(zooms), pan, slices.Max(pans), search)
			assert.Less(t, render, targetRenderMs*speedMargin, "the first render")
			assert.Less(t, zoom, targetFrameMs*speedMargin, "a zoom frame")
			assert.Less(t, pan, targetFrameMs*speedMargin, "a pan frame")
			assert.Less(t, search, targetSearchMs*speedMargin, "a search")
		})
	}
}

// newPageBrowser starts a headless Chromium for the page's tests: the flags of the machine notes (no sandbox as
// root, no GPU, no network of its own).
func newPageBrowser(t *testing.T, exe string) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 860),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	t.Cleanup(cancelBrowser)
	bctx, cancel := context.WithTimeout(bctx, 5*time.Minute)
	t.Cleanup(cancel)
	return bctx
}

// jsString quotes s as a JavaScript string.
func jsString(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}
