package graphview

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"
)

// svgStyle styles the drawing; the HTML page adds its own rules for search hits and the selection.
const svgStyle = `
.gv-node rect { fill: #fff; stroke: #56606e; stroke-width: 1; }
.gv-node text { font: 11px ui-sans-serif, system-ui, sans-serif; fill: #1b1f24; dominant-baseline: central; text-anchor: middle; }
.gv-node.region rect { fill: #f3f3ff; }
.gv-node.matched rect { fill: #fff1c2; stroke: #b7791f; stroke-width: 1.5; }
.gv-node.added rect { fill: #d6f5d6; stroke: #1e7b1e; stroke-width: 1.5; }
.gv-node.removed rect { fill: #fddcdc; stroke: #c0262d; stroke-width: 1.5; }
.gv-node.cut rect { stroke-dasharray: 4 3; }
.gv-edge { fill: none; stroke: #8a94a3; stroke-width: 1; }
.gv-group rect { fill: #f5f7fa; stroke: #7b8494; stroke-dasharray: 6 4; }
.gv-group text { font: bold 12px ui-sans-serif, system-ui, sans-serif; fill: #4a5361; }
.gv-title { font: bold 14px ui-sans-serif, system-ui, sans-serif; fill: #1b1f24; }
`

// WriteSVG writes laid-out graphs as one standalone SVG document, side by side (one graph, or "before" and
// "after"), each under its title when there are several.
func WriteSVG(w io.Writer, title string, graphs ...*Graph) error {
	bw := bufio.NewWriter(w)
	const gap, titleHeight = 40.0, 24.0
	width, height := 0.0, 0.0
	top := 0.0
	if len(graphs) > 1 {
		top = titleHeight
	}
	for i, g := range graphs {
		if i > 0 {
			width += gap
		}
		width += g.Width
		height = max(height, g.Height+top)
	}
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s">`+"\n",
		num(width), num(height), num(width), num(height))
	fmt.Fprintf(bw, "<title>%s</title>\n<style>%s</style>\n", html.EscapeString(title), svgStyle)
	x := 0.0
	for i, g := range graphs {
		fmt.Fprintf(bw, `<g transform="translate(%s,%s)">`+"\n", num(x), num(top))
		if len(graphs) > 1 {
			fmt.Fprintf(bw, `<text class="gv-title" x="%s" y="-6">%s</text>`+"\n", num(margin), html.EscapeString(g.Title))
		}
		g.writeScene(bw, "p"+strconv.Itoa(i)+"-")
		bw.WriteString("</g>\n")
		x += g.Width + gap
	}
	bw.WriteString("</svg>\n")
	return bw.Flush()
}

// writeScene writes the defs, groups, edges and nodes; prefix makes ids unique when several graphs share a page.
func (g *Graph) writeScene(w *bufio.Writer, prefix string) {
	fmt.Fprintf(w, `<defs><marker id="%sarrow" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse">`+
		`<path d="M0,0 L8,4 L0,8 z" fill="#8a94a3"/></marker></defs>`+"\n", prefix)
	w.WriteString(`<g class="gv-groups">` + "\n")
	for i, grp := range g.Groups {
		fmt.Fprintf(w, `<g class="gv-group" id="%sg%d"><rect x="%s" y="%s" width="%s" height="%s" rx="8"/>`+
			`<text x="%s" y="%s">%s</text><title>%s</title></g>`+"\n",
			prefix, i, num(grp.X), num(grp.Y), num(grp.W), num(grp.H), num(grp.X+10), num(grp.Y+14),
			html.EscapeString(groupTitle(grp)), html.EscapeString(grp.Note))
	}
	w.WriteString("</g>\n" + `<g class="gv-edges">` + "\n")
	for _, e := range g.Edges {
		fmt.Fprintf(w, `<path class="gv-edge" data-from="%s%s" data-to="%s%s" d="%s" marker-end="url(#%sarrow)"><title>%s</title></path>`+"\n",
			prefix, g.Nodes[e.From].ID, prefix, g.Nodes[e.To].ID, pathData(e.Points), prefix, html.EscapeString(e.Label))
	}
	w.WriteString("</g>\n" + `<g class="gv-nodes">` + "\n")
	for _, n := range g.Nodes {
		classes := "gv-node"
		if len(n.Classes) > 0 {
			classes += " " + strings.Join(n.Classes, " ")
		}
		fmt.Fprintf(w, `<g class="%s" id="%s%s" data-label="%s" data-detail="%s" transform="translate(%s,%s)">`+
			`<rect x="%s" y="%s" width="%s" height="%s" rx="5"/><text>%s</text><title>%s</title></g>`+"\n",
			classes, prefix, n.ID, html.EscapeString(n.Label), html.EscapeString(n.Detail), num(n.X), num(n.Y),
			num(-n.W/2), num(-n.H/2), num(n.W), num(n.H), html.EscapeString(n.Label), html.EscapeString(n.Detail))
	}
	w.WriteString("</g>\n")
}

// pathData draws an edge through its points with vertical tangents at each: smooth where it bends.
func pathData(pts []Point) string {
	if len(pts) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("M" + num(pts[0].X) + "," + num(pts[0].Y))
	for i := 1; i < len(pts); i++ {
		p, q := pts[i-1], pts[i]
		dy := (q.Y - p.Y) / 2
		fmt.Fprintf(&b, " C%s,%s %s,%s %s,%s", num(p.X), num(p.Y+dy), num(q.X), num(q.Y-dy), num(q.X), num(q.Y))
	}
	return b.String()
}

// num prints a coordinate with at most one decimal.
func num(x float64) string { return strconv.FormatFloat(round1(x), 'f', -1, 64) }

// groupTitle is the text at the top of a group's box: "× 12 (a block of 9 ops)", or its label.
func groupTitle(grp *Group) string {
	if grp.Count > 0 {
		return grp.Label + " (a block of " + strconv.Itoa(grp.Ops) + " ops)"
	}
	return grp.Label
}
