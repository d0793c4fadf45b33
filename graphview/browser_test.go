package graphview

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/sample"
	"github.com/pirdrr/drr/ir"
)

// chromium returns the path of a Chromium to test the page in, or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	t.Skip("no Chromium to test the HTML page in: install Debian's chromium (apt-get install -y chromium; .ci/run does)")
	return ""
}

// panelState is what window.graphview.panels() says of a panel.
type panelState struct {
	Scale float64 `json:"scale"`
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
}

// TestPageInChromium loads the page of the sample model in headless Chromium, searches for an op, goes to it,
// zooms and pans, and saves a screenshot as a test artifact (go test -artifacts keeps it).
func TestPageInChromium(t *testing.T) {
	exe := chromium(t)
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	p, err := sample.Load(ctx)
	require.NoError(t, err)
	g := Build(p, Options{Collapse: true, Title: sample.Name})
	g.Layout()
	page := filepath.Join(t.TempDir(), "sample.html")
	f, err := os.Create(page)
	require.NoError(t, err)
	require.NoError(t, WriteHTML(f, sample.Name, g))
	require.NoError(t, f.Close())

	// The flags of the machine notes: no sandbox as root, no GPU, and no network of its own.
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 860),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	bctx, cancel := context.WithTimeout(bctx, 90*time.Second)
	defer cancel()

	state := func() []panelState {
		t.Helper()
		st, err := chromedp.Run(bctx, chromedp.Evaluate[[]panelState](`window.graphview.panels()`))
		require.NoError(t, err)
		return st
	}
	eval := func(expr string) string {
		t.Helper()
		v, err := chromedp.Run(bctx, chromedp.Evaluate[string](expr))
		require.NoError(t, err, expr)
		return v
	}
	require.NoError(t, chromedp.Do(bctx, chromedp.Navigate("file://"+page), chromedp.WaitVisible(chromedp.ID("gv-search"))))
	assert.Equal(t, "object", eval(`typeof window.graphview`), "the page's script ran")
	before := state()
	require.Len(t, before, 1)

	// Search as a user does: type, then Enter to go to the first hit, which is marked, selected and shown in full.
	require.NoError(t, chromedp.Do(bctx, chromedp.SendKeys(chromedp.ID("gv-search"), "conv2d"),
		chromedp.SendKeys(chromedp.ID("gv-search"), kb.Enter)))
	assert.Equal(t, "5", eval(`String(window.graphview.views[0].all("hit").length)`), "four conv2d and a depthwise_conv2d")
	assert.Equal(t, "1 of 5", eval(`document.getElementById("gv-count").textContent`))
	assert.Contains(t, eval(`window.graphview.views[0].all("current")[0].data.label`), "conv2d")
	details := eval(`document.getElementById("gv-details").textContent`)
	assert.Contains(t, details, "conv2d")
	assert.Contains(t, details, "strides:")
	afterSearch := state()
	assert.NotEqual(t, before[0], afterSearch[0], "the view moved to the hit")
	// %1 is exactly %1, not %10 or %12.
	eval(`String(window.graphview.search("%1"))`)
	assert.Equal(t, "1", eval(`String(window.graphview.search("%1"))`))
	// A click on a box selects it.
	var pt struct{ X, Y float64 }
	v, err := chromedp.Run(bctx, chromedp.Evaluate[map[string]float64](`(function () { const g = window.graphview.views[0];
		window.graphview.search("conv2d"); window.graphview.next(1); const n = g.all("current")[0]; g.center(n); g.render(); return g.screenPoint(n) })()`))
	require.NoError(t, err)
	pt.X, pt.Y = v["x"], v["y"]
	eval(`document.getElementById("gv-details").textContent = "", ""`)
	require.NoError(t, chromedp.Do(bctx, chromedp.MouseClickXY(pt.X, pt.Y)))
	assert.Contains(t, eval(`document.getElementById("gv-details").textContent`), "conv2d", "the click selected the box under it")
	assert.Equal(t, "1", eval(`String(window.graphview.views[0].all("selected").length)`))
	afterSearch = state()

	// Zoom with the + button, then with the wheel; pan by dragging the background.
	require.NoError(t, chromedp.Do(bctx, chromedp.Click(chromedp.ID("gv-in"))))
	afterZoom := state()
	assert.InDelta(t, afterSearch[0].Scale*1.25, afterZoom[0].Scale, 1e-9, "+ zooms in by a quarter")
	// Chromium wants both deltas of a wheel event, and cdproto leaves a zero out of the message: a horizontal
	// delta too small to matter stands for it.
	wheel := func(p *input.DispatchMouseEventParams) { p.DeltaX, p.DeltaY = 1e-6, -240 }
	require.NoError(t, chromedp.Do(bctx, chromedp.MouseEvent(chromedp.MouseWheel, 400, 400, wheel)))
	afterWheel := state()
	assert.Greater(t, afterWheel[0].Scale, afterZoom[0].Scale, "the wheel zooms in")
	require.NoError(t, chromedp.Do(bctx,
		chromedp.MouseEvent(chromedp.MousePressed, 60, 600, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(chromedp.MouseMoved, 160, 550, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseReleased, 160, 550, chromedp.ButtonLeft, chromedp.ClickCount(1))))
	afterPan := state()
	assert.InDelta(t, afterWheel[0].X+100, afterPan[0].X, 0.5, "dragging pans")
	assert.InDelta(t, afterWheel[0].Y-50, afterPan[0].Y, 0.5)

	png, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	require.Greater(t, len(png), 1000)
	shot := filepath.Join(t.ArtifactDir(), "graphview-sample.png")
	require.NoError(t, os.WriteFile(shot, png, 0o644))
	t.Logf("screenshot: %s", shot)
}
