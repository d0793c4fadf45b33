package graphview

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHTMLSelfContained: the page needs nothing from the network (no scripts, styles, fonts or images from
// elsewhere) and shows every graph given, with its ops' labels and details escaped.
func TestHTMLSelfContained(t *testing.T) {
	before := Build(parse(t, small), Options{Title: "before <1>"})
	after := Build(parse(t, chain(3, -1)), Options{Title: "after", Collapse: true})
	before.Layout()
	after.Layout()
	var b bytes.Buffer
	require.NoError(t, WriteHTML(&b, `a "model"`, before, after))
	page := b.String()
	urls := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}[^\s"'<>]*`).FindAllString(page, -1)
	for _, u := range urls {
		assert.Equal(t, "http://www.w3.org/2000/svg", u, "the only URL is the SVG namespace")
	}
	for _, ref := range []string{" src=", "@import", "url(http", "<link"} {
		assert.NotContains(t, page, ref)
	}
	assert.Equal(t, 2, strings.Count(page, `<section class="gv-panel">`))
	assert.Contains(t, page, "before &lt;1&gt;")
	assert.Contains(t, page, `<title>a &#34;model&#34;</title>`)
	assert.Contains(t, page, `id="p0-n1" data-label="%2 = t.mul"`)
	assert.Contains(t, page, `id="p1-n1" data-label="%1 = t.a"`, "the second panel's ids do not collide with the first's")
	assert.Contains(t, page, "× 3 (a block of 3 ops)")
	assert.Contains(t, page, "window.graphview")
}

func TestSVGSideBySide(t *testing.T) {
	a := Build(parse(t, small), Options{Title: "before"})
	c := Build(parse(t, small), Options{Title: "after"})
	a.Layout()
	c.Layout()
	var b bytes.Buffer
	require.NoError(t, WriteSVG(&b, "both", a, c))
	svg := b.String()
	assert.Contains(t, svg, `<text class="gv-title" x="24" y="-6">before</text>`)
	assert.Contains(t, svg, `<g transform="translate(`+num(a.Width+40)+`,24)">`)
	assert.Contains(t, svg, `width="`+num(a.Width+40+c.Width)+`"`)
}
