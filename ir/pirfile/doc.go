// Package pirfile reads and writes programs in every format pirdrr knows, chosen by name, file extension or
// content, and writes output files and folders atomically.
//
// # Formats as values
//
// A Format is one program format as a value: its name (-format NAME), its file extensions, whether a program is
// a file or a folder, how to recognize its contents, and the functions that read and write it. A Registry is a
// list of formats; Standard returns one holding every format of this package:
//
//	name      extensions  reads  writes  what
//	pir       .pir        yes    yes     PIR text, as Paddle prints it (package pirtext)
//	json      .json       yes    yes     PIR JSON, Paddle's inference.json (package pirjson)
//	graphnet  (a folder)  yes    yes     a GraphNet graph: model.py, weight_meta.py, input_meta.py (package graphnet)
//	mlir      .mlir       no     yes     MLIR's generic op syntax, for MLIR tools (package mlirtext)
//
// The package-level functions (Load, Parse, Save, Lookup, …) use the standard formats; a program that adds its
// own formats builds its own registry (NewRegistry(append(Standard().Formats(), mine)...)) and calls its methods.
//
// How a program's format is found (Registry.Detect): a folder is read by the first folder format whose SniffDir
// accepts it; a file by the format of its extension, except that content recognized by a format's Sniff wins
// over an extension whose format does not sniff (a .pir file holding JSON is read as JSON); a file with an
// unknown extension and unrecognized content is read as PIR text. Registry.Expand turns a folder that is not a
// program into the programs below it: files of a readable format and the folders a folder format claims (a
// GraphNet sample folder's subgraph_N/ folders, each one graph).
//
// # Writing
//
// Formats Paddle reads refuse programs that hold pirdrr's internal forms, which Paddle would reject: the value
// tensor type pd_op.v_tensor (also inside a vector) and the pd_op.to_tensor / pd_op.to_vtensor copies (Loadable,
// InternalFormsError). PIR JSON writes them when Options.Internal asks for it; GraphNet never does (it has no
// spelling for them); PIR text and MLIR, pirdrr's readable forms, always print them.
//
// WriteFileFunc (and Save, WriteFile) write a regular file atomically: into a temporary file beside it, renamed
// over it only when everything was written, so a failure never leaves a partial file. Anything else is not
// replaced: a device (/dev/null), a FIFO or a socket is opened and written in place, a symbolic link is followed
// to the file it names, and a directory is an error. Folder formats are written the same way: into a new
// temporary folder that then replaces the target, which must be absent, empty, or a folder of that format.
//
// # Adding a format
//
// A format is one file of this package that declares its Format and registers it in the standard list from init:
//
//	// PIRText is PIR text, as Paddle prints it.
//	var PIRText = &Format{Name: "pir", Extensions: []string{".pir"}, Read: …, Write: …}
//
//	func init() { standard = append(standard, PIRText) }
//
// A file format sets Read and/or Write (and Sniff if its content can be recognized); a folder format sets Dir,
// SniffDir, ReadDir and/or WriteDir, and is written into an empty folder that pirfile then moves into place. Errors
// of a reader that implement `Diagnostics() diag.Diagnostics` are rendered with their source lines (Render); Locate,
// if set, names the element a position falls in (the JSON path of an op). The command line lists the formats of
// its registry in -format and reads and writes them without further changes.
package pirfile
