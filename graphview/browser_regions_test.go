package graphview

import (
	"cmp"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/ir"
)

var docShots = flag.Bool("docshots", false, "write the screenshots of TestLayoutViewsInChromium into docs/playground/ (for docs/playground.md)")

// layoutShot is a view of a corpus program's page to look at: its drawing fitted to the window (scale 0), or at
// scale around the box at fraction at of the drawing's boxes (in their order). rel names a corpus program, or a
// txtar archive of testdata whose first file is the program.
type layoutShot struct {
	name, rel string
	collapse  bool
	scale, at float64
	focus     string // if set, the view is centred on the first group (or else box) whose title (label) holds it
	width     int64  // of the window, if not the tests' 1280 px
}

var layoutShots = []layoutShot{
	{name: "graph-ifelse.png", rel: "pir_json/Paddle2ONNX__ifelse__model.json", scale: 0.68, focus: "pd_op.if", width: 1600},
	{name: "graph-while.png", rel: "pir_text/11_community_pir_save_load_while.pir"},
	{name: "graph-regions-nested.png", rel: "testdata/regions-nested.txtar"},
	{name: "graph-segformer-edges.png", rel: "graphnet_samples/PaddleX/SegFormer-B5/subgraph_1", scale: 0.3, at: 0.42},
}

// TestLayoutViewsInChromium draws the views of the layout that issue 35 asked to look at (the regions of pd_op.if
// and pd_op.while on real programs, the long edges of SegFormer-B5 drawn whole) in drrc graph's page in headless
// Chromium and saves screenshots as test artifacts (go test -artifacts), and into docs/playground/ with -docshots.
// It checks that the page drew the boxes; what the screenshots show is for a person to judge.
func TestLayoutViewsInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: screenshots of real programs are taken without it")
	}
	exe := chromium(t)
	var bctx = newPageBrowser(t, exe)
	for _, shot := range layoutShots {
		t.Run(shot.name, func(t *testing.T) {
			var p *ir.Program
			if strings.HasPrefix(shot.rel, "testdata/") {
				ar, err := txtar.ParseFile(shot.rel)
				require.NoError(t, err)
				p = parse(t, string(ar.Files[0].Data))
			} else {
				p = loadCorpus(t, shot.rel)
			}
			g := Build(p, Options{Collapse: shot.collapse, Title: filepath.Base(shot.rel)})
			g.Layout()
			page := filepath.Join(t.TempDir(), "page.html")
			f, err := os.Create(page)
			require.NoError(t, err)
			require.NoError(t, WriteHTML(f, filepath.Base(shot.rel), g))
			require.NoError(t, f.Close())
			width := cmp.Or(shot.width, 1280)
			require.NoError(t, chromedp.Do(bctx, chromedp.EmulateViewport(width, 860), chromedp.Navigate("file://"+page)))
			deadline := time.Now().Add(60 * time.Second)
			for {
				v, err := chromedp.Run(bctx, chromedp.Evaluate[float64](`window.graphview ? window.graphview.views[0].firstFrameAt : 0`))
				require.NoError(t, err)
				if v > 0 {
					break
				}
				require.True(t, time.Now().Before(deadline), "the page's first frame")
				time.Sleep(20 * time.Millisecond)
			}
			js := `(function () { const v = window.graphview.views[0]; v.fit(); v.render(); return v.last.boxes })()`
			if shot.scale > 0 {
				js = fmt.Sprintf(`(function () { const v = window.graphview.views[0], s = v.size();
					const ns = v.drawing.nodes, f = %s, g = f && v.drawing.groups.find(g => g.title.includes(f));
					const n = g ? { x: g.x + g.w / 2, y: g.y + g.h / 2 } : f ? ns.find(n => n.label.includes(f)) : ns[Math.floor(ns.length * %g)];
					v.t = { k: %g, x: s.w / 2 - n.x * %g, y: s.h / 2 - n.y * %g }; v.apply(); v.render(); return v.last.boxes })()`,
					jsString(shot.focus), shot.at, shot.scale, shot.scale, shot.scale)
			}
			boxes, err := chromedp.Run(bctx, chromedp.Evaluate[float64](js))
			require.NoError(t, err)
			require.Positive(t, boxes, "the view shows boxes")
			png, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
			require.NoError(t, err)
			require.Greater(t, len(png), 10000, "a screenshot of the page, not of a blank one")
			require.NoError(t, os.WriteFile(filepath.Join(t.ArtifactDir(), shot.name), png, 0o644))
			if *docShots {
				require.NoError(t, os.WriteFile(filepath.Join("..", "docs", "playground", shot.name), png, 0o644))
			}
		})
	}
}
