package graphview

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
)

// checkLayout checks what every layout must satisfy: boxes of a layer do not overlap, every edge runs down from
// its source's bottom to its target's top, everything lies inside the drawing, groups hold their nodes.
func checkLayout(t *testing.T, g *Graph) {
	t.Helper()
	byLayer := map[int][]*Node{}
	for _, n := range g.Nodes {
		byLayer[n.Layer] = append(byLayer[n.Layer], n)
		require.True(t, n.X-n.W/2 >= 0 && n.X+n.W/2 <= g.Width && n.Y-n.H/2 >= 0 && n.Y+n.H/2 <= g.Height,
			"%s at (%v,%v) is outside %vx%v", n.Label, n.X, n.Y, g.Width, g.Height)
	}
	for layer, nodes := range byLayer {
		for i := 0; i < len(nodes); i++ {
			for j := i + 1; j < len(nodes); j++ {
				a, b := nodes[i], nodes[j]
				require.GreaterOrEqual(t, abs(a.X-b.X)+0.2, (a.W+b.W)/2+nodeGap-0.2, "layer %d: %s and %s overlap", layer, a.Label, b.Label)
				require.Equal(t, a.Y, b.Y)
			}
		}
	}
	for _, e := range g.Edges {
		from, to := g.Nodes[e.From], g.Nodes[e.To]
		require.GreaterOrEqual(t, len(e.Points), 2)
		require.Equal(t, Point{from.X, from.Y + from.H/2}, e.Points[0], "%s starts at its source", e.Label)
		require.Equal(t, Point{to.X, to.Y - to.H/2}, e.Points[len(e.Points)-1], "%s ends at its target", e.Label)
		for k := 1; k < len(e.Points); k++ {
			require.Greater(t, e.Points[k].Y, e.Points[k-1].Y, "%s runs down", e.Label)
		}
	}
	for _, grp := range g.Groups {
		for _, v := range grp.Nodes {
			n := g.Nodes[v]
			require.True(t, n.X-n.W/2 >= grp.X && n.X+n.W/2 <= grp.X+grp.W && n.Y-n.H/2 >= grp.Y && n.Y+n.H/2 <= grp.Y+grp.H)
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// randomProgram is a random DAG of ops with one to three operands each, drawn from earlier values.
func randomProgram(seed uint64, n int) string {
	r := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	b.WriteString("{\n    (%0) = \"t.in\" () {} : () -> f32\n")
	for i := 1; i < n; i++ {
		k := 1 + r.IntN(3)
		var args, types []string
		for j := 0; j < k; j++ {
			lo := max(0, i-1-r.IntN(min(i, 12)))
			if r.IntN(10) == 0 {
				lo = r.IntN(i) // now and then a long edge
			}
			args = append(args, fmt.Sprintf("%%%d", lo))
			types = append(types, "f32")
		}
		fmt.Fprintf(&b, "    (%%%d) = \"t.op%d\" (%s) {} : (%s) -> f32\n", i, r.IntN(5), strings.Join(args, ", "), strings.Join(types, ", "))
	}
	b.WriteString("}\n")
	return b.String()
}

func TestLayoutRandom(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		p := parse(t, randomProgram(seed, 10+int(seed)*7))
		g := Build(p, Options{Collapse: seed%2 == 0})
		g.Layout()
		checkLayout(t, g)
	}
}

func TestLayoutEmptyAndDeterministic(t *testing.T) {
	g := Build(parse(t, "{\n}\n"), Options{})
	g.Layout()
	assert.Equal(t, 2*margin, g.Width)
	var svg1, svg2 bytes.Buffer
	for _, out := range []*bytes.Buffer{&svg1, &svg2} {
		g := Build(parse(t, randomProgram(7, 80)), Options{})
		g.Layout()
		require.NoError(t, WriteSVG(out, "r", g))
	}
	assert.Equal(t, svg1.String(), svg2.String())
}

// TestCrossingReduction: the ordering keeps fewer crossings than program order on random programs.
func TestCrossingReduction(t *testing.T) {
	better := 0
	for seed := uint64(1); seed <= 10; seed++ {
		g := Build(parse(t, randomProgram(seed, 60)), Options{})
		lay := &layering{g: g}
		lay.assignLayers()
		lay.addDummies()
		before := lay.crossings()
		lay.order()
		after := lay.crossings()
		assert.LessOrEqual(t, after, before)
		if after < before {
			better++
		}
	}
	assert.Greater(t, better, 5, "the heuristic helps on most random programs")
}

// TestLayoutCorpus lays out real models whole and collapsed: the drawing is valid, and collapsed it is much
// smaller than the 21,000 × 23,000 px Graphviz draws for PP-OCRv5 mobile.
func TestLayoutCorpus(t *testing.T) {
	for _, rel := range []string{"pir_json/nanaikaros__PP-OCRv5_mobile_det_infer.inference.json", "graphnet/graphnet_PaddleX_ResNet50.pir",
		"pir_json/nanaikaros__PP-OCRv5_server_det_infer.inference.json", "pir_text/10_community_pir_save_load_if.pir"} {
		t.Run(rel, func(t *testing.T) {
			path := corpus.Path(t, rel)
			ctx, err := ir.NewDefaultContext()
			require.NoError(t, err)
			p, _, err := pirfile.Load(ctx, path)
			require.NoError(t, err)
			var area [2]float64
			for i, collapse := range []bool{false, true} {
				g := Build(p, Options{Collapse: collapse})
				g.Layout()
				checkLayout(t, g)
				area[i] = g.Width * g.Height
				t.Logf("collapse=%v: %d nodes, %d edges, %.0f × %.0f px", collapse, len(g.Nodes), len(g.Edges), g.Width, g.Height)
				if collapse && len(g.Groups) > 0 {
					assert.Less(t, area[1], area[0]/2, "collapsing repeated blocks at least halves the drawing")
				}
			}
		})
	}
}
