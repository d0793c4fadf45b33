package drrcli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pirdrr/drr/internal/sample"
)

// mineDoc is the page TestMineDoc runs.
var mineDoc = filepath.Join("..", "docs", "mine.md")

// TestMineDoc walks through docs/mine.md as a reader would, from a folder holding the sample model where the
// repository has it (internal/sample/): every ```sh block runs and must print what the ```text block after it shows.
func TestMineDoc(t *testing.T) {
	page, err := os.ReadFile(mineDoc)
	if err != nil {
		t.Fatal(err)
	}
	steps := docSteps(t, string(page))
	if len(steps) == 0 {
		t.Fatal("no ```sh block in docs/mine.md")
	}
	dir := t.TempDir()
	write(t, dir, filepath.Join("internal", "sample", sample.Name), string(sample.JSON()))
	t.Chdir(dir)
	runDocSteps(t, mineDoc, steps)
	src, err := os.ReadFile(filepath.Join("mined", "mined_6_matmul_add.drr"))
	if err != nil {
		t.Fatal(err)
	}
	if want := drrBlock(t, string(page)); want != string(src) {
		t.Errorf("docs/mine.md shows a skeleton that is not what drrc mine writes:\n%s", src)
	}
}

// drrBlock returns the page's ```drr block.
func drrBlock(t *testing.T, page string) string {
	t.Helper()
	const open = "```drr\n"
	i := strings.Index(page, open)
	if i < 0 {
		t.Fatal("no ```drr block")
	}
	rest := page[i+len(open):]
	j := strings.Index(rest, "\n```\n")
	if j < 0 {
		t.Fatal("unterminated ```drr block")
	}
	return rest[:j+1]
}
