package ir

import (
	"hash/maphash"
	"unsafe"
)

// strTable is a Context's set of string attributes, by value. Programs have one string attribute per parameter
// name, hundreds of thousands of them, so the set costs little per string: an open-addressing array of pointers
// with a parallel array of 32-bit hashes (12 to 24 bytes a string, against 30 to 60 for a map from the string), the
// attributes allocated in slabs and their bytes in an arena, so that interning a new string allocates nothing most
// of the time. A lookup reads the hashes only, until one matches: a new name (most lookups, when a program is read)
// costs one cache line of the table and no visit to the strings it passes.
type strTable struct {
	seed   maphash.Seed
	hashes []uint32   // a power of two in length; 0 marks an empty slot
	slots  []*StrAttr // the attribute of each non-empty slot
	n      int        // at most three quarters of the slots
	attrs  []StrAttr  // the rest of the current slab
	bytes  []byte     // the rest of the current arena chunk
}

const (
	strSlab  = 256
	strArena = 64 << 10
)

// hash returns the table's hash of s: never 0 (the empty slot).
func (t *strTable) hash(s string) uint32 { return uint32(maphash.String(t.seed, s)>>32) | 1 }

// lookup returns the attribute of s, or nil, the slot where s is or would go, and its hash.
func (t *strTable) lookup(s string) (*StrAttr, int, uint32) {
	if len(t.slots) == 0 {
		t.seed = maphash.MakeSeed()
		t.hashes = make([]uint32, 64)
		t.slots = make([]*StrAttr, 64)
	}
	h := t.hash(s)
	mask := len(t.hashes) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		switch t.hashes[i] {
		case 0:
			return nil, i, h
		case h:
			if a := t.slots[i]; a.Value == s {
				return a, i, h
			}
		}
	}
}

// intern returns the attribute of s, adding it if it is new. b, if not nil, holds the bytes of s, which are then
// copied (s may be a view of memory the caller reuses); otherwise s is kept as it is.
func (t *strTable) intern(s string, b []byte) *StrAttr {
	a, i, h := t.lookup(s)
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
	t.hashes[i], t.slots[i] = h, a
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

// grow doubles the table, placing each attribute by its stored hash.
func (t *strTable) grow() {
	hashes, slots := t.hashes, t.slots
	t.hashes = make([]uint32, 2*len(hashes))
	t.slots = make([]*StrAttr, 2*len(slots))
	mask := len(t.hashes) - 1
	for j, h := range hashes {
		if h == 0 {
			continue
		}
		i := int(h) & mask
		for t.hashes[i] != 0 {
			i = (i + 1) & mask
		}
		t.hashes[i], t.slots[i] = h, slots[j]
	}
}
