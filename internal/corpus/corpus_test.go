package corpus

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGraphNetGraphs(t *testing.T) {
	root := Require(t)
	graphs, err := GraphNetGraphs(root)
	require.NoError(t, err)
	// SOURCES.md: 811 graphs of 242 samples.
	assert.Len(t, graphs, 811)
	samples := map[string]bool{}
	for _, g := range graphs {
		samples[g.Collection+"/"+g.Sample] = true
		assert.Contains(t, []string{"PaddleNLP", "PaddleX", "PaddleScience"}, g.Collection, g.Rel)
	}
	assert.Len(t, samples, 242)
}

func TestSample(t *testing.T) {
	graphs := make([]Graph, 25)
	for i := range graphs {
		graphs[i].Rel = string(rune('a' + i))
	}
	t.Setenv(EnvFull, "")
	s := Sample(graphs, 10)
	require.Len(t, s, 3)
	assert.Equal(t, []string{"a", "k", "u"}, []string{s[0].Rel, s[1].Rel, s[2].Rel})
	t.Setenv(EnvFull, "full")
	assert.Len(t, Sample(graphs, 10), 25)
}
