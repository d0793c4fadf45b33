package pirfile

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
)

// Format is one program format: how users name it, how files or folders of it are recognized, and how it is read
// and written. A format that only writes (MLIR) leaves the read functions nil, and the other way round.
type Format struct {
	// Name is what -format takes ("pir", "json", "mlir"); names are lower case and unique in a registry.
	Name string
	// Aliases are other names -format accepts ("text" for pir).
	Aliases []string
	// Doc says in a few words what the format is, for help texts and error messages.
	Doc string
	// Extensions are the file name extensions of the format, lower case with the dot; the first names outputs.
	// Folder formats usually have none.
	Extensions []string
	// Dir is set for formats whose programs are folders (GraphNet: model.py, weight_meta.py, input_meta.py).
	Dir bool
	// Files are, for a folder format, the names of the files of a program folder that the format reads and writes
	// (GraphNet's model.py, weight_meta.py, input_meta.py and graph_net.json). The registry checks that they are
	// regular files within its size limit before ReadDir reads them; the folder's other files are the user's.
	Files []string

	// Sniff reports whether file contents are in this format (nil: recognized by extension only).
	Sniff func(src []byte) bool
	// SniffDir reports whether a folder holds one program of this (folder) format.
	SniffDir func(dir string) bool

	// Read reads a program from the contents of a file; name is the file name used in positions and errors.
	// Warnings come back as diagnostics, the error says why the file could not be read.
	Read func(ctx *ir.Context, name string, src []byte) (*ir.Program, diag.Diagnostics, error)
	// LoadFile, if set, reads a program straight from the file at path, for a format that does better than holding
	// the whole file in memory (PIR text maps it and hands the pages it has read back); Load prefers it to Read.
	LoadFile func(ctx *ir.Context, path string) (*ir.Program, diag.Diagnostics, error)
	// ReadDir reads the program held in a folder.
	ReadDir func(ctx *ir.Context, dir string) (*ir.Program, diag.Diagnostics, error)
	// Write writes a program to w.
	Write func(w io.Writer, p *ir.Program, opts Options) error
	// WriteDir writes a program into dir, an existing folder (empty, or a program folder of this format) that may
	// hold the user's other files: it writes only the files of the format, each atomically and keeping the mode of
	// the file it replaces (internal/fileio's WriteAtomic), and leaves the others alone; it writes nothing when
	// the program cannot be encoded.
	WriteDir func(dir string, p *ir.Program, opts Options) error

	// Locate, if set, names the element of the file that each position falls in (for PIR JSON: the JSON path of
	// the op whose object starts there, "/program/regions/0/blocks/0/ops/5"), "" where it knows none. It is called
	// on the cold path of error reporting only.
	Locate func(src []byte, locs []ir.Loc) []string
}

// Options configure writing; each format reads the fields that concern it.
type Options struct {
	// Untagged prints PIR text in the newer untagged attribute syntax.
	Untagged bool
	// JSONVersion is the PIR JSON version to write (0: the version the program was read with).
	JSONVersion int
	// Internal writes pirdrr's internal forms, which Paddle cannot load (pd_op.v_tensor types, the pd_op.to_tensor
	// and pd_op.to_vtensor copies), into formats Paddle reads (PIR JSON), instead of refusing them (see Loadable).
	Internal bool
	// Name is the name of the output without folders and extension, for formats that record one (GraphNet's
	// model_name); Save sets it from the path when it is empty.
	Name string
	// Streamed says that the output goes into a file written atomically, which a failed write leaves as it was
	// (Save sets it): a format that learns only as it encodes a program whether it can may then write as it goes
	// (PIR JSON past 64 MiB) instead of holding the output until the end.
	Streamed bool
}

// String returns the format's name.
func (f *Format) String() string { return f.Name }

// CanRead reports whether programs can be read in this format.
func (f *Format) CanRead() bool { return f.Read != nil || f.ReadDir != nil }

// CanWrite reports whether programs can be written in this format.
func (f *Format) CanWrite() bool { return f.Write != nil || f.WriteDir != nil }

// HasExtension reports whether path ends in one of the format's extensions (ignoring case).
func (f *Format) HasExtension(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	for _, e := range f.Extensions {
		if ext == e {
			return true
		}
	}
	return false
}

// OutputName turns the name of an input program (without directories or with them) into the name of the output
// written in this format. A file's extension is replaced by the format's first one (model.json → model.pir), or
// dropped by a folder format (model.json → model); a name already right is kept. A folder (folder set: a GraphNet
// graph) has no extension, whatever dots its name holds: the whole name is kept and the extension added
// (ernie-2.0-base-zh → ernie-2.0-base-zh.pir).
func (f *Format) OutputName(in string, folder bool) string {
	if f.HasExtension(in) {
		return in
	}
	base := in
	if !folder {
		base = strings.TrimSuffix(in, filepath.Ext(in))
	}
	if f.Dir || len(f.Extensions) == 0 {
		return base
	}
	return base + f.Extensions[0]
}

// readFile reads a program file of this format.
func (f *Format) readFile(ctx *ir.Context, name string, src []byte) (*ir.Program, diag.Diagnostics, error) {
	if f.Read == nil {
		return nil, nil, fmt.Errorf("%s: pirdrr does not read %s (%s)", name, f.Name, f.Doc)
	}
	return f.Read(ctx, name, src)
}
