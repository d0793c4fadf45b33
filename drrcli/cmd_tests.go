package drrcli

import (
	"flag"
	"fmt"
	"regexp"

	"github.com/pirdrr/drr/drrtest"
)

// The command test lives in cmd_tests.go, not cmd_test.go like the other commands: a file of that name would be
// one of the package's tests.
func init() {
	register(&command{
		name:    "test",
		usage:   "test [-update] [-run REGEXP] [-v] PATH...",
		summary: "run golden rewrite tests (txtar archives)",
		help: `
Test runs golden rewrite tests: txtar archives that hold rule files (.drr), an input program (input.pir or
input.json), optionally the passes to run (-- passes --, as drrc apply -passes spells them) and drrc apply flags
(-- options --), and the expected result: the output program (output.pir / output.json), statistics (-- stats --)
or diagnostics (-- errors --). A PATH is an archive or a directory searched recursively for *.txtar. Every rewrite is verified (verify-each). The
archive's rule files may import other files: relative to the archive's folder (an absolute path as it is), so an
archive beside the rules it tests imports the real file (import "../my_rule.drr") instead of a copy.

An -- ops -- section requires op counts of the output ("pd_op.fc: 1" a line, counted in the top-level block, as the
valid_op_map of Paddle's pass tests; "pd_op.scale + pd_op.scale_: 1" counts both together); -update never rewrites it. A section RUN:passes runs the same input once more
with other passes: its sections are RUN:options, RUN:output.pir, RUN:stats, RUN:ops and RUN:errors.

Failures print a unified diff of the expected and the produced section, with a line starting with ~ under each
changed line that marks what changed inside it ([-removed-]{+added+}); -update rewrites the expected sections
instead. An archive expects an output unless it has an errors section: a run that fails where an output is
expected (or succeeds where errors are) is a failure that -update does not write down. The rules and passes are
those of this drrc, plugins included. The same archives run under go test with package drrtest (drrtest.Run; go
test -update rewrites them the same way). -param and -target apply to every archive; an archive's own options
(-- options --: -param NAME=VALUE, -target gpu:sm80, …) win.

An archive:

  My rule fuses relu into the conv.
  -- rules.drr --
  import "../conv_relu.drr"
  -- input.pir --
  { … }
  -- output.pir --
  { … }

Examples:
  drrc test rules/testdata
  drrc test -run conv_bn -v rules/testdata
  drrc test -update my_rule.txtar`,
		setup: func(fs *flag.FlagSet) func(*CLI, []string) int {
			update := fs.Bool("update", false, "rewrite the expected sections with what the run produced")
			run := fs.String("run", "", "run only the archives whose name matches `regexp`")
			verbose := fs.Bool("v", false, "list every archive, not only failures")
			var params paramFlag
			params.register(fs)
			var maxFileSize sizeFlag
			registerMaxFileSize(fs, &maxFileSize)
			return func(c *CLI, args []string) int {
				c.useMaxFileSize(maxFileSize)
				if len(args) == 0 {
					return c.usageErrorf("test", "no archives to run")
				}
				reg, err := c.registry()
				if err != nil {
					return c.errorf("test", "%v", err)
				}
				opts := drrtest.Options{Update: *update, Registry: reg, Params: params.assigns, Target: params.target.t,
					MaxFileSize: c.programLimit()}
				if *run != "" {
					re, err := regexp.Compile(*run)
					if err != nil {
						return c.usageErrorf("test", "-run: %v", err)
					}
					opts.Run = re
				}
				var total, failed, updated int
				for _, path := range args {
					results, err := drrtest.RunPath(path, opts)
					if err != nil {
						return c.errorf("test", "%v", err)
					}
					for _, r := range results {
						total++
						switch {
						case r.Updated:
							updated++
							fmt.Fprintf(c.Stdout, "UPDATED %s\n", r.Path)
						case r.OK():
							if *verbose {
								fmt.Fprintf(c.Stdout, "ok      %s\n", r.Path)
							}
						default:
							failed++
							fmt.Fprintf(c.Stdout, "FAIL    %s\n", r.Path)
							for _, f := range r.Failures {
								fmt.Fprintf(c.Stdout, "%s\n", f)
							}
						}
					}
				}
				fmt.Fprintf(c.Stdout, "%d archives: %d passed, %d failed, %d updated\n", total, total-failed-updated, failed, updated)
				if failed > 0 {
					return exitFailure
				}
				return exitOK
			}
		},
	})
}
