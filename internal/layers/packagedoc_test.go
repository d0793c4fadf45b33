package layers

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// documented is what TestEveryPackageIsDocumented reads of `go list -json`.
type documented struct {
	ImportPath string
	Name       string
	Doc        string // the first sentence of the package comment, as go list gives it
}

// TestEveryPackageIsDocumented fails on a package of the module without a package comment, or with one that does
// not open the way go doc expects: "Package NAME …" for a library, "Command NAME …" for a main package (NAME its
// folder). `go doc ./PKG` is where a newcomer starts; a package that opens with a constant (as rewriter once did)
// tells them nothing.
func TestEveryPackageIsDocumented(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("layers: the go command is not on PATH, so the packages cannot be listed")
	}
	cmd := exec.Command(goTool, "list", "-json", "./...")
	cmd.Dir = filepath.Join("..", "..")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go list: %s", stderr.String())
	dec := json.NewDecoder(bytes.NewReader(out))
	n := 0
	for {
		var p documented
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else {
			require.NoError(t, err)
		}
		n++
		rel, _ := Relative(p.ImportPath)
		if !assert.NotEmpty(t, p.Doc, "%s has no package comment: add one (a doc.go when the package is large)", rel) {
			continue
		}
		if p.Name == "main" {
			cmdName := filepath.Base(p.ImportPath)
			assert.True(t, strings.HasPrefix(p.Doc, "Command "+cmdName+" "),
				"%s: a main package's comment opens with \"Command %s\": %q", rel, cmdName, p.Doc)
			continue
		}
		assert.True(t, strings.HasPrefix(p.Doc, "Package "+p.Name+" "),
			"%s: the package comment opens with \"Package %s\": %q", rel, p.Name, p.Doc)
	}
	require.Positive(t, n, "go list found no package")
}
