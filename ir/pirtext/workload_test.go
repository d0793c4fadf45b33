package pirtext

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// generateWorkload writes the bench workload of n blocks (gen.py --format=pir) into dir, or skips the test when
// python3 or the generator is missing.
func generateWorkload(t testing.TB, dir string, n int) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: cannot generate the bench workload")
	}
	if _, err := os.Stat(benchGen); err != nil {
		t.Skipf("the workload generator %s is absent", benchGen)
	}
	path := filepath.Join(dir, fmt.Sprintf("w%d.pir", n))
	out, err := exec.Command(py, benchGen, fmt.Sprint(n), "--format=pir", "-o", path).CombinedOutput()
	require.NoError(t, err, "gen.py: %s", out)
	return path
}

// TestBenchWorkload: the bench workload (N=1000, untagged attributes) reads with no dialects registered (every op
// unregistered, the "-unregistered" mode), verifies, prints, and reads back equal.
func TestBenchWorkload(t *testing.T) {
	path := generateWorkload(t, t.TempDir(), 1000)
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	ctx := ir.NewContext()
	p, warns, err := Parse(ctx, path, src, ReadOptions{})
	require.NoError(t, err)
	assert.Empty(t, warns)
	assert.Equal(t, 3081, p.NumOps())
	for op := range p.Walk() {
		require.False(t, op.Info().Registered(), "%s is registered", op.Name())
	}
	assert.Empty(t, ir.Verify(p).Errors())
	params := 0
	for op := range p.Walk() {
		if op.Name() == ir.ParameterOpName {
			params++
		}
	}
	assert.Len(t, p.Params, params, "every builtin.parameter is collected")
	assert.Contains(t, p.Params, "bn.mean")
	for _, opts := range []WriteOptions{{}, {Untagged: true}} {
		text := Print(p, opts)
		q, _, err := Parse(ctx, "print.pir", text, ReadOptions{})
		require.NoError(t, err)
		if opts.Untagged {
			untaggedEqual(t, p, q)
		} else {
			require.NoError(t, ir.Equal(p, q, ir.EqualOptions{}))
		}
		assert.Equal(t, string(text), string(Print(q, opts)))
	}
	conv := p.Body().First()
	for conv != nil && conv.Name() != "pd_op.conv2d" {
		conv = conv.Next()
	}
	require.NotNil(t, conv)
	assert.Equal(t, ir.Loc{Line: 8, Col: 5}, conv.Loc)
	assert.Equal(t, ctx.Int32s(1, 1), conv.Attr("dilations"))
	assert.Equal(t, ctx.Int32(1), conv.Attr("groups"))
}

// TestPrefaultedRead: the bench workload read with the allocator prefaulting its chunks (as sources of 32 MB and
// more are) is the program read without, and a read that fails half-way stops the prefaulter too.
func TestPrefaultedRead(t *testing.T) {
	path := generateWorkload(t, t.TempDir(), 1000)
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	ctx := ir.NewContext()
	want, _, err := Parse(ctx, path, src, ReadOptions{})
	require.NoError(t, err)
	before := runtime.NumGoroutine()
	got, _, err := parse(ctx, path, src, ReadOptions{}, &parseHooks{prefaultFrom: 1})
	require.NoError(t, err)
	require.NoError(t, ir.Equal(want, got, ir.EqualOptions{AttrOrder: true}))
	assert.Equal(t, string(Print(want, WriteOptions{})), string(Print(got, WriteOptions{})))

	broken := append(append([]byte{}, src[:len(src)/2]...), "\n    (%x) = \"a.b\" (%nosuch) {} : (f32) -> f32\n}\n"...)
	_, _, err = parse(ctx, path, broken, ReadOptions{}, &parseHooks{prefaultFrom: 1})
	require.Error(t, err)
	// Stopping waits for the prefaulter, whose goroutine may still be on its way out.
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), before, "the prefaulters stopped")
}
