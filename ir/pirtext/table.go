package pirtext

import (
	"unsafe"

	"github.com/pirdrr/drr/ir"
)

// opTable maps the ops the printer has numbered to the number of their first result. It is an open-addressing
// hash table keyed by the op's address: the keys are kept as uintptr, so the garbage collector does not scan the
// table (the program keeps the ops alive while it prints, and Go's collector does not move objects).
type opTable struct {
	slots []opSlot
	n     int
	mask  uintptr
}

type opSlot struct {
	k uintptr
	v int32
}

func (t *opTable) init(hint int) {
	size := 64
	for size < 2*hint {
		size <<= 1
	}
	t.slots = make([]opSlot, size)
	t.mask = uintptr(size - 1)
	t.n = 0
}

// slot is the start of the probe sequence of key k. Ops are allocated mostly in address order and printed in
// program order, so a hash that keeps neighbouring addresses in neighbouring slots turns the table's accesses
// into a nearly sequential sweep; the high bits are folded in to spread distant parts of the heap.
func (t *opTable) slot(k uintptr) uintptr {
	return (k>>4 ^ k>>22) & t.mask
}

func (t *opTable) get(op *ir.Op) (int32, bool) {
	k := uintptr(unsafe.Pointer(op))
	for i := t.slot(k); ; i = (i + 1) & t.mask {
		switch s := &t.slots[i]; s.k {
		case k:
			return s.v, true
		case 0:
			return 0, false
		}
	}
}

func (t *opTable) put(op *ir.Op, v int32) {
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	k := uintptr(unsafe.Pointer(op))
	for i := t.slot(k); ; i = (i + 1) & t.mask {
		switch s := &t.slots[i]; s.k {
		case k:
			s.v = v
			return
		case 0:
			s.k, s.v = k, v
			t.n++
			return
		}
	}
}

func (t *opTable) grow() {
	old := t.slots
	size := 2 * len(old)
	if size < 64 {
		size = 64
	}
	t.slots = make([]opSlot, size)
	t.mask = uintptr(size - 1)
	for _, o := range old {
		if o.k != 0 {
			for j := t.slot(o.k); ; j = (j + 1) & t.mask {
				if t.slots[j].k == 0 {
					t.slots[j] = o
					break
				}
			}
		}
	}
}

// textCache remembers the printed text of interned types or attributes, by address: a small direct-mapped cache
// in front of a map.
type textCache struct {
	recent [256]struct {
		k unsafe.Pointer
		s string
	}
	all map[unsafe.Pointer]string
}

func cacheIndex(k unsafe.Pointer) int {
	p := uintptr(k)
	return int((p>>4 ^ p>>9 ^ p>>14) & 255)
}

func (c *textCache) get(k unsafe.Pointer) (string, bool) {
	e := &c.recent[cacheIndex(k)]
	if e.k == k {
		return e.s, true
	}
	s, ok := c.all[k]
	if ok {
		e.k, e.s = k, s
	}
	return s, ok
}

func (c *textCache) put(k unsafe.Pointer, s string) {
	if c.all == nil {
		c.all = make(map[unsafe.Pointer]string)
	}
	c.all[k] = s
	e := &c.recent[cacheIndex(k)]
	e.k, e.s = k, s
}

// mapKey identifies an attribute list: the address of its first attribute and its length.
type mapKey struct {
	p uintptr
	n int
}

// mapCache remembers the printed text of the attribute lists met at least twice (see printer.attrMap). Keys are
// addresses kept as integers: the program keeps the lists alive while it prints, and lists never change.
type mapCache struct {
	recent [256]struct {
		k mapKey
		s string
	}
	once [1024]mapKey // lists met once, by a hash of their address
	all  map[mapKey]string
}

func (c *mapCache) slot(k mapKey) uintptr { return (k.p>>3 ^ k.p>>11 ^ uintptr(k.n)) }

// get returns the text of a list met twice before.
func (c *mapCache) get(k mapKey) (string, bool) {
	e := &c.recent[c.slot(k)%uintptr(len(c.recent))]
	if e.k == k {
		return e.s, true
	}
	s, ok := c.all[k]
	if ok {
		e.k, e.s = k, s
	}
	return s, ok
}

// met records that the list k, printed as text, was met: the second time, its text is kept.
func (c *mapCache) met(k mapKey, text []byte) {
	o := &c.once[c.slot(k)%uintptr(len(c.once))]
	if *o != k {
		*o = k
		return
	}
	if c.all == nil {
		c.all = make(map[mapKey]string)
	}
	s := string(text)
	c.all[k] = s
	e := &c.recent[c.slot(k)%uintptr(len(c.recent))]
	e.k, e.s = k, s
}
