package ir

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	for range 400_000 { // 400,000 × (112 + 32) bytes in all
		last = a.Append(p.Body(), info, []*Value{x}, []Type{f32}, nil, Loc{})
	}
	flags := vmFlags(t, uintptr(unsafe.Pointer(last)))
	assert.NotContains(t, flags, "hg", "the mapping holding the last op is not advised for huge pages (VmFlags %v)", flags)
	t.Logf("AnonHugePages %d → %d bytes", before, anonHugeBytes(t))
	require.Equal(t, 400_001, p.NumOps())
}

// vmFlags returns the VmFlags of the mapping of this process that holds addr (/proc/self/smaps).
func vmFlags(t *testing.T, addr uintptr) []string {
	data, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	in := false
	for line := range strings.Lines(string(data)) {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if lo, hi, ok := strings.Cut(f[0], "-"); ok && !strings.HasSuffix(f[0], ":") {
			start, err1 := strconv.ParseUint(lo, 16, 64)
			end, err2 := strconv.ParseUint(hi, 16, 64)
			in = err1 == nil && err2 == nil && uint64(addr) >= start && uint64(addr) < end
			continue
		}
		if in && f[0] == "VmFlags:" {
			return f[1:]
		}
	}
	t.Fatalf("no mapping of /proc/self/smaps holds %#x", addr)
	return nil
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
