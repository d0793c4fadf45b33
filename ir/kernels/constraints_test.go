package kernels_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/internal/golden"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/kernels"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/ir/pirtext"
)

func init() { golden.Register() }

// TestEveryConstraintHasAViolation runs the archives of testdata/TARGET: each is named after a constraint of the
// target's table and holds a program that violates it (bad.pir, whose findings the findings section lists; -update
// rewrites it) and one that keeps it (good.pir, without findings). Every constraint of the table has an archive.
func TestEveryConstraintHasAViolation(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	for _, kind := range []string{"gpu"} {
		files, err := filepath.Glob(filepath.Join("testdata", kind, "*.txtar"))
		require.NoError(t, err)
		covered := map[string]bool{}
		var table *kernels.Table
		for _, f := range files {
			name := strings.TrimSuffix(filepath.Base(f), ".txtar")
			covered[name] = true
			t.Run(kind+"/"+name, func(t *testing.T) {
				data, err := os.ReadFile(f)
				require.NoError(t, err)
				ar := txtar.Parse(data)
				target, err := ir.ParseTarget(strings.TrimSpace(section(t, ar, "target", true)))
				require.NoError(t, err)
				require.Equal(t, kind, target.KernelTable())
				tab, err := kernels.Load(ctx, target)
				require.NoError(t, err)
				table = tab
				got := findings(t, ctx, tab, target, "bad.pir", section(t, ar, "bad.pir", true))
				assert.Contains(t, got, "["+name+"]", "bad.pir does not violate %s", name)
				if golden.Update() {
					setSection(ar, "findings", got)
					require.NoError(t, pirfile.WriteFile(f, txtar.Format(ar)))
				} else {
					assert.Equal(t, section(t, ar, "findings", true), got, "findings of bad.pir (go test -update rewrites them)")
				}
				assert.Empty(t, findings(t, ctx, tab, target, "good.pir", section(t, ar, "good.pir", true)), "good.pir")
			})
		}
		require.NotNil(t, table, "no archives in testdata/%s", kind)
		var missing []string
		for _, c := range table.Constraints() {
			if !covered[c] {
				missing = append(missing, c)
			}
		}
		sort.Strings(missing)
		assert.Empty(t, missing, "constraints of the %s table without an archive that violates them", kind)
	}
}

// findings parses a program and returns its findings, one per line, as drrc check prints them (without the file).
func findings(t *testing.T, ctx *ir.Context, tab *kernels.Table, target ir.Target, name, src string) string {
	t.Helper()
	p, _, err := pirtext.Parse(ctx, name, []byte(src), pirtext.ReadOptions{})
	require.NoError(t, err, name)
	var b strings.Builder
	for _, d := range kernels.Diagnostics(p, target, kernels.Check(p, tab, target)) {
		b.WriteString(d.Error() + "\n")
	}
	return b.String()
}

func section(t *testing.T, ar *txtar.Archive, name string, required bool) string {
	t.Helper()
	for _, f := range ar.Files {
		if f.Name == name {
			return string(f.Data)
		}
	}
	if required && !(name == "findings" && golden.Update()) {
		t.Fatalf("no section %s", name)
	}
	return ""
}

func setSection(ar *txtar.Archive, name, text string) {
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			ar.Files[i].Data = []byte(text)
			return
		}
	}
	ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(text)})
}
