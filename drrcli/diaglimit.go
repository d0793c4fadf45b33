package drrcli

import (
	"flag"
	"fmt"

	"github.com/pirdrr/drr/diag"
)

// defaultMaxDiagnostics is how many diagnostics of one file drrc prints unless -max-diagnostics says otherwise: a
// malformed program can have one per op (43,000 lines of output at 8,000 blocks), and the first ones are those a
// user acts on, as compilers stop after a number of errors (Go's after 10, clang's after 20).
const defaultMaxDiagnostics = 50

// registerMaxDiagnostics declares -max-diagnostics.
func registerMaxDiagnostics(fs *flag.FlagSet, n *int) {
	fs.IntVar(n, "max-diagnostics", defaultMaxDiagnostics, "print at most `n` diagnostics of each file, then how many more there are (0: all)")
}

// limitDiagnostics returns the diagnostics of ds that are printed, and how many are left out: at most n for each
// file (all when n <= 0), in their order.
func limitDiagnostics(ds diag.Diagnostics, n int) (diag.Diagnostics, int) {
	if n <= 0 || len(ds) <= n {
		return ds, 0
	}
	perFile := map[string]int{}
	shown := make(diag.Diagnostics, 0, n)
	for _, d := range ds {
		if perFile[d.Pos.Filename] < n {
			perFile[d.Pos.Filename]++
			shown = append(shown, d)
		}
	}
	return shown, len(ds) - len(shown)
}

// moreDiagnostics is the line that says how many diagnostics were left out ("" for none).
func moreDiagnostics(left int) string {
	if left == 0 {
		return ""
	}
	return fmt.Sprintf("drrc: %d more diagnostics not shown (-max-diagnostics 0 shows all)\n", left)
}
