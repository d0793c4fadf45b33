package playground

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/internal/fileio"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/rules"
)

// The files a server may read: those given on the command line, and below the folders given, the rule files and
// programs — nothing else. The page names them by catalogue names ("corpus/pir_json/model.json": the folder's base
// name, then the path below it), never by paths: a request naming anything else, with .. or not, names nothing.
// A symbolic link is followed only when it stays inside the folder it was found in; that is checked when the
// folder is listed and again when the file is read (a link changed in between is refused).

// maxCatalog bounds the entries listed below the folders given.
const maxCatalog = 5000

// relist is how long a listing is reused before the folders are listed again (files added while the server runs
// appear then).
const relist = 5 * time.Second

// Entry kinds.
const (
	kindRules   = "rules"
	kindProgram = "program"
)

// entry is a file the server may read.
type entry struct {
	Name   string `json:"name"`             // the catalogue name
	Kind   string `json:"kind"`             // kindRules or kindProgram
	Format string `json:"format,omitempty"` // a program's format
	path   string // where it is
	root   string // the real path of the folder given it was found in ("": given itself)
}

// catalog lists the readable files.
type catalog struct {
	formats *pirfile.Registry
	args    []string

	mu      sync.Mutex
	listed  time.Time
	entries []*entry
	byName  map[string]*entry
}

// newCatalog lists the files and folders given; one that does not exist is an error.
func newCatalog(formats *pirfile.Registry, args []string) (*catalog, error) {
	c := &catalog{formats: formats}
	for _, a := range args {
		if _, err := os.Stat(a); err != nil {
			return nil, err
		}
		c.args = append(c.args, a)
	}
	c.list()
	return c, nil
}

// all returns the entries, listing the folders again when the listing is older than relist.
func (c *catalog) all() []*entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	if time.Since(c.listed) > relist {
		c.listLocked()
	}
	return c.entries
}

// lookup returns the entry with a catalogue name, or an error saying there is none.
func (c *catalog) lookup(name string) (*entry, error) {
	c.all()
	c.mu.Lock()
	e := c.byName[name]
	c.mu.Unlock()
	if e == nil {
		return nil, notFoundf("no file %q was given to drrc serve (the page lists those it may read)", name)
	}
	return e, nil
}

func (c *catalog) list() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.listLocked()
}

func (c *catalog) listLocked() {
	c.entries, c.byName = nil, map[string]*entry{}
	add := func(e *entry) {
		if len(c.entries) >= maxCatalog {
			return
		}
		base := e.Name
		for n := 2; c.byName[e.Name] != nil; n++ {
			e.Name = fmt.Sprintf("%s (%d)", base, n)
		}
		c.entries = append(c.entries, e)
		c.byName[e.Name] = e
	}
	for _, a := range c.args {
		info, err := os.Stat(a)
		if err != nil {
			continue
		}
		name := filepath.Base(filepath.Clean(a))
		switch {
		case !info.IsDir():
			if e := c.fileEntry(a, name, ""); e != nil {
				add(e)
			}
		case c.formats.DirFormat(a) != nil:
			add(&entry{Name: name, Kind: kindProgram, Format: c.formats.DirFormat(a).Name, path: a})
		default:
			root, err := filepath.EvalSymlinks(a)
			if err != nil {
				continue
			}
			for _, e := range c.walk(a, root, name) {
				add(e)
			}
		}
	}
	sort.SliceStable(c.entries, func(i, j int) bool { return c.entries[i].Name < c.entries[j].Name })
	c.listed = time.Now()
}

// fileEntry is the entry of a file, or nil when it is neither a rule file nor a program the formats read.
func (c *catalog) fileEntry(p, name, root string) *entry {
	if strings.EqualFold(filepath.Ext(p), ".drr") {
		return &entry{Name: name, Kind: kindRules, path: p, root: root}
	}
	f := c.formats.ByExtension(p)
	if f == nil || !f.CanRead() || f.Dir {
		return nil
	}
	return &entry{Name: name, Kind: kindProgram, Format: f.Name, path: p, root: root}
}

// walk lists the rule files and programs below a folder given (dir, whose real path is root).
func (c *catalog) walk(dir, root, name string) []*entry {
	var out []*entry
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || len(out) >= maxCatalog {
			return nil
		}
		if p != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return nil
		}
		ename := path.Join(name, filepath.ToSlash(rel))
		if !inside(root, p) {
			return nil // a link out of the folder
		}
		info, err := os.Stat(p) // follows a link that stays inside
		if err != nil {
			return nil
		}
		if info.IsDir() {
			if p != dir && c.formats.DirFormat(p) != nil {
				out = append(out, &entry{Name: ename, Kind: kindProgram, Format: c.formats.DirFormat(p).Name, path: p, root: root})
				return filepath.SkipDir
			}
			return nil
		}
		if e := c.fileEntry(p, ename, root); e != nil {
			out = append(out, e)
		}
		return nil
	})
	return out
}

// inside reports whether the real path of p is root or below it.
func inside(root, p string) bool {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(root, real)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// errOutside refuses a file whose link was changed to lead out of its folder after it was listed.
var errOutside = errors.New("it leads out of the folder it was listed in")

// check verifies, before a read, that an entry still stays inside its folder (for a program folder, every file in
// it too).
func (e *entry) check() error {
	if e.root == "" {
		return nil
	}
	if !inside(e.root, e.path) {
		return fmt.Errorf("%s: %w", e.Name, errOutside)
	}
	if info, err := os.Stat(e.path); err == nil && info.IsDir() {
		items, err := os.ReadDir(e.path)
		if err != nil {
			return err
		}
		for _, it := range items {
			if !inside(e.root, filepath.Join(e.path, it.Name())) {
				return fmt.Errorf("%s/%s: %w", e.Name, it.Name(), errOutside)
			}
		}
	}
	return nil
}

// source returns the contents of a file of the entry (the program file, or a file of the program folder) for
// quoting in a diagnostic, or nil for any other file.
func (e *entry) source(file string) []byte {
	if file != e.path && filepath.Dir(file) != e.path {
		return nil
	}
	if e.check() != nil {
		return nil
	}
	src, _ := fileio.ReadFile(file, pirfile.DefaultMaxFileSize)
	return src
}

// readRules reads a rule file of the catalogue.
func (c *catalog) readRules(name string) ([]byte, error) {
	e, err := c.lookup(name)
	if err != nil {
		return nil, err
	}
	if e.Kind != kindRules {
		return nil, fmt.Errorf("%s is a program, not a rule file", name)
	}
	if err := e.check(); err != nil {
		return nil, err
	}
	return fileio.ReadFile(e.path, drr.DefaultMaxFileSize)
}

// shippedPrefix is the folder the shipped rule sets appear in, in the catalogue and to imports.
const shippedPrefix = "shipped/"

// ruleFS is what rules (the editor's, and those of runs) import from: the rule files of the catalogue by their
// catalogue names, and the shipped rule sets as shipped/NAME.drr. Nothing else can be read through it.
type ruleFS struct{ c *catalog }

// Open opens a rule file by catalogue name.
func (f ruleFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if rest, ok := strings.CutPrefix(name, shippedPrefix); ok {
		return rules.FS().Open(rest)
	}
	e, err := f.c.lookup(name)
	if err != nil || e.Kind != kindRules {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	if err := e.check(); err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	file, _, err := fileio.Open(e.path, drr.DefaultMaxFileSize) // a regular file: a FIFO would hold the run
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return file, nil
}
