package drrcli

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pirdrr/drr/drrtest"
	"github.com/pirdrr/drr/internal/textdiff"
)

var update = flag.Bool("update", false, "rewrite docs/cli.md from the help texts")

// cliDocPath is the CLI reference, generated from the help texts.
var cliDocPath = filepath.Join("..", "docs", "cli.md")

// cliDoc renders docs/cli.md: the top-level usage and every command's help, exactly as drrc help prints them.
func cliDoc() string {
	cmds := append([]*command(nil), commands...)
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].name < cmds[j].name })
	var b strings.Builder
	b.WriteString("# drrc command reference\n\n")
	b.WriteString("<!-- Generated from the help texts of package drrcli by `go test ./drrcli -run TestCLIDoc -update`. Do not edit:\n")
	b.WriteString("     change the help field of the command's register call instead. -->\n\n")
	b.WriteString("This page is what `drrc help` and `drrc help COMMAND` print, for every command; a test keeps it current.\n")
	b.WriteString("For a walk through the commands see [getting-started.md](getting-started.md); for the rule language,\n")
	b.WriteString("[language.md](language.md); for speed, [performance.md](performance.md).\n\n")
	b.WriteString("Flags may come before, between or after the arguments (`drrc convert in.json -o out.pir`); `--` ends the\n")
	b.WriteString("flags. Exit status: 0 success, 1 failures or findings, 2 usage errors, 3 an internal error (a bug in drrc).\n\n")
	b.WriteString("| command | summary |\n|---|---|\n")
	for _, c := range cmds {
		b.WriteString("| [`" + c.name + "`](#drrc-" + c.name + ") | " + c.summary + " |\n")
	}
	b.WriteString("\n## drrc\n\n```text\n$ drrc help\n")
	b.WriteString(usageText())
	b.WriteString("```\n")
	for _, c := range cmds {
		b.WriteString("\n## drrc " + c.name + "\n\n```text\n$ drrc help " + c.name + "\n")
		b.WriteString(helpText(c))
		b.WriteString("```\n")
	}
	return b.String()
}

// TestCLIDoc fails when docs/cli.md is not what the help texts say; -update rewrites it.
func TestCLIDoc(t *testing.T) {
	want := cliDoc()
	if *update {
		if err := os.WriteFile(cliDocPath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(cliDocPath)
	if err != nil {
		t.Fatalf("%v (generate it with: go test ./drrcli -run TestCLIDoc -update)", err)
	}
	if string(got) != want {
		t.Errorf("docs/cli.md is not current; run: go test ./drrcli -run TestCLIDoc -update\n%s",
			textdiff.Unified("docs/cli.md", "help texts", string(got), want))
	}
}

// TestCLIDocMatchesHelp checks that the generated page holds what the help command prints, so the page cannot
// drift from the program even if helpText changes how it renders.
func TestCLIDocMatchesHelp(t *testing.T) {
	doc := cliDoc()
	code, out, _ := run(t, "", "help")
	if code != exitOK || !strings.Contains(doc, out) {
		t.Errorf("drrc help output is not in docs/cli.md:\n%s", out)
	}
	for _, c := range commands {
		code, out, _ := run(t, "", "help", c.name)
		if code != exitOK || !strings.Contains(doc, out) {
			t.Errorf("drrc help %s output is not in docs/cli.md:\n%s", c.name, out)
		}
	}
}

// TestDocGoldenArchives runs every ```txtar block of docs/*.md as a golden test (drrc test): the archives the
// documentation shows must pass as shown.
func TestDocGoldenArchives(t *testing.T) {
	docs, err := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(data), "\n")
		for i := 0; i < len(lines); i++ {
			if strings.TrimRight(lines[i], "\n") != "```txtar" {
				continue
			}
			start := i + 1
			var body strings.Builder
			for i++; i < len(lines) && strings.TrimRight(lines[i], "\n") != "```"; i++ {
				body.WriteString(lines[i])
			}
			n++
			name := filepath.Base(doc) + ":" + strconv.Itoa(start)
			path := filepath.Join(t.TempDir(), "doc.txtar")
			if err := os.WriteFile(path, []byte(body.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := drrtest.RunFile(path, drrtest.Options{})
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			for _, f := range res.Failures {
				t.Errorf("%s: %s", name, f)
			}
		}
	}
	if n == 0 {
		t.Fatal("no ```txtar block found in docs/*.md")
	}
}

// TestArchitectureWalkthrough keeps "One rule, end to end" of docs/architecture.md true: what it shows drrc
// automaton printing for its rule file is what drrc automaton prints (the plans, the tree, the remainders).
func TestArchitectureWalkthrough(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n### One rule, end to end\n")
	if !ok {
		t.Fatal("docs/architecture.md has no section One rule, end to end")
	}
	section, _, _ = strings.Cut(section, "\n### ")
	_, rest, ok1 := strings.Cut(section, "```drr\n")
	rules, rest, ok2 := strings.Cut(rest, "```\n")
	_, rest, ok3 := strings.Cut(rest, "```text\n")
	want, _, ok4 := strings.Cut(rest, "```\n")
	if !ok1 || !ok2 || !ok3 || !ok4 {
		t.Fatal("the section needs a drr block (the rules) followed by a text block (what drrc automaton prints)")
	}
	file := filepath.Join(t.TempDir(), "walk.drr")
	if err := os.WriteFile(file, []byte(rules), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "", "automaton", file)
	if code != exitOK {
		t.Fatalf("drrc automaton: exit %d: %s", code, errs)
	}
	if out != want {
		t.Errorf("docs/architecture.md shows another automaton than drrc automaton prints:\n%s",
			textdiff.Unified("docs/architecture.md", "drrc automaton", want, out))
	}
}
