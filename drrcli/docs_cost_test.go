package drrcli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pirdrr/drr/internal/sample"
)

// costDoc is the page TestCostDoc runs.
var costDoc = filepath.Join("..", "docs", "cost.md")

// TestCostDoc walks through docs/cost.md as a reader would, from a folder holding the sample model and its weights
// where the repository has them (internal/sample/): every ```sh block runs and must print what the ```text block
// after it shows.
func TestCostDoc(t *testing.T) {
	page, err := os.ReadFile(costDoc)
	if err != nil {
		t.Fatal(err)
	}
	steps := docSteps(t, string(page))
	if len(steps) == 0 {
		t.Fatal("no ```sh block in docs/cost.md")
	}
	dir := t.TempDir()
	write(t, dir, filepath.Join("internal", "sample", sample.Name), string(sample.JSON()))
	write(t, dir, filepath.Join("internal", "sample", sample.WeightsName), string(sample.Weights()))
	t.Chdir(dir)
	runDocSteps(t, costDoc, steps)
}
