package pirjson

import (
	"bytes"
	"slices"

	"github.com/pirdrr/drr/ir"
)

// Op object keys.
const (
	kName = iota
	kA
	kI
	kO
	kOA
	kDA
	kQA
	kRegions
	kUnknown
)

func opKey(key []byte) int {
	switch string(key) {
	case "#":
		return kName
	case "A":
		return kA
	case "I":
		return kI
	case "O":
		return kO
	case "OA":
		return kOA
	case "DA":
		return kDA
	case "QA":
		return kQA
	case "regions":
		return kRegions
	}
	return kUnknown
}

var opKeyNames = [...]string{kName: "#", kA: "A", kI: "I", kO: "O", kOA: "OA", kDA: "DA", kQA: "QA", kRegions: "regions"}

// pendingKey is an op key read before "#", whose value is read once the op kind is known.
type pendingKey struct {
	k      int
	key    []byte
	keyOff int
	at     mark
}

// opState is what the keys of one op object say.
type opState struct {
	name     opName
	haveName bool
	off      [kUnknown]int // offset of each key seen (for errors)
	seen     uint16
	// parameter op fields
	flags   [3]bool     // A[0:3]: is_distributed, is_parameter, need_clip
	pname   *ir.StrAttr // A[3]: parameter_name (nil: absent)
	oaFlags [3]bool     // OA: persistable, stop_gradient, trainable
}

func (st *opState) has(k int) bool { return st.seen&(1<<k) != 0 }

// op reads one op object and appends the op to blk.
func (r *reader) op(blk *ir.Block) error {
	s := &r.s
	s.ws()
	opOff := s.pos
	line, col := s.loc()
	st := opState{}
	var pendingBuf [5]pendingKey
	pending := pendingBuf[:0]
	var regionsAt mark
	r.operands = r.operands[:0]
	r.results = r.results[:0]
	r.attrsA = r.attrsA[:0]
	r.attrsOA = r.attrsOA[:0]
	r.attrsDA = r.attrsDA[:0]
	r.attrsQA = r.attrsQA[:0]

	err := s.object(func(key []byte, keyOff int) error {
		k := opKey(key)
		if k == kUnknown {
			return s.errAt(keyOff, "unknown key %q in an op", key)
		}
		if st.has(k) {
			return s.errAt(keyOff, "duplicate key %q", key)
		}
		st.seen |= 1 << k
		st.off[k] = keyOff
		switch k {
		case kName:
			s.ws()
			nameOff := s.pos
			b, err := s.str()
			if err != nil {
				return err
			}
			st.name, err = r.opName(b, nameOff)
			st.haveName = true
			return err
		case kI:
			return r.operandList()
		case kRegions:
			regionsAt = s.mark()
			return s.skip()
		}
		if !st.haveName {
			pending = append(pending, pendingKey{k: k, key: key, keyOff: keyOff, at: s.mark()})
			return s.skip()
		}
		return r.opField(k, keyOff, &st)
	})
	if err != nil {
		return err
	}
	if !st.haveName {
		return s.errAt(opOff, "missing key \"#\" (the op name)")
	}
	if len(pending) > 0 {
		end := s.mark()
		for _, p := range pending {
			s.reset(p.at)
			s.pushKey(p.key)
			err := r.opField(p.k, p.keyOff, &st)
			s.pop()
			if err != nil {
				return err
			}
		}
		s.reset(end)
	}

	var spec ir.OpSpec
	if st.name.isParam {
		for _, k := range []int{kI, kRegions} {
			if st.has(k) {
				return s.errAt(st.off[k], "a parameter op (p) has no %q", opKeyNames[k])
			}
		}
		for _, k := range []int{kA, kO} {
			if !st.has(k) {
				return s.errAt(opOff, "missing key %q in a parameter op (p)", opKeyNames[k])
			}
		}
		if err := r.paramAttrs(&st); err != nil {
			return err
		}
	} else {
		for _, k := range []int{kA, kI, kO} {
			if !st.has(k) {
				return s.errAt(opOff, "missing key %q in op %s", opKeyNames[k], st.name.full)
			}
		}
		if err := r.collectAttrs(r.attrsA, r.attrsOA); err != nil {
			return err
		}
	}
	spec.Name = st.name.full
	spec.Operands = r.operands
	r.rtypes = r.rtypes[:0]
	for _, res := range r.results {
		r.rtypes = append(r.rtypes, res.typ)
	}
	spec.Results = r.rtypes
	if len(r.all) > 0 {
		// The op keeps its attribute slice, and r.all is scratch: ops of a kind whose attributes equal the last
		// one's share its slice (attributes are interned: equal is the same names and pointers), as the text
		// reader's do.
		last := r.lastAttrs[st.name.full]
		if !slices.Equal(last, r.all) {
			last = append([]ir.NamedAttr(nil), r.all...)
			r.lastAttrs[st.name.full] = last
		}
		spec.Attrs = last
	}
	spec.Loc = ir.Loc{Line: clamp32(line), Col: clamp32(col)}
	if st.has(kRegions) {
		end := s.mark()
		s.reset(regionsAt)
		s.pushKey([]byte("regions"))
		err := s.array(func(int) error {
			spec.Regions++
			return s.skip()
		})
		s.pop()
		if err != nil {
			return err
		}
		s.reset(end)
	}
	r.b.SetInsertionPointToEnd(blk)
	op := r.b.Create(spec)
	switch spec.Name {
	case ir.ParameterOpName, ir.GetParameterOpName, ir.SetParameterOpName:
		r.params.Append(op)
	}
	for i, res := range r.results {
		if !r.vals.set(res.id, op.Result(i)) {
			return s.errAt(res.off, "value id %d is already defined", res.id)
		}
	}
	if spec.Regions > 0 {
		end := s.mark()
		s.reset(regionsAt)
		s.pushKey([]byte("regions"))
		err := s.array(func(i int) error { return r.region(op, i, false) })
		s.pop()
		if err != nil {
			return err
		}
		if err := r.finishKwargs(op, opOff); err != nil {
			return err
		}
		s.reset(end)
	}
	return nil
}

func clamp32(v int) int32 {
	if v > 1<<31-1 {
		return 1<<31 - 1
	}
	return int32(v)
}

// opField reads the value of op key k, now that the op kind is known.
func (r *reader) opField(k, keyOff int, st *opState) error {
	s := &r.s
	isParam := st.name.isParam
	switch k {
	case kA:
		if isParam {
			return r.paramA(st)
		}
		return r.attrListOf(st, kA, &r.attrsA)
	case kO:
		if isParam {
			return r.result()
		}
		return s.array(func(int) error { return r.result() })
	case kOA:
		if isParam {
			return r.paramOA(st)
		}
		return r.attrListOf(st, kOA, &r.attrsOA)
	case kDA, kQA:
		if !isParam {
			return s.errAt(keyOff, "key %q is only allowed in a parameter op (p)", opKeyNames[k])
		}
		if k == kDA {
			return r.attrList(&r.attrsDA)
		}
		return r.attrList(&r.attrsQA)
	}
	return nil
}

// opName resolves an op id: "p", a compressed name ("1.conv2d") or a full name.
func (r *reader) opName(b []byte, off int) (opName, error) {
	if n, ok := r.opNames[string(b)]; ok {
		return n, nil
	}
	id := string(b)
	var n opName
	switch {
	case id == paramOpID:
		n = opName{full: ir.ParameterOpName, isParam: true}
	default:
		dialect, name, numeric, known := splitID(id)
		if !known {
			return n, r.s.errAt(off, "unknown dialect id %q in op name %q", id[:len(id)-len(name)-1], id)
		}
		if name == "" {
			return n, r.s.errAt(off, "empty op name %q", id)
		}
		n.full = id
		if numeric {
			n.full = dialect + "." + name
		}
	}
	r.opNames[id] = n
	return n, nil
}

// operandList reads "I": [{"%":id}, …]; id 0 is an absent operand.
func (r *reader) operandList() error {
	s := &r.s
	return s.array(func(int) error {
		s.ws()
		const prefix = `{"%":`
		if len(s.src)-s.pos > len(prefix) && string(s.src[s.pos:s.pos+len(prefix)]) == prefix {
			at := s.mark()
			s.pos += len(prefix)
			if c := s.ws(); c == '-' || c >= '0' && c <= '9' {
				idOff := s.pos
				id, err := s.integer(-1<<63, 1<<63-1)
				if err == nil && s.ws() == '}' {
					s.pos++
					return r.operand(id, idOff)
				}
			}
			s.reset(at)
		}
		objOff := s.pos
		have := false
		var id int64
		var idOff int
		err := s.object(func(key []byte, keyOff int) error {
			if string(key) != "%" {
				return s.errAt(keyOff, "unknown key %q in an operand", key)
			}
			if have {
				return s.errAt(keyOff, "duplicate key %q", key)
			}
			have = true
			s.ws()
			idOff = s.pos
			var err error
			id, err = s.integer(-1<<63, 1<<63-1)
			return err
		})
		if err != nil {
			return err
		}
		if !have {
			return s.errAt(objOff, "missing key \"%%\" (the value id)")
		}
		return r.operand(id, idOff)
	})
}

// operand appends the value with the given id to the operands of the op being read.
func (r *reader) operand(id int64, off int) error {
	if id == 0 {
		r.operands = append(r.operands, nil)
		return nil
	}
	v := r.vals.get(id)
	if v == nil {
		return r.s.errAt(off, "value id %d is not defined", id)
	}
	r.operands = append(r.operands, v)
	return nil
}

// result reads one result {"%":id,"TT":type}.
func (r *reader) result() error {
	s := &r.s
	s.ws()
	objOff := s.pos
	var haveID, haveType bool
	var res resultRec
	err := s.object(func(key []byte, keyOff int) error {
		switch string(key) {
		case "%":
			if haveID {
				return s.errAt(keyOff, "duplicate key %q", key)
			}
			haveID = true
			s.ws()
			res.off = s.pos
			var err error
			res.id, err = s.integer(-1<<63, 1<<63-1)
			if err == nil && res.id <= 0 {
				return s.errAt(res.off, "result value id %d is not positive", res.id)
			}
			return err
		case "TT":
			if haveType {
				return s.errAt(keyOff, "duplicate key %q", key)
			}
			haveType = true
			var err error
			res.typ, err = r.typ()
			return err
		}
		return s.errAt(keyOff, "unknown key %q in a result", key)
	})
	if err != nil {
		return err
	}
	if !haveID {
		return s.errAt(objOff, "missing key \"%%\" (the value id)")
	}
	if !haveType {
		return s.errAt(objOff, "missing key \"TT\" (the value type)")
	}
	r.results = append(r.results, res)
	return nil
}

// attrList reads a list of attribute entries [{"AT":attr,"N":name}, …] into dst. Whole entries are cached by
// their bytes too: most repeat from op to op (strides, data_format, …).
func (r *reader) attrList(dst *[]attrRec) error {
	s := &r.s
	return s.array(func(int) error {
		s.ws()
		entryOff := s.pos
		start := s.mark()
		cached := s.depth < maxCacheDepth
		if cached && s.skip() == nil {
			if e, ok := r.entries[string(s.src[start.pos:s.pos])]; ok {
				*dst = append(*dst, attrRec{e, entryOff})
				return nil
			}
		}
		s.reset(start)
		var haveAT, haveN bool
		var a ir.Attribute
		var name string
		err := s.object(func(key []byte, keyOff int) error {
			switch string(key) {
			case "AT":
				if haveAT {
					return s.errAt(keyOff, "duplicate key %q", key)
				}
				haveAT = true
				var err error
				a, err = r.attr()
				return err
			case "N":
				if haveN {
					return s.errAt(keyOff, "duplicate key %q", key)
				}
				haveN = true
				b, err := s.str()
				name = r.attrName(b)
				return err
			}
			return s.errAt(keyOff, "unknown key %q in an attribute entry", key)
		})
		if err != nil {
			return err
		}
		if !haveN {
			return s.errAt(entryOff, "missing key \"N\" (the attribute name)")
		}
		if !haveAT {
			return s.errAt(entryOff, "missing key \"AT\" (the attribute value)")
		}
		e := ir.NamedAttr{Name: name, Value: a}
		if cached && worthCaching(a) {
			r.entries[string(s.src[start.pos:s.pos])] = e
		}
		*dst = append(*dst, attrRec{e, entryOff})
		return nil
	})
}

// rawList is the last attribute list of a key ("A", "OA") that an op kind had: its bytes, where they started, and
// its entries. Ops of a kind mostly repeat their lists byte for byte (every relu's "A" is the same), and such a
// list is taken whole from the last one, without scanning and looking up each entry again (attrListOf).
type rawList struct {
	raw  []byte
	off  int
	recs []attrRec
}

// listKey names a rawList: the op kind and the key.
type listKey struct {
	name string
	key  int
}

// maxRawList bounds the lists kept: longer ones are rare and seldom repeat.
const maxRawList = 4 << 10

// attrListOf is attrList for the list of key k of an op whose kind is known: a list with the bytes of the kind's
// last list of that key has its entries, at this list's offsets; another is read, and kept as the last. Lists
// spanning lines are not kept (the scanner counts lines as it reads).
func (r *reader) attrListOf(st *opState, k int, dst *[]attrRec) error {
	if !st.haveName {
		return r.attrList(dst)
	}
	s := &r.s
	s.ws()
	key := listKey{st.name.full, k}
	if l := r.lists[key]; l != nil && bytes.HasPrefix(s.src[s.pos:], l.raw) {
		delta := s.pos - l.off
		for _, rec := range l.recs {
			*dst = append(*dst, attrRec{rec.NamedAttr, rec.off + delta})
		}
		s.pos += len(l.raw)
		return nil
	}
	start, n := s.pos, len(*dst)
	if err := r.attrList(dst); err != nil {
		return err
	}
	if raw := s.src[start:s.pos]; len(raw) <= maxRawList && bytes.IndexByte(raw, '\n') < 0 {
		l := r.lists[key]
		if l == nil {
			l = &rawList{}
			r.lists[key] = l
		}
		l.raw = append(l.raw[:0], raw...)
		l.off = start
		l.recs = append(l.recs[:0], (*dst)[n:]...)
	}
	return nil
}

// worthCaching reports whether an attribute is likely to repeat: long strings (struct_name paths, names) rarely do,
// and caching them would only grow the caches.
func worthCaching(a ir.Attribute) bool {
	switch a := a.(type) {
	case *ir.StrAttr:
		return len(a.Value) <= 16
	case *ir.TensorNameAttr:
		return false
	}
	return true
}

// intern returns b as a string, sharing one copy per distinct name.
func (r *reader) intern(b []byte) string {
	if n, ok := r.names[string(b)]; ok {
		return n
	}
	n := string(b)
	r.names[n] = n
	return n
}

// attrName returns the attribute name b as the Context's copy (ir.Context.AttrName), through the map of this
// read's names.
func (r *reader) attrName(b []byte) string {
	if n, ok := r.names[string(b)]; ok {
		return n
	}
	n := r.ctx.AttrNameBytes(b)
	r.names[n] = n
	return n
}

// collectAttrs concatenates attribute lists into r.all, failing on a name given twice.
func (r *reader) collectAttrs(lists ...[]attrRec) error {
	r.all = r.all[:0]
	total := 0
	for _, l := range lists {
		total += len(l)
	}
	var seen map[string]bool
	if total > 16 {
		seen = make(map[string]bool, total)
	}
	for _, l := range lists {
		for _, a := range l {
			dup := false
			if seen != nil {
				dup = seen[a.Name]
				seen[a.Name] = true
			} else {
				for _, b := range r.all {
					if b.Name == a.Name {
						dup = true
						break
					}
				}
			}
			if dup {
				return r.s.errAt(a.off, "attribute %q is given twice", a.Name)
			}
			r.all = append(r.all, a.NamedAttr)
		}
	}
	return nil
}
