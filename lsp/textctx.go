package lsp

import (
	"strings"
)

// The context of a cursor, read from the text rather than the syntax tree: while a statement is being typed it
// does not parse, but its brackets still say where the cursor is — in the operands of an op, in its attribute
// map, in a where block.

// frame is a bracket open before the cursor.
type frame struct {
	open byte // '(', '[' or '{'
	off  int  // offset of the bracket
	// word is the identifier written directly before the bracket (blanks aside): the op or function called by
	// '(', the block keyword or rule name before '{', "" when the bracket follows anything else.
	word string
	// attrsOf is, for a '{' that directly follows a ')', the op whose operand list that ')' closed: the '{' is
	// its attribute map.
	attrsOf string
	commas  int // ',' seen at this depth
	itemOff int // offset just after the bracket or the last ',' at this depth
}

// textContext is where a cursor is.
type textContext struct {
	declStart   int     // offset of the top-level declaration the cursor is in
	declKeyword string  // its keyword: rule, family, native, import ("" before the first)
	frames      []frame // open brackets, outermost first
	prefix      string  // the (dotted) name being typed before the cursor
	prefixStart int
	sigil       byte // '%', '$' or '@' before the prefix, or 0
}

// top returns the innermost open bracket, or nil.
func (c *textContext) top() *frame {
	if len(c.frames) == 0 {
		return nil
	}
	return &c.frames[len(c.frames)-1]
}

// block returns the match, where or rewrite block the cursor is in, or "".
func (c *textContext) block() string {
	for i := len(c.frames) - 1; i >= 0; i-- {
		f := c.frames[i]
		if f.open == '{' && (f.word == "match" || f.word == "where" || f.word == "rewrite") {
			return f.word
		}
	}
	return ""
}

// call returns the innermost '(' frame with a callee, and whether the cursor is directly in it (not in a nested
// bracket).
func (c *textContext) call() (*frame, bool) {
	for i := len(c.frames) - 1; i >= 0; i-- {
		f := &c.frames[i]
		if f.open == '(' && f.word != "" {
			return f, i == len(c.frames)-1
		}
		if f.open == '{' && f.attrsOf == "" {
			return nil, false // a block: no call encloses the cursor
		}
	}
	return nil, false
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// declStartBefore returns the offset of the line that starts the top-level declaration containing off, and the
// declaration's keyword.
func declStartBefore(text string, off int) (int, string) {
	lineStart := strings.LastIndexByte(text[:off], '\n') + 1
	for {
		line := text[lineStart:]
		for _, kw := range []string{"rule", "family", "native", "import"} {
			if strings.HasPrefix(line, kw) && len(line) > len(kw) && (line[len(kw)] == ' ' || line[len(kw)] == '\t') {
				return lineStart, kw
			}
		}
		if lineStart == 0 {
			return 0, ""
		}
		lineStart = strings.LastIndexByte(text[:lineStart-1], '\n') + 1
	}
}

// contextAt reads the context of the cursor at byte offset off.
func contextAt(text string, off int) *textContext {
	off = max(0, min(off, len(text)))
	c := &textContext{}
	c.declStart, c.declKeyword = declStartBefore(text, off)
	c.prefixStart = off
	for c.prefixStart > 0 && (isNameByte(text[c.prefixStart-1]) || text[c.prefixStart-1] == '.') {
		c.prefixStart--
	}
	c.prefix = text[c.prefixStart:off]
	if c.prefixStart > 0 && strings.IndexByte("%$@", text[c.prefixStart-1]) >= 0 {
		c.sigil = text[c.prefixStart-1]
	}

	lastWord, lastWordEnd := "", -1 // the last identifier, and where it ended
	lastClosedCall := ""            // the callee of the last ')' closed
	lastSignificant := byte(0)      // the last character that is not blank
	for i := c.declStart; i < off; {
		ch := text[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n':
			i++
			continue
		case ch == '/' && i+1 < len(text) && text[i+1] == '/':
			for i < off && text[i] != '\n' {
				i++
			}
			continue
		case ch == '"':
			i++
			for i < off && text[i] != '"' && text[i] != '\n' {
				if text[i] == '\\' {
					i++
				}
				i++
			}
			i++
			lastSignificant = '"'
			continue
		case isNameByte(ch) || ch == '%' || ch == '$' || ch == '@':
			start := i
			i++
			for i < len(text) && i < off && (isNameByte(text[i]) || text[i] == '.' && i+1 < len(text) && isNameByte(text[i+1])) {
				i++
			}
			if isNameByte(ch) {
				lastWord, lastWordEnd = text[start:i], i
			} else {
				lastWord, lastWordEnd = "", -1
			}
			lastSignificant = 'a'
			continue
		case ch == '(' || ch == '[' || ch == '{':
			f := frame{open: ch, off: i, itemOff: i + 1}
			if lastWordEnd >= 0 && strings.TrimSpace(text[lastWordEnd:i]) == "" {
				f.word = lastWord
			}
			if ch == '{' && lastSignificant == ')' {
				f.attrsOf = lastClosedCall
			}
			c.frames = append(c.frames, f)
		case ch == ')' || ch == ']' || ch == '}':
			want := map[byte]byte{')': '(', ']': '[', '}': '{'}[ch]
			for k := len(c.frames) - 1; k >= 0; k-- {
				if c.frames[k].open == want {
					if ch == ')' {
						lastClosedCall = c.frames[k].word
					}
					c.frames = c.frames[:k]
					break
				}
			}
		case ch == ',':
			if f := c.top(); f != nil {
				f.commas++
				f.itemOff = i + 1
			}
		}
		lastSignificant = ch
		lastWord, lastWordEnd = "", -1
		i++
	}
	return c
}
