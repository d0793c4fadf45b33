package pirjson

import (
	"bytes"
	"sort"
)

// Types and attributes this package does not model (sparse tensors, dist tensors and dist attributes) are kept
// as their JSON text in an ir.OpaqueType or ir.OpaqueAttr, in the canonical layout of the writer: compact, keys
// sorted bytewise, strings escaped as nlohmann does, numbers as written. Writing them back emits that text, so
// they round-trip byte for byte.

// canonical appends the canonical form of the JSON value at the scanner position.
func (s *scanner) canonical(dst []byte) ([]byte, error) {
	switch c := s.ws(); c {
	case '{':
		type member struct {
			key []byte
			val []byte
			off int
		}
		var members []member
		err := s.object(func(key []byte, keyOff int) error {
			v, err := s.canonical(nil)
			if err != nil {
				return err
			}
			members = append(members, member{key, v, keyOff})
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.SliceStable(members, func(i, j int) bool { return bytes.Compare(members[i].key, members[j].key) < 0 })
		dst = append(dst, '{')
		for i, m := range members {
			if i > 0 {
				if bytes.Equal(m.key, members[i-1].key) {
					return nil, s.errAt(m.off, "duplicate key %q", m.key)
				}
				dst = append(dst, ',')
			}
			dst = appendString(dst, string(m.key))
			dst = append(dst, ':')
			dst = append(dst, m.val...)
		}
		return append(dst, '}'), nil
	case '[':
		dst = append(dst, '[')
		err := s.array(func(i int) error {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			dst, err = s.canonical(dst)
			return err
		})
		if err != nil {
			return nil, err
		}
		return append(dst, ']'), nil
	case '"':
		str, err := s.str()
		if err != nil {
			return nil, err
		}
		return appendString(dst, string(str)), nil
	case 't', 'f':
		b, err := s.boolean()
		if err != nil {
			return nil, err
		}
		if b {
			return append(dst, "true"...), nil
		}
		return append(dst, "false"...), nil
	case 'n':
		if s.lit("null") {
			return append(dst, "null"...), nil
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		tok, _, err := s.number()
		if err != nil {
			return nil, err
		}
		return append(dst, tok...), nil
	}
	return nil, s.unexpected("a value")
}

// canonicalText returns the canonical form of a whole JSON text, or false if it is not exactly one JSON value.
func canonicalText(text string) ([]byte, bool) {
	s := &scanner{src: []byte(text), line: 1}
	out, err := s.canonical(nil)
	if err != nil || s.ws() != 0 {
		return nil, false
	}
	return out, true
}
