package layers

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// listed is what the test reads of `go list -json`.
type listed struct {
	ImportPath  string
	Imports     []string
	TestImports []string
}

// moduleImports runs `go list -deps -json ./...` at the module's root and returns, for each package of the
// module, the packages of the module it imports; with tests, the imports of its in-package test files count too
// (they are compiled into the package; external _test packages may import anything, as examples do).
func moduleImports(t *testing.T, tests bool) map[string][]string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("layers: the go command is not on PATH, so the import graph cannot be listed")
	}
	cmd := exec.Command(goTool, "list", "-deps", "-json", "./...")
	cmd.Dir = filepath.Join("..", "..")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go list: %s", stderr.String())
	imports := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else {
			require.NoError(t, err)
		}
		from, ok := Relative(p.ImportPath)
		if !ok {
			continue
		}
		all := p.Imports
		if tests {
			all = append(append([]string(nil), all...), p.TestImports...)
		}
		seen := map[string]bool{}
		imports[from] = []string{}
		for _, imp := range all {
			if to, ok := Relative(imp); ok && !seen[to] {
				seen[to] = true
				imports[from] = append(imports[from], to)
			}
		}
		sort.Strings(imports[from])
	}
	require.NotEmpty(t, imports, "go list found no package of %s", Module)
	return imports
}

func TestModuleFollowsTable(t *testing.T) {
	for _, tests := range []bool{false, true} {
		name := map[bool]string{false: "packages", true: "with in-package tests"}[tests]
		t.Run(name, func(t *testing.T) {
			vs, err := Check(Table, moduleImports(t, tests))
			require.NoError(t, err)
			for _, v := range vs {
				t.Error(v)
			}
		})
	}
}

func TestTableListsOnlyRealPackages(t *testing.T) {
	imports := moduleImports(t, false)
	for _, l := range Table {
		for _, p := range l.Packages {
			_, ok := imports[p]
			assert.True(t, ok, "layer %q lists %s, which is not a package of the module", l.Name, p)
		}
	}
}

func TestCheck(t *testing.T) {
	table := []Layer{
		{Name: "low", Packages: []string{"a", "b"}},
		{Name: "mid", Peers: true, Packages: []string{"c", "d"}},
		{Name: "high", Packages: []string{"e"}},
	}
	tests := []struct {
		name    string
		imports map[string][]string
		want    []string
	}{
		{"downward imports pass", map[string][]string{"e": {"c", "a"}, "c": {"a", "b"}, "a": nil}, nil},
		{"peers where allowed", map[string][]string{"c": {"d"}, "d": nil}, nil},
		{"upward import", map[string][]string{"a": {"e"}, "e": nil},
			[]string{`a imports e: layer "low" may not import the higher layer "high"`}},
		{"peers where not allowed", map[string][]string{"a": {"b"}, "b": nil},
			[]string{`a imports b: the packages of layer "low" may not import each other`}},
		{"unplaced package", map[string][]string{"z": {"a"}},
			[]string{`z: in no layer of internal/layers.Table`}},
		{"sorted", map[string][]string{"c": {"e"}, "a": {"d", "c"}}, []string{
			`a imports c: layer "low" may not import the higher layer "mid"`,
			`a imports d: layer "low" may not import the higher layer "mid"`,
			`c imports e: layer "mid" may not import the higher layer "high"`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vs, err := Check(table, tt.imports)
			require.NoError(t, err)
			var got []string
			for _, v := range vs {
				got = append(got, v.String())
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestCheckRejectsPackageInTwoLayers(t *testing.T) {
	_, err := Check([]Layer{{Name: "x", Packages: []string{"a"}}, {Name: "y", Packages: []string{"a"}}}, nil)
	assert.EqualError(t, err, `layers: a is in layer "x" and in layer "y"`)
}

// TestArchitectureDocFollowsTable checks the diagram of docs/architecture.md against the table: along its main
// line (`ir ◀── drr/rule ◀── …`), each group of packages sits in a higher layer than the group before it, and
// packages of one group share a layer.
func TestArchitectureDocFollowsTable(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "architecture.md"))
	require.NoError(t, err)
	var line string
	for _, l := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(l, "ir  ◀──") {
			line = l
		}
	}
	require.NotEmpty(t, line, "docs/architecture.md has no diagram line starting with `ir  ◀──`")
	at, err := Index(Table)
	require.NoError(t, err)
	prev, prevGroup := -1, ""
	for _, group := range strings.Split(line, "◀──") {
		group = strings.TrimSpace(group)
		layer := -1
		for _, p := range strings.Split(group, ",") {
			p = strings.TrimSpace(p)
			i, ok := at[p]
			if !assert.True(t, ok, "the diagram names %s, which no layer lists", p) {
				continue
			}
			if layer >= 0 {
				assert.Equal(t, Table[layer].Name, Table[i].Name, "the diagram groups %s, which the table puts in different layers", group)
			}
			layer = i
		}
		assert.Greater(t, layer, prev, "the diagram puts %s after %s, but the table does not put it higher", group, prevGroup)
		prev, prevGroup = layer, group
	}
}
