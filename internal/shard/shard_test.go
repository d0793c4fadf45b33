package shard

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/corpus"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Spec
		err  string
	}{
		{in: "1/1", want: Spec{0, 1}},
		{in: "1/16", want: Spec{0, 16}},
		{in: "16/16", want: Spec{15, 16}},
		{in: " 3/4 ", want: Spec{2, 4}},
		{in: "0/4", err: "out of range for 4 shard(s) (K counted from 1)"},
		{in: "5/4", err: "out of range"},
		{in: "1/0", err: "at least 1"},
		{in: "-1/4", err: "out of range"},
		{in: "1/100001", err: "more than 100000"},
		{in: "4", err: "want K/N"},
		{in: "a/4", err: "whole numbers"},
		{in: "1/4/2", err: "whole numbers"},
		{in: "", err: "want K/N"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			s, err := Parse(tc.in)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, s)
			assert.Equal(t, fmt.Sprintf("%d/%d", s.Index+1, s.Total), s.String())
		})
	}
}

func TestFromEnv(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want Spec
		from string
		err  string
	}{
		{name: "none", env: nil},
		{name: "bazel", env: map[string]string{BazelTotal: "4", BazelIndex: "0"}, want: Spec{0, 4}, from: "TEST_TOTAL_SHARDS, TEST_SHARD_INDEX"},
		{name: "bazel last", env: map[string]string{BazelTotal: "4", BazelIndex: "3"}, want: Spec{3, 4}, from: "TEST_TOTAL_SHARDS, TEST_SHARD_INDEX"},
		{name: "bazel wins over a job", env: map[string]string{BazelTotal: "2", BazelIndex: "1", JobIndex: "0", TotalVar: "8"}, want: Spec{1, 2}, from: "TEST_TOTAL_SHARDS, TEST_SHARD_INDEX"},
		{name: "bazel index out of range", env: map[string]string{BazelTotal: "4", BazelIndex: "4"}, err: "TEST_SHARD_INDEX=4, TEST_TOTAL_SHARDS=4: the shard is out of range for 4 shard(s) (the index counted from 0)"},
		{name: "bazel index missing", env: map[string]string{BazelTotal: "4"}, err: `TEST_SHARD_INDEX="": not a whole number`},
		{name: "bazel total bad", env: map[string]string{BazelTotal: "x", BazelIndex: "0"}, err: `TEST_TOTAL_SHARDS="x": not a whole number`},
		{name: "job", env: map[string]string{JobIndex: "5", TotalVar: "16"}, want: Spec{5, 16}, from: "JOB_COMPLETION_INDEX, PIRDRR_TOTAL_SHARDS"},
		{name: "job without total", env: map[string]string{JobIndex: "5"}, err: "JOB_COMPLETION_INDEX is set but PIRDRR_TOTAL_SHARDS is not"},
		{name: "job total zero", env: map[string]string{JobIndex: "0", TotalVar: "0"}, err: "at least 1"},
		{name: "total alone is nothing", env: map[string]string{TotalVar: "16"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, from, err := FromEnv(func(k string) string { return tc.env[k] })
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, s)
			assert.Equal(t, tc.from, from)
		})
	}
}

func TestAckBazel(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "status")
	require.NoError(t, AckBazel(func(string) string { return "" }))
	require.NoError(t, AckBazel(func(k string) string { return map[string]string{BazelStatusFile: file}[k] }))
	info, err := os.Stat(file)
	require.NoError(t, err)
	assert.Zero(t, info.Size())
	// An existing file keeps its content.
	require.NoError(t, os.WriteFile(file, []byte("kept"), 0o644))
	require.NoError(t, AckBazel(func(k string) string { return map[string]string{BazelStatusFile: file}[k] }))
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, "kept", string(data))
	err = AckBazel(func(k string) string { return map[string]string{BazelStatusFile: filepath.Join(dir, "no", "such")}[k] })
	require.Error(t, err)
	assert.Contains(t, err.Error(), "TEST_SHARD_STATUS_FILE")
}

func TestKey(t *testing.T) {
	dir := t.TempDir()
	graph := filepath.Join(dir, "g")
	require.NoError(t, os.Mkdir(graph, 0o755))
	assert.Equal(t, "path:a/g", Key(graph, filepath.Join("a", "g")), "a folder without graph_hash.txt")
	require.NoError(t, os.WriteFile(filepath.Join(graph, GraphHashFile), []byte("6AF495\n"), 0o644))
	assert.Equal(t, "graph:6af495", Key(graph, "a/g"))
	require.NoError(t, os.WriteFile(filepath.Join(graph, GraphHashFile), []byte("not a hash"), 0o644))
	assert.Equal(t, "path:a/g", Key(graph, "a/g"), "a graph_hash.txt that holds no hex digest")
	file := filepath.Join(dir, "m.pir")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	assert.Equal(t, "path:m.pir", Key(file, "m.pir"))
}

// checkPartition fails unless the shards of total partition items: every position in exactly one shard's Select.
func checkPartition(t *testing.T, items []Item, total int) {
	t.Helper()
	seen := make([]int, len(items))
	for k := 0; k < total; k++ {
		for _, i := range Select(items, Spec{Index: k, Total: total}) {
			seen[i]++
		}
	}
	for i, n := range seen {
		if n != 1 {
			t.Fatalf("N=%d: item %d (%s) is in %d shards", total, i, items[i].Key, n)
		}
	}
}

// synthetic returns n items with path keys; every third one has a duration when timed.
func synthetic(n int, timed bool) []Item {
	var items []Item
	for i := 0; i < n; i++ {
		it := Item{Key: fmt.Sprintf("path:models/m%04d.pir", i)}
		if timed && i%3 != 0 {
			it.Duration = time.Duration(1+(i*7919)%1000) * time.Millisecond
		}
		items = append(items, it)
	}
	return items
}

func TestPartitionSynthetic(t *testing.T) {
	for _, timed := range []bool{false, true} {
		items := synthetic(811, timed)
		for n := 1; n <= 32; n++ {
			checkPartition(t, items, n)
		}
		// Fewer items than shards: some shards are empty, and still a partition.
		checkPartition(t, synthetic(5, timed), 32)
		checkPartition(t, nil, 4)
	}
}

// TestPartitionCorpus places every program of the shared corpus by its real key (the graphs' graph_hash.txt) and
// checks that the N shards partition it for N = 1…32, hashed and balanced.
func TestPartitionCorpus(t *testing.T) {
	root := corpus.Require(t)
	graphs, err := corpus.GraphNetGraphs(root)
	require.NoError(t, err)
	var items []Item
	for _, g := range graphs {
		items = append(items, Item{Key: Key(g.Dir, g.Rel)})
	}
	for _, sub := range []string{"pir_json", "pir_text"} {
		entries, err := os.ReadDir(filepath.Join(root, sub))
		require.NoError(t, err)
		for _, e := range entries {
			items = append(items, Item{Key: Key(filepath.Join(root, sub, e.Name()), e.Name())})
		}
	}
	graphKeys := 0
	keys := map[string]bool{}
	for _, it := range items {
		if len(it.Key) > 6 && it.Key[:6] == "graph:" {
			graphKeys++
		}
		keys[it.Key] = true
	}
	assert.Equal(t, len(graphs), graphKeys, "every GraphNet graph is keyed by its graph_hash.txt")
	assert.Len(t, keys, len(items), "the keys of the corpus are distinct")
	timed := append([]Item(nil), items...)
	for i := range timed {
		if i%4 != 0 {
			timed[i].Duration = time.Duration(Hash(timed[i].Key)%5000+1) * time.Millisecond
		}
	}
	for n := 1; n <= 32; n++ {
		checkPartition(t, items, n)
		checkPartition(t, timed, n)
	}
	// Hashing spreads the 800-odd graphs evenly enough: with 16 shards, no shard holds twice its share.
	counts := make([]int, 16)
	for _, s := range Assign(items, 16) {
		counts[s]++
	}
	for k, c := range counts {
		assert.Less(t, c, 2*len(items)/16, "shard %d holds %d of %d programs", k, c, len(items))
	}
}

func TestAssignStable(t *testing.T) {
	items := synthetic(200, true)
	a := Assign(items, 7)
	// The same items in another order land in the same shards: a program's shard does not depend on its position.
	rev := make([]Item, len(items))
	for i, it := range items {
		rev[len(items)-1-i] = it
	}
	b := Assign(rev, 7)
	for i := range items {
		assert.Equal(t, a[i], b[len(items)-1-i], "item %s", items[i].Key)
	}
	// Without durations, a shard is the key's hash.
	for i, s := range Assign(synthetic(50, false), 5) {
		assert.Equal(t, int(Hash(fmt.Sprintf("path:models/m%04d.pir", i))%5), s)
	}
}

func TestAssignBalanced(t *testing.T) {
	// Twelve programs with known durations on 3 shards: longest first to the least loaded shard.
	var items []Item
	for i, d := range []int{90, 80, 70, 60, 50, 40, 30, 20, 10, 5, 5, 5} {
		items = append(items, Item{Key: fmt.Sprintf("path:p%02d", i), Duration: time.Duration(d) * time.Second})
	}
	got := Assign(items, 3)
	assert.Equal(t, []int{0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 2, 1}, got)
	load := make([]time.Duration, 3)
	for i, s := range got {
		load[s] += items[i].Duration
	}
	assert.Equal(t, []time.Duration{160 * time.Second, 155 * time.Second, 150 * time.Second}, load)
	// The long tail of a real run (one program of 900 s, many of 1 s) gets a shard of its own.
	tail := []Item{{Key: "path:fcos", Duration: 900 * time.Second}}
	for i := 0; i < 100; i++ {
		tail = append(tail, Item{Key: fmt.Sprintf("path:g%03d", i), Duration: time.Second})
	}
	got = Assign(tail, 2)
	for i := 1; i < len(tail); i++ {
		assert.NotEqual(t, got[0], got[i], "a 1 s program shares the 900 s program's shard")
	}
}
