package pirjson

import (
	"fmt"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/internal/mapfile"
	"github.com/pirdrr/drr/ir"
)

// ReadOptions configures Read. The zero value is the default; there are no options yet.
type ReadOptions struct{}

// Read parses a PIR JSON model (Paddle's inference.json) into a program of ctx. filename is used in error
// messages and as Program.File. Ops of registered dialects get their schemas; others are unregistered.
//
// Errors name the position and the JSON path of the problem (see Error); Read never panics, whatever the input.
func Read(ctx *ir.Context, filename string, src []byte, opts ReadOptions) (*ir.Program, error) {
	return read(ctx, filename, src, opts, readHooks{})
}

// readHooks are the ways to run the reader other than Read's: file, if not nil, is the mapped file src is the
// content of, told where the reader is after each op so that it hands back what the reader has passed
// (ReadFile); largeFrom, if not 0, replaces largeFrom (tests).
type readHooks struct {
	file      *mapfile.Source
	largeFrom int
}

// read is Read, with hooks.
func read(ctx *ir.Context, filename string, src []byte, opts ReadOptions, hooks readHooks) (prog *ir.Program, err error) {
	r := &reader{
		mapped:    hooks.file,
		s:         scanner{src: src, line: 1, file: filename},
		ctx:       ctx,
		types:     make(map[string]ir.Type, 64),
		attrs:     make(map[string]ir.Attribute, 256),
		entries:   make(map[string]ir.NamedAttr, 256),
		names:     make(map[string]string, 64),
		opNames:   make(map[string]opName, 64),
		kwargKeys: map[*ir.Op][][]string{},
		lastAttrs: make(map[string][]ir.NamedAttr, 64),
		lists:     make(map[listKey]*rawList, 64),
	}
	if hooks.file != nil && hooks.file.Mapped() {
		// A fault in the mapped file (it shrank under the reader: ReadFile makes faults panics) is an error at
		// the position the reader had reached.
		defer func() {
			if rec := recover(); rec != nil {
				fault, isFault := rec.(interface{ Addr() uintptr })
				if !isFault {
					panic(rec)
				}
				s := &r.s
				prog, err = nil, &Error{Pos: diag.Position{Filename: filename, Offset: s.pos, Line: s.line, Column: s.pos - s.lineStart + 1},
					Msg: fmt.Sprintf("the file changed while it was read (%v)", fault)}
			}
		}()
	}
	r.prog = ir.NewProgram(ctx)
	r.prog.File = filename
	r.b = ir.NewBuilder(ctx)
	r.b.Alloc = r.prog.Allocator()
	// A large model's op records are prefaulted, and its parameter table built, on the other core as it is read.
	from := largeFrom
	if hooks.largeFrom > 0 {
		from = hooks.largeFrom
	}
	large := len(src) >= from
	if large {
		defer r.b.Alloc.Prefault()()
	}
	r.params = ir.NewParamsBuilder(ctx, large)
	defer r.params.Stop() // a failed read leaves no goroutine behind
	if err := r.file(); err != nil {
		return nil, err
	}
	// Program.Params from the parameter ops read, in program order: what Program.CollectParams computes, without
	// walking the whole program twice (a tenth of the reading time of large models).
	r.prog.Params = r.params.Params()
	return r.prog, nil
}

// largeFrom is the source size from which the reader has the allocator prefault its chunks and builds the
// parameter table on another goroutine (as pirtext does from the same size): about 170,000 ops of gen.py's workload.
const largeFrom = 32 << 20

// reader holds the state of one Read.
type reader struct {
	mapped *mapfile.Source // ReadFile's source, or nil
	s      scanner
	ctx    *ir.Context
	prog   *ir.Program
	b      *ir.Builder
	vals   idTable

	// Caches keyed by the exact bytes of a type or attribute object, of an attribute name and of an op id.
	types   map[string]ir.Type
	attrs   map[string]ir.Attribute
	entries map[string]ir.NamedAttr
	names   map[string]string
	opNames map[string]opName

	// kwargKeys collects the keyword-argument keys of the blocks of an op's regions while they are read.
	kwargKeys map[*ir.Op][][]string

	// The last type read and its bytes, checked before the type cache.
	lastTypeKey []byte
	lastType    ir.Type

	// Scratch space for the op being read; nested ops are read after their parent is created, so one set is enough.
	operands []*ir.Value
	results  []resultRec
	rtypes   []ir.Type
	attrsA   []attrRec
	attrsOA  []attrRec
	attrsDA  []attrRec
	attrsQA  []attrRec
	all      []ir.NamedAttr

	bools [2]ir.Attribute // [false] and [true], the parameter flags

	// lastAttrs is the attribute list of the last op of each name, which the next one shares if its attributes
	// are equal.
	lastAttrs map[string][]ir.NamedAttr
	// lists are the last attribute lists of each op kind and key, which a list of the same bytes takes whole.
	lists map[listKey]*rawList

	// params builds the parameter table from the parameter, get_parameter and set_parameter ops, in program order.
	params *ir.ParamsBuilder
}

// opName is a resolved op id.
type opName struct {
	full    string
	isParam bool
}

// resultRec is an op result being read: its id, where the id is, and its type.
type resultRec struct {
	id  int64
	off int
	typ ir.Type
}

// attrRec is an attribute being read and where its entry starts.
type attrRec struct {
	ir.NamedAttr
	off int
}

// file reads the top-level object: base_code and program.
func (r *reader) file() error {
	s := &r.s
	var haveBase, haveProg, progDeferred bool
	var progMark mark
	top := s.ws()
	topOff := s.pos
	if top == 0 {
		return s.errAt(s.pos, "empty input")
	}
	err := s.object(func(key []byte, keyOff int) error {
		switch string(key) {
		case "base_code":
			if haveBase {
				return s.errAt(keyOff, "duplicate key %q", key)
			}
			haveBase = true
			return r.baseCode()
		case "program":
			if haveProg {
				return s.errAt(keyOff, "duplicate key %q", key)
			}
			haveProg = true
			if !haveBase {
				// The version is not known yet: read the program after base_code.
				progDeferred = true
				progMark = s.mark()
				return s.skip()
			}
			return r.program()
		}
		return s.errAt(keyOff, "unknown key %q", key)
	})
	if err != nil {
		return err
	}
	if c := s.ws(); c != 0 {
		return s.errAt(s.pos, "unexpected %s after the end of the JSON value", describeByte(c))
	}
	if !haveBase {
		return s.errAt(topOff, "missing key \"base_code\"")
	}
	if !haveProg {
		return s.errAt(topOff, "missing key \"program\"")
	}
	if progDeferred {
		s.reset(progMark)
		s.pushKey([]byte("program"))
		err = r.program()
		s.pop()
	}
	return err
}

// baseCode reads {"magic":"pir","trainable":true,"version":1}.
func (r *reader) baseCode() error {
	s := &r.s
	s.ws()
	objOff := s.pos
	var haveMagic, haveTrainable, haveVersion bool
	err := s.object(func(key []byte, keyOff int) error {
		switch string(key) {
		case "magic":
			if haveMagic {
				return s.errAt(keyOff, "duplicate key %q", key)
			}
			haveMagic = true
			s.ws()
			at := s.pos
			m, err := s.str()
			if err != nil {
				return err
			}
			if string(m) != "pir" {
				return s.errAt(at, "wrong magic %q; want \"pir\"", m)
			}
			return nil
		case "trainable":
			if haveTrainable {
				return s.errAt(keyOff, "duplicate key %q", key)
			}
			haveTrainable = true
			t, err := s.boolean()
			r.prog.Trainable = t
			return err
		case "version":
			if haveVersion {
				return s.errAt(keyOff, "duplicate key %q", key)
			}
			haveVersion = true
			s.ws()
			at := s.pos
			tok, isInt, err := s.number()
			if err != nil {
				return err
			}
			v, ok := parseInt(tok)
			if !isInt || !ok {
				return s.errAt(at, "version %s is not an integer", tok)
			}
			if v < MinVersion || v > MaxVersion {
				return s.errAt(at, "%s", versionError(v))
			}
			r.prog.Version = int(v)
			return nil
		}
		return s.errAt(keyOff, "unknown key %q", key)
	})
	if err != nil {
		return err
	}
	for _, k := range []struct {
		have bool
		name string
	}{{haveMagic, "magic"}, {haveTrainable, "trainable"}, {haveVersion, "version"}} {
		if !k.have {
			return s.errAt(objOff, "missing key %q", k.name)
		}
	}
	return nil
}
