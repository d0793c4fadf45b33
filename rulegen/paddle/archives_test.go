package paddle

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr"
)

// TestEveryRuleOfTheRepository runs the generator on every rule file of the repository (its golden archives,
// testdata with the hostile inputs, examples, the shipped rules): each checked rule file gives C++ or positioned refusals,
// never a panic, and a refusal is never silent.
func TestEveryRuleOfTheRepository(t *testing.T) {
	ctx := newContext(t)
	files, rules, exported := 0, 0, 0
	err := filepath.WalkDir(filepath.Join("..", ".."), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		var a *txtar.Archive
		switch {
		case strings.HasSuffix(path, ".txtar"):
			if a, err = txtar.ParseFile(path); err != nil {
				return nil
			}
		case strings.HasSuffix(path, ".drr"):
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			a = &txtar.Archive{Files: []txtar.File{{Name: filepath.Base(path), Data: data}}}
		default:
			return nil
		}
		for _, f := range a.Files {
			if !strings.HasSuffix(f.Name, ".drr") {
				continue
			}
			set, diags := drr.LoadSource(ctx, drr.LoadOptions{}, f.Name, f.Data)
			if diags.HasErrors() {
				continue // a file with imports, or an error case of its archive
			}
			files++
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s: %s: the generator panics: %v", path, f.Name, r)
					}
				}()
				code, res, diags := Generate(set, diag.Position{Filename: f.Name, Line: 1, Column: 1},
					Config{Name: "t", Partial: true})
				rules += res.Total
				exported += res.Exported
				if res.Exported < res.Total {
					assert.NotEmpty(t, diags, "%s: %s: %d rules not exported without a word", path, f.Name,
						res.Total-res.Exported)
				}
				if code != nil {
					assert.True(t, strings.HasPrefix(string(code), Header), "%s: %s", path, f.Name)
				}
			}()
		}
		return nil
	})
	require.NoError(t, err)
	t.Logf("%d rule files (in archives and .drr files), %d of their %d rule instances exported", files, exported, rules)
	assert.Greater(t, files, 50)
}
