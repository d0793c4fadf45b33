// Package pirfile reads and writes programs in either PIR format — the text Paddle prints, or the PIR JSON model
// format (inference.json) — choosing by file extension or content, and writes output files atomically.
package pirfile

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/mlirtext"
	"github.com/pirdrr/drr/ir/pirjson"
	"github.com/pirdrr/drr/ir/pirtext"
)

// Format is a program file format.
type Format int

// The formats.
const (
	Text Format = iota // PIR text (.pir)
	JSON               // PIR JSON (.json)
	MLIR               // MLIR generic syntax (.mlir), written only (see package mlirtext)
)

func (f Format) String() string {
	switch f {
	case JSON:
		return "json"
	case MLIR:
		return "mlir"
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
	case "mlir":
		return MLIR, nil
	}
	return Text, fmt.Errorf("unknown format %q (pir, json or mlir)", s)
}

// FormatOf returns the format a file name implies: .json is PIR JSON, .mlir MLIR, anything else PIR text.
func FormatOf(path string) Format {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		return JSON
	case ".mlir":
		return MLIR
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
	if f == MLIR {
		return nil, nil, fmt.Errorf("%s: reading MLIR is not supported; pirdrr reads PIR text (.pir) and PIR JSON (.json)", name)
	}
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
	} else if f == Text && !startsLikeJSON(path) {
		return pirtext.ParseFile(ctx, path, pirtext.ReadOptions{}) // mapped, not read whole: see ParseFile
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
	switch f {
	case JSON:
		return pirjson.Marshal(p, pirjson.WriteOptions{Version: opts.JSONVersion})
	case MLIR:
		var b bytes.Buffer
		err := mlirtext.Write(&b, p)
		return b.Bytes(), err
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

// Write writes p to w in format f.
func Write(w io.Writer, p *ir.Program, f Format, opts Options) error {
	switch f {
	case JSON:
		return pirjson.Write(w, p, pirjson.WriteOptions{Version: opts.JSONVersion})
	case MLIR:
		return mlirtext.Write(w, p)
	}
	return pirtext.Write(w, p, pirtext.WriteOptions{Untagged: opts.Untagged})
}

// Save writes p to path in format f, atomically and without holding the whole output in memory: the program is
// streamed into a temporary file that replaces path only when everything was written. "-" writes standard output.
func Save(p *ir.Program, path string, f Format, opts Options) error {
	return WriteFileFunc(path, func(w io.Writer) error { return Write(w, p, f, opts) })
}

// WriteFileFunc writes path atomically with what write produces (through a buffered writer); nothing replaces
// path if write fails. "-" writes standard output.
func WriteFileFunc(path string, write func(io.Writer) error) error {
	if path == "-" {
		bw := bufio.NewWriterSize(os.Stdout, 1<<16)
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	fail := func(err error) error {
		tmp.Close()
		os.Remove(name)
		return err
	}
	bw := bufio.NewWriterSize(tmp, 1<<16)
	if err := write(bw); err != nil {
		return fail(err)
	}
	if err := bw.Flush(); err != nil {
		return fail(err)
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
