package drr

import (
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/pirdrr/drr/diag"
)

// Reparser parses successive versions of one file, as an editor changes it,
// reusing the parse of every top-level declaration whose text did not
// change. The file is split as Parse splits large files: before each line
// that starts a declaration (`rule`, `family`, `native` or `import` in
// column 1 followed by a name). A region whose text was parsed before —
// at the same place or moved by lines added or removed above it — is not
// parsed again: its declarations, comments and diagnostics are copied with
// their positions moved. So an edit inside one rule of a large file costs
// the parse of that rule.
//
// The result is the one Parse returns for the same text: declarations,
// comments, doc comments and diagnostics, with the same positions. Each
// call returns a tree of its own that shares nothing with earlier results,
// so a caller may keep the file of one version while it parses the next. A
// Reparser is safe for concurrent use (calls are serialized).
type Reparser struct {
	filename string

	mu    sync.Mutex
	cache map[string]*parsedRegion // by region text: the regions of the last version

	reused, parsed atomic.Int64
}

// parsedRegion is a region's parse, at the place it was parsed.
type parsedRegion struct {
	res   regionResult
	start int // byte offset of the region
	line  int // line of its first character
}

// NewReparser returns a Reparser for the file named filename (used in
// positions and diagnostics, as by Parse).
func NewReparser(filename string) *Reparser {
	return &Reparser{filename: filename, cache: map[string]*parsedRegion{}}
}

// Stats returns how many regions (top-level declarations, with the comments
// before the next one) the Reparser has reused and parsed so far.
func (p *Reparser) Stats() (reused, parsed int) {
	return int(p.reused.Load()), int(p.parsed.Load())
}

// Parse parses src, the file's new content, with the contract of Parse: the
// declarations it could parse, and a Diagnostics error when the file has
// syntax errors. Parse never panics.
func (p *Reparser) Parse(src []byte) (f *File, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			p.cache = map[string]*parsedRegion{}
			f = &File{Name: p.filename}
			err = diag.Diagnostics{internalError(p.filename, r)}
		}
	}()
	text := string(src)
	regions := splitRegions(text)
	results := make([]regionResult, len(regions))
	next := make(map[string]*parsedRegion, len(regions))
	var todo []int
	for i, r := range regions {
		key := text[r.start:r.end]
		// A region with syntax errors is reused only where it was parsed: a message may name a position of its own
		// ("expected ')' to close '(' at 12:4"), which moving the diagnostic's Pos would leave stale.
		if c, ok := p.cache[key]; ok && (c.line == r.line || !c.hasDiags()) {
			results[i] = c.moved(r)
			next[key] = c
			p.reused.Add(1)
			continue
		}
		todo = append(todo, i)
	}
	p.parseRegions(text, regions, todo, results)
	for _, i := range todo {
		r := regions[i]
		// The cache keeps the original; what is returned is a copy (moved by zero), so that the caller owns it.
		next[text[r.start:r.end]] = &parsedRegion{res: results[i], start: r.start, line: r.line}
		results[i] = next[text[r.start:r.end]].moved(r)
	}
	p.parsed.Add(int64(len(todo)))
	p.cache = next
	return assemble(p.filename, results)
}

// parseRegions parses the regions listed in todo into results, on several
// goroutines when there are many.
func (p *Reparser) parseRegions(text string, regions []region, todo []int, results []regionResult) {
	workers := min(runtime.GOMAXPROCS(0), len(todo)/8+1)
	if workers <= 1 {
		gp := newGrammarParser(p.filename, text)
		for _, i := range todo {
			results[i] = gp.safeParseRegion(regions[i])
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			gp := newGrammarParser(p.filename, text)
			for {
				k := int(next.Add(1) - 1)
				if k >= len(todo) {
					return
				}
				results[todo[k]] = gp.safeParseRegion(regions[todo[k]])
			}
		}()
	}
	wg.Wait()
}

// assemble builds the file from the results of its regions, in order: Parse and Reparse end with it.
func assemble(filename string, results []regionResult) (*File, error) {
	f := &File{Name: filename}
	var lexDiags, parseDiags diag.Diagnostics
	for _, r := range results {
		for _, d := range r.decls {
			f.Decls = append(f.Decls, d)
			switch d := d.(type) {
			case *Import:
				f.Imports = append(f.Imports, d)
			case *Family:
				f.Families = append(f.Families, d)
			case *Native:
				f.Natives = append(f.Natives, d)
			case *ParamDecl:
				f.Params = append(f.Params, d)
			case *Rule:
				f.Rules = append(f.Rules, d)
			}
		}
		f.Comments = append(f.Comments, r.comments...)
		lexDiags = append(lexDiags, r.lexDiags...)
		parseDiags = append(parseDiags, r.parseDiags...)
	}
	eof := results[len(results)-1].eof
	f.Span = NewSpan(diag.Position{Filename: filename, Line: 1, Column: 1}, eof)
	attachDocs(f)
	if diags := mergeDiagnostics(lexDiags, parseDiags); len(diags) > 0 {
		return f, diags
	}
	return f, nil
}

// hasDiags reports whether the region's parse has diagnostics.
func (c *parsedRegion) hasDiags() bool { return len(c.res.lexDiags) > 0 || len(c.res.parseDiags) > 0 }

// moved returns a deep copy of the region's parse for the region r, which has
// the same text, with every position moved from where it was parsed to r.
func (c *parsedRegion) moved(r region) regionResult {
	m := mover{dOff: int32(r.start - c.start), dLine: int32(r.line - c.line), comments: map[*Comment]*Comment{}}
	res := regionResult{eof: m.position(c.res.eof)}
	for _, d := range c.res.decls {
		res.decls = append(res.decls, m.node(d).(Decl))
	}
	for _, cm := range c.res.comments {
		res.comments = append(res.comments, m.comment(cm))
	}
	res.lexDiags = m.diags(c.res.lexDiags)
	res.parseDiags = m.diags(c.res.parseDiags)
	return res
}

// mover deep-copies syntax trees, moving their positions by a number of
// bytes and lines (regions start at the beginning of a line, so columns do
// not change).
type mover struct {
	dOff, dLine int32
	comments    map[*Comment]*Comment // comments copied so far (a doc comment is in File.Comments and in a Doc)
}

var (
	moverSpanType    = reflect.TypeFor[Span]()
	moverCommentType = reflect.TypeFor[*Comment]()
)

func (m *mover) position(p diag.Position) diag.Position {
	p.Offset += int(m.dOff)
	p.Line += int(m.dLine)
	return p
}

func (m *mover) diags(ds diag.Diagnostics) diag.Diagnostics {
	if ds == nil {
		return nil
	}
	out := make(diag.Diagnostics, len(ds))
	for i, d := range ds {
		d.Pos = m.position(d.Pos)
		out[i] = d
	}
	return out
}

func (m *mover) span(s *Span) {
	if s.file == nil && s.line == 0 {
		return // a zero span (an absent Lparen) stays zero
	}
	s.off += m.dOff
	s.end += m.dOff
	s.line += m.dLine
	s.endLine += m.dLine
}

func (m *mover) comment(c *Comment) *Comment {
	if cp, ok := m.comments[c]; ok {
		return cp
	}
	cp := *c
	m.span(&cp.Span)
	m.comments[c] = &cp
	return &cp
}

// node returns a moved deep copy of the AST node n.
func (m *mover) node(n Node) Node {
	return m.copy(reflect.ValueOf(n)).Interface().(Node)
}

// copy returns a moved deep copy of v: pointers, slices and interfaces are
// followed, every Span is moved, comments are copied once.
func (m *mover) copy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		if v.Type() == moverCommentType {
			return reflect.ValueOf(m.comment(v.Interface().(*Comment)))
		}
		cp := reflect.New(v.Type().Elem())
		cp.Elem().Set(m.copy(v.Elem()))
		return cp
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		cp := reflect.New(v.Type()).Elem()
		cp.Set(m.copy(v.Elem()))
		return cp
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		cp := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			cp.Index(i).Set(m.copy(v.Index(i)))
		}
		return cp
	case reflect.Struct:
		cp := reflect.New(v.Type()).Elem()
		cp.Set(v) // unexported fields (a Span's file name, a comment's ownLine) are copied as they are
		if v.Type() == moverSpanType {
			m.span(cp.Addr().Interface().(*Span))
			return cp
		}
		for i := 0; i < v.NumField(); i++ {
			if !v.Type().Field(i).IsExported() {
				continue
			}
			cp.Field(i).Set(m.copy(v.Field(i)))
		}
		return cp
	}
	return v
}
