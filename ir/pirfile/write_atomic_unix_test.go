//go:build unix

package pirfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWritesAtomically: Save lets a format stream (Options.Streamed) only where a failed write leaves nothing — a
// new file, a regular one, a link to one — and not to standard output, a device or a folder.
func TestWritesAtomically(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "out.json")
	require.NoError(t, os.WriteFile(regular, []byte("{}"), 0o644))
	link := filepath.Join(dir, "link.json")
	require.NoError(t, os.Symlink(regular, link))
	tests := []struct {
		path string
		want bool
	}{
		{"-", false},
		{filepath.Join(dir, "new.json"), true},
		{regular, true},
		{link, true},
		{os.DevNull, false},
		{dir, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, writesAtomically(tt.path), tt.path)
	}
}
