package pirjson

import "github.com/pirdrr/drr/ir"

// idTable maps the value ids of a file to values. Ids are normally dense (1, 2, … for results, −1, −2, … for block
// arguments), so they index slices; ids far beyond the number of values defined go to a map, so that a hostile
// id cannot make the table huge.
type idTable struct {
	pos, neg []*ir.Value
	over     map[int64]*ir.Value
	n        int
}

func (t *idTable) get(id int64) *ir.Value {
	if id > 0 && id < int64(len(t.pos)) {
		if v := t.pos[id]; v != nil {
			return v
		}
	} else if id < 0 && id > -int64(len(t.neg)) {
		if v := t.neg[-id]; v != nil {
			return v
		}
	}
	if t.over == nil {
		return nil
	}
	return t.over[id]
}

// set defines id as v; it returns false if id is already defined.
func (t *idTable) set(id int64, v *ir.Value) bool {
	if t.get(id) != nil {
		return false
	}
	t.n++
	limit := int64(4*t.n + 4096)
	switch {
	case id > 0 && id < limit:
		t.pos = growTo(t.pos, id)
		t.pos[id] = v
	case id < 0 && id > -limit:
		t.neg = growTo(t.neg, -id)
		t.neg[-id] = v
	default:
		if t.over == nil {
			t.over = map[int64]*ir.Value{}
		}
		t.over[id] = v
	}
	return true
}

// growTo makes s long enough to index i.
func growTo(s []*ir.Value, i int64) []*ir.Value {
	if i < int64(len(s)) {
		return s
	}
	n := int64(cap(s))
	if n < 64 {
		n = 64
	}
	for n <= i {
		n *= 2
	}
	if n <= int64(cap(s)) {
		return s[:n]
	}
	ns := make([]*ir.Value, n)
	copy(ns, s)
	return ns
}
