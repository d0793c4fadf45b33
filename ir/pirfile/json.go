package pirfile

import (
	"bytes"
	"io"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirjson"
)

// PIRJSON is the PIR JSON model format, Paddle's inference.json (package pirjson). Files are recognized by the
// extension .json or by content that starts with {". Programs holding pirdrr's internal forms are refused (see
// Loadable) unless Options.Internal is set.
var PIRJSON = &Format{
	Name:       "json",
	Doc:        "PIR JSON, Paddle's inference.json",
	Extensions: []string{".json"},
	Sniff:      sniffJSON,
	Read: func(ctx *ir.Context, name string, src []byte) (*ir.Program, diag.Diagnostics, error) {
		p, err := pirjson.Read(ctx, name, src, pirjson.ReadOptions{})
		return p, nil, err
	},
	LoadFile: func(ctx *ir.Context, path string) (*ir.Program, diag.Diagnostics, error) {
		p, err := pirjson.ReadFile(ctx, path, pirjson.ReadOptions{}) // mapped, not read whole
		return p, nil, err
	},
	Write: func(w io.Writer, p *ir.Program, opts Options) error {
		if !opts.Internal {
			if err := loadable(p, "json"); err != nil {
				return err
			}
		}
		return pirjson.Write(w, p, pirjson.WriteOptions{Version: opts.JSONVersion, Stream: opts.Streamed})
	},
	Locate: func(src []byte, locs []ir.Loc) []string {
		offsets := make([]int, len(locs))
		for i, l := range locs {
			offsets[i] = lineColOffset(src, int(l.Line), int(l.Col))
		}
		return pirjson.Locate(src, offsets)
	},
}

func init() { standard = append(standard, PIRJSON) }

// sniffJSON recognizes PIR JSON: an object whose first key follows the brace (PIR text also starts with a brace,
// but an op or a newline follows it).
func sniffJSON(src []byte) bool {
	s := bytes.TrimLeft(src, " \t\r\n\ufeff")
	if len(s) > 1 && s[0] == '{' {
		rest := bytes.TrimLeft(s[1:], " \t\r\n")
		return len(rest) > 0 && rest[0] == '"'
	}
	return false
}

// lineColOffset returns the byte offset of a line and byte column (both from 1) in src, or -1.
func lineColOffset(src []byte, line, col int) int {
	if line < 1 || col < 1 {
		return -1
	}
	start := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(src[start:], '\n')
		if i < 0 {
			return -1
		}
		start += i + 1
	}
	if off := start + col - 1; off <= len(src) {
		return off
	}
	return -1
}
