package drrcli

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/internal/fileio"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/kernels"
	"github.com/pirdrr/drr/lint"
)

func init() {
	register(&command{
		name:    "check",
		usage:   "check [flags] FILE...",
		summary: "check rule files (.drr) and programs (.pir, .json, GraphNet folders)",
		help: `
Check checks each file without changing anything. A rule file (.drr) is parsed and checked against the op
catalogs — unknown ops, operand and result counts, attribute names and kinds, unbound holes, values a rewrite would
leave dangling, duplicate and shadowed rules — with its imports. A rule file that checks is then linted, and the
findings print as warnings: two rules that can match the same op with the same benefit (which one wins depends on
their order), a rule whose result matches its own pattern again or two rules that undo each other (the driver
can loop), and a rule no program can make fire. -lint=false skips the lint. A program (.pir, .json, or a GraphNet
graph folder) is read and verified: definitions dominate uses across regions, operand/result counts and attribute
kinds match the schemas, if and while bodies end with cf.yield. A folder that is not a program is the programs
below it, each checked in turn (a GraphNet sample: its subgraph_N graphs, in order), followed by a count. Problems
print as file:line:col: severity: message (the column counts bytes, as Go's tools count it), with the source line
and a caret under the column (errors about an op of a PIR JSON file also name its JSON path,
/program/regions/0/...; those of a GraphNet graph point into its model.py), at most -max-diagnostics of each file
(50; 0 prints all) followed by how many more there are. The exit status is 1 if any file has errors (warnings
alone do not fail).

With -target gpu:smNN (or cpu), a program that checks is also checked against Paddle's kernels for that target
(the kernel table ir/catalog/kernels_gpu.kernels): every op must have a kernel for the data type it runs in, and
its attribute values, shapes and the GPU's compute capability must be ones the kernel accepts
(fused_conv2d_add_act's cuDNN kernel fuses no swish; flash_attn needs float16 or bfloat16 on sm 80 or newer; a
weight-only linear must be quantized for the target's architecture; …). Each finding names the op, the
constraint and the Paddle source it comes from; an op the table does not list is a warning (not checked). The
same check is the pass kernel_check, to put last in drrc apply -passes.

Examples:
  drrc check rules/my_fusion.drr
  drrc check inference.json
  drrc check GraphNet/paddle_samples/PaddleNLP/bert-base-cased
  drrc check GraphNet/paddle_samples/PaddleX/FCOS-ResNet50
  drrc check -unregistered -dialect my.dialect model.pir
  drrc check -target gpu:sm80 fused.json`,
		setup: func(fs *flag.FlagSet) func(*CLI, []string) int {
			var cf contextFlags
			cf.register(fs)
			var target targetFlag
			target.register(fs)
			quiet := fs.Bool("q", false, "print errors only, not warnings")
			lint := fs.Bool("lint", true, "lint rule files that check: overlapping rules, rewrite loops, rules that never fire")
			return func(c *CLI, args []string) int {
				if len(args) == 0 {
					return c.usageErrorf("check", "no files to check")
				}
				ctx, err := cf.context(c)
				if err != nil {
					return c.errorf("check", "%v", err)
				}
				var table *kernels.Table
				if !target.t.IsZero() {
					if table, err = kernels.Load(ctx, target.t); err != nil {
						return c.errorf("check", "%v", err)
					}
				}
				failed := false
				for _, path := range args {
					if isRuleFile(path) {
						failed = !c.checkRules(ctx, path, cf.unregistered, *quiet, *lint) || failed
						continue
					}
					progs, err := c.programsOf(path)
					if err != nil {
						fmt.Fprintf(c.Stderr, "drrc check: %v\n", err)
						failed = true
						continue
					}
					bad := 0
					for _, prog := range progs {
						if !c.checkProgram(ctx, prog, *quiet, table, target.t) {
							bad++
						}
					}
					if len(progs) > 1 || progs[0] != path {
						fmt.Fprintf(c.Stderr, "%s: %s checked, %d with errors\n", path, nouns(len(progs), "program"), bad)
					}
					failed = failed || bad > 0
				}
				if failed {
					return exitFailure
				}
				return exitOK
			}
		},
	})
}

func isRuleFile(path string) bool { return strings.EqualFold(filepath.Ext(path), ".drr") }

// checkRules loads a rule file, lints it if it checks, and prints the diagnostics; it reports whether there were
// no errors.
func (c *CLI) checkRules(ctx *ir.Context, path string, unregistered, quiet, withLint bool) bool {
	set, diags := drr.Load(ctx, c.loadOptions(drr.CheckOptions{Unregistered: unregistered}), path)
	if set != nil && withLint {
		diags = append(diags, lint.Diagnostics(set)...)
		diags.Sort()
	}
	c.printRuleDiags(diags, quiet)
	return !diags.HasErrors()
}

// printRuleDiags renders rule-file diagnostics with their source lines, at most -max-diagnostics of each file.
func (c *CLI) printRuleDiags(diags diag.Diagnostics, quiet bool) {
	if quiet {
		diags = diags.Errors()
	}
	diags, left := limitDiagnostics(diags, c.diagnosticLimit())
	sources := map[string]*diag.Lines{} // one line index a file: its diagnostics cost one scan of it
	for _, d := range diags {
		lines, ok := sources[d.Pos.Filename]
		if !ok {
			src, _ := fileio.ReadFile(d.Pos.Filename, c.ruleFileLimit())
			lines = diag.NewLines(src)
			sources[d.Pos.Filename] = lines
		}
		fmt.Fprint(c.Stderr, d.RenderLines(lines))
	}
	fmt.Fprint(c.Stderr, moreDiagnostics(left))
}

// checkProgram reads and verifies a program and, with a kernel table, checks that Paddle can run its ops on the
// target; it reports whether there were no errors.
func (c *CLI) checkProgram(ctx *ir.Context, path string, quiet bool, table *kernels.Table, target ir.Target) bool {
	p, ok := c.loadProgram("check", ctx, path)
	if !ok {
		return false
	}
	diags := ir.Verify(p)
	if table != nil && len(diags.Errors()) == 0 {
		diags = append(diags, kernels.Diagnostics(p, target, kernels.Check(p, table, target))...)
	}
	shown := diags
	if quiet {
		shown = diags.Errors()
	}
	fmt.Fprint(c.Stderr, c.renderDiags(shown))
	return len(diags.Errors()) == 0
}
