package pirfile

import (
	"io"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

// PIRText is PIR text, the program text Paddle prints (package pirtext). Files are recognized by the extension
// .pir, and anything no other format recognizes is read as PIR text.
var PIRText = &Format{
	Name:       "pir",
	Aliases:    []string{"text", "txt"},
	Doc:        "PIR text, as Paddle prints programs",
	Extensions: []string{".pir"},
	Read: func(ctx *ir.Context, name string, src []byte) (*ir.Program, diag.Diagnostics, error) {
		return pirtext.Parse(ctx, name, src, pirtext.ReadOptions{})
	},
	LoadFile: func(ctx *ir.Context, path string) (*ir.Program, diag.Diagnostics, error) {
		return pirtext.ParseFile(ctx, path, pirtext.ReadOptions{}) // mapped, not read whole
	},
	Write: func(w io.Writer, p *ir.Program, opts Options) error {
		return pirtext.Write(w, p, pirtext.WriteOptions{Untagged: opts.Untagged})
	},
}

func init() { standard = append(standard, PIRText) }
