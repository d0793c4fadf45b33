package drrcli

import (
	"bufio"
	"flag"
	"fmt"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
)

func init() {
	register(&command{
		name:    "convert",
		usage:   "convert [flags] PROGRAM -o OUTPUT",
		summary: "convert a program between formats (PIR text, PIR JSON, MLIR), or round-trip it",
		help: `
Convert reads a program in PIR text (.pir) or PIR JSON (.json, Paddle's inference.json) and writes it in the
format of the output's extension, or -format (pir, json, or mlir: MLIR's generic syntax, written only). Converting
a file to its own format is a round trip: PIR JSON is re-written byte for byte as Paddle writes it, PIR text as
Paddle prints it. Nothing is written when the input has errors. "-" reads standard input or writes standard
output.

A regular output file is written atomically (a temporary file renamed over it); a device such as /dev/null or a
FIFO is written in place, a symbolic link is followed, and an output that is a directory is an error.

JSON → text → JSON is lossless: op-result attributes and parameter flags are ordinary attributes in text, and
floats print with as many digits as they need.

Examples:
  drrc convert inference.json -o model.pir
  drrc convert model.pir -o model.json
  drrc convert -untagged model.pir -o -
  drrc convert -format mlir model.pir -o model.mlir`,
		setup: func(fs *flag.FlagSet) func(*CLI, []string) int {
			var cf contextFlags
			cf.register(fs)
			out := fs.String("o", "", "write the program to `file` (\"-\" for standard output)")
			format := fs.String("format", "", "output format `"+pirfile.Standard().Names(false)+"` (default: from the output's extension, else the input's)")
			untagged := fs.Bool("untagged", false, "print PIR text attributes in the newer untagged syntax")
			version := fs.Int("json-version", 0, "PIR JSON `version` to write (default: the version read)")
			return func(c *CLI, args []string) int {
				if len(args) != 1 {
					return c.usageErrorf("convert", "need exactly one input program")
				}
				if *out == "" {
					return c.usageErrorf("convert", "need -o OUTPUT")
				}
				if *format != "" {
					if _, err := c.formats().Lookup(*format); err != nil {
						return c.usageErrorf("convert", "-format: %v", err)
					}
				}
				ctx, err := cf.context()
				if err != nil {
					return c.errorf("convert", "%v", err)
				}
				p, in, warns, err := c.readProgram(ctx, args[0])
				fmt.Fprint(c.Stderr, c.renderDiags(warns))
				if err != nil {
					fmt.Fprint(c.Stderr, c.renderError(err))
					return exitFailure
				}
				f, err := c.formats().OutputFormat(*format, *out, in)
				if err != nil {
					return c.usageErrorf("convert", "%v", err)
				}
				opts := pirfile.Options{Untagged: *untagged, JSONVersion: *version}
				if *out == "-" {
					err = writeStdout(c, p, f, opts)
				} else {
					err = pirfile.Save(p, *out, f, opts)
				}
				if err != nil {
					return c.errorf("convert", "%v", err)
				}
				return exitOK
			}
		},
	})
}

// writeStdout writes a program to the CLI's standard output, buffered.
func writeStdout(c *CLI, p *ir.Program, f *pirfile.Format, opts pirfile.Options) error {
	bw := bufio.NewWriterSize(c.Stdout, 1<<16)
	if err := pirfile.Write(bw, p, f, opts); err != nil {
		return err
	}
	return bw.Flush()
}
