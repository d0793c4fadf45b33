package pirjson

import (
	"github.com/pirdrr/drr/ir"
)

// idObject is a type or attribute object {"#":id, "D":payload} (or "VD" for special floats) as read.
type idObject struct {
	off   int  // offset of '{'
	start mark // at '{'
	id    []byte
	idOff int
	hasD  bool
	dOff  int
	hasVD bool
	vd    []byte
	vdOff int
}

// idObject reads a type or attribute object, calling payload with the scanner at "D" (and "D" on the path). In
// the writer's layout "#" comes first and the payload is read in place; a "D" before "#" is read after the
// object.
func (r *reader) idObject(allowVD bool, payload func(o *idObject) error) (idObject, error) {
	s := &r.s
	s.ws()
	o := idObject{off: s.pos, start: s.mark()}
	haveID, deferred := false, false
	var dAt mark
	err := s.object(func(key []byte, keyOff int) error {
		switch string(key) {
		case "#":
			if haveID {
				return s.errAt(keyOff, "duplicate key %q", key)
			}
			haveID = true
			s.ws()
			o.idOff = s.pos
			var err error
			o.id, err = s.str()
			return err
		case "D":
			if o.hasD {
				return s.errAt(keyOff, "duplicate key %q", key)
			}
			o.hasD = true
			s.ws()
			o.dOff = s.pos
			if haveID {
				return payload(&o)
			}
			deferred = true
			dAt = s.mark()
			return s.skip()
		case "VD":
			if !allowVD {
				break
			}
			if o.hasVD {
				return s.errAt(keyOff, "duplicate key %q", key)
			}
			o.hasVD = true
			s.ws()
			o.vdOff = s.pos
			var err error
			o.vd, err = s.str()
			return err
		}
		return s.errAt(keyOff, "unknown key %q", key)
	})
	if err != nil {
		return o, err
	}
	if !haveID {
		return o, s.errAt(o.off, "missing key \"#\"")
	}
	if deferred {
		end := s.mark()
		s.reset(dAt)
		s.pushKey([]byte("D"))
		err = payload(&o)
		s.pop()
		s.reset(end)
	}
	return o, err
}

// skipOpaque checks that the payload of an opaque type or attribute is an array and skips it.
func (r *reader) skipOpaque() error {
	s := &r.s
	if s.ws() != '[' {
		return s.unexpected("an array")
	}
	return s.skip()
}

// opaqueText returns the canonical JSON text of the whole object o.
func (r *reader) opaqueText(o *idObject) (string, error) {
	s := &r.s
	end := s.mark()
	s.reset(o.start)
	text, err := s.canonical(nil)
	if err != nil {
		return "", err
	}
	s.reset(end)
	return string(text), nil
}

// maxCacheDepth is the nesting below which types and attributes are looked up in the caches: the lookup scans
// the value first, so that deeply nested values would be scanned once per level.
const maxCacheDepth = 64

// typ reads a type, from the cache when the same bytes were read before.
func (r *reader) typ() (ir.Type, error) {
	s := &r.s
	s.ws()
	// Consecutive values often have the same type. A complete object that the input continues with is the value
	// at this position, so a prefix match needs no scan.
	if k := r.lastTypeKey; k != nil && len(s.src)-s.pos >= len(k) && string(s.src[s.pos:s.pos+len(k)]) == string(k) {
		s.pos += len(k)
		return r.lastType, nil
	}
	start := s.mark()
	t, ok := ir.Type(nil), false
	cached := s.depth < maxCacheDepth
	if cached && s.skip() == nil {
		t, ok = r.types[string(s.src[start.pos:s.pos])]
	}
	if !ok {
		s.reset(start)
		var err error
		if t, err = r.parseType(); err != nil {
			return nil, err
		}
		if cached {
			r.types[string(s.src[start.pos:s.pos])] = t
		}
	}
	if s.src[start.pos] == '{' {
		r.lastTypeKey, r.lastType = s.src[start.pos:s.pos], t
	}
	return t, nil
}

// Kinds of type ids.
const (
	tkUnknown = iota
	tkUnknownDialect
	tkNull
	tkScalar
	tkCF
	tkDense
	tkValue
	tkVector
	tkArray
	tkRows
	tkOpaque
)

// classifyType resolves a type id; for scalars it also returns the data type, for cf types their text.
func classifyType(id string) (kind int, d ir.DType, text string) {
	if id == nullID {
		return tkNull, 0, ""
	}
	dialect, name, _, known := splitID(id)
	if !known {
		return tkUnknownDialect, 0, ""
	}
	switch dialect {
	case "builtin":
		if d, ok := ir.DTypeFromJSON(name); ok {
			return tkScalar, d, ""
		}
		switch name {
		case tDenseTensor:
			return tkDense, 0, ""
		case tVector:
			return tkVector, 0, ""
		}
	case "pd_op":
		switch name {
		case tValueTensor:
			return tkValue, 0, ""
		case tTensorArray:
			return tkArray, 0, ""
		case tSelectedRows:
			return tkRows, 0, ""
		case tSparseCOO, tSparseCSR:
			return tkOpaque, 0, ""
		}
	case "pd_dist":
		if name == tDistTensor {
			return tkOpaque, 0, ""
		}
	case "cf":
		if text, ok := cfTypes[name]; ok {
			return tkCF, 0, text
		}
	}
	return tkUnknown, 0, ""
}

// idError is the error for an id that is unknown, has an unknown dialect id, or takes no payload.
// It names the object, also when raised while reading its payload.
func (r *reader) idError(o *idObject, what string, unknownDialect bool) error {
	s := &r.s
	path := s.path
	if n := len(path); n > 0 && path[n-1].key != nil && string(path[n-1].key) == "D" {
		path = path[:n-1]
	}
	msg := "unknown %s id %q"
	if unknownDialect {
		msg = "unknown dialect id in %s id %q"
	}
	return newError(s.file, s.src, o.idOff, renderPath(path), msg, what, o.id)
}

// parseType reads a type object.
func (r *reader) parseType() (ir.Type, error) {
	s := &r.s
	var t ir.Type
	var kind int
	o, err := r.idObject(false, func(o *idObject) error {
		kind, _, _ = classifyType(string(o.id))
		var err error
		switch kind {
		case tkUnknown, tkUnknownDialect:
			return r.idError(o, "type", kind == tkUnknownDialect)
		case tkNull, tkScalar, tkCF:
			return s.errAt(o.dOff, "%q takes no \"D\"", o.id)
		case tkDense:
			t, err = r.denseTensor(ir.DenseTensor)
		case tkValue:
			t, err = r.denseTensor(ir.ValueTensor)
		case tkVector:
			var elems []ir.Type
			err = s.array(func(int) error {
				e, err := r.typ()
				elems = append(elems, e)
				return err
			})
			if err == nil {
				t = r.ctx.Vector(elems...)
			}
		case tkArray:
			var elem ir.Type
			var dims []int64
			var layout string
			err = r.tuple("a tensor array type", "[dtype, dims, layout]", 3, func(i int) error {
				var err error
				switch i {
				case 0:
					elem, err = r.typ()
				case 1:
					dims, err = r.dims()
				case 2:
					layout, err = r.str()
				}
				return err
			})
			if err == nil {
				t = r.ctx.TensorArray(elem, dims, layout)
			}
		case tkRows:
			elem, dims, layout, lod, offset, perr := r.tensorPayload("a selected rows type")
			if err = perr; err == nil {
				t = r.ctx.SelectedRows(dims, elem, layout, lod, offset)
			}
		case tkOpaque:
			err = r.skipOpaque()
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if o.hasD {
		if kind == tkOpaque {
			text, err := r.opaqueText(&o)
			if err != nil {
				return nil, err
			}
			return r.ctx.Opaque(text), nil
		}
		return t, nil
	}
	kind, d, text := classifyType(string(o.id))
	switch kind {
	case tkUnknown, tkUnknownDialect:
		return nil, r.idError(&o, "type", kind == tkUnknownDialect)
	case tkNull:
		return r.ctx.NullType(), nil
	case tkScalar:
		return r.ctx.Scalar(d), nil
	case tkCF:
		return r.ctx.Opaque(text), nil
	}
	return nil, s.errAt(o.off, "missing key \"D\" in %q", o.id)
}

// denseTensor reads the payload [dtype, dims, layout, lod, offset] of a dense tensor type.
func (r *reader) denseTensor(spelling string) (ir.Type, error) {
	elem, dims, layout, lod, offset, err := r.tensorPayload("a dense tensor type")
	if err != nil {
		return nil, err
	}
	return r.ctx.TensorFull(spelling, dims, elem, layout, lod, offset), nil
}

// tensorPayload reads [dtype, dims, layout, lod, offset].
func (r *reader) tensorPayload(what string) (elem ir.Type, dims []int64, layout string, lod [][]uint64, offset uint64, err error) {
	s := &r.s
	err = r.tuple(what, "[dtype, dims, layout, lod, offset]", 5, func(i int) error {
		var err error
		switch i {
		case 0:
			elem, err = r.typ()
		case 1:
			dims, err = r.dims()
		case 2:
			layout, err = r.str()
		case 3:
			err = s.array(func(int) error {
				var level []uint64
				err := s.array(func(int) error {
					v, err := s.unsigned()
					level = append(level, v)
					return err
				})
				lod = append(lod, level)
				return err
			})
		case 4:
			offset, err = s.unsigned()
		}
		return err
	})
	return
}

// tuple reads an array of exactly n elements with fn; what and shape describe it in errors.
func (r *reader) tuple(what, shape string, n int, fn func(i int) error) error {
	s := &r.s
	s.ws()
	arrOff := s.pos
	got := 0
	err := s.array(func(i int) error {
		got++
		if i >= n {
			return s.errAt(s.pos, "too many elements in %s; want %s", what, shape)
		}
		return fn(i)
	})
	if err != nil {
		return err
	}
	if got != n {
		return s.errAt(arrOff, "%s has %d elements %s, got %d", what, n, shape, got)
	}
	return nil
}

// ints reads an array of integers.
func (r *reader) ints() ([]int64, error) {
	s := &r.s
	out := []int64{}
	err := s.array(func(int) error {
		v, err := s.integer(-1<<63, 1<<63-1)
		out = append(out, v)
		return err
	})
	return out, err
}

// dims reads the dims of a tensor type: sizes, or -1 for a dynamic one (as PIR text reads them).
func (r *reader) dims() ([]int64, error) {
	s := &r.s
	out := []int64{}
	err := s.array(func(int) error {
		s.ws()
		off := s.pos
		v, err := s.integer(-1<<63, 1<<63-1)
		if err == nil && v < -1 {
			return s.errAt(off, "dimension %d: a dimension is a size or -1", v)
		}
		out = append(out, v)
		return err
	})
	return out, err
}

// str reads a string, interned.
func (r *reader) str() (string, error) {
	b, err := r.s.str()
	if err != nil {
		return "", err
	}
	return r.intern(b), nil
}
