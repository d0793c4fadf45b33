package playground

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/pirdrr/drr/internal/sample"
	"github.com/pirdrr/drr/ir/pirtext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var docShots = flag.Bool("docshots", false, "write the screenshots of the browser test into docs/playground/ (for docs/playground.md)")

// chromium returns the path of a Chromium to test the page in, or skips the test.
func chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	t.Skip("no Chromium to test the playground in: install Debian's chromium (apt-get install -y chromium; .ci/run does)")
	return ""
}

// browser is a headless Chromium tab. It records the page's JavaScript errors (uncaught exceptions and
// console.error calls): a test fails on any.
type browser struct {
	t   testing.TB
	ctx context.Context

	mu     sync.Mutex
	errors []string
}

func newBrowser(t testing.TB) *browser {
	exe := chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1400, 860),
	}
	b := &browser{t: t}
	listen := func(ev any) {
		var msg string
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			msg = ev.ExceptionDetails.Text
			if ev.ExceptionDetails.Exception != nil {
				msg += " " + ev.ExceptionDetails.Exception.Description
			}
		case *cdplog.EventEntryAdded:
			// The browser's own errors: a resource that failed to load (a 404 of the page's icon, a script). The
			// page's API requests it refuses (a run of unknown passes: 400) are states the page shows, not errors.
			if ev.Entry.Level != cdplog.EntryLevelError || strings.Contains(ev.Entry.URL, "/api/") {
				return
			}
			msg = "browser log: " + ev.Entry.Text + " " + ev.Entry.URL
		case *runtime.EventConsoleAPICalled:
			if ev.Type != runtime.ConsoleAPICalledTypeError {
				return
			}
			msg = "console.error:"
			for _, a := range ev.Args {
				msg += " " + string(a.Value) + a.Description
			}
		default:
			return
		}
		b.mu.Lock()
		b.errors = append(b.errors, msg)
		b.mu.Unlock()
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx, chromedp.WithListener(listen))
	bctx, cancel := context.WithTimeout(bctx, 120*time.Second)
	t.Cleanup(func() {
		cancel()
		cancelBrowser()
		cancelAlloc()
	})
	b.ctx = bctx
	require.NoError(t, chromedp.Do(bctx, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, tg, cdplog.Enable, cdp.Empty{})
		return chromedp.Void{}, err
	}))
	t.Cleanup(func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		assert.Empty(t, b.errors, "JavaScript errors on the page")
	})
	return b
}

// takeErrors removes the recorded page errors that contain substr (errors a test provoked on purpose) and returns
// how many there were.
func (b *browser) takeErrors(substr string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	kept := b.errors[:0]
	n := 0
	for _, e := range b.errors {
		if strings.Contains(e, substr) {
			n++
			continue
		}
		kept = append(kept, e)
	}
	b.errors = kept
	return n
}

func (b *browser) do(actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	require.NoError(b.t, chromedp.Do(b.ctx, actions...))
}

func (b *browser) eval(expr string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](expr))
	require.NoError(b.t, err, expr)
	return v
}

// waitFor polls a JavaScript condition — a value, or a promise of one — until it is true, failing the test with
// what what says after 30 seconds (a promise that rejects counts as false).
func (b *browser) waitFor(cond, what string) {
	b.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if b.evalAsync("Promise.resolve("+cond+").then(v => String(!!v), () => \"false\")") == "true" {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.t.Fatalf("waiting for %s (%s); status: %q", what, cond, b.eval(`document.getElementById("status").textContent`))
}

// shot saves a screenshot as a test artifact, and into docs/playground/ with -docshots.
func (b *browser) shot(name string) {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	require.NoError(b.t, err)
	require.Greater(b.t, len(png), 10000, "a screenshot of the page, not of a blank one")
	require.NoError(b.t, os.WriteFile(filepath.Join(b.t.ArtifactDir(), name), png, 0o644))
	if *docShots {
		dir := filepath.Join("..", "docs", "playground")
		require.NoError(b.t, os.MkdirAll(dir, 0o755))
		require.NoError(b.t, os.WriteFile(filepath.Join(dir, name), png, 0o644))
	}
}

// brokenFC is the transformer sample's rule with a typo in an op name: the language server reports it.
var brokenFC = strings.Replace(transformerRules, "pd_op.matmul(", "pd_op.matmull(", 1)

// TestPlaygroundInChromium walks through docs/playground.md: load the page, write a rule with an error and see the
// diagnostic, fix it, run it on the transformer sample, see the matched ops highlighted, step through a rule's
// matches, explain an op, open the pipeline and step it with the keyboard, verify, and follow a share link.
func TestPlaygroundInChromium(t *testing.T) {
	b := newBrowser(t)
	ts := newTestServer(t, nil, Limits{GrowOps: 5000})
	b.do(chromedp.Navigate(ts.ts.URL + "/"))
	b.waitFor(`document.body.dataset.ready === "1" && document.getElementById("status").className === "ok"`, "the page's first run")
	assert.Contains(t, b.eval(`document.getElementById("status").textContent`), "tinyresnet")

	// The transformer sample, and a rule with a typo: the language server's diagnostic shows in the editor.
	b.eval(`document.getElementById("program").value = "sample:tinytransformer"`)
	b.eval(`window.playground.setRules(` + jsString(brokenFC) + `), ""`)
	b.waitFor(`document.querySelector(".cm-lintRange-error")`, "the diagnostic of pd_op.matmull")
	b.waitFor(`document.getElementById("editor").dataset.errors === "1"`, "one error")
	// Hovering the underlined name shows the message, as in docs/playground.md.
	var box struct{ X, Y float64 }
	require.NoError(t, json.Unmarshal([]byte(b.eval(`(function () { const r = document.querySelector(".cm-lintRange-error").getBoundingClientRect();
		return JSON.stringify({X: r.left + r.width / 2, Y: r.top + r.height / 2}) })()`)), &box))
	b.do(chromedp.MouseEvent(chromedp.MouseMoved, box.X-3, box.Y), chromedp.MouseEvent(chromedp.MouseMoved, box.X, box.Y))
	b.waitFor(`document.querySelector(".cm-tooltip-lint")`, "the diagnostic's tooltip")
	assert.Contains(t, b.eval(`document.querySelector(".cm-tooltip-lint").textContent`), "pd_op.matmull")
	b.shot("playground-diagnostic.png")

	// Running rules that do not check says why, and keeps the last result.
	kept := b.eval(`window.playground.state.run.id`)
	b.do(chromedp.Click(chromedp.ID("run")))
	b.waitFor(`document.getElementById("status").className === "error"`, "the refusal to run")
	assert.Contains(t, b.eval(`document.getElementById("status").textContent`), "rules.drr:7:")
	assert.Equal(t, kept, b.eval(`window.playground.state.run.id`))

	// Hover and completion come from the same language server.
	pos := strings.Index(transformerRules, "pd_op.add") + 7
	b.eval(`window.playground.setRules(` + jsString(transformerRules) + `), ""`)
	b.waitFor(`document.getElementById("editor").dataset.errors === "0"`, "the fixed rule checks")
	hoverText := b.evalAsync(`window.playground.lsp().call("textDocument/hover", {textDocument: {uri: window.playground.lsp().uri},
		position: DRREditor.position(window.playground.editor(), ` + itoa(pos) + `)}).then(function (r) { return r ? JSON.stringify(r.contents) : "" })`)
	assert.Contains(t, hoverText, "pd_op.add", "hover shows the op's schema")
	at := strings.Index(transformerRules, "pd_op.fc(") + len("pd_op.f")
	completion := b.evalAsync(`window.playground.lsp().call("textDocument/completion", {textDocument: {uri: window.playground.lsp().uri},
		position: DRREditor.position(window.playground.editor(), ` + itoa(at) + `)}).then(function (r) {
			return (Array.isArray(r) ? r : r.items).map(function (i) { return i.label }).join(" ") })`)
	assert.Contains(t, completion, "pd_op.fc", "completion offers op names")

	// Run: twelve matmul + add pairs match and become fc.
	first := b.eval(`window.playground.state.run.id`)
	b.eval(`document.getElementById("passes").value = "rules,dce"`)
	b.do(chromedp.Click(chromedp.CSS("#run")))
	b.waitFor(`window.playground.state.run.id !== "`+first+`" && document.getElementById("status").className === "ok"`, "the run")
	assert.Contains(t, b.eval(`document.getElementById("status").textContent`), "162 → 150 ops")
	b.waitFor(graphReady+` && window.playground.graph().all("matched").length > 0`, "the matched ops in the graph")
	assert.Contains(t, b.eval(`document.querySelector("#rule-list li").textContent`), "12 in the input · pass: 12 matched, 12 applied")
	// The run's cost figures in the status line: twelve matmul + add pairs fused into fc ops.
	assert.Regexp(t, `runtime ops (\d+) → (\d+), kernels \d+ → \d+, est\. time .* → .* per inference on a100`,
		b.eval(`document.getElementById("status").textContent`))

	// Step through the rule's matches: the bound ops are marked, the pattern lines too.
	b.do(chromedp.Click(chromedp.CSS("#rule-list li")))
	b.waitFor(`window.playground.graph().all("bound").length > 0`, "the first match's ops")
	assert.Equal(t, "fc: match 1 of 12", b.eval(`document.getElementById("match-count").textContent`))
	b.do(chromedp.Click(chromedp.CSS("#match-next")))
	assert.Equal(t, "fc: match 2 of 12", b.eval(`document.getElementById("match-count").textContent`))
	assert.NotEqual(t, "0", b.eval(`String(document.querySelectorAll(".cm-bound-line").length)`), "the pattern lines are marked")

	// The cursor on a pattern line marks the ops that line bound, in every match.
	b.do(chromedp.Click(chromedp.CSS("#match-stepper button")))
	b.eval(`window.playground.state.rule = null, ""`)
	b.eval(`DRREditor.gotoLine(window.playground.editor(), 7, 5), ""`)
	b.waitFor(`window.playground.graph().all("bound").length >= 6`, "the matmuls line 7 bound (six boxes: the layers are drawn collapsed)")
	assert.Contains(t, b.eval(`window.playground.graph().all("bound").map(n => n.data.label).join(" ")`), "pd_op.matmul")
	assert.NotContains(t, b.eval(`window.playground.graph().all("bound").map(n => n.data.label).join(" ")`), "pd_op.add")

	// Search the graph: every hit is marked, Enter goes from one to the next; + zooms.
	b.do(chromedp.SendKeys(chromedp.ID("graph-search"), "softmax"))
	b.waitFor(`document.getElementById("graph-count").textContent.indexOf("found") > 0`, "the search")
	assert.NotEqual(t, "0", b.eval(`String(window.playground.graph().all("hit").length)`))
	b.do(chromedp.SendKeys(chromedp.ID("graph-search"), "\r"))
	assert.Regexp(t, `^1 of \d+`, b.eval(`document.getElementById("graph-count").textContent`))
	zoom := b.eval(`JSON.stringify(window.playground.graph().t)`)
	b.do(chromedp.Click(chromedp.ID("zoom-in")))
	assert.NotEqual(t, zoom, b.eval(`JSON.stringify(window.playground.graph().t)`), "+ zooms")
	b.eval(`(function () { const s = document.getElementById("graph-search"); s.value = ""; s.dispatchEvent(new Event("input")); return "" })()`)

	// Click the op a match ends with: explain says the rule matches it.
	b.clickBox(`window.playground.graph()`, `window.playground.graph().node(window.playground.state.run.matches[0].root)`)
	b.waitFor(`document.querySelector("#explain .rule")`, "the explanation")
	assert.Contains(t, b.eval(`document.getElementById("explain").textContent`), "matches")
	b.eval(`window.playground.graph().center(window.playground.graph().node(window.playground.state.run.matches[0].root)), ""`)
	b.do(chromedp.Click(chromedp.ID("zoom-out")))
	b.shot("playground-run.png")

	// The result: the fused graph, with the new fc ops.
	b.do(chromedp.Click(chromedp.CSS("#view-after")))
	b.waitFor(graphReady+` && window.playground.graph().all("added").length > 0`, "the new ops of the result")
	assert.Contains(t, b.eval(`window.playground.graph().all("added").map(n => n.data.label).join(" ")`), "pd_op.fc")
	b.eval(`window.playground.graph().center(window.playground.graph().all("added")[0]), ""`)
	b.shot("playground-fused.png")

	// The program and its diff from the input.
	b.do(chromedp.Click(chromedp.CSS(`#tabs button[data-tab="program-text"]`)))
	assert.Contains(t, b.eval(`document.getElementById("program-text").textContent`), `"pd_op.fc"`)
	b.do(chromedp.Click(chromedp.CSS(`#tabs button[data-tab="diff"]`)))
	assert.Equal(t, "input → result: 12 ops added, 24 removed", b.eval(`document.getElementById("diff-summary").textContent`))
	assert.NotEqual(t, "0", b.eval(`String(document.querySelectorAll("#diff .hunk .add").length)`))

	// The pipeline: the input, the rules, dce; the keyboard steps.
	b.do(chromedp.Click(chromedp.CSS(`#tabs button[data-tab="pipeline"]`)))
	b.waitFor(`document.querySelector("#stage-list li.current")`, "the pipeline")
	assert.Contains(t, b.eval(`document.getElementById("stage-rules").textContent`), "fc")
	b.do(chromedp.KeyEvent("k"))
	assert.Contains(t, b.eval(`document.querySelector("#stage-list li.current").textContent`), "input")
	b.do(chromedp.KeyEvent("j"))
	assert.Contains(t, b.eval(`document.querySelector("#stage-list li.current").textContent`), "rules")
	assert.Contains(t, b.eval(`document.querySelector("#stage-list li.current").textContent`), " runtime, est. ")
	assert.Contains(t, b.eval(`document.getElementById("stage-head").textContent`), "runtime ops ")
	b.do(chromedp.KeyEvent("j"))
	assert.Contains(t, b.eval(`document.querySelector("#stage-list li.current").textContent`), "dce")
	b.do(chromedp.KeyEvent("k"))
	b.waitFor(`document.querySelector("#stage-diff .hunk")`, "the diff of the rules' pass")
	b.shot("playground-pipeline.png")
	b.do(chromedp.KeyEvent("g"))
	b.waitFor(`document.getElementById("graph-title").textContent.indexOf("after pass 1") === 0`, "the graph of the stage")
	b.waitFor(`window.playground.graph().all("added").length > 0`, "the ops the pass created")

	// Verify: the interpreter agrees on every output.
	b.do(chromedp.Click(chromedp.CSS("#verify-button")))
	b.waitFor(`document.getElementById("verify-summary").className === "ok" && document.querySelector("#verify-table td.ok")`, "the verify table")
	assert.Contains(t, b.eval(`document.getElementById("verify-summary").textContent`), "the outputs agree")
	b.shot("playground-verify.png")

	// A rule set that never ends stops at a budget; the page says why, and the server goes on.
	b.eval(`window.playground.setRules(` + jsString(growRule) + `), ""`)
	b.eval(`document.getElementById("program").value = "sample:tinyresnet"`)
	stopped := b.eval(`window.playground.state.run.id`)
	b.do(chromedp.Click(chromedp.CSS("#run")))
	b.waitFor(`window.playground.state.run.id !== "`+stopped+`"`, "the stopped run")
	assert.Contains(t, b.eval(`document.getElementById("status").textContent`), "stopped: ")
	assert.Contains(t, b.eval(`document.getElementById("status").textContent`), "more than 5000 ops (its memory budget)")
	assert.Contains(t, b.eval(`document.getElementById("rules-summary").textContent`), "driver: ")
	b.shot("playground-stopped.png")
	b.eval(`window.playground.setRules(` + jsString(transformerRules) + `), ""`)
	b.eval(`document.getElementById("program").value = "sample:tinytransformer"`)
	again := b.eval(`window.playground.state.run.id`)
	b.do(chromedp.Click(chromedp.CSS("#run")))
	b.waitFor(`window.playground.state.run.id !== "`+again+`" && document.getElementById("status").className === "ok"`, "a run after the stopped one")

	// Share: the link restores the rules and the program in a fresh page.
	b.do(chromedp.Click(chromedp.CSS("#share")))
	b.waitFor(`!document.getElementById("share-box").hidden`, "the share link")
	link := b.eval(`document.getElementById("share-link").value`)
	require.Contains(t, link, "#z=", "a compressed link")
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(link))
	b.waitFor(`document.body.dataset.ready === "1" && window.playground.state.run && document.getElementById("status").className === "ok"`, "the shared page's run")
	assert.Equal(t, transformerRules, b.eval(`window.playground.rules()`))
	assert.Equal(t, "tinytransformer", b.eval(`window.playground.state.run.program`))
	assert.Equal(t, "12", b.eval(`String(window.playground.state.run.matches.length)`))

	// Upload a program, run on it, and share it: the link carries the program's text.
	p, err := sample.Load(testCtx())
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "mine.pir")
	require.NoError(t, os.WriteFile(file, pirtext.Print(p, pirtext.WriteOptions{}), 0o644))
	b.eval(`window.playground.setRules(` + jsString(resnetRules) + `), ""`)
	b.do(chromedp.SetUploadFiles(chromedp.ID("upload"), []string{file}))
	b.waitFor(`document.getElementById("program").value.indexOf("upload:") === 0`, "the uploaded program")
	b.waitFor(`window.playground.state.run.program === "mine.pir" && document.getElementById("status").className === "ok"`, "the run on the upload (at once)")
	b.eval(`document.getElementById("share-box").hidden = true, ""`)
	b.do(chromedp.Click(chromedp.CSS("#share")))
	b.waitFor(`!document.getElementById("share-box").hidden`, "the share link")
	link = b.eval(`document.getElementById("share-link").value`)
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(link))
	b.waitFor(`document.body.dataset.ready === "1" && window.playground.state.run && document.getElementById("status").className === "ok"`, "the shared upload's run")
	assert.Equal(t, "text:", b.eval(`document.getElementById("program").value`))
	assert.Equal(t, "shared: mine.pir", b.eval(`document.getElementById("program").selectedOptions[0].textContent`), "the name is not doubled (mine.pir.pir)")
	assert.Equal(t, "51", b.eval(`String(window.playground.state.run.opsIn)`))
	assert.Equal(t, "1", b.eval(`String(window.playground.state.run.matches.length)`), "relu6_as_clip matches the shared program")

	// A damaged link says so, and the page still works.
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(ts.ts.URL+"/#s=AAAA"))
	b.waitFor(`document.body.dataset.ready === "1"`, "the page")
	assert.Contains(t, b.eval(`document.getElementById("status").textContent`), "the share link is damaged")
	first = b.eval(`String(window.playground.state.run)`)
	assert.Equal(t, "null", first, "nothing ran")
	b.do(chromedp.Click(chromedp.CSS("#run")))
	b.waitFor(`window.playground.state.run && document.getElementById("status").className === "ok"`, "a run after the damaged link")
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}

func itoa(n int) string { return strconv.Itoa(n) }

// evalAsync evaluates an expression whose value is a promise of a string.
func (b *browser) evalAsync(expr string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
	require.NoError(b.t, err, expr)
	return v
}

// clickBox clicks with the mouse the box the JavaScript expression node names, in the graph g names, after centring
// it: the renderer draws on a canvas, so a box is clicked where it is drawn.
func (b *browser) clickBox(g, node string) {
	b.t.Helper()
	// The page may move the drawing between the centring and the click (a drawing or search answer that arrives
	// then, on a loaded machine): a click that did not select the box is made again where the box is now.
	for try := 0; ; try++ {
		out := b.eval(`(function () { const g = ` + g + `; const n = ` + node + `; if (!n) return "";
			g.center(n); g.render(); const p = g.screenPoint(n); return JSON.stringify({X: p.x, Y: p.y}) })()`)
		require.NotEmpty(b.t, out, "no box: %s", node)
		var p struct{ X, Y float64 }
		require.NoError(b.t, json.Unmarshal([]byte(out), &p))
		b.do(chromedp.MouseClickXY(p.X, p.Y))
		selected := `(function () { const g = ` + g + `; const n = ` + node + `; return String(!!n && g.all("selected").indexOf(n) >= 0) })()`
		if try == 2 || b.eval(selected) == "true" {
			return
		}
	}
}
