package graphview

import (
	"bytes"
	"encoding/json"
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
	assert.Empty(t, urls, "no URL at all")
	for _, ref := range []string{" src=", "@import", "url(http", "<link"} {
		assert.NotContains(t, page, ref)
	}
	assert.Equal(t, 2, strings.Count(page, `<section class="gv-panel">`))
	assert.Contains(t, page, "before &lt;1&gt;")
	assert.Contains(t, page, `<title>a &#34;model&#34;</title>`)
	assert.Contains(t, page, "window.GraphView = ", "the canvas renderer is inlined")
	// The drawings are JSON in the page, with < escaped so that a label cannot end the script element.
	m := regexp.MustCompile(`(?s)<script type="application/json" id="gv-drawings">(.*?)</script>`).FindStringSubmatch(page)
	require.Len(t, m, 2)
	var drawings []Drawing
	require.NoError(t, json.Unmarshal([]byte(m[1]), &drawings))
	require.Len(t, drawings, 2)
	assert.Equal(t, "before <1>", drawings[0].Title)
	assert.Equal(t, "%2 = t.mul", drawings[0].Nodes[1].Label)
	assert.Equal(t, "%1 = t.a", drawings[1].Nodes[1].Label)
	assert.Equal(t, "× 3 (a block of 3 ops)", drawings[1].Groups[0].Title)
	assert.Equal(t, "× 3: a 1, b 1, c 1", drawings[1].Groups[0].Summary)
	assert.NotContains(t, m[1], "<1>")
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
