package pirfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/internal/fileio"
	"github.com/pirdrr/drr/internal/suggest"
	"github.com/pirdrr/drr/ir"
)

// standard lists the formats of this package; each format's file appends itself from init. It is never changed
// afterwards: registries are built from copies (Standard).
var standard []*Format

// Registry is a list of formats, looked up by name, extension and content. It is a plain value: build one with
// NewRegistry or Standard and add formats with Register before use; lookups do not change it, so one registry may
// serve concurrent readers and writers.
type Registry struct {
	formats []*Format
	// MaxFileSize is the size limit of each file Load reads: a program file, each file of a program folder that its
	// format reads (Format.Files), standard input (0: DefaultMaxFileSize). Set it before the registry is used.
	MaxFileSize int64
}

// DefaultMaxFileSize is the size limit of a program file that Load reads (and of each file of a program folder,
// and of standard input), unless Registry.MaxFileSize sets another (drrc's -max-file-size). Anything but a regular
// file (a device such as /dev/zero, a FIFO) is refused whatever its size: it could be endless, or never end.
const DefaultMaxFileSize = 1 << 30

// maxFileSize returns the size limit of the files Load reads.
func (r *Registry) maxFileSize() int64 {
	if r.MaxFileSize > 0 {
		return r.MaxFileSize
	}
	return DefaultMaxFileSize
}

// NewRegistry returns a registry of the given formats, in that order (the order content sniffing tries them).
func NewRegistry(formats ...*Format) (*Registry, error) {
	r := &Registry{}
	for _, f := range formats {
		if err := r.Register(f); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Standard returns a new registry holding the formats of this package (pir, json, mlir), sorted by name.
func Standard() *Registry {
	list := append([]*Format(nil), standard...)
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	return &Registry{formats: list}
}

// std returns the registry of the package-level functions, built on first use (after every format's init).
var std = sync.OnceValue(Standard)

// Register adds a format. Its name, aliases and extensions must not be taken by another format of the registry.
func (r *Registry) Register(f *Format) error {
	if f == nil || f.Name == "" {
		return errors.New("pirfile: a format needs a name")
	}
	if !f.CanRead() && !f.CanWrite() {
		return fmt.Errorf("pirfile: format %s neither reads nor writes", f.Name)
	}
	if f.Dir && (f.Read != nil || f.LoadFile != nil || f.Write != nil) || !f.Dir && (f.ReadDir != nil || f.WriteDir != nil || f.SniffDir != nil) {
		return fmt.Errorf("pirfile: format %s mixes file and folder functions (Dir is %v)", f.Name, f.Dir)
	}
	for _, g := range r.formats {
		for _, n := range f.names() {
			for _, m := range g.names() {
				if n == m {
					return fmt.Errorf("pirfile: format name %s is taken by %s", n, g.Name)
				}
			}
		}
		for _, e := range f.Extensions {
			if g.HasExtension("x" + e) {
				return fmt.Errorf("pirfile: extension %s is taken by %s", e, g.Name)
			}
		}
	}
	r.formats = append(r.formats, f)
	return nil
}

func (f *Format) names() []string { return append([]string{f.Name}, f.Aliases...) }

// Formats returns the registered formats in order.
func (r *Registry) Formats() []*Format { return append([]*Format(nil), r.formats...) }

// Names returns the names of the formats that read (reads) or write (!reads), for help texts: "pir|json|mlir".
func (r *Registry) Names(reads bool) string {
	var names []string
	for _, f := range r.formats {
		if reads && f.CanRead() || !reads && f.CanWrite() {
			names = append(names, f.Name)
		}
	}
	return strings.Join(names, "|")
}

// Lookup returns the format a user names (a name or an alias, any case); an unknown name is an error that suggests
// the nearest one.
func (r *Registry) Lookup(name string) (*Format, error) {
	low := strings.ToLower(name)
	var all []string
	for _, f := range r.formats {
		for _, n := range f.names() {
			if n == low {
				return f, nil
			}
		}
		all = append(all, f.Name)
	}
	return nil, errors.New(suggest.Unknown("format", name, all))
}

// ByExtension returns the file format of a path's extension, or nil.
func (r *Registry) ByExtension(path string) *Format {
	if filepath.Ext(path) == "" {
		return nil
	}
	for _, f := range r.formats {
		if f.HasExtension(path) {
			return f
		}
	}
	return nil
}

// fallback is the format of files nothing else claims: the first file format that reads and does not sniff
// (PIR text), else the first file format that reads.
func (r *Registry) fallback() *Format {
	var first *Format
	for _, f := range r.formats {
		if f.Dir || f.Read == nil {
			continue
		}
		if f.Sniff == nil {
			return f
		}
		if first == nil {
			first = f
		}
	}
	return first
}

// DetectContent returns the format of a file from its name and contents: content a format sniffs wins over an
// extension whose format does not sniff; then the extension; then the fallback (PIR text).
func (r *Registry) DetectContent(name string, src []byte) *Format {
	byExt := r.ByExtension(name)
	if byExt == nil || byExt.Sniff == nil {
		for _, f := range r.formats {
			if f.Sniff != nil && f.Read != nil && f.Sniff(src) {
				return f
			}
		}
	}
	if byExt != nil {
		return byExt
	}
	return r.fallback()
}

// sniffLen is how much of a file Detect reads: enough for every Sniff of this package.
const sniffLen = 4096

// Detect returns the format of the program at path: a folder's is the folder format that claims it; a file's is
// found by DetectContent from its name and first bytes. "-" (standard input) has no format before it is read.
func (r *Registry) Detect(path string) (*Format, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		if f := r.DirFormat(path); f != nil {
			return f, nil
		}
		return nil, fmt.Errorf("%s: a folder, and not a program of any format (%s)", path, r.dirFormatNames())
	}
	file, _, err := fileio.Open(path, r.maxFileSize()) // a regular file: a FIFO would block, a device never end
	if err != nil {
		return nil, err
	}
	defer file.Close()
	head := make([]byte, sniffLen)
	n, err := io.ReadFull(file, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if n == len(head) && len(bytes.TrimLeft(head, " \t\r\n\ufeff")) == 0 {
		// Only white space so far: the content starts further on.
		rest, err := fileio.ReadAll(file, path, r.maxFileSize())
		if err != nil {
			return nil, err
		}
		head = append(head, rest...)
		n = len(head)
	}
	if f := r.DetectContent(path, head[:n]); f != nil {
		return f, nil
	}
	return nil, fmt.Errorf("%s: no format reads it", path)
}

// isStream reports whether out is standard output ("-") or an existing file that is written in place: a device, a
// FIFO or a socket (symbolic links followed).
func isStream(out string) bool {
	if out == "-" {
		return true
	}
	info, err := os.Stat(out)
	return err == nil && !info.IsDir() && !info.Mode().IsRegular()
}

// DirFormat returns the folder format that claims dir as one program, or nil.
func (r *Registry) DirFormat(dir string) *Format {
	for _, f := range r.formats {
		if f.Dir && f.SniffDir != nil && f.SniffDir(dir) {
			return f
		}
	}
	return nil
}

// Expand returns the programs a path names: a file or a folder that a folder format claims is one program; any
// other folder holds the programs below it (files with the extension of a format that reads, and folders a
// folder format claims, which are not descended into), in path order with numbers compared by value
// (subgraph_2 before subgraph_10, as GraphNet numbers a sample's graphs).
func (r *Registry) Expand(path string) ([]string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() || r.DirFormat(path) != nil {
		return []string{path}, nil
	}
	var out []string
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != path && r.DirFormat(p) != nil {
				out = append(out, p)
				return filepath.SkipDir
			}
			return nil
		}
		if f := r.ByExtension(p); f != nil && f.Read != nil {
			out = append(out, p)
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return NaturalLess(out[i], out[j]) })
	return out, err
}

// NaturalLess orders paths as people number files: runs of digits compare by their value (subgraph_2 before
// subgraph_10), everything else byte by byte; of two runs with the same value, the one with fewer leading zeros
// comes first (a2c before a02).
func NaturalLess(a, b string) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ca, cb := a[i], b[j]
		if isDigit(ca) && isDigit(cb) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			na := strings.TrimLeft(a[si:i], "0")
			nb := strings.TrimLeft(b[sj:j], "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			if i-si != j-sj {
				return i-si < j-sj
			}
			continue
		}
		if ca != cb {
			return ca < cb
		}
		i++
		j++
	}
	return len(a)-i < len(b)-j
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// Load reads the program at path: a file, or a folder of a folder format. "-" reads standard input, in the format
// its contents show. It returns the program, the reader's warnings and, on failure, an error that names the file
// and position (DiagnosticsOf turns it into diagnostics to render with Render).
func (r *Registry) Load(ctx *ir.Context, path string) (*ir.Program, diag.Diagnostics, error) {
	if path == "-" {
		src, err := fileio.ReadAll(os.Stdin, "<stdin>", r.maxFileSize())
		if err != nil {
			return nil, nil, err
		}
		return r.Parse(ctx, "<stdin>", src, nil)
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if info.IsDir() {
		f := r.DirFormat(path)
		if f == nil {
			return nil, nil, fmt.Errorf("%s: a folder, and not a program of any format (%s)", path, r.dirFormatNames())
		}
		if f.ReadDir == nil {
			return nil, nil, fmt.Errorf("%s: pirdrr does not read %s (%s)", path, f.Name, f.Doc)
		}
		for _, name := range f.Files {
			file, _, err := fileio.Open(filepath.Join(path, name), r.maxFileSize())
			if errors.Is(err, fs.ErrNotExist) {
				continue // the format says which of its files it needs
			}
			if err != nil {
				return nil, nil, err
			}
			file.Close()
		}
		return f.ReadDir(ctx, path)
	}
	f, err := r.Detect(path) // a regular file within the limit, or an error
	if err != nil {
		return nil, nil, err
	}
	if f.LoadFile != nil {
		return f.LoadFile(ctx, path)
	}
	src, err := fileio.ReadFile(path, r.maxFileSize())
	if err != nil {
		return nil, nil, err
	}
	return r.Parse(ctx, path, src, f)
}

// Parse reads a program from the contents of a file named name, in format f (nil: the format DetectContent finds).
func (r *Registry) Parse(ctx *ir.Context, name string, src []byte, f *Format) (*ir.Program, diag.Diagnostics, error) {
	if f == nil {
		f = r.DetectContent(name, src)
	}
	if f == nil {
		return nil, nil, fmt.Errorf("%s: no format reads it", name)
	}
	if f.Dir {
		return nil, nil, fmt.Errorf("%s: %s programs are folders, not files", name, f.Name)
	}
	return f.readFile(ctx, name, src)
}

func (r *Registry) dirFormatNames() string {
	var names []string
	for _, f := range r.formats {
		if f.Dir {
			names = append(names, f.Name)
		}
	}
	if len(names) == 0 {
		return "no folder format is registered"
	}
	return "folder formats: " + strings.Join(names, ", ")
}

// OutputFormat chooses the format of an output: the one named (if any), else the format of the output path (its
// extension, or the folder format of an existing folder), else the input's format — except that a folder format
// cannot be streamed, so standard output ("-") and a device, FIFO or socket (/dev/null, which is written in place)
// get the fallback file format (PIR text) instead. An output format that does not write is an error.
func (r *Registry) OutputFormat(named, out string, input *Format) (*Format, error) {
	f := input
	if named == "" && isStream(out) && f != nil && f.Dir {
		f = r.fallback()
	}
	switch {
	case named != "":
		g, err := r.Lookup(named)
		if err != nil {
			return nil, err
		}
		f = g
	case out != "-" && out != "":
		if g := r.ByExtension(out); g != nil {
			f = g
		} else if g := r.DirFormat(out); g != nil {
			f = g
		}
	}
	if f == nil {
		return nil, errors.New("no output format (name one with -format)")
	}
	if !f.CanWrite() {
		return nil, fmt.Errorf("pirdrr does not write %s (%s)", f.Name, f.Doc)
	}
	return f, nil
}
