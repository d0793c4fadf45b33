// Command drrc applies declarative rewrite rules (.drr files) to Paddle PIR programs: apply, check, verify, test,
// explain, fmt, convert and more; run it without arguments for the default inference pipeline on an embedded
// sample model, and "drrc help" for the commands. The command line itself is package drrcli, so that teams with
// their own Go plugins can build a drrc that has them.
package main

import (
	"os"

	"github.com/pirdrr/drr/drrcli"
	"github.com/pirdrr/drr/rewriter"
)

func main() {
	startHeap(os.Getenv, os.Args[1:])
	os.Exit(drrcli.Main(rewriter.Default))
}
