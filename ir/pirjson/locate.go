package pirjson

import "sort"

// Locate returns, for each byte offset of src, the JSON path (a JSON Pointer, RFC 6901, as errors print it) of the
// value that starts there, or "" where no value starts. An op's Loc is where its object starts, so Locate names
// the op a diagnostic about it concerns: "/program/regions/0/blocks/0/ops/5". It is meant for error reports: one
// pass over src for all offsets, tolerant of malformed input (it stops where the JSON stops making sense).
func Locate(src []byte, offsets []int) []string {
	out := make([]string, len(offsets))
	if len(offsets) == 0 {
		return out
	}
	// Visit the wanted offsets in increasing order while scanning.
	order := make([]int, len(offsets))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return offsets[order[a]] < offsets[order[b]] })
	next := 0
	l := &locator{src: src}
	l.visit = func(off int) bool {
		for next < len(order) && offsets[order[next]] < off {
			next++
		}
		for next < len(order) && offsets[order[next]] == off {
			out[order[next]] = renderPath(l.path)
			next++
		}
		return next < len(order)
	}
	l.skipSpace()
	l.value(0)
	return out
}

// locator walks JSON text keeping the path to the current value; visit is called at the start of every value and
// returns false when nothing more is wanted.
type locator struct {
	src   []byte
	pos   int
	path  []pathElem
	visit func(off int) bool
	done  bool
}

const maxLocateDepth = 10000

func (l *locator) skipSpace() {
	for l.pos < len(l.src) {
		switch l.src[l.pos] {
		case ' ', '\t', '\r', '\n':
			l.pos++
		default:
			return
		}
	}
}

// value walks one value starting at l.pos (after white space).
func (l *locator) value(depth int) {
	if l.done || l.pos >= len(l.src) || depth > maxLocateDepth {
		l.done = true
		return
	}
	if !l.visit(l.pos) {
		l.done = true
		return
	}
	switch l.src[l.pos] {
	case '{':
		l.pos++
		for !l.done {
			l.skipSpace()
			if l.pos >= len(l.src) || l.src[l.pos] == '}' {
				l.pos++
				return
			}
			if l.src[l.pos] == ',' {
				l.pos++
				continue
			}
			if l.src[l.pos] != '"' {
				l.done = true
				return
			}
			key := l.str()
			l.skipSpace()
			if l.pos >= len(l.src) || l.src[l.pos] != ':' {
				l.done = true
				return
			}
			l.pos++
			l.skipSpace()
			l.path = append(l.path, pathElem{key: key})
			l.value(depth + 1)
			l.path = l.path[:len(l.path)-1]
		}
	case '[':
		l.pos++
		for i := 0; !l.done; {
			l.skipSpace()
			if l.pos >= len(l.src) || l.src[l.pos] == ']' {
				l.pos++
				return
			}
			if l.src[l.pos] == ',' {
				l.pos++
				i++
				continue
			}
			l.path = append(l.path, pathElem{idx: i})
			l.value(depth + 1)
			l.path = l.path[:len(l.path)-1]
		}
	case '"':
		l.str()
	default:
		// A number or a literal: up to the next delimiter. A delimiter where a value should start ("[}") is
		// where the JSON stops making sense; stopping there also keeps the enclosing loop from spinning.
		start := l.pos
		for l.pos < len(l.src) {
			switch l.src[l.pos] {
			case ',', ']', '}', ' ', '\t', '\r', '\n':
				if l.pos == start {
					l.done = true
				}
				return
			}
			l.pos++
		}
	}
}

// str reads a string at l.pos and returns its raw contents (escapes are kept: keys of PIR JSON have none).
func (l *locator) str() []byte {
	l.pos++
	start := l.pos
	for l.pos < len(l.src) {
		switch l.src[l.pos] {
		case '\\':
			l.pos += 2
			continue
		case '"':
			s := l.src[start:l.pos]
			l.pos++
			return s
		}
		l.pos++
	}
	l.done = true
	return l.src[start:]
}
