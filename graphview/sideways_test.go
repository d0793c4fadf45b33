package graphview

import (
	"os"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/graphnet"
	"github.com/pirdrr/drr/ir/pirfile"
)

// sideways measures how far the edges of a laid-out graph run sideways: the total horizontal travel of their
// routes (the sum of |Δx| over their segments, in pixels) and the longest sideways segment (the largest |Δx| of
// one segment: a segment joins two consecutive layers, so a long one is a nearly flat line across the drawing).
func sideways(g *Graph) (travel, longest float64) {
	for _, e := range g.Edges {
		for k := 1; k < len(e.Points); k++ {
			dx := abs(e.Points[k].X - e.Points[k-1].X)
			travel += dx
			longest = max(longest, dx)
		}
	}
	return travel, longest
}

// sidewaysGraphs are the big graphs of the corpus whose edges TestSidewaysEdges measures, with bounds on their
// edges' total travel and longest segment, drawn whole and collapsed: about 10 % above what the layout gave when
// the bounds were set (docs/playground.md has the figures before and after the leaves' rows and the heavier trunks
// that brought them down: SegFormer-B5 drawn whole from 17,815,654 px of travel and a 17,262 px segment).
var sidewaysGraphs = []struct {
	rel              string
	travel, longest  float64 // drawn whole
	ctravel, clonges float64 // collapsed
}{
	{"graphnet_samples/PaddleX/SegFormer-B5/subgraph_1", 3_780_000, 5_330, 604_000, 1_700},
	{"graphnet_samples/PaddleX/OCRNet_HRNet-W48/subgraph_1", 225_000, 1_590, 119_500, 1_100},
	{"graphnet_samples/PaddleX/SwinTransformer_base_patch4_window7_224/subgraph_1", 25_340_000, 8_620, 4_470_000, 7_230},
	{"pir_json/nanaikaros__PP-OCRv5_server_det_infer.inference.json", 84_400, 1_400, 30_800, 630},
	{"graphnet/graphnet_PaddleX_ResNet50.pir", 10_800, 1_170, 5_420, 435},
}

// loadCorpus reads a corpus program: a GraphNet sample's folder or a program file.
func loadCorpus(t testing.TB, rel string) *ir.Program {
	t.Helper()
	path := corpus.Path(t, rel)
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		p, err := graphnet.Read(ctx, path)
		require.NoError(t, err)
		return p
	}
	p, _, err := pirfile.Load(ctx, path)
	require.NoError(t, err)
	return p
}

// TestSidewaysEdges lays out the big graphs of the corpus, whole and collapsed, logs their edges' sideways travel,
// longest sideways segment and layout time (the median of three), and asserts the bounds of sidewaysGraphs.
func TestSidewaysEdges(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the layout of big corpus graphs is measured without it")
	}
	for _, sg := range sidewaysGraphs {
		t.Run(sg.rel, func(t *testing.T) {
			p := loadCorpus(t, sg.rel)
			for _, collapse := range []bool{false, true} {
				var times []time.Duration
				var g *Graph
				for range 3 {
					g = Build(p, Options{Collapse: collapse})
					t0 := time.Now()
					g.Layout()
					times = append(times, time.Since(t0))
				}
				slices.Sort(times)
				travel, longest := sideways(g)
				t.Logf("collapse=%v: %d nodes, %d edges: travel %.0f px, longest segment %.0f px, width %.0f px, layout %v",
					collapse, len(g.Nodes), len(g.Edges), travel, longest, g.Width, times[1].Round(time.Millisecond))
				bt, bl := sg.travel, sg.longest
				if collapse {
					bt, bl = sg.ctravel, sg.clonges
				}
				if bt > 0 {
					assert.LessOrEqual(t, travel, bt, "total sideways travel")
					assert.LessOrEqual(t, longest, bl, "longest sideways segment")
				}
			}
		})
	}
}
