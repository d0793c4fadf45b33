package playground

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/corpus"
)

// The targets of issue 35 for the graph view of a real model, and the margin the test allows over them: the
// machine is shared (up to six engineers on two cores), so the test asserts three times each target and reports
// the medians it measured.
const (
	targetRenderMs = 2000.0
	targetFrameMs  = 50.0
	targetSearchMs = 100.0
	speedMargin    = 3.0
	speedRuns      = 5 // runs of each measure; the test reports their median
)

// speedGraphs are the largest graphs of the shared corpus: SegFormer-B5 subgraph_1 (4,376 ops, a long chain of
// transformer blocks; the largest model.py of the 811 GraphNet graphs) and OCRNet HRNet-W48 subgraph_1 (the next
// largest: a wide graph of parallel branches). pir_json's largest, PP-OCRv5 server, has 513 drawn ops.
var speedGraphs = []struct {
	dir, program string
	shots        []viewShot
}{
	{"graphnet_samples/PaddleX/SegFormer-B5", "SegFormer-B5/subgraph_1", []viewShot{
		{name: "graph-segformer-collapsed.png", collapse: true, scale: 0.045, at: 0.1},
		{name: "graph-segformer-blocks.png", scale: 0.05, at: 0.4},
		{name: "graph-segformer-search.png", search: "pd_op.softmax"},
	}},
	{"graphnet_samples/PaddleX/OCRNet_HRNet-W48", "OCRNet_HRNet-W48/subgraph_1", []viewShot{
		{name: "graph-hrnet-branches.png", scale: 0.12, at: 0.5},
	}},
}

// viewShot is a screenshot of a real model's graph for docs/playground.md (saved there with -docshots): the
// drawing collapsed or whole, at scale around the box at fraction at of the drawing's boxes, or at the first hit
// of a search (Enter in the search box).
type viewShot struct {
	name      string
	collapse  bool
	scale, at float64
	search    string
}

// speed is what TestGraphSpeedInChromium measures of one drawing, in milliseconds.
type speed struct {
	Boxes int
	// Uncached is the first render of the drawing: the server's layout, the JSON, the renderer's setup and the first
	// two animation frames. Render is the same once the server has cached the layout (the median of speedRuns).
	Uncached, Render float64
	// Zoom and Pan are the frames (their median and their maximum, from the input event to the painted frame)
	// while the wheel zooms five times from fit and a drag pans; ZoomJS and PanJS are the renderer's own time per
	// frame (the median; 0 for a renderer that does not count its frames). ZoomWall is the wall time of the five
	// wheel zooms, each waited for until painted, seen from the test (the DevTools protocol's round trips included).
	Zoom, ZoomMax, Pan, PanMax, ZoomJS, PanJS, ZoomWall float64
	// Search is the median of searches for a value id and an op name (every op of the stage, drawn or not, found
	// and marked, one frame painted).
	Search float64
}

// TestGraphSpeedInChromium measures the graph view in headless Chromium on the largest graphs of the corpus, with
// the repeats collapsed and drawn whole, through the page's own controls: the first render, the frames of wheel
// zooms and of a drag, and the search. It logs the medians (go test -run GraphSpeed -v ./playground) and asserts
// them against issue 35's targets with a margin (speedMargin). It skips without Chromium or the corpus.
func TestGraphSpeedInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the speed of the graph view on 4,000-op models is measured without it")
	}
	var dirs []string
	for _, g := range speedGraphs {
		dirs = append(dirs, corpus.Path(t, g.dir))
	}
	br := newBrowser(t)
	ts := newTestServer(t, dirs, Limits{RunTime: 180 * time.Second})
	br.do(chromedp.Navigate(ts.ts.URL + "/"))
	br.waitFor(`document.body.dataset.ready === "1" && window.playground.state.run`, "the page's first run")
	for _, sg := range speedGraphs {
		t.Run(strings.Split(sg.program, "/")[0], func(t *testing.T) {
			br.t = t
			br.eval(`document.getElementById("program").value = "file:` + sg.program + `"; window.playground.setRules(""); ""`)
			br.eval(`document.getElementById("passes").value = "dce"; ""`)
			br.do(chromedp.Click(chromedp.ID("run")))
			br.waitFor(`window.playground.state.run && window.playground.state.run.program === "`+sg.program+`" && !document.body.classList.contains("busy")`,
				"the run on "+sg.program)
			ops := br.eval(`String(window.playground.state.run.opsIn)`)
			for _, collapse := range []string{"1", "0"} {
				s := measureGraph(t, br, collapse)
				t.Logf("%s, %s ops, collapse=%s (%d boxes): first render %.0f ms uncached, %.0f ms cached; zoom frames %.1f ms (max %.1f; "+
					"renderer %.1f ms), 5 wheel zooms %.0f ms; pan frames %.1f ms (max %.1f; renderer %.1f ms); search %.1f ms",
					sg.program, ops, collapse, s.Boxes, s.Uncached, s.Render, s.Zoom, s.ZoomMax, s.ZoomJS, s.ZoomWall, s.Pan, s.PanMax, s.PanJS, s.Search)
				if !raceEnabled { // the server's layout under the race detector is not what a user waits for
					assert.Less(t, s.Uncached, targetRenderMs*speedMargin, "the first render")
				}
				assert.Less(t, s.Render, targetRenderMs*speedMargin, "a render")
				assert.Less(t, s.Zoom, targetFrameMs*speedMargin, "a zoom frame")
				assert.Less(t, s.Pan, targetFrameMs*speedMargin, "a pan frame")
				assert.Less(t, s.Search, targetSearchMs*speedMargin, "a search")
			}
			for _, shot := range sg.shots {
				showView(t, br, shot)
			}
		})
	}
	br.t = t
}

// measureGraph measures the drawing of the current run's input stage (collapsed or not) in the page's graph.
func measureGraph(t *testing.T, br *browser, collapse string) speed {
	t.Helper()
	var s speed
	// The render, from the request of the drawing to two painted frames; the first includes the server's layout.
	render := func() float64 {
		out := br.evalAsync(`(async function () {
			const g = window.playground.graph();
			const frame = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
			const t0 = performance.now();
			const d = await fetch("/api/runs/" + window.playground.state.run.id + "/graph?stage=0&view=pass&collapse=` + collapse + `").then(r => r.json());
			g.draw(d); g.fit(); await frame();
			return String(performance.now() - t0);
		})()`)
		var ms float64
		_, err := fmt.Sscan(out, &ms)
		require.NoError(t, err)
		return ms
	}
	s.Uncached = render()
	var renders []float64
	for range speedRuns {
		renders = append(renders, render())
	}
	s.Render = median(renders)
	s.Boxes = evalInt(t, br, `window.playground.graph().drawing.nodes.length`)
	require.Positive(t, s.Boxes)

	// Wheel zooms from fit at the viewport's centre, and a drag. A frame is measured from the input event (a
	// capturing listener sees it before the graph does) to the second animation frame after it, when the frame
	// that shows the change has been painted; the renderer's own time per frame is logged beside.
	var vp struct{ X, Y float64 }
	require.NoError(t, json.Unmarshal([]byte(br.eval(`(function () { const v = document.getElementById("viewport");
		if (!window.__latency) {
			window.__latency = [];
			["wheel", "pointermove"].forEach(function (type) {
				v.addEventListener(type, function (e) {
					if (type === "pointermove" && !e.buttons) return;
					const t0 = performance.now();
					requestAnimationFrame(() => requestAnimationFrame(() => window.__latency.push(performance.now() - t0)));
				}, { capture: true });
			});
		}
		const r = v.getBoundingClientRect();
		return JSON.stringify({X: r.left + r.width / 2, Y: r.top + r.height / 3}) })()`)), &vp))
	settle := func() {
		br.evalAsync(`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(""))))`)
	}
	measure := func(act func()) (latency, frames []float64) {
		br.eval(`window.__latency = []; window.__frames0 = window.playground.graph().frameCount || 0; ""`)
		act()
		settle()
		require.NoError(t, json.Unmarshal([]byte(br.eval(`JSON.stringify(window.__latency)`)), &latency))
		require.NotEmpty(t, latency, "the events reached the graph")
		// The renderer's frames, where it counts them.
		require.NoError(t, json.Unmarshal([]byte(br.eval(`(function () { const g = window.playground.graph();
			return JSON.stringify(g.frames ? g.frames.slice(-Math.min(g.frames.length, g.frameCount - window.__frames0)) : []) })()`)), &frames))
		return latency, frames
	}
	var zooms, pans, zoomJS, panJS, wall []float64
	for range speedRuns {
		br.eval(`window.playground.graph().fit(), ""`)
		settle()
		t0 := time.Now()
		lat, fr := measure(func() {
			for range 5 {
				// Chromium wants both deltas of a wheel event; cdproto leaves a zero out of the message.
				br.do(chromedp.MouseEvent(chromedp.MouseWheel, vp.X, vp.Y, func(p *input.DispatchMouseEventParams) { p.DeltaX, p.DeltaY = 1e-6, -240 }))
				settle()
			}
		})
		wall = append(wall, float64(time.Since(t0).Microseconds())/1000)
		zooms, zoomJS = append(zooms, lat...), append(zoomJS, fr...)
		lat, fr = measure(func() {
			br.do(chromedp.MouseEvent(chromedp.MousePressed, vp.X, vp.Y, chromedp.ButtonLeft, chromedp.ClickCount(1)))
			for i := 1; i <= 8; i++ {
				br.do(chromedp.MouseEvent(chromedp.MouseMoved, vp.X+float64(12*i), vp.Y+float64(20*i), chromedp.ButtonLeft))
				settle()
			}
			br.do(chromedp.MouseEvent(chromedp.MouseReleased, vp.X+96, vp.Y+160, chromedp.ButtonLeft, chromedp.ClickCount(1)))
		})
		pans, panJS = append(pans, lat...), append(panJS, fr...)
	}
	s.Zoom, s.ZoomMax = median(slices.Clone(zooms)), slices.Max(zooms)
	s.Pan, s.PanMax = median(slices.Clone(pans)), slices.Max(pans)
	s.ZoomJS, s.PanJS = median(zoomJS), median(panJS)
	s.ZoomWall = median(wall)
	br.eval(`window.playground.graph().fit(), ""`)

	// Search: the page's search over every op of the stage (the texts fetched once, as the page does).
	br.evalAsync(`window.playground.search("pd_op.add").then(() => "")`)
	var searches []float64
	for _, q := range []string{"%1234", "pd_op.matmul", "%12", "layer_norm", "pd_op.add"}[:speedRuns] {
		out := br.evalAsync(`(async function () {
			const t0 = performance.now();
			await window.playground.search(` + jsString(q) + `);
			await new Promise(r => requestAnimationFrame(r));
			return String(performance.now() - t0);
		})()`)
		var ms float64
		_, err := fmt.Sscan(out, &ms)
		require.NoError(t, err)
		searches = append(searches, ms)
	}
	assert.Regexp(t, `found`, br.eval(`document.getElementById("graph-count").textContent`))
	s.Search = median(searches)
	br.evalAsync(`window.playground.search("").then(() => "")`)
	return s
}

func evalInt(t *testing.T, br *browser, expr string) int {
	t.Helper()
	var n int
	_, err := fmt.Sscan(br.eval(`String(`+expr+`)`), &n)
	require.NoError(t, err, expr)
	return n
}

// showView draws the current run's input as shot says, through the page's controls, and saves a screenshot.
func showView(t *testing.T, br *browser, shot viewShot) {
	t.Helper()
	want := map[bool]string{true: "true", false: "false"}[shot.collapse]
	// The program as it is (the before view), not the run's result with the ops dce removed beside it.
	br.do(chromedp.Click(chromedp.ID("view-before")))
	br.evalAsync(`Promise.resolve(window.playground.state.graphShown).then(() => "")`)
	// The page draws its own view again (the measures drew into its graph): the checkbox set, one drawing at a time.
	clicks := 1
	if br.eval(`String(document.getElementById("collapse").checked)`) == want {
		clicks = 2
	}
	for range clicks {
		br.do(chromedp.Click(chromedp.ID("collapse")))
		br.evalAsync(`Promise.resolve(window.playground.state.graphShown).then(() => "")`)
	}
	br.waitFor(graphReady+` && window.playground.graph().drawing && window.playground.graph().drawing.groups.some(g => g.kind === "repeat") === `+want, "the drawing")
	if shot.search != "" {
		br.eval(`(function () { const s = document.getElementById("graph-search"); s.value = ""; s.dispatchEvent(new Event("input")); return "" })()`)
		br.do(chromedp.SendKeys(chromedp.ID("graph-search"), shot.search))
		br.waitFor(`/found/.test(document.getElementById("graph-count").textContent)`, "the search")
		br.do(chromedp.SendKeys(chromedp.ID("graph-search"), "\r"))
		br.waitFor(`window.playground.graph().all("current").length === 1`, "the current hit")
		assert.Regexp(t, `^1 of \d+`, br.eval(`document.getElementById("graph-count").textContent`))
	} else {
		br.eval(`(function () { const g = window.playground.graph(); const n = g.nodes[Math.floor(g.nodes.length * ` + fmt.Sprint(shot.at) + `)];
			const s = g.size(); g.t = { k: ` + fmt.Sprint(shot.scale) + `, x: 0, y: 0 };
			g.t.x = s.w / 2 - n.data.x * g.t.k; g.t.y = s.h / 2 - n.data.y * g.t.k; g.render(); return "" })()`)
	}
	br.evalAsync(`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(""))))`)
	br.shot(shot.name)
	if shot.search != "" {
		br.eval(`(function () { const s = document.getElementById("graph-search"); s.value = ""; s.dispatchEvent(new Event("input")); return "" })()`)
	}
}
