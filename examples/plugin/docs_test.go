package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestPluginsDoc keeps docs/plugins.md true to this example: the Go functions it quotes are those of plugin.go, and
// the output it shows is what the example prints.
func TestPluginsDoc(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "plugins.md"))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("plugin.go")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```(go|text)\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	quoted := 0
	for _, b := range blocks {
		if b[1] == "go" && strings.HasPrefix(b[2], "func ") && !strings.HasPrefix(b[2], "func (r *Registry)") {
			quoted++
			if !strings.Contains(string(src), strings.TrimSpace(b[2])) {
				t.Errorf("docs/plugins.md quotes a function that is not in plugin.go as written:\n%s", b[2])
			}
		}
	}
	if quoted == 0 {
		t.Error("docs/plugins.md quotes no function of plugin.go")
	}
	var out bytes.Buffer
	if err := run(&out); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, b := range blocks {
		if b[1] == "text" && b[2] == out.String() {
			found = true
		}
	}
	if !found {
		t.Errorf("docs/plugins.md does not show the example's output; it is:\n%s", out.String())
	}
}
