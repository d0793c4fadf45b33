package ir

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/smaps"
)

// TestAllocatorLeavesPageSizeToTheSystem: ops appended through an Allocator (57 MB of op records and operand
// records) lie in memory the allocator did not advise for huge pages (no VmFlags "hg" on its mapping in
// /proc/self/smaps): the system's setting decides (see touchPages for why the advice was dropped). How much of it
// the kernel backs with huge pages anyway (THP "always") is logged, not asserted.
func TestAllocatorLeavesPageSizeToTheSystem(t *testing.T) {
	c := NewContext()
	f32 := c.Scalar(DTypeFloat32)
	p := NewProgram(c)
	a := p.Allocator()
	before := anonHugeBytes(t)
	x := a.Append(p.Body(), c.OpInfo("pd_op.data"), nil, []Type{f32}, nil, Loc{}).Result(0)
	info := c.OpInfo("pd_op.relu")
	var last *Op
	for range 400_000 { // 400,000 × (104 + 32) bytes in all
		last = a.Append(p.Body(), info, []*Value{x}, []Type{f32}, nil, Loc{})
	}
	flags, err := smaps.Field(uintptr(unsafe.Pointer(last)), "VmFlags")
	if errors.Is(err, smaps.ErrUnavailable) {
		t.Skip(err)
	}
	require.NoError(t, err)
	assert.NotContains(t, flags, "hg", "the mapping holding the last op is not advised for huge pages (VmFlags %v)", flags)
	t.Logf("AnonHugePages %d → %d bytes", before, anonHugeBytes(t))
	require.Equal(t, 400_001, p.NumOps())
}

// anonHugeBytes returns the process's anonymous memory in huge pages (AnonHugePages of /proc/self/smaps_rollup).
func anonHugeBytes(t *testing.T) int64 {
	data, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		t.Skipf("no /proc/self/smaps_rollup: %v", err)
	}
	for line := range strings.Lines(string(data)) {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "AnonHugePages:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			require.NoError(t, err)
			return kb << 10
		}
	}
	t.Fatal("no AnonHugePages line in /proc/self/smaps_rollup")
	return 0
}
