// Package drrcli is the drrc command line as a library: cmd/drrc runs it with the shipped rule sets and passes, and
// a team with its own native constraints, native rewrites or Go passes builds its own drrc that has them:
//
//	package main
//
//	import (
//		"os"
//
//		"github.com/pirdrr/drr/drrcli"
//		"github.com/pirdrr/drr/rewriter"
//
//		_ "example.com/ourpasses" // registers into rewriter.Default from its init
//	)
//
//	func main() { os.Exit(drrcli.Main(rewriter.Default)) }
//
// Every command then resolves the plugins' natives in rule files and their passes in -passes.
package drrcli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/internal/fileio"
	"github.com/pirdrr/drr/internal/suggest"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rules"
)

// Exit codes, as Go tools use them.
const (
	exitOK       = 0 // success
	exitFailure  = 1 // failures or findings (errors in a program or a rule file, failed tests, …)
	exitUsage    = 2 // bad command line
	exitInternal = 3 // a bug in drrc (a recovered panic)
)

// CLI is one invocation of drrc: its output streams, so that commands run the same in tests.
type CLI struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// IsTerminal reports whether Stderr is a terminal (progress lines are drawn only then).
	IsTerminal bool
	// Plugins, if set, holds native constraints, native rewrites, passes and pipelines added to the shipped ones.
	// Every command uses the one registry of both (rule files' natives, -passes, -set, drrc test's archives).
	Plugins *rewriter.Registry
	// Formats are the program formats commands read and write (nil: pirfile.Standard()).
	Formats *pirfile.Registry
	// Getenv reads the environment (nil: os.Getenv): the shard variables of drrc verify and drrc apply.
	Getenv func(string) string

	reg         *rewriter.Registry // built on first use by registry()
	stdin       []byte             // standard input, once read as a program (its diagnostics quote it)
	maxFileSize int64              // -max-file-size (0: the defaults, drr's and pirfile's DefaultMaxFileSize)
	maxDiags    int                // -max-diagnostics, per file (0: all; unset: defaultMaxDiagnostics)
	maxDiagsSet bool               // -max-diagnostics was parsed (so that 0 means all, not unset)
}

// command is one subcommand of drrc.
type command struct {
	name    string
	usage   string // the synopsis after "drrc "
	summary string // one line for the command list
	help    string // the long help: what it does, flags are appended, then examples
	// setup declares the command's flags and returns the function that runs it with them.
	setup func(fs *flag.FlagSet) func(c *CLI, args []string) int
}

var commands []*command

func register(cmd *command) { commands = append(commands, cmd) }

func commandNames() []string {
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	return names
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// Run runs drrc with the given arguments (without the program name) and returns the exit code.
func (c *CLI) Run(args []string) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(c.Stderr, "drrc: internal error: %v\nPlease report this with the command line and input files.\n", r)
			code = exitInternal
		}
	}()
	if len(args) == 0 {
		return runDefault(c)
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		if len(args) > 1 && args[0] == "help" {
			return c.help(args[1])
		}
		c.usage(c.Stdout)
		return exitOK
	}
	cmd := lookup(args[0])
	if cmd == nil {
		fmt.Fprintf(c.Stderr, "drrc: %s\n", suggest.Unknown("command", args[0], commandNames()))
		c.usage(c.Stderr)
		return exitUsage
	}
	fs := flag.NewFlagSet("drrc "+cmd.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	run := cmd.setup(fs)
	positional, err := parseInterleaved(fs, args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(c.Stdout, helpText(cmd))
			return exitOK
		}
		fmt.Fprintf(c.Stderr, "drrc %s: %v\nusage: drrc %s\nRun 'drrc help %s' for details.\n", cmd.name, err, cmd.usage, cmd.name)
		return exitUsage
	}
	return run(c, positional)
}

// parseInterleaved parses flags that may come before, between and after the positional arguments (drrc convert
// in.json -o out.pir), as most command lines are written; "--" ends the flags.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

func (c *CLI) usage(w io.Writer) {
	fmt.Fprint(w, usageText())
}

// usageText is the top-level help.
func usageText() string {
	var b strings.Builder
	b.WriteString("drrc applies declarative rewrite rules (.drr files) to Paddle PIR programs.\n\nUsage:\n\n")
	b.WriteString("\tdrrc                  run the default inference pipeline on the embedded sample model\n")
	b.WriteString("\tdrrc <command> [flags] [arguments]\n\nThe commands are:\n\n")
	cmds := append([]*command(nil), commands...)
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].name < cmds[j].name })
	for _, cmd := range cmds {
		fmt.Fprintf(&b, "\t%-10s %s\n", cmd.name, cmd.summary)
	}
	b.WriteString("\nUse \"drrc help <command>\" for more information about a command.\n")
	b.WriteString("Use \"drrc help builtins\" for the builtin functions of where clauses.\n")
	b.WriteString("Exit status: 0 success, 1 failures or findings, 2 usage errors, 3 an internal error (a bug in drrc).\n")
	fmt.Fprintf(&b, "\nLimits, each a clear error rather than a crash: drrc reads regular files only (not devices or FIFOs),\n"+
		"rule files and their imports up to %s, programs, each file of a GraphNet graph and standard input up to\n"+
		"%s (-max-file-size raises both). In a rule file, brackets and conditionals nest at most %d deep, as in\n"+
		"PIR text and GraphNet's Python, and an expression is at most %d levels of operators and brackets deep (each\n"+
		"operator of a chain is a level). A rule pass that reaches -max-rewrites (20 per op + 10000) or\n"+
		"-max-iterations (10) before converging fails: drrc apply writes nothing unless -keep-going. drrc prints at\n"+
		"most -max-diagnostics (%d) diagnostics of each file, then how many more there are.\n",
		fileio.FormatSize(drr.DefaultMaxFileSize), fileio.FormatSize(pirfile.DefaultMaxFileSize), drr.MaxNesting, rule.MaxExprDepth,
		defaultMaxDiagnostics)
	return b.String()
}

func (c *CLI) help(name string) int {
	if topic, ok := helpTopics[name]; ok {
		fmt.Fprint(c.Stdout, topic())
		return exitOK
	}
	cmd := lookup(name)
	if cmd == nil {
		names := commandNames()
		for t := range helpTopics {
			names = append(names, t)
		}
		fmt.Fprintf(c.Stderr, "drrc help: %s\n", suggest.Unknown("command", name, names))
		return exitUsage
	}
	fmt.Fprint(c.Stdout, helpText(cmd))
	return exitOK
}

// helpText renders a command's help: synopsis, description, flags.
func helpText(cmd *command) string {
	var b strings.Builder
	fmt.Fprintf(&b, "usage: drrc %s\n\n", cmd.usage)
	desc, examples, _ := strings.Cut(strings.TrimSpace(cmd.help), "\nExamples:\n")
	b.WriteString(strings.TrimSpace(desc))
	b.WriteString("\n")
	fs := flag.NewFlagSet(cmd.name, flag.ContinueOnError)
	cmd.setup(fs)
	var flags []string
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		line := "  -" + f.Name
		if name != "" {
			line += " " + name
		}
		line += "\n    \t" + strings.ReplaceAll(usage, "\n", "\n    \t")
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "[]" {
			line += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		flags = append(flags, line)
	})
	if len(flags) > 0 {
		b.WriteString("\nFlags:\n")
		for _, l := range flags {
			b.WriteString(l)
			b.WriteString("\n")
		}
	}
	if examples != "" {
		b.WriteString("\nExamples:\n")
		b.WriteString(examples)
		b.WriteString("\n")
	}
	return b.String()
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// contextFlags are the flags of every command that reads rules or programs: the op catalogs it works with, and the
// size limit of what it reads.
type contextFlags struct {
	unregistered bool
	dialects     listFlag
	maxFileSize  sizeFlag
	maxDiags     int
}

func (cf *contextFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&cf.unregistered, "unregistered", false, "load no op catalog: every op is unregistered (as MLIR's --allow-unregistered-dialect)")
	fs.Var(&cf.dialects, "dialect", "load an extra dialect catalog `file` (repeatable)")
	registerMaxFileSize(fs, &cf.maxFileSize)
	registerMaxDiagnostics(fs, &cf.maxDiags)
}

// context builds the Context the flags ask for, and makes -max-file-size the limit of c's reads.
func (cf *contextFlags) context(c *CLI) (*ir.Context, error) {
	c.useMaxFileSize(cf.maxFileSize)
	c.maxDiags, c.maxDiagsSet = cf.maxDiags, true
	ctx := ir.NewContext()
	if !cf.unregistered {
		if err := ctx.LoadDefaultDialects(); err != nil {
			return nil, err
		}
	}
	for _, d := range cf.dialects {
		src, err := fileio.ReadFile(d, c.programLimit())
		if err != nil {
			return nil, err
		}
		if _, err := ctx.LoadCatalog(d, src); err != nil {
			return nil, err
		}
	}
	return ctx, nil
}

// errorf prints an error of a command and returns exitFailure.
func (c *CLI) errorf(cmd, format string, args ...any) int {
	fmt.Fprintf(c.Stderr, "drrc %s: %s\n", cmd, fmt.Sprintf(format, args...))
	return exitFailure
}

// usageErrorf prints a usage error of a command and returns exitUsage.
func (c *CLI) usageErrorf(cmd, format string, args ...any) int {
	u := lookup(cmd)
	fmt.Fprintf(c.Stderr, "drrc %s: %s\n", cmd, fmt.Sprintf(format, args...))
	if u != nil {
		fmt.Fprintf(c.Stderr, "usage: drrc %s\nRun 'drrc help %s' for details.\n", u.usage, cmd)
	}
	return exitUsage
}

// Main runs drrc on the process's arguments and standard streams, with the shipped rule sets and passes and those
// of plugins (nil for none), and returns the exit status.
func Main(plugins *rewriter.Registry) int {
	c := &CLI{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, IsTerminal: isTerminal(os.Stderr), Plugins: plugins}
	return c.Run(os.Args[1:])
}

// registry returns the registry every command of this invocation uses: the shipped rule sets (compiled to Go,
// falling back on the interpreted set where the catalog makes the compiled one stale) and passes, and the plugins'.
// It is built once.
func (c *CLI) registry() (*rewriter.Registry, error) {
	if c.reg != nil {
		return c.reg, nil
	}
	reg := rewriter.NewRegistry()
	if err := rules.Register(reg); err != nil {
		return nil, err
	}
	if err := registerCompiled(reg); err != nil {
		return nil, err
	}
	if c.Plugins != nil {
		if err := reg.Merge(c.Plugins); err != nil {
			return nil, fmt.Errorf("plugins: %w", err)
		}
	}
	c.reg = reg
	return reg, nil
}

// formats returns the program formats of this invocation.
func (c *CLI) formats() *pirfile.Registry {
	if c.Formats == nil {
		c.Formats = pirfile.Standard()
		c.Formats.MaxFileSize = c.maxFileSize
	}
	return c.Formats
}

// isTerminal reports whether f is a character device (a terminal), without extra dependencies.
func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
