package graphview

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"html/template"
	"io"
	"strconv"
)

var (
	//go:embed assets/page.css
	pageCSS string
	//go:embed assets/page.js
	pageJS string
	//go:embed assets/canvas.js
	canvasJS string
)

// RendererScript returns the canvas renderer (assets/canvas.js): a script that defines window.GraphView, which draws
// a Drawing. WriteHTML's page inlines it; the playground serves it to its page. One renderer, one file.
func RendererScript() string { return canvasJS }

var page = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>{{.CSS}}</style>
</head>
<body>
<header>
<h1 title="{{.Title}}">{{.Title}}</h1>
<input id="gv-search" type="search" placeholder="search ops: name, %id, attribute… (Enter: next)" autocomplete="off">
<button id="gv-next" title="next hit (Enter)">next</button>
<span id="gv-count"></span>
<button id="gv-out" title="zoom out (-)">−</button>
<button id="gv-in" title="zoom in (+)">+</button>
<button id="gv-fit" title="fit the drawing">fit</button>
<span class="gv-legend">{{range .Legend}}<span class="gv-key {{.}}">{{.}}</span>{{end}}</span>
</header>
<main>
{{range .Panels}}<section class="gv-panel">
<h2>{{.Title}} <small>({{.Summary}})</small></h2>
<div class="gv-viewport"></div>
</section>
{{end}}<aside><strong>Details</strong><pre id="gv-details">Click an op to see it in full.</pre></aside>
</main>
<script type="application/json" id="gv-drawings">{{.Drawings}}</script>
<script>{{.Renderer}}</script>
<script>{{.JS}}</script>
</body>
</html>
`))

type panelData struct {
	Title, Summary string
}

// WriteHTML writes a self-contained page (no network: the drawings, their style and the scripts are inline) that
// shows the laid-out graphs side by side (one, or "before" and "after") with the canvas renderer: pan (drag), zoom
// (wheel, + and -, fit), semantic zoom (blocks closed into their summaries when labels would be too small to
// read), search over every op's label and details, collapsed ones included (Enter goes to the next hit, marks it
// and centres it) and the details of a clicked op.
func WriteHTML(w io.Writer, title string, graphs ...*Graph) error {
	data := struct {
		Title        string
		Legend       []string
		CSS          template.CSS
		JS, Renderer template.JS
		Drawings     template.JS
		Panels       []panelData
	}{Title: title, CSS: template.CSS(pageCSS), JS: template.JS(pageJS), Renderer: template.JS(canvasJS)}
	legend := map[string]bool{}
	drawings := make([]*Drawing, 0, len(graphs))
	for _, g := range graphs {
		drawings = append(drawings, g.Export(nil))
		summary := strconv.Itoa(len(g.Nodes)) + " ops drawn"
		if g.Hidden > 0 {
			summary += ", " + strconv.Itoa(g.Hidden) + " not drawn"
		}
		if len(g.Groups) > 0 {
			summary += ", " + strconv.Itoa(len(g.Groups)) + " repeated " + plural(len(g.Groups), "block") + " collapsed"
		}
		data.Panels = append(data.Panels, panelData{Title: g.Title, Summary: summary})
		for _, n := range g.Nodes {
			for _, c := range n.Classes {
				legend[c] = true
			}
		}
	}
	// json.Marshal escapes <, > and &: the data cannot end the script element.
	js, err := json.Marshal(drawings)
	if err != nil {
		return err
	}
	data.Drawings = template.JS(js)
	for _, c := range []string{"matched", "added", "removed", "cut"} {
		if legend[c] {
			data.Legend = append(data.Legend, c)
		}
	}
	bw := bufio.NewWriter(w)
	if err := page.Execute(bw, data); err != nil {
		return err
	}
	return bw.Flush()
}
