package drrcli

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/rulegen"
	"github.com/pirdrr/drr/rulegen/paddle"
)

func init() {
	register(&command{
		name:    "gen",
		usage:   "gen -rules FILE.drr|DIR -pkg NAME [-o FILE.go|DIR] [flags]\n  or: gen -lang paddle -rules FILE.drr [-o FILE.cc] [flags]",
		summary: "compile rule files to Go (a rule pass for plugins) or to a Paddle C++ DRR pass",
		help: `
Gen compiles a rule file (with its imports) into a Go file that registers as a rule pass like any plugin pass: the
rules are checked against the op catalogs as drrc apply checks them, and each rule's matching plan (the one the
automaton runs and drrc automaton prints) is written out as plain, gofmt'ed Go: one function per rule, a term of
a && chain per plan instruction, a loop per choice (either, users of a value), constraints compiled to Go. The
instances of a family share their function, which reads their op kinds and constants from a table, and
constraints the op catalog decides (inplace_op, has_trait of a matched op) are decided when the code is written;
the instances of a variadic group (one per element count) have a function each. The file embeds the rule files (or, with -fs, reads them from a function's fs.FS) and exports one
rewriter.PassFactory, NAMEPass (the pass name in CamelCase: conv_bn_relu gives ConvBnReluPass), for
Registry.RegisterPass. The pass runs under rewriter's Driver and Applier: it finds the matches the interpreted
automaton finds, best first, and rewrites programs to the same bytes with the same statistics. When the pass is
built it checks the rules against the programs' Context again and refuses to run if they check differently
(another catalog, another version of pirdrr): run drrc gen again.
See docs/plugins.md, "Compiled rules".

With -rules DIR, every DIR/*.drr becomes a pass of its own, written to the folder -o as NAME.go, with passes.go
listing them (a map Passes from pass name to factory); generated files of rule files that are gone are deleted.
A rule file that other files of the folder import has its rules' functions written once, in its own pass, and
the importing passes name them (conv_bn_relu.go names conv2d_bn_fuse.go's conv2d_bn_fold). Errors print as file:line:col with the source line, and then no file is written. An existing file that drrc gen
did not write is never overwritten. A go:generate line keeps the Go in step with the rules:

  //go:generate drrc gen -rules tuning.drr -pkg tuning -o tuning_rules.go

With -lang paddle, gen writes the rule file as a C++ file for Paddle's own DRR engine: one
paddle::drr::DrrPatternBase per rule (one per operand order of its commutative ops), the where clauses as
AddConstraint lambdas, the rewrite as a ResultPattern, and a pir::PatternRewritePass NAME_pass registered with
REGISTER_IR_PASS. A rule Paddle's DRR cannot express (or would match differently) is an error at its position
saying why; -partial writes the other rules and reports those as warnings. -native-cpp FILE gives the C++ of the
native constraints the rules call. See docs/paddle-export.md.

Examples:
  drrc gen -lang paddle -rules rules/silu_fuse.drr -o silu_fuse_pass.cc
  drrc gen -rules tuning.drr -pkg tuning -o tuning_rules.go
  drrc gen -rules rules/ -pkg compiled -o rules/compiled -fs github.com/pirdrr/drr/rules.FS
  drrc gen -unregistered -rules testdata/bench/mlir_equivalent.drr -pkg bench -name rules -o -`,
		setup: func(fs *flag.FlagSet) func(*CLI, []string) int {
			var cf contextFlags
			cf.register(fs)
			rules := fs.String("rules", "", "the rule `file` to compile, or a folder of rule files (one pass each)")
			pkg := fs.String("pkg", "", "the Go package `name` of the generated code")
			out := fs.String("o", "-", "the Go `file` to write (with -lang paddle, the C++ file; - for standard output); with a folder of rules, the folder to write to")
			name := fs.String("name", "", "the pass `name` (default: the rule file's name without .drr)")
			fn := fs.String("func", "", "the name of the exported pass factory (default: the pass name in CamelCase, then Pass)")
			lang := fs.String("lang", "go", "the `language` to write: go (a rule pass) or paddle (a Paddle C++ DRR pass)")
			nativeCPP := fs.String("native-cpp", "", "with -lang paddle: the C++ `file` defining the native constraints the rules call")
			partial := fs.Bool("partial", false, "with -lang paddle: write the rules Paddle can express, reporting the others as warnings")
			fsFunc := fs.String("fs", "", "read the rule files at run time from this Go `function` returning an fs.FS (import path, dot, name: github.com/pirdrr/drr/rules.FS) instead of embedding them")
			return func(c *CLI, args []string) int {
				if len(args) > 0 {
					return c.usageErrorf("gen", "unexpected arguments %s (the rules are given with -rules)", strings.Join(args, " "))
				}
				if *rules == "" {
					return c.usageErrorf("gen", "no rule file: give one with -rules")
				}
				switch *lang {
				case "go":
					if *nativeCPP != "" || *partial {
						return c.usageErrorf("gen", "-native-cpp and -partial are for -lang paddle")
					}
				case "paddle":
					if *pkg != "" || *fn != "" || *fsFunc != "" {
						return c.usageErrorf("gen", "-pkg, -func and -fs are for -lang go")
					}
					return c.genPaddle(&cf, *rules, *out, *name, *nativeCPP, *partial)
				default:
					return c.usageErrorf("gen", "-lang %q: the languages are go and paddle", *lang)
				}
				if *pkg == "" {
					return c.usageErrorf("gen", "no package name: give one with -pkg")
				}
				if err := rulegen.CheckPackageName(*pkg); err != nil {
					return c.usageErrorf("gen", "-pkg: %v", err)
				}
				ctx, err := cf.context(c)
				if err != nil {
					return c.errorf("gen", "%v", err)
				}
				cfg := rulegen.Config{Package: *pkg, Name: *name, Func: *fn, FS: *fsFunc, Unregistered: cf.unregistered,
					MaxFileSize: c.maxFileSize}
				info, err := os.Stat(*rules)
				if err != nil {
					return c.errorf("gen", "%v", err)
				}
				if !info.IsDir() {
					code, diags := rulegen.GenerateFile(ctx, *rules, cfg)
					c.printRuleDiags(diags, false)
					if diags.HasErrors() {
						return exitFailure
					}
					if *out == "-" {
						_, err := c.Stdout.Write(code)
						if err != nil {
							return c.errorf("gen", "%v", err)
						}
						return exitOK
					}
					if err := writeGenerated(*out, code); err != nil {
						return c.errorf("gen", "%v", err)
					}
					return exitOK
				}
				if *name != "" || *fn != "" {
					return c.usageErrorf("gen", "-name and -func name one pass: a folder of rules makes one per file")
				}
				if *out == "-" {
					return c.usageErrorf("gen", "a folder of rules needs an output folder: give one with -o")
				}
				return c.genDir(ctx, *rules, *out, cfg)
			}
		},
	})
}

// genPaddle writes the Paddle C++ pass of one rule file.
func (c *CLI) genPaddle(cf *contextFlags, rules, out, name, nativeCPP string, partial bool) int {
	ctx, err := cf.context(c)
	if err != nil {
		return c.errorf("gen", "%v", err)
	}
	if info, err := os.Stat(rules); err == nil && info.IsDir() {
		return c.usageErrorf("gen", "-lang paddle takes one rule file, not a folder")
	}
	cfg := paddle.Config{Name: name, Partial: partial, Unregistered: cf.unregistered, MaxFileSize: c.maxFileSize}
	if nativeCPP != "" {
		src, err := paddle.ReadNativeCPP(nativeCPP)
		if err != nil {
			return c.errorf("gen", "%v", err)
		}
		cfg.NativeCPP = src
	}
	code, _, diags := paddle.GenerateFile(ctx, rules, cfg)
	c.printRuleDiags(diags, false)
	if code == nil {
		return exitFailure
	}
	if out == "-" {
		if _, err := c.Stdout.Write(code); err != nil {
			return c.errorf("gen", "%v", err)
		}
		return exitOK
	}
	if err := writeGenerated(out, code); err != nil {
		return c.errorf("gen", "%v", err)
	}
	return exitOK
}

// genDir compiles every rule file of dir into a file of out, with the index, and deletes the generated files of
// rule files that are gone. Nothing is written when a file has errors.
func (c *CLI) genDir(ctx *ir.Context, dir, out string, cfg rulegen.Config) int {
	files, err := filepath.Glob(filepath.Join(dir, "*.drr"))
	if err != nil {
		return c.errorf("gen", "%v", err)
	}
	if len(files) == 0 {
		return c.errorf("gen", "%s holds no rule file (*.drr)", dir)
	}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = filepath.Base(f)
	}
	sort.Strings(names)
	generated, diags := rulegen.GenerateDir(ctx, dir, names, cfg)
	c.printRuleDiags(diags, false)
	if generated == nil {
		return exitFailure
	}
	write := map[string][]byte{}
	for name, code := range generated {
		write[filepath.Join(out, name)] = code
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return c.errorf("gen", "%v", err)
	}
	// Check every target before writing any, so that a refusal writes nothing.
	for path := range write {
		if err := replaceableOutput(path, generatedHeader, "drrc gen"); err != nil {
			return c.errorf("gen", "%v", err)
		}
	}
	paths := make([]string, 0, len(write))
	for path := range write {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		if err := pirfile.WriteFile(path, write[path]); err != nil {
			return c.errorf("gen", "%v", err)
		}
	}
	old, _ := filepath.Glob(filepath.Join(out, "*.go"))
	for _, path := range old {
		if _, ok := write[path]; ok {
			continue
		}
		if data, err := os.ReadFile(path); err == nil && bytes.HasPrefix(data, []byte(generatedHeader+";")) {
			if err := os.Remove(path); err != nil {
				return c.errorf("gen", "%v", err)
			}
			fmt.Fprintf(c.Stderr, "drrc gen: deleted %s: its rule file is gone\n", path)
		}
	}
	return exitOK
}

// generatedHeader starts every file drrc gen writes.
const generatedHeader = "// Code generated by drrc gen"

// writeGenerated writes generated code to path, refusing to replace a file drrc gen did not write.
func writeGenerated(path string, code []byte) error {
	if err := replaceableOutput(path, generatedHeader, "drrc gen"); err != nil {
		return err
	}
	return pirfile.WriteFile(path, code)
}
