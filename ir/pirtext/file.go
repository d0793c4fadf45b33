package pirtext

import (
	"runtime/debug"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/internal/mapfile"
	"github.com/pirdrr/drr/ir"
)

// ParseFile reads the PIR text program in the file at path, as Parse does, without keeping the file in memory:
// where the system can map files (Linux), the file is mapped read-only and the pages the parser has passed are
// handed back to the system as it goes, so that a 500 MB program costs the memory of its IR and not that of its
// text too; elsewhere the file is read whole. Program.File and error positions name path.
//
// A mapped file that shrinks while it is read is reported as an error, not a crash.
func ParseFile(ctx *ir.Context, path string, opts ReadOptions) (prog *ir.Program, warns diag.Diagnostics, err error) {
	src, err := mapfile.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer src.Close()
	// Faults in the mapped file (it was truncated under us) become panics, which Parse's recovery reports.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	return parse(ctx, path, src.Data, opts, &parseHooks{source: src})
}
