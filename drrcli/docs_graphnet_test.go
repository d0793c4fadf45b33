package drrcli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pirdrr/drr/internal/corpus"
)

// graphnetDoc is the page TestGraphNetDoc runs.
var graphnetDoc = filepath.Join("..", "docs", "graphnet.md")

// docStep is one ```sh block of a page and the ```text block that follows it.
type docStep struct {
	line     int // of the ```sh fence
	commands []string
	exit     int
	want     []string // expected lines; nil when the page shows no output
	exact    bool
}

// docSteps extracts the ```sh blocks of a page, with the conventions of .ci/newcomer (see the comment at the top of
// docs/getting-started.md): ```sh [exit=N], then optionally ```text [exact] before any other fenced block.
func docSteps(t *testing.T, text string) []docStep {
	t.Helper()
	var steps []docStep
	lines := strings.Split(text, "\n")
	pending := -1 // index in steps of a block that may still get its output
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "```") || lines[i] == "```" {
			continue
		}
		info := strings.Fields(strings.TrimPrefix(lines[i], "```"))
		start := i
		var body []string
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			body = append(body, lines[i])
		}
		switch {
		case len(info) > 0 && info[0] == "sh":
			s := docStep{line: start + 1}
			for _, opt := range info[1:] {
				if n, ok := strings.CutPrefix(opt, "exit="); ok {
					code, err := strconv.Atoi(n)
					if err != nil {
						t.Fatalf("%s:%d: bad %s", graphnetDoc, start+1, opt)
					}
					s.exit = code
				}
			}
			for _, l := range body {
				if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
					s.commands = append(s.commands, l)
				}
			}
			steps = append(steps, s)
			pending = len(steps) - 1
		case len(info) > 0 && info[0] == "text" && pending >= 0:
			steps[pending].want = body
			steps[pending].exact = len(info) > 1 && info[1] == "exact"
			pending = -1
		default:
			pending = -1
		}
	}
	return steps
}

// runDocCommand runs one command of a page: drrc (in process, standard output and error into one stream, as a
// terminal shows them) or ls.
// runDocSteps runs a page's command blocks in order in the working directory and checks each block's exit status
// and output against what the page (named doc in messages) says.
func runDocSteps(t *testing.T, doc string, steps []docStep) {
	t.Helper()
	for _, s := range steps {
		var out bytes.Buffer
		code := 0
		for _, cmd := range s.commands {
			if code = runDocCommand(t, &out, cmd); code != 0 {
				break
			}
		}
		where := fmt.Sprintf("%s:%d", doc, s.line)
		if code != s.exit {
			t.Errorf("%s: exit status %d, the page says %d; output:\n%s", where, code, s.exit, out.String())
			continue
		}
		if s.want == nil {
			continue
		}
		got := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
		if err := matchOutput(s.want, got, s.exact); err != nil {
			t.Errorf("%s: %v; output:\n%s", where, err, out.String())
		}
	}
}

func runDocCommand(t *testing.T, out *bytes.Buffer, command string) int {
	t.Helper()
	args := strings.Fields(command)
	switch args[0] {
	case "drrc":
		c := &CLI{Stdin: strings.NewReader(""), Stdout: out, Stderr: out}
		return c.Run(args[1:])
	case "ls":
		for _, dir := range args[1:] {
			entries, err := os.ReadDir(dir)
			if err != nil {
				fmt.Fprintf(out, "ls: %v\n", err)
				return 2
			}
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			sort.Strings(names)
			for _, n := range names {
				fmt.Fprintln(out, n)
			}
		}
		return 0
	}
	t.Fatalf("the page runs %q: only drrc and ls commands are supported", args[0])
	return 0
}

// matchLine reports whether an output line matches an expected one, where "…" stands for any text.
func matchLine(want, got string) bool {
	want, got = strings.TrimRight(want, " \t"), strings.TrimRight(got, " \t")
	parts := strings.Split(want, "…")
	if len(parts) == 1 {
		return want == got
	}
	if !strings.HasPrefix(got, parts[0]) {
		return false
	}
	rest := got[len(parts[0]):]
	for i, p := range parts[1:] {
		if i == len(parts)-2 {
			return strings.HasSuffix(rest, p) && len(rest) >= len(p)
		}
		k := strings.Index(rest, p)
		if k < 0 {
			return false
		}
		rest = rest[k+len(p):]
	}
	return true
}

// matchOutput checks that every expected line appears in the output, in order ("…" alone: any lines); with exact,
// that nothing else does.
func matchOutput(want, got []string, exact bool) error {
	j := 0
	skip := !exact
	for _, w := range want {
		if strings.TrimSpace(w) == "…" {
			skip = true
			continue
		}
		for {
			if j >= len(got) {
				return fmt.Errorf("expected line not found (in order): %q", w)
			}
			if matchLine(w, got[j]) {
				j++
				break
			}
			if !skip {
				return fmt.Errorf("line %q, expected %q", got[j], w)
			}
			j++
		}
		skip = !exact
	}
	if exact && !skip && j < len(got) {
		return fmt.Errorf("unexpected line %q", got[j])
	}
	return nil
}

// TestGraphNetDoc walks through docs/graphnet.md as a reader would, in a new folder where GraphNet/paddle_samples
// is the shared corpus's GraphNet samples (a clone of GraphNet has its Paddle samples there): every ```sh block
// runs and must print what the ```text block after it shows. It skips without the corpus.
func TestGraphNetDoc(t *testing.T) {
	samples := corpus.Path(t, "graphnet_samples")
	page, err := os.ReadFile(graphnetDoc)
	if err != nil {
		t.Fatal(err)
	}
	steps := docSteps(t, string(page))
	if len(steps) == 0 {
		t.Fatal("no ```sh block in docs/graphnet.md")
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "GraphNet"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(samples, filepath.Join(dir, "GraphNet", "paddle_samples")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	runDocSteps(t, graphnetDoc, steps)
}

func TestMatchOutput(t *testing.T) {
	got := []string{"a 12ms", "b", "c x y", "d"}
	tests := []struct {
		want  []string
		exact bool
		ok    bool
	}{
		{[]string{"a …", "c … y"}, false, true},
		{[]string{"c x y", "a …"}, false, false},
		{[]string{"a …", "b", "…", "d"}, true, true},
		{[]string{"a …", "c x y", "d"}, true, false},
		{[]string{"a …", "…"}, true, true},
		{[]string{"e"}, false, false},
	}
	for _, tt := range tests {
		err := matchOutput(tt.want, got, tt.exact)
		if (err == nil) != tt.ok {
			t.Errorf("matchOutput(%q, exact=%v) = %v, want ok=%v", tt.want, tt.exact, err, tt.ok)
		}
	}
}
