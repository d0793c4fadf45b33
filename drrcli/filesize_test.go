package drrcli

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadLimits: rule files, their imports, programs and standard input are regular files (or the stream) of at
// most -max-file-size bytes (64 MiB for rule files and 1 GiB for programs by default): import "/dev/zero" and drrc
// check /dev/zero grew memory without end (issue 26 item 3).
func TestReadLimits(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/zero")
	}
	dir := t.TempDir()
	zero := write(t, dir, "zero.drr", "import \"/dev/zero\"\n")
	rules := write(t, dir, "r.drr", deinplaceRule)
	prog := write(t, dir, "p.pir", reluProgram)
	require.NoError(t, os.Symlink("/dev/zero", filepath.Join(dir, "zero_link.drr")))
	linked := write(t, dir, "linked.drr", "import \"zero_link.drr\"\n")
	tests := []struct {
		args  []string
		stdin string
		code  int
		errs  string
	}{
		{[]string{"check", zero}, "", exitFailure, zero + ":1:1: error: cannot read /dev/zero: a device, not a regular file"},
		{[]string{"check", "/dev/zero"}, "", exitFailure, "/dev/zero: a device, not a regular file"},
		{[]string{"fmt", "/dev/zero"}, "", exitFailure, "drrc fmt: /dev/zero: a device, not a regular file"},
		{[]string{"apply", "-rules", zero, prog}, "", exitFailure, "cannot read /dev/zero: a device, not a regular file"},
		// gen reads imports relative to the rule file's folder: a link there leads to the device.
		{[]string{"gen", "-rules", linked, "-pkg", "p"}, "", exitFailure, "cannot read zero_link.drr: a device, not a regular file"},
		{[]string{"convert", "/dev/zero", "-o", "-"}, "", exitFailure, "/dev/zero: a device, not a regular file"},
		{[]string{"check", "-max-file-size", "100", rules}, "", exitFailure,
			rules + ": error: cannot read " + rules + ": it is larger than 100 bytes, the size limit of rule files (-max-file-size raises it)"},
		{[]string{"check", "-max-file-size", "1K", rules}, "", exitOK, ""},
		{[]string{"apply", "-set", "inplace", "-max-file-size", "100", prog}, "", exitFailure,
			prog + ": larger than 100 bytes, the limit for reading it (-max-file-size raises it)"},
		{[]string{"apply", "-set", "inplace", "-max-file-size", "100", "-"}, reluProgram, exitFailure,
			"standard input: larger than 100 bytes, the limit for reading it (-max-file-size raises it)"},
		{[]string{"fmt", "-max-file-size", "10"}, deinplaceRule, exitFailure, "standard input: larger than 10 bytes"},
		{[]string{"test", "-max-file-size", "10", filepath.Join("..", "testdata", "driver", "chains.txtar")}, "", exitFailure, "larger than 10 bytes"},
		{[]string{"check", "-max-file-size", "12Q", rules}, "", exitUsage, `"12Q" is not a size`},
	}
	for _, tt := range tests {
		code, _, errs := run(t, tt.stdin, tt.args...)
		assert.Equal(t, tt.code, code, "%v: %s", tt.args, errs)
		assert.True(t, tt.errs == "" || strings.Contains(errs, tt.errs), "%v: %s", tt.args, errs)
	}
}
