package playground

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/ir/pirtext"
)

// programRef names the program of a request; exactly one of Sample, File, Upload and Text is set.
type programRef struct {
	// Sample is the name of an embedded sample (tinyresnet).
	Sample string `json:"sample,omitempty"`
	// File is the catalogue name of a program given on the command line.
	File string `json:"file,omitempty"`
	// Upload is the id of an uploaded program (u3).
	Upload string `json:"upload,omitempty"`
	// Text is a program given in the request (a share link carries small ones), in the format Name's extension
	// or its content says.
	Text string `json:"text,omitempty"`
	Name string `json:"name,omitempty"`
}

// program is a loaded program, kept unchanged: runs work on clones.
type program struct {
	name   string // what the page calls it
	format string
	mu     sync.Mutex // held while the program is read (cloned, printed): reads fill caches of the IR
	prog   *ir.Program
}

// clone returns a copy of the program to change.
func (p *program) clone() *ir.Program {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.prog.Clone()
}

// programCache keeps the programs read from files and texts, so that runs on the same program read it once. A file
// changed since is read again.
type programCache struct {
	mu    sync.Mutex
	byKey map[string]*program
	order []string // least recently used first
}

// cachedPrograms is how many programs read from files or request texts are kept.
const cachedPrograms = 8

func newProgramCache() *programCache { return &programCache{byKey: map[string]*program{}} }

// get returns the program cached under key, or loads it and caches it.
func (c *programCache) get(key string, load func() (*program, error)) (*program, error) {
	c.mu.Lock()
	if p := c.byKey[key]; p != nil {
		c.touch(key)
		c.mu.Unlock()
		return p, nil
	}
	c.mu.Unlock()
	p, err := load()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if q := c.byKey[key]; q != nil {
		return q, nil // loaded meanwhile by another request
	}
	c.byKey[key] = p
	c.order = append(c.order, key)
	for len(c.order) > cachedPrograms {
		delete(c.byKey, c.order[0])
		c.order = c.order[1:]
	}
	return p, nil
}

func (c *programCache) touch(key string) {
	for i, k := range c.order {
		if k == key {
			c.order = append(append(c.order[:i:i], c.order[i+1:]...), key)
			return
		}
	}
}

// errNotFound marks a program or file the request names that does not exist (404).
var errNotFound = errors.New("not found")

// notFound is an error that says what does not exist and is errNotFound.
type notFound struct{ msg string }

func (e *notFound) Error() string        { return e.msg }
func (e *notFound) Is(target error) bool { return target == errNotFound }

func notFoundf(format string, args ...any) error { return &notFound{fmt.Sprintf(format, args...)} }

// loadProgram returns the program a request names.
func (s *Server) loadProgram(ref programRef) (*program, error) {
	set := 0
	for _, v := range []string{ref.Sample, ref.File, ref.Upload, ref.Text} {
		if v != "" {
			set++
		}
	}
	if set != 1 {
		return nil, errors.New("name one program: sample, file, upload or text")
	}
	switch {
	case ref.Sample != "":
		for _, sm := range s.samples {
			if sm.Name == ref.Sample {
				return s.programs.get("sample:"+sm.Name, func() (*program, error) {
					p, err := sm.load(s.opts.Context)
					if err != nil {
						return nil, err
					}
					return s.checked(&program{name: sm.Name, format: "sample", prog: p})
				})
			}
		}
		return nil, notFoundf("no sample %q", ref.Sample)
	case ref.File != "":
		e, err := s.files.lookup(ref.File)
		if err != nil {
			return nil, err
		}
		if e.Kind != kindProgram {
			return nil, fmt.Errorf("%s is a rule file, not a program", e.Name)
		}
		if err := e.check(); err != nil {
			return nil, err
		}
		info, err := os.Stat(e.path)
		if err != nil {
			return nil, err
		}
		key := fmt.Sprintf("file:%s@%d.%d", e.Name, info.ModTime().UnixNano(), info.Size())
		return s.programs.get(key, func() (*program, error) {
			p, _, err := s.formats.Load(s.opts.Context, e.path)
			if err != nil {
				return nil, s.readError(err, e.source)
			}
			p.File = e.Name // positions and titles name the file as the page does, not by its path
			return s.checked(&program{name: e.Name, format: e.Format, prog: p})
		})
	case ref.Upload != "":
		p := s.uploads.get(ref.Upload)
		if p == nil {
			return nil, notFoundf("no upload %q (the server keeps the last %d uploads)", ref.Upload, s.lim.Uploads)
		}
		return p, nil
	}
	name := ref.Name
	if name == "" {
		name = "program"
	}
	sum := sha256.Sum256([]byte(name + "\x00" + ref.Text))
	return s.programs.get("text:"+hex.EncodeToString(sum[:]), func() (*program, error) {
		return s.parseProgram(name, []byte(ref.Text))
	})
}

// parseProgram reads a program file's contents (a request's text, an upload) in the format its name or content
// says.
func (s *Server) parseProgram(name string, src []byte) (*program, error) {
	f := s.formats.DetectContent(name, src)
	p, _, err := s.formats.Parse(s.opts.Context, name, src, f)
	if err != nil {
		return nil, s.readError(err, func(file string) []byte {
			if file == name {
				return src
			}
			return nil
		})
	}
	return s.checked(&program{name: name, format: f.Name, prog: p})
}

// readError renders a reader's error with its position (file:line:col and the source line, as drrc prints it).
// source gives the contents of the files the diagnostics may quote; it must not read any other (a name in a
// request could be any path).
func (s *Server) readError(err error, source func(file string) []byte) error {
	if ds, ok := pirfile.DiagnosticsOf(err); ok {
		return errors.New(strings.TrimRight(s.formats.Render(ds, source), "\n"))
	}
	return err
}

// checked refuses programs larger than MaxProgramOps, and prepares the program for concurrent readers.
func (s *Server) checked(p *program) (*program, error) {
	if n := p.prog.NumOps(); n > s.lim.MaxProgramOps {
		return nil, fmt.Errorf("%s has %d ops, more than the %d this server loads", p.name, n, s.lim.MaxProgramOps)
	}
	settle(p.prog)
	return p, nil
}

// settle brings the lazily kept order numbers of every block up to date, so that later reads (IsBefore) do not
// write.
func settle(p *ir.Program) {
	var blocks func(b *ir.Block)
	blocks = func(b *ir.Block) {
		if f := b.First(); f != nil && f.Next() != nil {
			f.IsBefore(f.Next())
		}
		for op := range b.Ops() {
			for i := range op.NumRegions() {
				r := op.Region(i)
				for j := range r.NumBlocks() {
					blocks(r.Block(j))
				}
			}
		}
	}
	blocks(p.Body())
}

// programInfo describes a program to the page.
type programInfo struct {
	Name   string `json:"name"`
	Format string `json:"format"`
	Ops    int    `json:"ops"`
	// Text is the program in PIR text; Truncated says it was cut at maxText bytes.
	Text      string `json:"text"`
	Truncated bool   `json:"truncated,omitempty"`
}

// maxText bounds the program text the page is sent.
const maxText = 8 << 20

// program answers POST /api/program: the program a request names, as PIR text (to show it before a run, and to
// put a small one into a share link).
func (s *Server) program(w http.ResponseWriter, r *http.Request) {
	var ref programRef
	if !readJSON(w, r, s.lim.MaxRequest, &ref) {
		return
	}
	p, err := s.loadProgram(ref)
	if err != nil {
		writeError(w, statusOf(err), "%v", err)
		return
	}
	p.mu.Lock()
	text := pirtext.Print(p.prog, pirtext.WriteOptions{})
	n := p.prog.NumOps()
	p.mu.Unlock()
	info := programInfo{Name: p.name, Format: p.format, Ops: n}
	info.Text, info.Truncated = cut(string(text), maxText)
	writeJSON(w, http.StatusOK, info)
}

// cut shortens s to at most n bytes, at a line end.
func cut(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	s = s[:n]
	if i := strings.LastIndexByte(s, '\n'); i > 0 {
		s = s[:i+1]
	}
	return s, true
}

// statusOf is the HTTP status of an error: 404 for what does not exist, 503 when busy, else 400 (the request is
// wrong: a program that does not read, rules that do not check).
func statusOf(err error) int {
	switch {
	case errors.Is(err, errNotFound):
		return http.StatusNotFound
	case errors.Is(err, errBusy):
		return http.StatusServiceUnavailable
	}
	return http.StatusBadRequest
}
