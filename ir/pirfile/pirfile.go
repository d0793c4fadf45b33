// Package pirfile reads and writes programs in either PIR format — the text Paddle prints, or the PIR JSON model
// format (inference.json) — choosing by file extension or content, and writes output files atomically.
package pirfile

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirjson"
	"github.com/pirdrr/drr/ir/pirtext"
)

// Format is a program file format.
type Format int

// The formats.
const (
	Text Format = iota // PIR text (.pir)
	JSON               // PIR JSON (.json)
)

func (f Format) String() string {
	if f == JSON {
		return "json"
	}
	return "pir"
}

// ParseFormat parses a format name: "pir" or "text", "json".
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "pir", "text", "txt":
		return Text, nil
	case "json":
		return JSON, nil
	}
	return Text, fmt.Errorf("unknown format %q (pir or json)", s)
}

// FormatOf returns the format a file name implies: .json is PIR JSON, anything else PIR text.
func FormatOf(path string) Format {
	if strings.EqualFold(filepath.Ext(path), ".json") {
		return JSON
	}
	return Text
}

// Detect guesses the format of file contents: PIR JSON starts with {"; PIR text with { and a newline or an op.
func Detect(src []byte) Format {
	s := bytes.TrimLeft(src, " \t\r\n\ufeff")
	if len(s) > 1 && s[0] == '{' {
		rest := bytes.TrimLeft(s[1:], " \t\r\n")
		if len(rest) > 0 && rest[0] == '"' {
			return JSON
		}
	}
	return Text
}

// Options configure reading and writing.
type Options struct {
	// Untagged prints PIR text in the newer untagged attribute syntax.
	Untagged bool
	// JSONVersion is the PIR JSON version to write (0: the version the program was read with).
	JSONVersion int
}

// Parse reads a program from src in format f. Warnings of the text reader (signature types that contradict the
// operands) are returned; errors are positioned (file:line:col).
func Parse(ctx *ir.Context, name string, src []byte, f Format) (*ir.Program, ir.Diagnostics, error) {
	if f == JSON {
		p, err := pirjson.Read(ctx, name, src, pirjson.ReadOptions{})
		return p, nil, err
	}
	return pirtext.Parse(ctx, name, src, pirtext.ReadOptions{})
}

// Load reads the program in a file ("-" reads standard input), in the format its name implies (standard input:
// the format its contents show).
func Load(ctx *ir.Context, path string) (*ir.Program, ir.Diagnostics, error) {
	var src []byte
	var err error
	f := FormatOf(path)
	name := path
	if path == "-" {
		src, err = io.ReadAll(os.Stdin)
		f = Detect(src)
		name = "<stdin>"
	} else {
		src, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, nil, err
	}
	if path != "-" && f == Text && Detect(src) == JSON {
		f = JSON
	}
	return Parse(ctx, name, src, f)
}

// Marshal writes p in format f.
func Marshal(p *ir.Program, f Format, opts Options) ([]byte, error) {
	if f == JSON {
		return pirjson.Marshal(p, pirjson.WriteOptions{Version: opts.JSONVersion})
	}
	return pirtext.Print(p, pirtext.WriteOptions{Untagged: opts.Untagged}), nil
}

// WriteFile writes data to path atomically: to a temporary file in the same directory, then renamed over path, so
// a failure never leaves a partial file. "-" writes standard output.
func WriteFile(path string, data []byte) error {
	if path == "-" {
		_, err := os.Stdout.Write(data)
		return err
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(name)
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return err
	}
	if info, err := os.Stat(path); err == nil {
		_ = os.Chmod(name, info.Mode().Perm())
	} else {
		_ = os.Chmod(name, 0o644)
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return err
	}
	return nil
}

// Save writes p to path in format f, atomically.
func Save(p *ir.Program, path string, f Format, opts Options) error {
	data, err := Marshal(p, f, opts)
	if err != nil {
		return err
	}
	return WriteFile(path, data)
}
