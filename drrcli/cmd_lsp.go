package drrcli

import (
	"context"
	"flag"
	"log"
	"os"
	"time"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/lsp"
)

func init() {
	register(&command{
		name:    "lsp",
		usage:   "lsp [flags]",
		summary: "run the language server for .drr files (VS Code, Neovim, any LSP editor)",
		help: `
Lsp runs a Language Server Protocol 3.17 server on standard input and output, for editors: VS Code
(editors/vscode) and Neovim (editors/nvim) start it themselves; see docs/editors.md. It reports the diagnostics
drrc check reports (lint included) as a file changes, and answers hover (op schemas from the catalog, builtins,
what is known of a value or hole), completion (ops, the attributes of the op being written, builtins, values,
holes, families), go to definition, references, document symbols, signature help, inlay hints (what the checker
knows of a value, operand names), formatting (drrc fmt), rename, quick fixes for did-you-mean diagnostics and
semantic tokens. Its commands show what a file compiles to (the matcher automaton, as drrc automaton prints it)
and apply the file's rules to a program (a code lens "apply to…": PIR text or JSON, or a GraphNet folder; nothing
is written) with the rewrites per rule. The catalog flags are those of drrc check; natives and passes are the
shipped ones and the plugins'. The server logs to standard error, or to -log.

Examples:
  drrc lsp
  drrc lsp -dialect my.dialect -log /tmp/drrc-lsp.log`,
		setup: func(fs *flag.FlagSet) func(*CLI, []string) int {
			var cf contextFlags
			cf.register(fs)
			lint := fs.Bool("lint", true, "report the lint's findings as drrc check does")
			logFile := fs.String("log", "", "append the server's log to `file` (default: standard error)")
			debounce := fs.Duration("debounce", lsp.DefaultDebounce, "check a file this long after the last change")
			fs.Bool("stdio", true, "talk over standard input and output (the only transport; accepted for clients that pass --stdio)")
			return func(c *CLI, args []string) int {
				if len(args) > 0 {
					return c.usageErrorf("lsp", "lsp takes no arguments (the editor sends the files)")
				}
				ctx, err := cf.context(c)
				if err != nil {
					return c.errorf("lsp", "%v", err)
				}
				reg, err := c.registry()
				if err != nil {
					return c.errorf("lsp", "%v", err)
				}
				logger := log.New(c.Stderr, "drrc lsp: ", log.LstdFlags)
				if *logFile != "" {
					f, err := os.OpenFile(*logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
					if err != nil {
						return c.errorf("lsp", "%v", err)
					}
					defer f.Close()
					logger.SetOutput(f)
				}
				srv := lsp.NewServer(lsp.Options{
					Context:     ctx,
					Check:       drr.CheckOptions{Unregistered: cf.unregistered},
					NoLint:      !*lint,
					Registry:    reg,
					Formats:     c.formats(),
					Debounce:    *debounce,
					MaxFileSize: c.maxFileSize,
					Logf:        logger.Printf,
					Version:     version,
				})
				start := time.Now()
				logger.Printf("started (drrc %s)", version)
				if err := srv.Serve(context.Background(), c.Stdin, c.Stdout); err != nil {
					// An exit without shutdown is status 1, as the protocol asks.
					return c.errorf("lsp", "%v", err)
				}
				logger.Printf("stopped after %v", time.Since(start).Round(time.Millisecond))
				return exitOK
			}
		},
	})
}
