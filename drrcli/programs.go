package drrcli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
)

// readProgram reads the program at path — a file, a program folder, or "-" for standard input (read once and
// kept, so that diagnostics can quote it) — and returns it with its format and the reader's warnings.
func (c *CLI) readProgram(ctx *ir.Context, path string) (*ir.Program, *pirfile.Format, diag.Diagnostics, error) {
	formats := c.formats()
	if path == "-" {
		if c.stdin == nil {
			src, err := c.readStdin(c.programLimit())
			if err != nil {
				return nil, nil, nil, err
			}
			c.stdin = src
		}
		f := formats.DetectContent("<stdin>", c.stdin)
		p, warns, err := formats.Parse(ctx, "<stdin>", c.stdin, f)
		return p, f, warns, err
	}
	f, err := formats.Detect(path)
	if err != nil {
		return nil, nil, nil, err
	}
	p, warns, err := formats.Load(ctx, path)
	return p, f, warns, err
}

// loadProgram reads a program as readProgram does, printing the reader's warnings and, on failure, the error with
// its source line and a caret; ok is false on errors.
func (c *CLI) loadProgram(cmd string, ctx *ir.Context, path string) (*ir.Program, bool) {
	p, _, warns, err := c.readProgram(ctx, path)
	fmt.Fprint(c.Stderr, c.renderDiags(warns))
	if err != nil {
		fmt.Fprint(c.Stderr, c.renderError(err))
		return nil, false
	}
	return p, true
}

// renderDiags renders program diagnostics with their source lines and carets (and the JSON path of ops in PIR JSON
// files), at most -max-diagnostics of each file followed by how many more there are. It may run on several
// goroutines at once: each call reads the sources it needs.
func (c *CLI) renderDiags(ds diag.Diagnostics) string {
	if len(ds) == 0 {
		return ""
	}
	shown, left := limitDiagnostics(ds, c.diagnosticLimit())
	return c.formats().Render(shown, pirfile.Sources(map[string][]byte{"<stdin>": c.stdin})) + moreDiagnostics(left)
}

// diagnosticLimit is the number of diagnostics of a file drrc prints: -max-diagnostics, or its default for the
// commands that have no such flag.
func (c *CLI) diagnosticLimit() int {
	if !c.maxDiagsSet {
		return defaultMaxDiagnostics
	}
	return c.maxDiags
}

// renderError renders an error: as positioned diagnostics when it carries them (a reader's error), else its text;
// the result ends in a newline.
func (c *CLI) renderError(err error) string {
	if ds, ok := pirfile.DiagnosticsOf(err); ok {
		return c.renderDiags(ds)
	}
	return err.Error() + "\n"
}

// programsOf returns the programs an argument names: the argument itself for a file, a program folder (a GraphNet
// graph) or "-"; for any other folder, the programs below it (files of the formats that read, and program folders
// such as a GraphNet sample's subgraph_N graphs, numbers in order). A folder holding no program is an error.
func (c *CLI) programsOf(arg string) ([]string, error) {
	if arg == "-" {
		return []string{arg}, nil
	}
	progs, err := c.formats().Expand(arg)
	if err != nil {
		return nil, err
	}
	if len(progs) == 0 {
		return nil, fmt.Errorf("%s: no programs in this folder (files of the formats %s, or program folders such as GraphNet graphs)",
			arg, c.formats().Names(true))
	}
	return progs, nil
}

// programName names a program of a folder in headers: its path relative to the folder given (subgraph_3 for a
// graph of a sample), or the path itself.
func programName(arg, prog string) string {
	if rel, err := filepath.Rel(arg, prog); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return prog
}

// isSampleFolder reports whether the programs Expand found in arg are the graphs of a GraphNet sample: folders
// named subgraph_N directly inside it. A sample's statistics are the sums of its graphs'.
func isSampleFolder(arg string, progs []string) bool {
	if len(progs) == 0 {
		return false
	}
	for _, p := range progs {
		base := filepath.Base(p)
		n, ok := strings.CutPrefix(base, "subgraph_")
		if !ok || n == "" || strings.Trim(n, "0123456789") != "" || filepath.Clean(filepath.Dir(p)) != filepath.Clean(arg) {
			return false
		}
		if info, err := os.Stat(p); err != nil || !info.IsDir() {
			return false
		}
	}
	return true
}
