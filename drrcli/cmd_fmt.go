package drrcli

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/internal/fileio"
	"github.com/pirdrr/drr/ir/pirfile"
)

func init() {
	register(&command{
		name:    "fmt",
		usage:   "fmt [-l | -w | -d] [FILE.drr ...]",
		summary: "format rule files canonically, like gofmt",
		help: `
Fmt prints rule files in the canonical layout: two-space indentation, one statement per line, clauses in the
order doc, benefit, labels, for, match, where, rewrite, canonical spacing; comments are kept. Like gofmt, it
keeps the line breaks written inside a statement (after '(', '[', '{' and ',', before the closing bracket,
after an operator inside parentheses), normalising their indentation, and breaks a line only when it is longer
than 120 columns. Formatting is idempotent. A pasted printed-PIR line in a match block becomes the canonical
pattern syntax. With no files it formats standard input. A file with syntax errors is reported and left
unchanged. -w replaces a file atomically (a temporary file renamed over it, keeping its mode; the temporary
files of a drrc killed meanwhile are removed by the next write), except a file with several hard links, which is
rewritten in place once formatted, so that every link sees the result.

Examples:
  drrc fmt rules/conv_bn_relu.drr
  drrc fmt -l rules/
  drrc fmt -w my.drr
  drrc fmt -d my.drr`,
		setup: func(fs *flag.FlagSet) func(*CLI, []string) int {
			list := fs.Bool("l", false, "list files whose formatting differs from drrc fmt's")
			write := fs.Bool("w", false, "write the result to the file instead of standard output")
			diff := fs.Bool("d", false, "print a unified diff instead of the formatted file")
			var maxFileSize sizeFlag
			registerMaxFileSize(fs, &maxFileSize)
			return func(c *CLI, args []string) int {
				c.useMaxFileSize(maxFileSize)
				if len(args) == 0 {
					if *write || *list {
						return c.usageErrorf("fmt", "-w and -l need files")
					}
					src, err := c.readStdin(c.ruleFileLimit())
					if err != nil {
						return c.errorf("fmt", "%v", err)
					}
					return c.fmtOne("<stdin>", src, false, false, *diff)
				}
				code := exitOK
				for _, path := range expandRuleFiles(args) {
					src, err := fileio.ReadFile(path, c.ruleFileLimit())
					if err != nil {
						c.errorf("fmt", "%v", err)
						code = exitFailure
						continue
					}
					if r := c.fmtOne(path, src, *list, *write, *diff); r != exitOK {
						code = r
					}
				}
				return code
			}
		},
	})
}

func (c *CLI) fmtOne(path string, src []byte, list, write, diff bool) int {
	f, err := drr.Parse(path, src)
	if err != nil {
		if ds, ok := err.(diag.Diagnostics); ok {
			fmt.Fprint(c.Stderr, ds.Render(src))
		} else {
			fmt.Fprintln(c.Stderr, err)
		}
		return exitFailure
	}
	out := drr.Format(f)
	changed := !bytes.Equal(out, src)
	switch {
	case list:
		if changed {
			fmt.Fprintln(c.Stdout, path)
		}
	case write:
		if changed {
			if err := pirfile.WriteFile(path, out); err != nil {
				return c.errorf("fmt", "%v", err)
			}
		}
	case diff:
		if changed {
			fmt.Fprint(c.Stdout, unifiedDiff(path+".orig", path, string(src), string(out)))
		}
	default:
		c.Stdout.Write(out)
	}
	return exitOK
}

// expandRuleFiles replaces directories by the .drr files below them.
func expandRuleFiles(args []string) []string {
	var out []string
	for _, a := range args {
		info, err := os.Stat(a)
		if err != nil || !info.IsDir() {
			out = append(out, a)
			continue
		}
		out = append(out, walkFiles(a, ".drr")...)
	}
	return out
}
