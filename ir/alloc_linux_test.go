package ir

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAllocatorHugePages: ops appended through an Allocator (57 MB of op records and operand records) lie in
// memory advised for huge pages (the VmFlags "hg" of its mapping in /proc/self/smaps), when transparent huge pages
// are not off; the first hugeAfter bytes of chunks are not advised. Whether the kernel then finds 2 MiB pages
// depends on its memory's fragmentation, so that is logged (AnonHugePages), not asserted.
func TestAllocatorHugePages(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || bytes.Contains(mode, []byte("[never]")) {
		t.Skipf("transparent huge pages are off or unknown here (%q)", mode)
	}
	c := NewContext()
	f32 := c.Scalar(DTypeFloat32)
	p := NewProgram(c)
	a := p.Allocator()
	before := anonHugeBytes(t)
	x := a.Append(p.Body(), c.OpInfo("pd_op.data"), nil, []Type{f32}, nil, Loc{}).Result(0)
	info := c.OpInfo("pd_op.relu")
	for range 10_000 {
		a.Append(p.Body(), info, []*Value{x}, []Type{f32}, nil, Loc{})
	}
	assert.Zero(t, a.advised, "a small program stays on small pages")
	var last *Op
	for range 390_000 { // 400,000 × (112 + 32) bytes in all
		last = a.Append(p.Body(), info, []*Value{x}, []Type{f32}, nil, Loc{})
	}
	assert.NotZero(t, a.advised, "a large program's chunks are advised")
	flags := vmFlags(t, uintptr(unsafe.Pointer(last)))
	assert.Contains(t, flags, "hg", "the mapping holding the last op is advised for huge pages (VmFlags %v)", flags)
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
