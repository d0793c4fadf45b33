package pirjson

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/ir"
)

// TestLocateOps: the position of every op read names it by its JSON Pointer, nested region ops included.
func TestLocateOps(t *testing.T) {
	a, err := txtar.ParseFile("testdata/community_fc.txtar")
	require.NoError(t, err)
	src, ok := txtarFile(a, "canonical.json")
	require.True(t, ok)
	p, err := Read(ir.NewContext(), "fc.json", src, ReadOptions{})
	require.NoError(t, err)
	var offsets []int
	var want []string
	i := 0
	for op := range p.Body().Ops() {
		require.Equal(t, int32(1), op.Loc.Line)
		offsets = append(offsets, int(op.Loc.Col)-1)
		want = append(want, "/program/regions/0/blocks/0/ops/"+strconv.Itoa(i))
		i++
	}
	require.Greater(t, len(offsets), 3)
	// Ask in reverse order and once for a position inside an op, where no value starts.
	for l, r := 0, len(offsets)-1; l < r; l, r = l+1, r-1 {
		offsets[l], offsets[r] = offsets[r], offsets[l]
		want[l], want[r] = want[r], want[l]
	}
	offsets = append(offsets, offsets[0]+1)
	want = append(want, "")
	assert.Equal(t, want, Locate(src, offsets))
}

func TestLocate(t *testing.T) {
	src := []byte(`{"a": [1, {"b/c": "x,]}"}, [true]], "~k": {"z": null}}`)
	tests := []struct {
		at   string // the text that starts at the offset asked for
		want string
	}{
		{`{"a"`, ""},
		{`[1,`, "/a"},
		{`1,`, "/a/0"},
		{`{"b/c"`, "/a/1"},
		{`"x,]}"`, "/a/1/b~1c"},
		{`[true]`, "/a/2"},
		{`true`, "/a/2/0"},
		{`{"z"`, "/~0k"},
		{`null`, "/~0k/z"},
	}
	for _, tt := range tests {
		off := bytes.Index(src, []byte(tt.at))
		require.GreaterOrEqual(t, off, 0, tt.at)
		assert.Equal(t, []string{tt.want}, Locate(src, []int{off}), tt.at)
	}
	// Malformed input: what can be walked is located, the rest is "".
	assert.Equal(t, []string{"/a/0", ""}, Locate([]byte(`{"a": [1, {x`), []int{7, 11}))
	assert.Equal(t, []string{}, Locate(src, nil))
	// A delimiter where a value should start ends the walk (these used to loop forever).
	for _, bad := range []string{`[}`, `[1, }`, `{"a": [}]}`, `[[}]]`} {
		assert.Equal(t, []string{""}, Locate([]byte(bad), []int{1 << 20}), bad)
	}
}

func FuzzLocate(f *testing.F) {
	f.Add([]byte(`{"a": [1, {"b": "x"}]}`), 6)
	f.Add([]byte(`[[[[`), 2)
	f.Add([]byte(`[}`), 1)
	f.Fuzz(func(t *testing.T, src []byte, off int) {
		got := Locate(src, []int{off, 0, len(src)})
		if len(got) != 3 {
			t.Fatalf("got %d paths for 3 offsets", len(got))
		}
	})
}
