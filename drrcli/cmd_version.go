package drrcli

import (
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"
)

// version is the drrc release; builds from a checkout also report their module version.
const version = "0.1.0"

func init() {
	register(&command{
		name:    "version",
		usage:   "version",
		summary: "print drrc's version",
		help: `
Version prints the drrc version, the Go version it was built with, and the module version when known.

Examples:
  drrc version`,
		setup: func(fs *flag.FlagSet) func(*CLI, []string) int {
			return func(c *CLI, args []string) int {
				mod := ""
				if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
					mod = " (" + bi.Main.Version + ")"
				}
				fmt.Fprintf(c.Stdout, "drrc %s%s %s %s/%s\n", version, mod, runtime.Version(), runtime.GOOS, runtime.GOARCH)
				return exitOK
			}
		},
	})
}
