package pirfile

import (
	"io"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/mlirtext"
)

// MLIR is MLIR's generic op syntax (package mlirtext), written for MLIR tools such as mlir-opt
// --allow-unregistered-dialect; pirdrr does not read it.
var MLIR = &Format{
	Name:       "mlir",
	Doc:        "MLIR generic op syntax, written for MLIR tools",
	Extensions: []string{".mlir"},
	Write: func(w io.Writer, p *ir.Program, _ Options) error {
		return mlirtext.Write(w, p)
	},
}

func init() { standard = append(standard, MLIR) }
