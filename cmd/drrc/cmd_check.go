package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/ir"
)

func init() {
	register(&command{
		name:    "check",
		usage:   "check [flags] FILE...",
		summary: "check rule files (.drr) and programs (.pir, .json)",
		help: `
Check checks each file without changing anything. A rule file (.drr) is parsed and checked against the op
catalogs — unknown ops, operand and result counts, attribute names and kinds, unbound holes, values a rewrite would
leave dangling, duplicate and shadowed rules — with its imports. A program (.pir, .json) is read and verified:
definitions dominate uses across regions, operand/result counts and attribute kinds match the schemas, if and
while bodies end with cf.yield. Problems print as file:line:col: severity: message, with the source line and a
caret for rule files. The exit status is 1 if any file has errors (warnings alone do not fail).

Examples:
  drrc check rules/my_fusion.drr
  drrc check inference.json
  drrc check -unregistered -dialect my.dialect model.pir`,
		setup: func(fs *flag.FlagSet) func(*CLI, []string) int {
			var cf contextFlags
			cf.register(fs)
			quiet := fs.Bool("q", false, "print errors only, not warnings")
			return func(c *CLI, args []string) int {
				if len(args) == 0 {
					return c.usageErrorf("check", "no files to check")
				}
				ctx, err := cf.context()
				if err != nil {
					return c.errorf("check", "%v", err)
				}
				failed := false
				for _, path := range args {
					var ok bool
					if isRuleFile(path) {
						ok = c.checkRules(ctx, path, cf.unregistered, *quiet)
					} else {
						ok = c.checkProgram(ctx, path, *quiet)
					}
					failed = failed || !ok
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

// checkRules loads a rule file and prints its diagnostics; it reports whether there were no errors.
func (c *CLI) checkRules(ctx *ir.Context, path string, unregistered, quiet bool) bool {
	_, diags := drr.Load(ctx, drr.LoadOptions{CheckOptions: drr.CheckOptions{Unregistered: unregistered}}, path)
	c.printRuleDiags(diags, quiet)
	return !diags.HasErrors()
}

// printRuleDiags renders rule-file diagnostics with their source lines.
func (c *CLI) printRuleDiags(diags drr.Diagnostics, quiet bool) {
	sources := map[string][]byte{}
	for _, d := range diags {
		if quiet && d.Severity != drr.Error {
			continue
		}
		src, ok := sources[d.Pos.Filename]
		if !ok {
			src, _ = os.ReadFile(d.Pos.Filename)
			sources[d.Pos.Filename] = src
		}
		fmt.Fprint(c.Stderr, d.Render(src))
	}
}

// checkProgram reads and verifies a program; it reports whether there were no errors.
func (c *CLI) checkProgram(ctx *ir.Context, path string, quiet bool) bool {
	p, ok := c.loadProgram("check", ctx, path)
	if !ok {
		return false
	}
	diags := ir.Verify(p)
	for _, d := range diags {
		if quiet && d.Severity != ir.Error {
			continue
		}
		fmt.Fprintln(c.Stderr, d.String())
	}
	return len(diags.Errors()) == 0
}
