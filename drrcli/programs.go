package drrcli

import (
	"fmt"
	"io"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
)

// readProgram reads the program at path — a file, a program folder, or "-" for standard input (read once and
// kept, so that diagnostics can quote it) — and returns it with its format and the reader's warnings.
func (c *CLI) readProgram(ctx *ir.Context, path string) (*ir.Program, *pirfile.Format, ir.Diagnostics, error) {
	formats := c.formats()
	if path == "-" {
		if c.stdin == nil {
			src, err := io.ReadAll(c.Stdin)
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
// files). It may run on several goroutines at once: each call reads the sources it needs.
func (c *CLI) renderDiags(ds ir.Diagnostics) string {
	if len(ds) == 0 {
		return ""
	}
	return c.formats().Render(ds, pirfile.Sources(map[string][]byte{"<stdin>": c.stdin}))
}

// renderError renders an error: as positioned diagnostics when it carries them (a reader's error), else its text;
// the result ends in a newline.
func (c *CLI) renderError(err error) string {
	if ds, ok := pirfile.DiagnosticsOf(err); ok {
		return c.renderDiags(ds)
	}
	return err.Error() + "\n"
}
