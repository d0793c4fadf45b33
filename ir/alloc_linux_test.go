package ir

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAllocatorHugePages: ops appended through an Allocator (57 MB of op records and operand records) lie in
// memory the kernel backs with huge pages, when transparent huge pages are not off (THP "madvise" is what needs the
// allocator's advice; "always" would give them anyway); the first hugeAfter bytes of chunks are not advised.
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
	for range 390_000 { // 400,000 × (112 + 32) bytes in all
		a.Append(p.Body(), info, []*Value{x}, []Type{f32}, nil, Loc{})
	}
	after := anonHugeBytes(t)
	assert.Greater(t, after-before, int64(16<<20), "AnonHugePages %d → %d bytes", before, after)
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
