//go:build unix

package pirfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// TestLoadReadsRegularFilesWithinLimit: Load takes regular files only (/dev/zero grew memory without end, a FIFO
// blocked), of at most Registry.MaxFileSize bytes, and so does each file of a GraphNet folder (issue 26 item 3).
func TestLoadReadsRegularFilesWithinLimit(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	dir := t.TempDir()
	prog := filepath.Join(dir, "p.pir")
	require.NoError(t, os.WriteFile(prog, []byte(reluPIR), 0o644))
	fifo := filepath.Join(dir, "pipe.pir")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	graph := filepath.Join(dir, "g")
	writeGraph(t, graph, graphFiles)
	fifoGraph := filepath.Join(dir, "fg")
	writeGraph(t, fifoGraph, graphFiles)
	require.NoError(t, os.Remove(filepath.Join(fifoGraph, "weight_meta.py")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(fifoGraph, "weight_meta.py"), 0o600))

	std := Standard()
	small := Standard()
	small.MaxFileSize = 100
	tests := []struct {
		r    *Registry
		path string
		err  string
	}{
		{std, "/dev/zero", "/dev/zero: a device, not a regular file"},
		{std, fifo, fifo + ": a FIFO, not a regular file"},
		{std, fifoGraph, filepath.Join(fifoGraph, "weight_meta.py") + ": a FIFO, not a regular file"},
		{small, prog, prog + ": larger than 100 bytes, the limit for reading it (-max-file-size raises it)"},
		{small, graph, filepath.Join(graph, "model.py") + ": larger than 100 bytes, the limit for reading it"},
		{std, prog, ""},
		{std, graph, ""},
	}
	for _, tt := range tests {
		_, _, err := tt.r.Load(ctx, tt.path)
		if tt.err == "" {
			assert.NoError(t, err, tt.path)
			continue
		}
		require.Error(t, err, tt.path)
		assert.True(t, strings.HasPrefix(err.Error(), tt.err), "%s: %v", tt.path, err)
	}
	_, err = std.Detect(fifo)
	assert.EqualError(t, err, fifo+": a FIFO, not a regular file")
}
