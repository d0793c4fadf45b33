package playground

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/corpus"
)

// BenchmarkGraphInChromium measures the graph view on the largest graph of the corpus (SegFormer-B5 subgraph_1,
// 4,376 ops), as issue 35 asks of a renderer for real models: the first render (the drawing's JSON into boxes,
// laid out and painted: two animation frames), a zoom frame, and a search over every op, in headless Chromium, with
// the repeats collapsed and not. The search is the page's (every op's text, the stage's texts fetched before). It reports the medians of b.N repeats as ms-first-render, ms-zoom-frame and
// ms-search (go test -run '^$' -bench GraphInChromium ./playground; the corpus and Chromium are needed).
func BenchmarkGraphInChromium(b *testing.B) {
	dir := corpus.Path(b, "graphnet_samples/PaddleX/SegFormer-B5")
	br := newBrowser(b)
	ts := newTestServer(b, []string{dir}, Limits{RunTime: 120 * time.Second})
	br.do(chromedp.Navigate(ts.ts.URL + "/"))
	br.waitFor(`document.body.dataset.ready === "1" && window.playground.state.run`, "the page's first run")
	br.eval(`document.getElementById("program").value = "file:SegFormer-B5/subgraph_1"; window.playground.setRules(""); ""`)
	br.eval(`document.getElementById("passes").value = "dce"; ""`)
	br.do(chromedp.Click(chromedp.ID("run")))
	br.waitFor(`window.playground.state.run && window.playground.state.run.program === "SegFormer-B5/subgraph_1" && !document.body.classList.contains("busy")`, "the run on SegFormer-B5")
	ops := br.eval(`String(window.playground.state.run.opsIn)`)
	b.Logf("SegFormer-B5/subgraph_1: %s ops", ops)
	for _, collapse := range []string{"1", "0"} {
		b.Run("collapse="+collapse, func(b *testing.B) {
			// The drawing's JSON once (the server lays it out and caches it; its time is the server's).
			br.evalAsync(`fetch("/api/runs/" + window.playground.state.run.id + "/graph?stage=0&view=pass&collapse=` + collapse + `").then(r => r.json()).then(d => { window.__d = d; return String(d.nodes.length) })`)
			br.evalAsync(`window.playground.search("pd_op.conv2d").then(() => "")`) // the stage's op texts, fetched once
			var render, zoom, search []float64
			for range b.N {
				var m struct{ Render, Zoom, Search float64 }
				out := br.evalAsync(`(async function () {
					const g = window.playground.graph();
					const frame = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
					let t0 = performance.now();
					g.draw(window.__d); g.fit(); g.viewport.getBoundingClientRect(); await frame();
					const render = performance.now() - t0;
					t0 = performance.now();
					g.zoom(1.25); await frame();
					const zoom = performance.now() - t0;
					t0 = performance.now();
					await window.playground.search("%1234"); await window.playground.search("pd_op.conv2d"); await frame();
					const search = (performance.now() - t0) / 2;
					return JSON.stringify({Render: render, Zoom: zoom, Search: search});
				})()`)
				require.NoError(b, json.Unmarshal([]byte(out), &m))
				render, zoom, search = append(render, m.Render), append(zoom, m.Zoom), append(search, m.Search)
			}
			b.ReportMetric(median(render), "ms-first-render")
			b.ReportMetric(median(zoom), "ms-zoom-frame")
			b.ReportMetric(median(search), "ms-search")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// median returns the median of xs (which it sorts).
func median(xs []float64) float64 {
	slices.Sort(xs)
	if len(xs) == 0 {
		return 0
	}
	return xs[len(xs)/2]
}
