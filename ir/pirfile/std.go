package pirfile

import (
	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
)

// The package-level functions below use the standard formats (Standard).

// Lookup returns the standard format a user names ("pir", "text", "json", "mlir").
func Lookup(name string) (*Format, error) { return std().Lookup(name) }

// ByExtension returns the standard file format of a path's extension, or nil.
func ByExtension(path string) *Format { return std().ByExtension(path) }

// DetectContent returns the standard format of a file from its name and contents (see Registry.DetectContent).
func DetectContent(name string, src []byte) *Format { return std().DetectContent(name, src) }

// Load reads the program at path in its standard format ("-" reads standard input); see Registry.Load.
func Load(ctx *ir.Context, path string) (*ir.Program, diag.Diagnostics, error) {
	return std().Load(ctx, path)
}

// Parse reads a program from the contents of a file, in format f (nil: the standard format DetectContent finds).
func Parse(ctx *ir.Context, name string, src []byte, f *Format) (*ir.Program, diag.Diagnostics, error) {
	return std().Parse(ctx, name, src, f)
}
