package ir

import (
	"hash/maphash"
	"unsafe"
)

// strTable is a Context's set of string attributes, by value. Programs have one string attribute per parameter
// name, hundreds of thousands of them, so the set costs little per string: an open-addressing array of pointers
// (8 to 16 bytes a string, against 30 to 60 for a map from the string), the attributes allocated in slabs and their
// bytes in an arena, so that interning a new string allocates nothing most of the time.
type strTable struct {
	seed  maphash.Seed
	slots []*StrAttr // a power of two in length, at most three quarters full
	n     int
	attrs []StrAttr // the rest of the current slab
	bytes []byte    // the rest of the current arena chunk
}

const (
	strSlab  = 256
	strArena = 64 << 10
)

// lookup returns the attribute of s, or nil, and the slot where s is or would go.
func (t *strTable) lookup(s string) (*StrAttr, int) {
	if len(t.slots) == 0 {
		t.seed = maphash.MakeSeed()
		t.slots = make([]*StrAttr, 64)
	}
	mask := len(t.slots) - 1
	for i := int(maphash.String(t.seed, s)) & mask; ; i = (i + 1) & mask {
		a := t.slots[i]
		if a == nil || a.Value == s {
			return a, i
		}
	}
}

// intern returns the attribute of s, adding it if it is new. b, if not nil, holds the bytes of s, which are then
// copied (s may be a view of memory the caller reuses); otherwise s is kept as it is.
func (t *strTable) intern(s string, b []byte) *StrAttr {
	a, i := t.lookup(s)
	if a != nil {
		return a
	}
	if b != nil {
		s = t.copyString(b)
	}
	if len(t.attrs) == 0 {
		t.attrs = make([]StrAttr, strSlab)
	}
	a = &t.attrs[0]
	t.attrs = t.attrs[1:]
	a.Value = s
	t.slots[i] = a
	t.n++
	if 4*t.n > 3*len(t.slots) {
		t.grow()
	}
	return a
}

// copyString copies b into the arena.
func (t *strTable) copyString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > strArena/16 {
		return string(b)
	}
	if len(t.bytes) < len(b) {
		t.bytes = make([]byte, strArena)
	}
	n := copy(t.bytes, b)
	s := unsafe.String(&t.bytes[0], n)
	t.bytes = t.bytes[n:]
	return s
}

func (t *strTable) grow() {
	old := t.slots
	t.slots = make([]*StrAttr, 2*len(old))
	mask := len(t.slots) - 1
	for _, a := range old {
		if a == nil {
			continue
		}
		i := int(maphash.String(t.seed, a.Value)) & mask
		for t.slots[i] != nil {
			i = (i + 1) & mask
		}
		t.slots[i] = a
	}
}
