package drrcli

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
)

func init() {
	register(&command{
		name:    "convert",
		usage:   "convert [flags] PROGRAM -o OUTPUT",
		summary: "convert a program between formats (PIR text, PIR JSON, GraphNet, MLIR), or round-trip it",
		help: `
Convert reads a program in PIR text (.pir), PIR JSON (.json, Paddle's inference.json) or a GraphNet graph folder
(model.py, weight_meta.py, input_meta.py) and writes it in the format of the output's extension (an output
without one is written in the input's format), or -format (pir, json, graphnet, or mlir: MLIR's generic syntax,
written only). Converting a program to its own format is a round trip: PIR JSON is re-written byte for byte as
Paddle writes it, PIR text as Paddle prints it, a GraphNet graph op for op as GraphNet captures it. Nothing is
written when the input has errors. "-" reads standard input or writes standard output (a GraphNet graph is then
printed as PIR text).

A folder that is not a program holds the programs below it: a GraphNet sample folder its subgraph_N graphs. They
are all read first, and then written into the folder -o under their names (OUT/subgraph_0/, or OUT/subgraph_0.json
with -format json); nothing is written when one of them has errors.

PIR JSON and GraphNet are what Paddle loads: a program holding pirdrr's value tensors (pd_op.v_tensor, also inside
a vector) or their copies (pd_op.to_tensor, pd_op.to_vtensor) is refused, unless -internal asks for them in PIR
JSON. PIR text prints everything.

A regular output file is written atomically (a temporary file renamed over it, keeping the file's mode). A GraphNet
graph is written into its folder: model.py, weight_meta.py, input_meta.py and graph_net.json are replaced, each
atomically, and the folder's other files (notes, results, graph_hash.txt) stay; an existing folder must be empty
or a graph. A device such as /dev/null or a FIFO is written in place (a GraphNet graph as PIR text), a symbolic
link is followed, and an output that is a directory is an error for a file format; -o DIR/ (with the separator)
writes the program into DIR under its name. An output that is the input program itself is refused unless -w.

JSON → text → JSON is lossless: op-result attributes and parameter flags are ordinary attributes in text, and
floats print with as many digits as they need.

Examples:
  drrc convert inference.json -o model.pir
  drrc convert model.pir -o model.json
  drrc convert -untagged model.pir -o -
  drrc convert GraphNet/paddle_samples/PaddleNLP/bert-base-cased -o bert.json
  drrc convert GraphNet/paddle_samples/PaddleX/FCOS-ResNet50 -o fcos/
  drrc convert -format graphnet inference.json -o my_graph
  drrc convert -format mlir model.pir -o model.mlir`,
		setup: func(fs *flag.FlagSet) func(*CLI, []string) int {
			var cf contextFlags
			cf.register(fs)
			out := fs.String("o", "", "write the program to `file` (\"-\" for standard output)")
			format := fs.String("format", "", "output format `"+pirfile.Standard().Names(false)+"` (default: from the output's extension, else the input's)")
			untagged := fs.Bool("untagged", false, "print PIR text attributes in the newer untagged syntax")
			version := fs.Int("json-version", 0, "PIR JSON `version` to write (default: the version read)")
			internal := fs.Bool("internal", false, "write pirdrr's value tensors (pd_op.v_tensor) and their copies into PIR JSON, which Paddle cannot load, instead of refusing them")
			overwrite := fs.Bool("w", false, "write over the input program itself when -o names it")
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
				ctx, err := cf.context(c)
				if err != nil {
					return c.errorf("convert", "%v", err)
				}
				progs, err := c.programsOf(args[0])
				if err != nil {
					return c.errorf("convert", "%v", err)
				}
				opts := pirfile.Options{Untagged: *untagged, JSONVersion: *version, Internal: *internal}
				if len(progs) == 1 && progs[0] == args[0] {
					return c.convertOne(ctx, args[0], *out, *format, opts, *overwrite)
				}
				return c.convertFolder(ctx, args[0], progs, *out, *format, opts, *overwrite)
			}
		},
	})
}

// convertOne converts one program to out, in the named format or the one out's extension (or the input) says. An
// out that ends in a separator is the folder to write the program into, under its name (a folder format's program
// is that folder).
func (c *CLI) convertOne(ctx *ir.Context, in, out, format string, opts pirfile.Options, overwrite bool) int {
	p, inFormat, warns, err := c.readProgram(ctx, in)
	fmt.Fprint(c.Stderr, c.renderDiags(warns))
	if err != nil {
		fmt.Fprint(c.Stderr, c.renderError(err))
		return exitFailure
	}
	f, err := c.formats().OutputFormat(format, out, inFormat)
	if err != nil {
		return c.usageErrorf("convert", "%v", err)
	}
	if namesFolder(out) && !f.Dir {
		name := "stdin"
		if in != "-" {
			name = filepath.Base(in)
		}
		out = filepath.Join(out, f.OutputName(name, isFolder(in)))
	}
	if !overwrite && isOwnInput(in, out) {
		return c.usageErrorf("convert", "-o %s is the input program %s itself: -w writes over it", out, in)
	}
	if out == "-" {
		err = writeStdout(c, p, f, opts)
	} else {
		created := missingDirs(filepath.Dir(out))
		if err = os.MkdirAll(filepath.Dir(out), 0o755); err == nil {
			err = pirfile.Save(p, out, f, opts)
		}
		if err != nil {
			removeEmptyDirs(created)
		}
	}
	if err != nil {
		return c.errorf("convert", "%s: %v", out, err)
	}
	return exitOK
}

// convertFolder converts the programs of a folder (a GraphNet sample's graphs) into the folder out, each under its
// name relative to the input folder, renamed for the output format (subgraph_0 → subgraph_0.json with -format
// json). Every program is read before anything is written: an input with errors writes nothing.
func (c *CLI) convertFolder(ctx *ir.Context, in string, progs []string, out, format string, opts pirfile.Options, overwrite bool) int {
	if out == "-" || c.formats().ByExtension(out) != nil {
		return c.usageErrorf("convert", "%s holds %s: -o names the folder to write them into (with -format for another format)",
			in, nouns(len(progs), "program"))
	}
	if info, err := os.Stat(out); err == nil && !info.IsDir() {
		return c.usageErrorf("convert", "-o %s: %s holds %s, and this is a file, not a folder", out, in, nouns(len(progs), "program"))
	}
	type job struct {
		prog *ir.Program
		f    *pirfile.Format
		out  string
	}
	var jobs []job
	failed := false
	for _, path := range progs {
		p, inFormat, warns, err := c.readProgram(ctx, path)
		fmt.Fprint(c.Stderr, c.renderDiags(warns))
		if err != nil {
			fmt.Fprint(c.Stderr, c.renderError(err))
			failed = true
			continue
		}
		// Each program is written in the named format, else in its own (OUT names a folder, not a format).
		f, err := c.formats().OutputFormat(format, filepath.Join(out, programName(in, path)), inFormat)
		if err != nil {
			return c.usageErrorf("convert", "%v", err)
		}
		j := job{p, f, filepath.Join(out, f.OutputName(programName(in, path), isFolder(path)))}
		if !overwrite && isOwnInput(path, j.out) {
			return c.usageErrorf("convert", "%s would be written over the input program %s itself: -w writes over it", j.out, path)
		}
		jobs = append(jobs, j)
	}
	if failed {
		fmt.Fprintf(c.Stderr, "drrc convert: %s: nothing written, as some programs have errors\n", in)
		return exitFailure
	}
	var created []string
	for _, j := range jobs {
		created = append(created, missingDirs(filepath.Dir(j.out))...)
		err := os.MkdirAll(filepath.Dir(j.out), 0o755)
		if err == nil {
			err = pirfile.Save(j.prog, j.out, j.f, opts)
		}
		if err != nil {
			failed = true
			fmt.Fprintf(c.Stderr, "drrc convert: %s: %v\n", j.out, err)
		}
	}
	sort.Slice(created, func(i, j int) bool { return len(created[i]) > len(created[j]) }) // deepest first
	removeEmptyDirs(created)
	if failed {
		return exitFailure
	}
	return exitOK
}

// writeStdout writes a program to the CLI's standard output, buffered.
func writeStdout(c *CLI, p *ir.Program, f *pirfile.Format, opts pirfile.Options) error {
	bw := bufio.NewWriterSize(c.Stdout, 1<<16)
	if err := pirfile.Write(bw, p, f, opts); err != nil {
		return err
	}
	return bw.Flush()
}
