package pirjson

import "github.com/pirdrr/drr/ir"

// Attribute order of "A".
//
// Paddle writes the attributes of a pd_op op that has yaml info in yaml order, then op_dist_attr and op_role if
// set, then struct_name; the attributes of other ops in the order of their attribute map; never stop_gradient,
// persistable (they go to "OA") or op_callstack. Ops read from JSON keep the file's order in ir.Op.Attrs, ops
// read from PIR text or built by rewrites usually have their attributes sorted by name.
//
// The writer tells the two apart by checking the order, not by remembering where an op came from: the
// attributes of a registered pd_op op are reordered only when their order is not already Paddle's, that is when
// the schema attributes are not in schema order, or a schema attribute follows op_dist_attr, op_role or
// struct_name, or those three are out of order. Attributes the schema does not know may sit anywhere in an order
// that is kept; a reordered op lists them last, in their current order. Ops of other dialects and unregistered
// ops keep their order. So a file Paddle wrote re-writes byte for byte, and a sorted op gets Paddle's order
// whenever the catalogs know the op.

// excludedFromA reports whether attribute name never goes to "A" of a generic op.
func excludedFromA(name string, kwConsumed bool) bool {
	switch name {
	case attrStopGradient, attrPersistable, attrOpCallstack:
		return true
	case kwargsAttr:
		return kwConsumed
	}
	return false
}

// opAttrs returns the attributes of op to write in "A", in order, with version upgrades applied. kwConsumed says
// whether kwargsAttr is written as block keyword arguments instead. The result is valid until the next call.
func (w *writer) opAttrs(op *ir.Op, kwConsumed bool) []ir.NamedAttr {
	attrs := op.Attrs()
	out := w.scratch[:0]
	s := op.Schema()
	if s != nil && op.Info().Dialect == "pd_op" && !paddleOrdered(s, attrs, kwConsumed) {
		for _, spec := range s.Attrs {
			for _, a := range attrs {
				if a.Name == spec.Name && !excludedFromA(a.Name, kwConsumed) {
					out = append(out, a)
					break
				}
			}
		}
		for _, name := range [3]string{attrOpDistAttr, attrOpRole, attrStructName} {
			if s.AttrIndex(name) >= 0 {
				continue
			}
			for _, a := range attrs {
				if a.Name == name {
					out = append(out, a)
					break
				}
			}
		}
		for _, a := range attrs {
			if s.AttrIndex(a.Name) < 0 && trailingAttrRank(a.Name) < 0 && !excludedFromA(a.Name, kwConsumed) {
				out = append(out, a)
			}
		}
	} else {
		for _, a := range attrs {
			if !excludedFromA(a.Name, kwConsumed) {
				out = append(out, a)
			}
		}
	}
	w.scratch = out
	if w.up != nil {
		if acts := w.up[op.Name()]; acts != nil {
			return applyAttrPatches(w.ctx, out, acts)
		}
	}
	return out
}

// paddleOrdered reports whether attrs are in an order Paddle's writer could have produced for schema s: schema
// attributes in schema order, then op_dist_attr, op_role, struct_name (those present, in that order); other
// attributes anywhere.
func paddleOrdered(s *ir.OpSchema, attrs []ir.NamedAttr, kwConsumed bool) bool {
	last, lastTrail := -1, -1
	for _, a := range attrs {
		if excludedFromA(a.Name, kwConsumed) {
			continue
		}
		if i := s.AttrIndex(a.Name); i >= 0 {
			if lastTrail >= 0 || i <= last {
				return false
			}
			last = i
			continue
		}
		if t := trailingAttrRank(a.Name); t >= 0 {
			if t <= lastTrail {
				return false
			}
			lastTrail = t
		}
	}
	return true
}
