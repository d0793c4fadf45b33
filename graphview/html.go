package graphview

import (
	"bufio"
	"bytes"
	_ "embed"
	"html/template"
	"io"
	"strconv"
)

var (
	//go:embed assets/page.css
	pageCSS string
	//go:embed assets/page.js
	pageJS string
)

var page = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>{{.CSS}}{{.SVGStyle}}</style>
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
<div class="gv-viewport"><svg xmlns="http://www.w3.org/2000/svg" data-width="{{.Width}}" data-height="{{.Height}}"><g class="gv-scene">
{{.Scene}}</g></svg></div>
</section>
{{end}}<aside><strong>Details</strong><pre id="gv-details">Click an op to see it in full.</pre></aside>
</main>
<script>{{.JS}}</script>
</body>
</html>
`))

type panelData struct {
	Title, Summary string
	Width, Height  string
	Scene          template.HTML
}

// WriteHTML writes a self-contained page (no network: the drawing, its style and its script are inline) that
// shows the laid-out graphs side by side (one, or "before" and "after"), with pan (drag), zoom (wheel, + and -,
// fit), search over labels and details (Enter goes to the next hit and centres it) and the details of a clicked
// op.
func WriteHTML(w io.Writer, title string, graphs ...*Graph) error {
	data := struct {
		Title         string
		Legend        []string
		CSS, SVGStyle template.CSS
		JS            template.JS
		Panels        []panelData
	}{Title: title, CSS: template.CSS(pageCSS), SVGStyle: template.CSS(svgStyle), JS: template.JS(pageJS)}
	legend := map[string]bool{}
	for i, g := range graphs {
		var scene bytes.Buffer
		bw := bufio.NewWriter(&scene)
		g.writeScene(bw, "p"+strconv.Itoa(i)+"-")
		bw.Flush()
		summary := strconv.Itoa(len(g.Nodes)) + " ops drawn"
		if g.Hidden > 0 {
			summary += ", " + strconv.Itoa(g.Hidden) + " not drawn"
		}
		if len(g.Groups) > 0 {
			summary += ", " + strconv.Itoa(len(g.Groups)) + " repeated " + plural(len(g.Groups), "block") + " collapsed"
		}
		data.Panels = append(data.Panels, panelData{Title: g.Title, Summary: summary, Width: num(g.Width),
			Height: num(g.Height), Scene: template.HTML(scene.String())})
		for _, n := range g.Nodes {
			for _, c := range n.Classes {
				legend[c] = true
			}
		}
	}
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
