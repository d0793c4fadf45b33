package graphview

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
)

func TestCollapse(t *testing.T) {
	p := parse(t, chain(12, -1))
	g := Build(p, Options{Collapse: true})
	require.Len(t, g.Groups, 1)
	grp := g.Groups[0]
	assert.Equal(t, 12, grp.Count)
	assert.Equal(t, 3, grp.Ops)
	assert.Equal(t, "× 12", grp.Label)
	// The input, one block, the output; the 11 other blocks are not drawn.
	assert.Equal(t, []string{"%0 = t.in", "%1 = t.a", "%2 = t.b", "%3 = t.c", "t.out"}, labels(g))
	assert.Equal(t, 33, g.Hidden)
	// Edges into any repetition come into the drawn one; edges between repetitions are left out.
	assert.Equal(t, []string{"n0->n1", "n1->n2", "n2->n3", "n0->n3", "n3->n4"}, edges(g))
	for _, n := range g.Nodes[1:4] {
		assert.Equal(t, 1, n.Group)
	}

	// A block wired differently breaks the run: the blocks before it and after it collapse on their own.
	g = Build(parse(t, chain(12, 5)), Options{Collapse: true})
	var counts []int
	for _, grp := range g.Groups {
		counts = append(counts, grp.Count)
	}
	assert.Equal(t, []int{5, 6}, counts)

	// A marked op repeats only with the same mark: the run breaks around the block of the one matched op.
	p6 := parse(t, chain(6, -1))
	var bs []*ir.Op
	for op := range p6.Walk() {
		if op.Name() == "t.b" {
			bs = append(bs, op)
		}
	}
	g = Build(p6, Options{Collapse: true, Classes: map[*ir.Op][]string{bs[3]: {"matched"}}})
	counts = nil
	for _, grp := range g.Groups {
		counts = append(counts, grp.Count)
	}
	assert.Equal(t, []int{3, 2}, counts, "blocks 0-2, the matched block 3 alone, blocks 4-5")
	assert.Contains(t, labels(g), "%11 = t.b", "the matched op is drawn")

	// Not collapsed when not asked, and not below two repetitions.
	assert.Empty(t, Build(p, Options{}).Groups)
	assert.Empty(t, Build(parse(t, chain(1, -1)), Options{Collapse: true}).Groups)
}

// TestCollapseCorpus: the residual blocks of the real ResNets collapse, and what is drawn shrinks.
func TestCollapseCorpus(t *testing.T) {
	for _, rel := range []string{"graphnet/graphnet_PaddleX_ResNet50.pir", "pir_json/nanaikaros__PP-OCRv5_mobile_det_infer.inference.json"} {
		t.Run(rel, func(t *testing.T) {
			path := corpus.Path(t, rel)
			ctx, err := ir.NewDefaultContext()
			require.NoError(t, err)
			p, _, err := pirfile.Load(ctx, path)
			require.NoError(t, err)
			full := Build(p, Options{})
			g := Build(p, Options{Collapse: true})
			require.NotEmpty(t, g.Groups)
			repeated := 0
			for _, grp := range g.Groups {
				assert.GreaterOrEqual(t, grp.Count, 2)
				assert.GreaterOrEqual(t, grp.Ops, minRepeatOps)
				repeated += (grp.Count - 1) * grp.Ops
			}
			assert.Equal(t, len(full.Nodes)-repeated, len(g.Nodes), "each collapsed repetition hides its ops")
			assert.Less(t, len(g.Nodes), len(full.Nodes)*2/3)
			t.Logf("%s: %d ops drawn of %d, %d groups", rel, len(g.Nodes), len(full.Nodes), len(g.Groups))
		})
	}
}
