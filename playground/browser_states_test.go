package playground

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/pirdrr/drr/internal/sample"
	"github.com/pirdrr/drr/ir/pirtext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// heldServer is a playground whose run requests can be held back by the test, to look at the page while a run is
// under way.
type heldServer struct {
	URL string

	mu      sync.Mutex
	release chan struct{} // non-nil: requests whose path ends with held wait for it to close
	held    string
}

// graphReady holds when the graph on screen is the one of the view asked for last: a test that waits for a view's
// boxes must not find them in the drawing of the view before, which the new one replaces when it comes (a click on
// the old drawing then selects nothing).
const graphReady = `(window.playground.state.graphDrawn === window.playground.state.graphGen)`

func newHeldServer(t *testing.T, lim Limits) *heldServer {
	t.Helper()
	s, err := New(Options{Context: testCtx(), Registry: testReg(), Limits: lim, Version: "test",
		Logf: func(format string, args ...any) { t.Logf("server: "+format, args...) }})
	require.NoError(t, err)
	h := &heldServer{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		wait, held := h.release, h.held
		h.mu.Unlock()
		if wait != nil && strings.HasSuffix(r.URL.Path, held) {
			<-wait
		}
		s.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		h.mu.Lock()
		if h.release != nil {
			close(h.release)
			h.release = nil
		}
		h.mu.Unlock()
		s.Close()
		ts.Close()
	})
	h.URL = ts.URL
	return h
}

// hold makes the requests whose path ends with suffix wait until the function it returns is called.
func (h *heldServer) hold(suffix string) func() {
	h.mu.Lock()
	defer h.mu.Unlock()
	ch := make(chan struct{})
	h.release, h.held = ch, suffix
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.release == ch {
			close(ch)
			h.release = nil
		}
	}
}

// runAndWait presses Run and waits for the run's answer (a new run id, or a status that is no longer busy).
func (b *browser) runAndWait() {
	b.t.Helper()
	prev := b.eval(`String(window.playground.state.run && window.playground.state.run.id)`)
	b.do(chromedp.Click(chromedp.ID("run")))
	b.waitFor(`!document.body.classList.contains("busy") && (String(window.playground.state.run && window.playground.state.run.id) !== "`+prev+
		`" || document.getElementById("status").className === "error")`, "the run")
}

// TestPlaygroundStates drives the states of issue 35 point 1 in one browser: a run that changes nothing (no
// match), a run under way, a refused run, and the page's own errors — each has its view, and no raw exception
// reaches the user (the browser's cleanup fails the test on any console error).
func TestPlaygroundStates(t *testing.T) {
	b := newBrowser(t)
	hs := newHeldServer(t, Limits{GrowOps: 5000})
	b.do(chromedp.Navigate(hs.URL + "/"))
	b.waitFor(`document.body.dataset.ready === "1" && document.getElementById("status").className === "ok"`, "the page's first run")

	t.Run("no match", func(t *testing.T) {
		b.t = t
		b.eval(`window.playground.setRules(` + jsString(noMatchRules) + `), ""`)
		b.runAndWait()
		assert.Equal(t, "no-match", b.eval(`document.body.dataset.outcome`))
		assert.Equal(t, "warn", b.eval(`document.getElementById("status").className`))
		assert.Contains(t, b.eval(`document.getElementById("status").textContent`), "no match: the rule matches tinyresnet (51 ops), which stays as it is")
		b.do(chromedp.Click(chromedp.CSS(`#tabs button[data-tab="diff"]`)))
		b.waitFor(`document.querySelector("#diff .empty-state")`, "the empty diff")
		assert.Contains(t, b.eval(`document.getElementById("diff-summary").textContent`), "nothing changed")
		assert.NotContains(t, b.eval(`document.getElementById("tab-diff").textContent`), "Cannot read")
		b.do(chromedp.Click(chromedp.CSS(`#tabs button[data-tab="pipeline"]`)))
		b.waitFor(`document.querySelector("#stage-diff .empty-state")`, "the pass's empty diff")
		assert.Contains(t, b.eval(`document.getElementById("stage-diff").textContent`), "This pass changed nothing.")
		assert.Contains(t, b.eval(`document.getElementById("stage-rules").textContent`), "tanh_to_relu")
		b.do(chromedp.Click(chromedp.CSS(`#tabs button[data-tab="graph"]`)))
	})

	t.Run("running", func(t *testing.T) {
		b.t = t
		b.eval(`window.playground.setRules(` + jsString(resnetRules) + `), ""`)
		release := hs.hold("/api/run")
		defer release()
		b.do(chromedp.Click(chromedp.ID("run")))
		b.waitFor(`document.body.classList.contains("busy")`, "the running view")
		assert.Equal(t, "busy", b.eval(`document.getElementById("status").className`))
		assert.Contains(t, b.eval(`document.getElementById("status").textContent`), "running…")
		assert.Equal(t, "true", b.eval(`String(document.getElementById("run").disabled)`))
		b.waitFor(`document.getElementById("status").textContent.indexOf(" s (the budget is 10 s)") > 0`, "the seconds counted")
		release()
		b.waitFor(`!document.body.classList.contains("busy") && document.getElementById("status").className === "ok"`, "the run's end")
		assert.Equal(t, "changed", b.eval(`document.body.dataset.outcome`))
		assert.Equal(t, "false", b.eval(`String(document.getElementById("run").disabled)`))
	})

	t.Run("refused", func(t *testing.T) {
		b.t = t
		b.eval(`document.getElementById("passes").value = "no_such_pass"`)
		b.runAndWait()
		assert.Equal(t, "error", b.eval(`document.getElementById("status").className`))
		assert.Contains(t, b.eval(`document.getElementById("status").textContent`), "no_such_pass")
		assert.NotContains(t, b.eval(`document.getElementById("status").textContent`), "internal error")
		b.eval(`document.getElementById("passes").value = ""`)
	})

	t.Run("the page's own errors", func(t *testing.T) {
		b.t = t
		b.eval(`setTimeout(function () { throw new Error("provoked-uncaught") }), ""`)
		b.waitFor(`document.getElementById("status").textContent.indexOf("provoked-uncaught") >= 0`, "the uncaught error in the status line")
		assert.Contains(t, b.eval(`document.getElementById("status").textContent`), "internal error in the page (uncaught)")
		assert.Equal(t, "error", b.eval(`document.getElementById("status").className`))
		b.eval(`Promise.reject(new Error("provoked-rejection")), ""`)
		b.waitFor(`document.getElementById("status").textContent.indexOf("provoked-rejection") >= 0`, "the rejection in the status line")
		assert.Contains(t, b.eval(`document.getElementById("status").textContent`), "internal error in the page (unhandled promise)")
		assert.Positive(t, b.takeErrors("provoked-uncaught"), "the console saw the uncaught error")
		assert.Positive(t, b.takeErrors("provoked-rejection"), "the console saw the rejection")
		// A resource that fails to load is an error of the page too (the test saw no 404 of the icon before).
		b.eval(`(function () { const i = document.createElement("img"); i.src = "/assets/provoked-missing.png"; document.body.appendChild(i); return "" })()`)
		deadline := time.Now().Add(10 * time.Second)
		for b.takeErrors("provoked-missing.png") == 0 {
			require.True(t, time.Now().Before(deadline), "the browser's log reports the missing resource")
			time.Sleep(50 * time.Millisecond)
		}
	})

	t.Run("verify", func(t *testing.T) {
		b.t = t
		b.eval(`window.playground.setRules(` + jsString(resnetRules) + `), ""`)
		b.runAndWait()
		b.do(chromedp.Click(chromedp.CSS(`#tabs button[data-tab="verify"]`)))
		assert.Contains(t, b.eval(`document.getElementById("verify-cost").textContent`), "Cost model: runtime ops ", "the run's cost figures beside the verification")
		b.eval(`document.getElementById("verify-runs").value = "2"; document.getElementById("verify-batch").value = "2"; ""`)
		b.do(chromedp.Click(chromedp.ID("verify-start")))
		b.waitFor(`document.getElementById("verify-summary").className === "ok"`, "the verification")
		assert.Contains(t, b.eval(`document.getElementById("verify-summary").textContent`), "the outputs agree — 2 of 2 runs, seed 1, rtol 1e-5, batch 2, size 32")
		assert.Equal(t, "true", b.eval(`String(document.getElementById("verify-cancel").hidden)`))
		// Out-of-range controls are brought within the server's limits.
		b.eval(`document.getElementById("verify-runs").value = "99"; ""`)
		release := hs.hold("/verify")
		defer release()
		b.do(chromedp.Click(chromedp.ID("verify-start")))
		b.waitFor(`document.getElementById("verify-progress").textContent.indexOf("running the passes on a copy…") === 0`, "the progress line")
		assert.Equal(t, "10", b.eval(`document.getElementById("verify-runs").value`))
		assert.Equal(t, "false", b.eval(`String(document.getElementById("verify-cancel").hidden)`))
		b.do(chromedp.Click(chromedp.ID("verify-cancel")))
		b.waitFor(`document.getElementById("verify-summary").textContent.indexOf("cancelled after 0 of 10 runs") === 0`, "the cancellation")
		assert.Equal(t, "", b.eval(`document.getElementById("verify-progress").textContent`))
		release()
		b.eval(`document.getElementById("verify-runs").value = "3"; document.getElementById("verify-batch").value = "1"; ""`)

		// A wrong rule: the worst element names its values, a 0 too (it read "undefined after").
		b.eval(`window.playground.setRules(` + jsString(wrongRule) + `), ""`)
		b.runAndWait()
		b.do(chromedp.Click(chromedp.ID("verify-start")))
		b.waitFor(`document.getElementById("verify-summary").className === "bad"`, "the failed verification")
		table := b.eval(`document.getElementById("verify-table").textContent`)
		assert.Contains(t, table, "(worst: run ")
		assert.NotContains(t, table, "undefined")
		assert.Contains(t, b.eval(`document.getElementById("verify-summary").textContent`), "✗ interp: outputs differ: ")
	})

	t.Run("upload runs at once", func(t *testing.T) {
		b.t = t
		p, err := sample.Load(testCtx())
		require.NoError(t, err)
		file := filepath.Join(t.TempDir(), "mine.pir")
		require.NoError(t, os.WriteFile(file, pirtext.Print(p, pirtext.WriteOptions{}), 0o644))
		b.eval(`window.playground.setRules(` + jsString(resnetRules) + `), ""`)
		b.do(chromedp.SetUploadFiles(chromedp.ID("upload"), []string{file}))
		b.waitFor(`window.playground.state.run && window.playground.state.run.program === "mine.pir" && document.getElementById("status").className === "ok"`,
			"the run on the upload, without pressing Run")
	})

	t.Run("state kept", func(t *testing.T) {
		b.t = t
		// The transformer with fc, rules and dce, the result's graph with a new op selected, the Diff tab.
		b.eval(`document.getElementById("program").value = "sample:tinytransformer"; document.getElementById("passes").value = "rules,dce"; ""`)
		b.eval(`window.playground.setRules(` + jsString(transformerRules) + `), ""`)
		b.runAndWait()
		b.do(chromedp.Click(chromedp.CSS(`#tabs button[data-tab="graph"]`)), chromedp.Click(chromedp.ID("view-after")))
		b.waitFor(graphReady+` && window.playground.graph().all("added")[0]`, "the result's graph")
		key := b.eval(`window.playground.graph().all("added")[0].key`)
		b.clickBox(`window.playground.graph()`, `window.playground.graph().all("added")[0]`)
		b.waitFor(`window.playground.state.selected === "`+key+`"`, "the selected op")
		b.do(chromedp.Click(chromedp.CSS(`#tabs button[data-tab="diff"]`)))
		// Kept in localStorage at once, in the fragment once compressed: a reload before that would open the
		// fragment of the state before (the upload's).
		b.waitFor(`(JSON.parse(localStorage.getItem("drrc-playground:state")) || {}).tab === "diff"`, "the state kept")
		b.waitFor(`window.PlaygroundState.decode(location.hash).then(st => !!st && st.tab === "diff" && st.op === "`+key+`")`,
			"the state in the fragment")

		restored := func(how string) {
			t.Helper()
			b.waitFor(`document.body.dataset.ready === "1" && window.playground.state.run && document.getElementById("status").className === "ok" &&
				window.playground.state.selected === "`+key+`"`, "the state restored "+how)
			assert.Equal(t, transformerRules, b.eval(`window.playground.rules()`), how)
			assert.Equal(t, "tinytransformer", b.eval(`window.playground.state.run.program`), how)
			assert.Equal(t, "rules,dce", b.eval(`document.getElementById("passes").value`), how)
			assert.Equal(t, "after", b.eval(`window.playground.state.view`), how)
			assert.Equal(t, "true", b.eval(`document.querySelector('#tabs button[data-tab="diff"]').getAttribute("aria-selected")`), how)
			assert.Contains(t, b.eval(`document.getElementById("op-detail").textContent`), "pd_op.fc", how)
		}
		b.do(chromedp.Reload())
		restored("by a reload")
		b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(hs.URL+"/"))
		restored("from localStorage")

		// An old link (#s=, uncompressed JSON) still opens.
		old, err := json.Marshal(map[string]any{"rules": noMatchRules, "passes": "", "target": "", "program": map[string]string{"sample": "tinyresnet"}})
		require.NoError(t, err)
		b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(hs.URL+"/#s="+base64.RawURLEncoding.EncodeToString(old)))
		b.waitFor(`document.body.dataset.ready === "1" && window.playground.state.run && document.body.dataset.outcome === "no-match"`, "the old link's run")
		assert.Equal(t, noMatchRules, b.eval(`window.playground.rules()`))
		assert.Equal(t, "tinyresnet", b.eval(`window.playground.state.run.program`))

	})

	t.Run("search", func(t *testing.T) {
		b.t = t
		b.eval(`document.getElementById("program").value = "sample:tinytransformer"; document.getElementById("passes").value = ""; ""`)
		b.eval(`window.playground.setRules(` + jsString(transformerRules) + `), ""`)
		b.runAndWait()
		b.do(chromedp.Click(chromedp.CSS(`#tabs button[data-tab="graph"]`)), chromedp.Click(chromedp.ID("view-before")))
		b.waitFor(graphReady+` && document.getElementById("collapse").checked && window.playground.graph().drawing && window.playground.graph().drawing.hidden > 0`, "the collapsed graph")
		// What the search must find: the ops of the stage's text whose line matches re, drawn or not.
		opsMatching := func(re string) string {
			return b.evalAsync(`fetch("/api/runs/" + window.playground.state.run.id + "/stages/" + window.playground.state.graphStage).then(r => r.json()).then(s =>
				String(s.opLines.filter(l => ` + re + `.test(s.text.split("\n")[l - 1])).length))`)
		}
		search := func(q string) string {
			b.eval(`(function () { const s = document.getElementById("graph-search"); s.value = ` + jsString(q) + `; s.dispatchEvent(new Event("input")); return "" })()`)
			b.waitFor(`/found/.test(document.getElementById("graph-count").textContent)`, "the search of "+q)
			return b.eval(`document.getElementById("graph-count").textContent`)
		}
		matmuls := opsMatching(`/"pd_op.matmul"/`)
		require.NotEqual(t, "0", matmuls)
		assert.Regexp(t, `^`+matmuls+` ops found, in \d+ boxes$`, search("pd_op.matmul"), "every matmul, drawn or collapsed")
		boxes := b.eval(`String(window.playground.graph().all("hit").length)`)
		assert.NotEqual(t, matmuls, boxes, "the layers are collapsed: fewer boxes than ops")
		// %1 is that value, not %10-%19.
		exact, loose := opsMatching(`/%1(?![\w.])/`), opsMatching(`/%1/`)
		require.NotEqual(t, exact, loose, "the test needs ids that start with %1")
		assert.Regexp(t, `^`+exact+` ops? found`, search("%1"))
		// Enter marks the current hit, Shift+Enter goes back.
		search("pd_op.softmax")
		b.do(chromedp.SendKeys(chromedp.ID("graph-search"), "\r"))
		assert.Regexp(t, `^1 of 2`, b.eval(`document.getElementById("graph-count").textContent`))
		assert.Equal(t, "1", b.eval(`String(window.playground.graph().all("current").length)`))
		b.do(chromedp.SendKeys(chromedp.ID("graph-search"), "\r"))
		assert.Regexp(t, `^2 of 2`, b.eval(`document.getElementById("graph-count").textContent`))
		assert.Equal(t, "1", b.eval(`String(window.playground.graph().all("current").length)`))
		// Without collapse, nothing is in a block: the count of ops not drawn says what they are.
		b.eval(`(function () { const s = document.getElementById("graph-search"); s.value = ""; s.dispatchEvent(new Event("input")); return "" })()`)
		assert.Equal(t, "0", b.eval(`String((window.playground.graph().all("hit").length + window.playground.graph().all("current").length))`), "an empty search marks nothing")
		b.do(chromedp.Click(chromedp.ID("collapse")))
		b.waitFor(`/boxes/.test(document.getElementById("graph-count").textContent)`, "the uncollapsed graph")
		assert.NotContains(t, b.eval(`document.getElementById("graph-count").textContent`), "collapsed")
		b.do(chromedp.Click(chromedp.ID("collapse")))
	})

	t.Run("editor", func(t *testing.T) {
		b.t = t
		// Enter indents: inside a rule's match block a new line starts two levels in, and a closing brace goes back.
		b.eval(`window.playground.setRules("rule r {\n  match {"), ""`)
		b.eval(`(function () { const v = window.playground.editor(); v.focus(); v.dispatch({selection: {anchor: v.state.doc.length}}); return "" })()`)
		b.do(chromedp.KeyEvent("\r"))
		b.waitFor(`window.playground.rules() === "rule r {\n  match {\n    "`, "the new line indented")
		b.do(chromedp.KeyEvent("}"))
		b.waitFor(`window.playground.rules() === "rule r {\n  match {\n  }"`, "the closing brace dedented")

		// Hover renders the language server's Markdown: the attribute table as a table, *…* in italics.
		b.eval(`window.playground.setRules(` + jsString(transformerRules) + `), ""`)
		b.waitFor(`document.getElementById("editor").dataset.errors === "0"`, "the rules checked")
		pos := strings.Index(transformerRules, "pd_op.fc(") + 4
		var at struct{ X, Y float64 }
		require.NoError(t, json.Unmarshal([]byte(b.eval(`(function () { const c = window.playground.editor().coordsAtPos(`+itoa(pos)+`);
			return JSON.stringify({X: c.left + 2, Y: (c.top + c.bottom) / 2}) })()`)), &at))
		b.do(chromedp.MouseEvent(chromedp.MouseMoved, at.X-4, at.Y), chromedp.MouseEvent(chromedp.MouseMoved, at.X, at.Y))
		b.waitFor(`document.querySelector(".cm-drr-hover table")`, "the hover's attribute table")
		hover := b.eval(`document.querySelector(".cm-drr-hover").innerHTML`)
		assert.NotContains(t, hover, "|---|")
		assert.NotContains(t, hover, "| `")
		assert.Contains(t, hover, "<th>attribute</th>")
		assert.Contains(t, hover, "<code>in_num_col_dims</code>")
		assert.Contains(t, hover, "<em>pd_op, from ")
		assert.NotContains(t, hover, "*pd_op")
		b.do(chromedp.MouseEvent(chromedp.MouseMoved, 5, 5))
	})

	t.Run("small ones", func(t *testing.T) {
		b.t = t
		// The page's icon is served (it was a 404).
		assert.Equal(t, "200", b.evalAsync(`fetch(document.querySelector('link[rel="icon"]').href).then(r => String(r.status))`))

		// Ctrl+Enter runs from outside the editor too.
		b.eval(`document.getElementById("program").value = "sample:tinyresnet"; document.getElementById("passes").value = "rules,dce"; ""`)
		b.eval(`window.playground.setRules(` + jsString(resnetRules) + `), ""`)
		prev := b.eval(`window.playground.state.run.id`)
		b.do(chromedp.Click(chromedp.CSS(`#tabs button[data-tab="pipeline"]`)))
		b.do(chromedp.KeyEvent("\r", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
		b.waitFor(`window.playground.state.run.id !== "`+prev+`" && document.getElementById("status").className === "ok"`, "the run by Ctrl+Enter")

		// The dce pass says what kind of pass it is, in words.
		b.waitFor(`document.querySelector("#stage-list li.current")`, "the pipeline")
		b.do(chromedp.Click(chromedp.CSS(`#stage-list li:nth-child(3)`)))
		assert.Contains(t, b.eval(`document.getElementById("stage-head").textContent`), "dce (a pass written in Go")
		b.do(chromedp.Click(chromedp.CSS(`#stage-list li:nth-child(2)`)))
		assert.Contains(t, b.eval(`document.getElementById("stage-head").textContent`), "rules (a rule set, applied by the driver)")
		b.eval(`document.getElementById("passes").value = ""; ""`)

		// Choosing a rule file asks before it replaces rules of the user's own.
		own := resnetRules + "\n// mine\n"
		b.eval(`window.playground.setRules(` + jsString(own) + `), ""`)
		b.eval(`window.__asked = 0; window.confirm = function () { window.__asked++; return false; }; ""`)
		b.eval(`(function () { const s = document.getElementById("rules-file"); s.value = "shipped/conv_bn_relu.drr"; s.dispatchEvent(new Event("change")); return "" })()`)
		assert.Equal(t, "1", b.eval(`String(window.__asked)`))
		assert.Equal(t, own, b.eval(`window.playground.rules()`), "kept: the user said no")
		b.eval(`window.confirm = function () { window.__asked++; return true; }; ""`)
		b.eval(`(function () { const s = document.getElementById("rules-file"); s.value = "shipped/conv_bn_relu.drr"; s.dispatchEvent(new Event("change")); return "" })()`)
		b.waitFor(`window.playground.rules().indexOf("conv") >= 0 && window.playground.rules() !== `+jsString(own), "the rule file loaded")
		assert.Equal(t, "2", b.eval(`String(window.__asked)`))
		b.eval(`(function () { const s = document.getElementById("rules-file"); s.value = "shipped/conv2d_bn_fuse.drr"; s.dispatchEvent(new Event("change")); return "" })()`)
		b.waitFor(`window.playground.rules().indexOf("conv2d_bn") >= 0`, "another rule file, over the last one loaded")
		assert.Equal(t, "2", b.eval(`String(window.__asked)`), "a loaded file is not the user's own: no question")

		// The share box does not cover the tabs; the status line wraps instead of being cut.
		b.do(chromedp.Click(chromedp.ID("share")))
		b.waitFor(`!document.getElementById("share-box").hidden`, "the share box")
		assert.Equal(t, "true", b.eval(`(function () { const t = document.querySelector('#tabs button[data-tab="verify"]').getBoundingClientRect();
			const e = document.elementFromPoint(t.left + t.width / 2, t.top + t.height / 2); return String(e && e.dataset.tab === "verify") })()`))
		b.do(chromedp.Click(chromedp.ID("share-close")))
		assert.NotEqual(t, "nowrap", b.eval(`getComputedStyle(document.getElementById("status")).whiteSpace`))
		assert.NotEqual(t, "ellipsis", b.eval(`getComputedStyle(document.getElementById("status")).textOverflow`))

		// The graph pans when dragged.
		b.do(chromedp.Click(chromedp.CSS(`#tabs button[data-tab="graph"]`)))
		b.waitFor(graphReady+` && window.playground.graph().drawing`, "the graph")
		before := b.eval(`JSON.stringify(window.playground.graph().t)`)
		var vp struct{ X, Y float64 }
		require.NoError(t, json.Unmarshal([]byte(b.eval(`(function () { const r = document.getElementById("viewport").getBoundingClientRect();
			return JSON.stringify({X: r.left + 20, Y: r.top + 20}) })()`)), &vp))
		b.do(chromedp.MouseEvent(chromedp.MousePressed, vp.X, vp.Y, chromedp.ButtonLeft),
			chromedp.MouseEvent(chromedp.MouseMoved, vp.X+40, vp.Y+30, chromedp.ButtonLeft),
			chromedp.MouseEvent(chromedp.MouseMoved, vp.X+80, vp.Y+60, chromedp.ButtonLeft),
			chromedp.MouseEvent(chromedp.MouseReleased, vp.X+80, vp.Y+60, chromedp.ButtonLeft))
		after := b.eval(`JSON.stringify(window.playground.graph().t)`)
		assert.NotEqual(t, before, after, "the drag moved the drawing")
	})

	t.Run("stable ids", func(t *testing.T) {
		b.t = t
		b.eval(`document.getElementById("program").value = "sample:tinytransformer"; document.getElementById("passes").value = ""; ""`)
		b.eval(`window.playground.setRules(` + jsString(transformerRules) + `), ""`)
		b.runAndWait()
		b.do(chromedp.Click(chromedp.CSS(`#tabs button[data-tab="graph"]`)), chromedp.Click(chromedp.ID("view-before")))
		b.waitFor(graphReady+` && window.playground.graph().all("matched")[0]`, "the before view")
		// A kept op (a softmax): the after view selects the same op, under the same id, and explains it there.
		b.clickBox(`window.playground.graph()`, `window.playground.graph().nodes.filter(n => n.key && n.data.label.indexOf("pd_op.softmax") >= 0)[0]`)
		b.waitFor(`document.querySelector("#explain .code")`, "the explanation of the softmax")
		label := b.eval(`document.getElementById("op-detail").textContent.split("(")[0]`)
		require.Contains(t, label, "= pd_op.softmax")
		b.do(chromedp.Click(chromedp.ID("view-after")))
		b.waitFor(`window.playground.state.graphStage === 1 && window.playground.graph().all("added")[0] && !window.playground.graph().all("matched")[0] &&
			window.playground.graph().all("selected")[0] && window.playground.graph().all("selected")[0].data.label.indexOf(`+jsString(label)+`) >= 0 &&
			document.querySelector("#explain .code")`, "the softmax selected in the after view")
		assert.Equal(t, label, b.eval(`document.getElementById("op-detail").textContent.split("(")[0]`), "the same id after the rewrite")
		assert.Contains(t, b.eval(`window.playground.graph().all("selected")[0].data.label`), label)

		// A removed op (a matched matmul): the after view says it is gone instead of explaining the before view's op.
		b.do(chromedp.Click(chromedp.ID("view-before")))
		b.waitFor(graphReady+` && window.playground.state.graphStage === 0 && window.playground.graph().all("matched")[0]`, "the before view")
		b.clickBox(`window.playground.graph()`, `window.playground.graph().node(window.playground.state.run.matches[0].ops.filter(o => o.key !== window.playground.state.run.matches[0].root)[0].key)`)
		b.waitFor(`document.querySelector("#explain .rule, #explain .code") && /pd_op.matmul/.test(document.getElementById("op-detail").textContent)`, "the matmul explained")
		b.do(chromedp.Click(chromedp.ID("view-after")))
		b.waitFor(`/the passes removed it/.test(document.getElementById("op-detail").textContent)`, "the removed op said so")
		assert.Equal(t, "", b.eval(`document.getElementById("explain").textContent`))
		assert.Equal(t, "null", b.eval(`String(window.playground.state.selected)`))
	})

	t.Run("side by side", func(t *testing.T) {
		b.t = t
		b.do(chromedp.Click(chromedp.ID("view-split")))
		b.waitFor(graphReady+` && !document.getElementById("viewport2").hidden && window.playground.graph2().all("added")[0] && window.playground.graph().all("matched")[0]`,
			"before and after side by side")
		assert.Equal(t, "true", b.eval(`String(document.getElementById("viewport2").getBoundingClientRect().left >= document.getElementById("viewport").getBoundingClientRect().right - 1)`),
			"the result is drawn to the right of the input")
		// A kept op selected on the left is selected on the right, under the same id.
		b.clickBox(`window.playground.graph()`, `window.playground.graph().nodes.filter(n => n.key && n.data.label.indexOf("pd_op.softmax") >= 0)[0]`)
		b.waitFor(`window.playground.graph2().all("selected")[0]`, "the softmax selected on the right")
		assert.Equal(t, b.eval(`window.playground.graph().all("selected")[0].data.label`), b.eval(`window.playground.graph2().all("selected")[0].data.label`))
		b.eval(`document.getElementById("rules-file").value = "", window.playground.graph().center(window.playground.graph().all("selected")[0]), ""`)
		b.shot("playground-side-by-side.png")
		// A new op selected on the right is explained in the result; the left has no counterpart.
		b.clickBox(`window.playground.graph2()`, `window.playground.graph2().all("added")[0]`)
		b.waitFor(`document.querySelector("#explain .code") && /pd_op.fc/.test(document.querySelector("#explain .code").textContent) && !window.playground.graph().all("selected")[0]`,
			"the fc explained, nothing selected on the left")
		b.do(chromedp.Click(chromedp.ID("view-before")))
		b.waitFor(`document.getElementById("viewport2").hidden`, "one pane again")
	})

	t.Run("legible labels", func(t *testing.T) {
		b.t = t
		// The graph of the view asked for last (the side-by-side test ends by switching back to one pane: the
		// drawing of the split view is on screen until the new one comes, and would then replace the zoom below).
		b.waitFor(graphReady+` && window.playground.graph().drawing`, "the graph")
		// Zoomed out until the labels would be under 7 px, no label is drawn: the collapsed block is drawn closed, with
		// its summary; zoomed in, the labels come back and the block opens.
		b.eval(`(function () { const g = window.playground.graph(); g.zoomAt(0.3 / g.t.k, 0, 0); g.render(); return "" })()`)
		assert.Equal(t, "0", b.eval(`String(window.playground.graph().last.labels)`))
		assert.NotEqual(t, "0", b.eval(`String(window.playground.graph().last.summaries)`), "the repeated block drawn as its summary")
		assert.Regexp(t, `^× \d+: \w+ \d+`, b.eval(`window.playground.graph().drawing.groups.filter(g => g.kind === "repeat")[0].summary`))
		b.eval(`(function () { const g = window.playground.graph(); g.zoomAt(1 / g.t.k, 0, 0); g.center(g.nodes[0]); g.render(); return "" })()`)
		assert.NotEqual(t, "0", b.eval(`String(window.playground.graph().last.labels)`))
		assert.Equal(t, "0", b.eval(`String(window.playground.graph().last.summaries)`))
	})
}
