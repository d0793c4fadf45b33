package drrcli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/playground"
)

func init() {
	register(&command{
		name:    "serve",
		usage:   "serve [-addr 127.0.0.1:8080] [flags] [files or folders...]",
		summary: "serve the playground: write rules in the browser and see them rewrite a model",
		help: `
Serve runs the playground, a local web page for writing rules against real models: an editor with the
language server's diagnostics, hover and completion (the engine of drrc lsp); a program (two embedded samples,
a CNN and a transformer; the programs among the files given; or an upload: PIR text, PIR JSON, or a zip of
GraphNet graph folders); and the result: the rewritten program with its diff, per-pass and per-rule statistics,
an interactive graph with the matched ops highlighted (click an op for drrc explain of every rule, click a rule
to step through its matches), a pipeline view (before and after each pass, stepped with the keyboard), a verify
button (drrc verify: the per-output error table) and a share link holding the rules and the program in the
URL's fragment. The page and its scripts are embedded: nothing is loaded from the network. See
docs/playground.md.

The files and folders given are the only paths the server reads: rule files (.drr) to load into the editor or
import, and programs (.pir, .json, GraphNet folders). Folders are listed; symbolic links that lead out of them
are not followed. The server listens on 127.0.0.1 unless -addr names another address, and then answers requests
for any host name. Each run has a time budget (-run-time) and a memory budget (-grow-ops: the ops a run may add);
past either the run stops with the reason shown, and the server lives on. Uploads are bounded (-max-upload; a
zip also by what it unpacks to and its number of files).

Examples:
  drrc serve
  drrc serve -addr 127.0.0.1:9000 myrules.drr ../models/resnet50.pir
  drrc serve -run-time 30s ../shared/corpus/graphnet`,
		setup: func(fs *flag.FlagSet) func(*CLI, []string) int {
			var cf contextFlags
			cf.register(fs)
			def := playground.DefaultLimits()
			addr := fs.String("addr", "127.0.0.1:8080", "listen on `host:port` (port 0: any free port)")
			runTime := fs.Duration("run-time", def.RunTime, "stop a run after this long")
			verifyTime := fs.Duration("verify-time", def.VerifyTime, "stop a verification after this long")
			growOps := fs.Int("grow-ops", def.GrowOps, "stop a run that adds more than `n` ops to its program")
			maxUpload := fs.Int64("max-upload", def.MaxUpload, "refuse uploads larger than `bytes`")
			device := fs.String("device", cost.DefaultDevice, "estimate the runs' times on `device`: "+deviceNames()+", or a profile.json")
			return func(c *CLI, args []string) int {
				if *runTime <= 0 || *verifyTime <= 0 || *growOps <= 0 || *maxUpload <= 0 {
					return c.usageErrorf("serve", "-run-time, -verify-time, -grow-ops and -max-upload must be positive")
				}
				model, err := cost.NewModel(*device)
				if err != nil {
					return c.usageErrorf("serve", "-device: %v", err)
				}
				ctx, err := cf.context(c)
				if err != nil {
					return c.errorf("serve", "%v", err)
				}
				reg, err := c.registry()
				if err != nil {
					return c.errorf("serve", "%v", err)
				}
				ln, err := net.Listen("tcp", *addr)
				if err != nil {
					return c.errorf("serve", "%v", err)
				}
				logger := log.New(c.Stderr, "drrc serve: ", log.LstdFlags)
				lim := def
				lim.RunTime, lim.VerifyTime, lim.GrowOps, lim.MaxUpload = *runTime, *verifyTime, *growOps, *maxUpload
				srv, err := playground.New(playground.Options{
					Context:      ctx,
					Unregistered: cf.unregistered,
					Registry:     reg,
					Formats:      c.formats(),
					Files:        args,
					Public:       !loopback(ln.Addr()),
					Limits:       lim,
					Cost:         model,
					Version:      version,
					Logf:         logger.Printf,
				})
				if err != nil {
					ln.Close()
					return c.errorf("serve", "%v", err)
				}
				defer srv.Close()
				hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
				fmt.Fprintf(c.Stdout, "drrc serve: the playground is at http://%s/ (Ctrl+C stops it)\n", ln.Addr())
				stop, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
				defer cancel()
				done := make(chan error, 1)
				go func() { done <- hs.Serve(ln) }()
				select {
				case err = <-done:
				case <-stop.Done():
					sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
					defer scancel()
					srv.Close() // ends the language-server event streams, which would hold Shutdown
					err = hs.Shutdown(sctx)
				}
				if err != nil && !errors.Is(err, http.ErrServerClosed) {
					return c.errorf("serve", "%v", err)
				}
				return exitOK
			}
		},
	})
}

// loopback reports whether a listener's address is a loopback address (127.0.0.1, ::1), reachable from this
// machine only.
func loopback(a net.Addr) bool {
	ta, ok := a.(*net.TCPAddr)
	return ok && ta.IP.IsLoopback()
}
