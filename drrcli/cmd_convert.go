package drrcli

import (
	"flag"
	"fmt"
	"io"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
)

func init() {
	register(&command{
		name:    "convert",
		usage:   "convert [flags] PROGRAM -o OUTPUT",
		summary: "convert a program between PIR text and PIR JSON (or round-trip it)",
		help: `
Convert reads a program in PIR text (.pir) or PIR JSON (.json, Paddle's inference.json) and writes it in the
format of the output's extension, or -format. Converting a file to its own format is a round trip: PIR JSON is
re-written byte for byte as Paddle writes it, PIR text as Paddle prints it. The output is written atomically;
nothing is written when the input has errors. "-" reads standard input or writes standard output.

JSON → text → JSON is lossless: op-result attributes and parameter flags are ordinary attributes in text, and
floats print with as many digits as they need.

Examples:
  drrc convert inference.json -o model.pir
  drrc convert model.pir -o model.json
  drrc convert -untagged model.pir -o -`,
		setup: func(fs *flag.FlagSet) func(*CLI, []string) int {
			var cf contextFlags
			cf.register(fs)
			out := fs.String("o", "", "write the program to `file` (\"-\" for standard output)")
			format := fs.String("format", "", "output format `pir|json` (default: from the output's extension)")
			untagged := fs.Bool("untagged", false, "print PIR text attributes in the newer untagged syntax")
			version := fs.Int("json-version", 0, "PIR JSON `version` to write (default: the version read)")
			return func(c *CLI, args []string) int {
				if len(args) != 1 {
					return c.usageErrorf("convert", "need exactly one input program")
				}
				if *out == "" {
					return c.usageErrorf("convert", "need -o OUTPUT")
				}
				f := pirfile.FormatOf(*out)
				if *format != "" {
					var err error
					if f, err = pirfile.ParseFormat(*format); err != nil {
						return c.usageErrorf("convert", "%v", err)
					}
				}
				ctx, err := cf.context()
				if err != nil {
					return c.errorf("convert", "%v", err)
				}
				p, ok := c.loadProgram("convert", ctx, args[0])
				if !ok {
					return exitFailure
				}
				data, err := pirfile.Marshal(p, f, pirfile.Options{Untagged: *untagged, JSONVersion: *version})
				if err != nil {
					return c.errorf("convert", "%v", err)
				}
				if *out == "-" {
					c.Stdout.Write(data)
				} else if err := pirfile.WriteFile(*out, data); err != nil {
					return c.errorf("convert", "%v", err)
				}
				return exitOK
			}
		},
	})
}

// loadProgram reads a program, printing reader warnings and errors; ok is false on errors.
func (c *CLI) loadProgram(cmd string, ctx *ir.Context, path string) (*ir.Program, bool) {
	var p *ir.Program
	var warns ir.Diagnostics
	var err error
	if path == "-" {
		var src []byte
		if src, err = io.ReadAll(c.Stdin); err == nil {
			p, warns, err = pirfile.Parse(ctx, "<stdin>", src, pirfile.Detect(src))
		}
	} else {
		p, warns, err = pirfile.Load(ctx, path)
	}
	for _, w := range warns {
		fmt.Fprintln(c.Stderr, w.String())
	}
	if err != nil {
		fmt.Fprintf(c.Stderr, "%v\n", err)
		return nil, false
	}
	return p, true
}
