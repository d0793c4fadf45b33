package drrcli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/shard"
)

// TestDocsShards keeps docs/verify.md's "On many machines" true: its two-shard example runs as shown (over a small
// folder in place of the corpus) and merges without a gap, its Kubernetes Job is Indexed with the shard count that
// drrc reads equal to its completions, and the variables it names are those package shard reads.
func TestDocsShards(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "verify.md"))
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(doc), "\n## On many machines")
	require.True(t, ok, "docs/verify.md has no section On many machines")
	section, _, _ = strings.Cut(section, "\n## ")

	for _, v := range []string{shard.BazelTotal, shard.BazelIndex, shard.BazelStatusFile, shard.JobIndex, shard.TotalVar} {
		assert.Contains(t, section, "`"+v+"`", "the section names %s", v)
	}
	_, example, ok := strings.Cut(section, "Two shards on one machine:\n\n```\n")
	require.True(t, ok)
	example, _, _ = strings.Cut(example, "```")
	dir := t.TempDir()
	corpusDir := reluPrograms(t, dir, 7)
	t.Chdir(dir)
	ran := 0
	for _, line := range strings.Split(example, "\n") {
		if !strings.HasPrefix(line, "drrc ") {
			continue
		}
		line, _, _ = strings.Cut(line, " >")
		args := strings.Fields(strings.ReplaceAll(strings.TrimPrefix(line, "drrc "), "corpus/graphnet_samples", corpusDir))
		code, _, stderr := runEnv(t, nil, args...)
		require.Equal(t, exitOK, code, "%s: %s", line, stderr)
		ran++
	}
	assert.Equal(t, 3, ran, "two shards and a report")

	_, job, ok := strings.Cut(section, "```yaml\n")
	require.True(t, ok, "the Kubernetes Job")
	job, _, _ = strings.Cut(job, "```")
	assert.Contains(t, job, "completionMode: Indexed")
	completions := regexp.MustCompile(`completions: (\d+)`).FindStringSubmatch(job)
	total := regexp.MustCompile(`name: ` + shard.TotalVar + `\n\s+value: "(\d+)"`).FindStringSubmatch(job)
	require.NotNil(t, completions)
	require.NotNil(t, total, "the Job sets %s", shard.TotalVar)
	assert.Equal(t, completions[1], total[1], "%s is the Job's completions", shard.TotalVar)
	assert.Contains(t, job, "$"+shard.JobIndex)
	assert.Contains(t, section, "shard_count = 16")
}
