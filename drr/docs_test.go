package drr_test

// The examples of the documentation are checked: every ```drr block of docs/*.md and README.md is loaded with
// drr.LoadSource against the default op catalogs.
//
// Conventions (the same as .ci/newcomer's; see the comment at the top of docs/getting-started.md):
//
//   - ```drr               a complete rule file that must check without any diagnostic;
//   - ```drr error         a file that must fail to check; the first ```text block after it (before the next ```drr
//     block) shows what the checker reports: either the rendered diagnostics (file:line:col: error: message, the
//     source line and a caret, as drrc check prints them) or only their first lines;
//   - ```drr warning       a file that checks with warnings only, shown the same way;
//   - file=PATH            names the block's file: diagnostics carry that name, and the other blocks of the same
//     document may import it (without file=, the block is named example.drr).
//
// README.md labels none of its blocks, so there a block without a language whose first line starts a declaration
// (rule, family, native, import) or a doc comment is checked as ```drr.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// fence is one fenced code block of a markdown file.
type fence struct {
	lang  string
	attrs map[string]string // file=PATH → "file": PATH; a bare word w → w: ""
	line  int               // line of the opening fence (1-based)
	body  string
}

// fences returns the fenced code blocks of a markdown document, in order.
func fences(src string) []fence {
	var out []fence
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "```") {
			continue
		}
		ticks := len(l) - len(strings.TrimLeft(l, "`"))
		info := strings.Fields(l[ticks:])
		f := fence{attrs: map[string]string{}, line: i + 1}
		if len(info) > 0 {
			f.lang = info[0]
			for _, a := range info[1:] {
				k, v, _ := strings.Cut(a, "=")
				f.attrs[k] = v
			}
		}
		var body []string
		for i++; i < len(lines); i++ {
			t := strings.TrimRight(lines[i], " \t")
			if strings.HasPrefix(t, strings.Repeat("`", ticks)) && strings.Trim(t, "`") == "" {
				break
			}
			body = append(body, lines[i])
		}
		f.body = strings.Join(body, "\n")
		if len(body) > 0 {
			f.body += "\n"
		}
		out = append(out, f)
	}
	return out
}

var declStart = regexp.MustCompile(`^(rule|family|native|param|import)\b|^///?`)

// docFiles returns the documents whose examples are checked: docs/*.md and README.md.
func docFiles(t *testing.T) []string {
	docs, err := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append(docs, filepath.Join("..", "README.md"))
}

func TestDocExamples(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, doc := range docFiles(t) {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		blocks := fences(string(data))
		isReadme := filepath.Base(doc) == "README.md"
		isDRR := func(b fence) bool {
			return b.lang == "drr" || isReadme && b.lang == "" && declStart.MatchString(b.body)
		}
		// The files a document's examples may import.
		fsys := fstest.MapFS{}
		for _, b := range blocks {
			if name := b.attrs["file"]; isDRR(b) && name != "" {
				fsys[name] = &fstest.MapFile{Data: []byte(b.body)}
			}
		}
		for i, b := range blocks {
			if !isDRR(b) {
				continue
			}
			total++
			where := doc + ":" + strconv.Itoa(b.line)
			name := b.attrs["file"]
			if name == "" {
				name = "example.drr"
			}
			_, diags := drr.LoadSource(ctx, drr.LoadOptions{FS: fsys}, name, []byte(b.body))
			_, wantError := b.attrs["error"]
			_, wantWarning := b.attrs["warning"]
			switch {
			case !wantError && !wantWarning:
				if len(diags) > 0 {
					t.Errorf("%s: the example does not check cleanly:\n%s", where, diags.Render([]byte(b.body)))
				}
				continue
			case wantError && !diags.HasErrors():
				t.Errorf("%s: the example is marked error but checks without errors:\n%s", where, diags.Render([]byte(b.body)))
				continue
			case wantWarning && (diags.HasErrors() || len(diags) == 0):
				t.Errorf("%s: the example is marked warning but produces:\n%s", where, diags.Render([]byte(b.body)))
				continue
			}
			// The expected diagnostics: the next text block before the next drr block.
			var want *fence
			for _, nb := range blocks[i+1:] {
				if isDRR(nb) {
					break
				}
				if nb.lang == "text" {
					want = &nb
					break
				}
			}
			rendered := diags.Render([]byte(b.body))
			if want == nil {
				t.Errorf("%s: no ```text block shows the diagnostics of the example; they are:\n%s", where, rendered)
				continue
			}
			got := strings.TrimRight(want.body, "\n")
			if got != strings.TrimRight(rendered, "\n") && got != diags.Error() {
				t.Errorf("%s: the ```text block at line %d does not show the diagnostics of the example.\nwant (rendered):\n%s\nor (messages only):\n%s\nthe document shows:\n%s",
					where, want.line, rendered, diags.Error(), want.body)
			}
		}
	}
	if total == 0 {
		t.Fatal("no ```drr example found in the documentation")
	}
}

// TestDocBuiltins checks that docs/language.md lists every builtin of rule.Builtins, with its signature and doc, in
// the table after the marker comment.
func TestDocBuiltins(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "docs", "language.md"))
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	want.WriteString("| builtin | needs | meaning |\n|---|---|---|\n")
	for _, b := range rule.Builtins {
		needs := " "
		if b.Program {
			needs = " program "
		}
		fmt.Fprintf(&want, "| `%s(%s) %s` |%s| %s |\n", b.Name, strings.Join(b.Params, ", "), b.Result, needs, b.Doc)
	}
	const marker = "<!-- The table below must list rule.Builtins exactly (drr/docs_test.go checks it). -->\n"
	doc := string(data)
	i := strings.Index(doc, marker)
	if i < 0 {
		t.Fatalf("docs/language.md: marker %q not found", marker)
	}
	table := doc[i+len(marker):]
	if j := strings.Index(table, "\n\n"); j >= 0 {
		table = table[:j+1]
	}
	if table != want.String() {
		t.Errorf("docs/language.md: the builtins table is not rule.Builtins; it should read:\n%s", want.String())
	}
}

// TestDocFences checks the extraction itself on a small document.
func TestDocFences(t *testing.T) {
	doc := "text\n```drr error file=a.drr\nrule r {\n```\n\n````text\n```\ninner\n````\n"
	fs := fences(doc)
	if len(fs) != 2 {
		t.Fatalf("got %d blocks, want 2: %+v", len(fs), fs)
	}
	if fs[0].lang != "drr" || fs[0].attrs["file"] != "a.drr" || fs[0].line != 2 || fs[0].body != "rule r {\n" {
		t.Errorf("first block: %+v", fs[0])
	}
	if _, ok := fs[0].attrs["error"]; !ok {
		t.Errorf("first block: error attribute missing: %+v", fs[0])
	}
	if fs[1].lang != "text" || fs[1].body != "```\ninner\n" {
		t.Errorf("second block: %+v", fs[1])
	}
}
