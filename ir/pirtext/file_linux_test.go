package pirtext

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/mapfile"
	"github.com/pirdrr/drr/internal/smaps"
	"github.com/pirdrr/drr/ir"
)

// TestParseFilePopulated: a file large enough for a populator reads as the same bytes parsed in memory.
func TestParseFilePopulated(t *testing.T) {
	src := chainProgram(400000)
	require.Greater(t, len(src), mapfile.PopulateFrom)
	path := filepath.Join(t.TempDir(), "chain.pir")
	require.NoError(t, os.WriteFile(path, src, 0o644))
	got, _, err := ParseFile(ir.NewContext(), path, ReadOptions{})
	require.NoError(t, err)
	want, _, err := Parse(ir.NewContext(), path, src, ReadOptions{})
	require.NoError(t, err)
	require.Equal(t, want.NumOps(), got.NumOps())
	assert.Equal(t, string(Print(want, WriteOptions{})), string(Print(got, WriteOptions{})))
}

// TestSlotArenaMadeAhead: a large source's value-name arena has the pages of the slot pages after the one it hands
// out made already, and a small one's has no populator.
func TestSlotArenaMadeAhead(t *testing.T) {
	small := newSlotArena(mapfile.PopulateFrom - 1)
	require.NotNil(t, small)
	assert.Nil(t, small.ahead)
	small.free()

	a := newSlotArena(mapfile.PopulateFrom)
	require.NotNil(t, a)
	require.NotNil(t, a.ahead)
	defer a.free()
	pg := a.page()
	require.NotNil(t, pg)
	assert.Nil(t, pg[0], "a new page is zeroed")
	a.ahead.Stop() // waits for the requests sent; free stops it again, which does nothing
	if a.ahead.Refused() {
		t.Skip("the kernel refuses MADV_POPULATE_WRITE (before Linux 5.14)")
	}
	rss, err := smaps.Bytes(uintptr(unsafe.Pointer(&a.mem[0])), "Rss")
	if errors.Is(err, smaps.ErrUnavailable) {
		t.Skip(err)
	}
	require.NoError(t, err)
	const pageBytes = slotPage * 8
	assert.GreaterOrEqual(t, rss, int64((1+slotsAhead)*pageBytes), "the pages ahead are made")
	assert.Less(t, rss, int64((2+slotsAhead)*pageBytes), "and no more")
}
