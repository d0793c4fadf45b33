package drr

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// This file lays out statements: a doc is the text of a statement with the
// places where its line may break, and layout turns it into lines, keeping
// the author's line breaks and breaking lines that are too long.

// maxWidth is the width, in columns, above which Format breaks a line that
// has a place to break (trailing comments are not counted).
const maxWidth = 120

// contIndent is the indentation, in columns, of each level of continuation
// lines, relative to the statement's line.
const contIndent = 4

// ditemKind is the kind of an element of a doc.
type ditemKind uint8

const (
	dText  ditemKind = iota // text
	dOpen                   // an opening bracket
	dClose                  // a closing bracket
	dBreak                  // a place where the line may break
)

// ditem is one element of a doc.
type ditem struct {
	kind ditemKind
	text string
	// For a dBreak:
	depth    int        // brackets open at the break; 0: the line cannot break here
	space    bool       // a blank separates the two sides when the line does not break
	newline  bool       // the author broke the line here
	closer   bool       // the break is before a closing bracket: not a place to break a long line
	comma    bool       // before the closing bracket of a list: a line broken here ends with ','
	keep     bool       // only the author breaks the line here (not to shorten a long line)
	arrow    bool       // before the "->" of a rewrite's result types: a break outside brackets, the first taken
	prevEnd  int32      // source offset where the text before the break ends (0: unknown)
	nextOff  int32      // source offset where the text after the break starts (0: unknown)
	comments []*Comment // comments of the source between the two sides
}

// doc is the layout of one statement or declaration.
type doc struct {
	items []ditem
	depth int
}

func (d *doc) text(s string) { d.items = append(d.items, ditem{kind: dText, text: s}) }

func (d *doc) open(s string) {
	d.items = append(d.items, ditem{kind: dOpen, text: s})
	d.depth++
}

func (d *doc) close(s string) {
	d.depth--
	d.items = append(d.items, ditem{kind: dClose, text: s})
}

// brk adds a place where the line may break between what ends with prev
// and what starts with next; the author broke the line there if next starts
// on a later line than prev ends.
func (d *doc) brk(prev, next Span, space bool) {
	d.items = append(d.items, ditem{kind: dBreak, depth: d.depth, space: space,
		newline: prev.endLine > 0 && next.line > prev.endLine, prevEnd: prev.end, nextOff: next.off})
}

// brkClose adds the place before a closing bracket; when the line breaks
// there, the line before ends with ',' if comma is set (the bracket closes
// a list).
func (d *doc) brkClose(prev, closer Span, comma bool) {
	d.brk(prev, closer, false)
	d.items[len(d.items)-1].closer = true
	d.items[len(d.items)-1].comma = comma
}

// list adds a bracketed list of n elements: the brackets (lb and rb are
// their positions in the source), the elements (elem adds the i-th, span
// returns its span) separated by ", ", and the places where the line may
// break: after the opening bracket, after each ',', before the closing
// bracket.
func (d *doc) list(open, close string, lb, rb Span, n int, span func(int) Span, elem func(int)) {
	d.open(open)
	for i := 0; i < n; i++ {
		if i == 0 {
			d.brk(lb, span(0), false)
		} else {
			d.text(",")
			d.brk(span(i-1), span(i), true)
		}
		elem(i)
	}
	if n > 0 {
		d.brkClose(span(n-1), rb, true)
	}
	d.close(close)
}

// keepOnly marks the breaks added since item start as places where only the
// author breaks lines.
func (d *doc) keepOnly(start int) {
	for i := start; i < len(d.items); i++ {
		if d.items[i].kind == dBreak {
			d.items[i].keep = true
		}
	}
}

// firstChar and lastChar return the spans of the first and the last
// character of sp (the brackets of a bracketed node).
func firstChar(sp Span) Span {
	if sp.line == 0 {
		return Span{}
	}
	sp.end, sp.endLine, sp.endCol = sp.off+1, sp.line, sp.col+1
	return sp
}

func lastChar(sp Span) Span {
	if sp.line == 0 {
		return Span{}
	}
	sp.off, sp.line, sp.col = sp.end-1, sp.endLine, sp.endCol-1
	return sp
}

// attach places the comments of the source that lie inside the statement:
// each goes to the break between the tokens around it, which it forces. It
// returns the comments that lie where the line cannot break (they are
// printed above the statement).
func (d *doc) attach(cs []*Comment) (above []*Comment) {
	for _, c := range cs {
		placed := false
		for i := range d.items {
			it := &d.items[i]
			if it.kind == dBreak && it.depth > 0 && it.prevEnd > 0 && it.prevEnd <= c.off && c.off < it.nextOff {
				it.comments = append(it.comments, c)
				placed = true
				break
			}
		}
		if !placed {
			above = append(above, c)
		}
	}
	return above
}

// flat returns the doc on one line.
func (d *doc) flat() string {
	var b strings.Builder
	for _, it := range d.items {
		if it.kind == dBreak {
			if it.space {
				b.WriteByte(' ')
			}
			continue
		}
		b.WriteString(it.text)
	}
	return b.String()
}

// layout returns the lines of the doc for a statement indented by indent
// columns. The lines break where the author broke them and where a comment
// ends a line; a line wider than maxWidth breaks at its outermost place
// (the one inside the fewest brackets; the last of those), until it fits or
// has no place left. Continuation lines are indented by contIndent for each
// line that opened a bracket still open; a closing bracket that starts a
// line goes back to the indentation of the line that opened it, and the
// line before it ends with ','.
func (d *doc) layout(indent int) []outLine {
	forced := make([]bool, len(d.items))
	for {
		lines, over := d.render(indent, forced)
		if over < 0 {
			return lines
		}
		// A statement too wide breaks before its result types first: the op and its types each keep a line.
		if i := slices.IndexFunc(d.items, func(it ditem) bool { return it.arrow }); i >= 0 && !forced[i] {
			over = i
		}
		forced[over] = true
	}
}

// render lays the doc out with the breaks forced; when a line is too wide
// and can break, it returns the break to force next instead.
func (d *doc) render(indent int, forced []bool) (lines []outLine, over int) {
	type open struct {
		item  int // index of the opening bracket
		level int // level of the line that opened it
	}
	var (
		stack   []open                       // the brackets open at the current item
		isOpen  = make([]bool, len(d.items)) // isOpen[i]: item i is a bracket of stack
		level   int                          // continuation level of the current line
		cur     strings.Builder
		comment string
		width   = indent
		cands   []int // breaks not taken on the current line
		inside  []int // for each break of cands, the bracket it is in
		arrow   = -1  // the arrow break, when not taken on the current line
	)
	for i := range d.items {
		it := &d.items[i]
		switch it.kind {
		case dText, dOpen, dClose:
			if width+utf8.RuneCountInString(it.text) > maxWidth {
				// Break in a bracket around the text (a closing bracket is
				// inside its own, an opening one outside).
				if arrow >= 0 {
					return nil, arrow
				}
				if b := outermost(d.items, cands, inside, isOpen); b >= 0 {
					return nil, b
				}
			}
			if it.kind == dClose && len(stack) > 0 {
				isOpen[stack[len(stack)-1].item] = false
				stack = stack[:len(stack)-1]
			}
			cur.WriteString(it.text)
			width += utf8.RuneCountInString(it.text)
			if it.kind == dOpen {
				stack = append(stack, open{item: i, level: level})
				isOpen[i] = true
			}
			continue
		}
		if it.depth == 0 && !it.arrow || !(it.newline || forced[i] || len(it.comments) > 0) {
			if it.depth > 0 && !it.closer && !it.keep {
				cands = append(cands, i)
				inside = append(inside, stack[len(stack)-1].item)
			}
			if it.arrow {
				arrow = i
			}
			if it.space {
				cur.WriteByte(' ')
				width++
			}
			continue
		}
		if it.comma {
			cur.WriteByte(',')
		}
		var own []*Comment
		for _, c := range it.comments {
			if !c.ownLine && comment == "" {
				comment = c.Text
			} else {
				own = append(own, c)
			}
		}
		lines = append(lines, outLine{pad: contIndent * level, code: cur.String(), comment: comment})
		cur.Reset()
		comment = ""
		switch {
		case len(stack) == 0: // the arrow: the result types continue the statement
			level = 1
		case i+1 < len(d.items) && d.items[i+1].kind == dClose:
			level = stack[len(stack)-1].level
		default:
			level = stack[len(stack)-1].level + 1
		}
		for _, c := range own {
			lines = append(lines, outLine{pad: contIndent * level, code: c.Text})
		}
		width = indent + contIndent*level
		cands, inside, arrow = cands[:0], inside[:0], -1
	}
	return append(lines, outLine{pad: contIndent * level, code: cur.String(), comment: comment}), -1
}

// outermost returns the break to take on a line that is too wide: among
// the breaks cands (in the brackets inside) that are in a bracket around the
// text that does not fit (isOpen[inside[k]]: breaking in a list that ended
// before it would not shorten the line where it is too wide), the one inside
// the fewest brackets, the last of those; -1 if there is none.
func outermost(items []ditem, cands, inside []int, isOpen []bool) int {
	best := -1
	for k, i := range cands {
		if !isOpen[inside[k]] {
			continue
		}
		if best < 0 || items[i].depth <= items[best].depth {
			best = i
		}
	}
	return best
}
