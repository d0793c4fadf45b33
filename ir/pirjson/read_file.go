package pirjson

import (
	"runtime/debug"

	"github.com/pirdrr/drr/internal/mapfile"
	"github.com/pirdrr/drr/ir"
)

// ReadFile reads the PIR JSON model in the file at path, as Read does, without keeping the file in memory: where
// the system can map files (Linux), the file is mapped read-only and the pages the reader has passed are handed
// back to the system as it goes (internal/mapfile), so that a large model costs the memory of its IR and not that
// of its JSON too; elsewhere the file is read whole. Program.File and error positions name path.
//
// A mapped file that shrinks while it is read is reported as an error, not a crash.
func ReadFile(ctx *ir.Context, path string, opts ReadOptions) (*ir.Program, error) {
	file, err := mapfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	return readOpened(ctx, path, file, opts)
}

// readOpened is ReadFile once the file is open.
func readOpened(ctx *ir.Context, path string, file *mapfile.Source, opts ReadOptions) (*ir.Program, error) {
	// A fault in the mapped file (it was truncated under us) becomes a panic, which read reports as an error.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	return read(ctx, path, file.Data, opts, readHooks{file: file})
}
