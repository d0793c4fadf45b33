package drr

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLoadFileMatchesLoadSource: checking a parsed file gives LoadSource's set and diagnostics, imports included.
func TestLoadFileMatchesLoadSource(t *testing.T) {
	ctx := defaultCtx(t)
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
		return p
	}
	write("fams.drr", "family acts = [pd_op.relu, pd_op.sigmoid]\n")
	write("bad.drr", "family acts = [pd_op.rleu]\n")
	tests := []struct {
		name, src string
		files     int
	}{
		{"shipped", string(shippedRules(t)), 1},
		{"import", "import \"fams.drr\"\nrule r {\n  for A in acts\n  match { %y = A(%x) }\n  rewrite { replace %y with %x }\n}\n", 2},
		{"import with errors", "import \"bad.drr\"\n", 2},
		{"missing import", "import \"nope.drr\"\n", 1},
		{"check errors", "rule r {\n  match { %y = pd_op.rleu(%x) }\n  rewrite { replace %y with %x }\n}\n", 1},
		{"warnings", "rule r {\n  match { %y = pd_op.relu(%x) }\n  where { $h == 1 }\n  rewrite { replace %y with %x }\n}\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := write("main.drr", tt.src)
			wantSet, wantDiags := LoadSource(ctx, LoadOptions{}, path, []byte(tt.src))
			f, err := Parse(path, []byte(tt.src))
			require.NoError(t, err)
			set, files, diags := LoadFile(ctx, LoadOptions{}, f)
			require.Equal(t, wantDiags.Error(), diags.Error())
			require.Equal(t, wantSet == nil, set == nil)
			if set != nil {
				require.Equal(t, len(wantSet.Rules), len(set.Rules))
			}
			require.Len(t, files, tt.files)
			require.Same(t, f, files[len(files)-1])
		})
	}
}
