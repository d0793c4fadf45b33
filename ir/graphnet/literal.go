package graphnet

import (
	"math"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// litKind is the kind of a Python literal value.
type litKind uint8

const (
	litNone litKind = iota
	litBool
	litInt
	litFloat
	litStr
	litList
)

// literal is a Python literal: what the metadata files hold and what attribute arguments of calls are, once
// evaluated. Floats keep the text they were written with, so that writing them back reproduces it.
type literal struct {
	kind  litKind
	pos   ir.Loc
	b     bool
	i     int64
	f     float64
	s     string // the string value; for floats, the text inside float("…") or the literal as written
	elems []literal
}

func (l literal) describe() string {
	switch l.kind {
	case litNone:
		return "None"
	case litBool:
		return "a bool"
	case litInt:
		return "an int"
	case litFloat:
		return "a float"
	case litStr:
		return "a string"
	}
	return "a list"
}

// evalLiteral evaluates a literal expression: numbers (with unary minus or plus), float("…") (including "nan",
// "inf" and "-inf"), strings, True, False, None, and lists and tuples of literals.
func evalLiteral(file string, e expr) (literal, *Error) {
	switch e := e.(type) {
	case *numExpr:
		return numLiteral(file, e, false)
	case *unaryExpr:
		if n, ok := e.x.(*numExpr); ok && (e.op == "-" || e.op == "+") {
			l, err := numLiteral(file, n, e.op == "-")
			l.pos = e.pos
			return l, err
		}
	case *strExpr:
		return literal{kind: litStr, pos: e.pos, s: e.value}, nil
	case *nameExpr:
		switch e.id {
		case "None":
			return literal{kind: litNone, pos: e.pos}, nil
		case "True", "False":
			return literal{kind: litBool, pos: e.pos, b: e.id == "True"}, nil
		}
	case *callExpr:
		if fn, ok := e.fn.(*nameExpr); ok && fn.id == "float" && len(e.args) == 1 && len(e.keywords) == 0 {
			arg, err := evalLiteral(file, e.args[0])
			if err != nil {
				return literal{}, err
			}
			switch arg.kind {
			case litStr:
				f, ok := parsePyFloat(arg.s)
				if !ok {
					return literal{}, errorAt(file, arg.pos, "float(%q): not a number", arg.s)
				}
				return literal{kind: litFloat, pos: fn.pos, f: f, s: strings.TrimSpace(arg.s)}, nil
			case litInt:
				return literal{kind: litFloat, pos: fn.pos, f: float64(arg.i), s: strconv.FormatInt(arg.i, 10)}, nil
			case litFloat:
				return literal{kind: litFloat, pos: fn.pos, f: arg.f, s: arg.s}, nil
			}
			return literal{}, errorAt(file, arg.pos, "float() of %s", arg.describe())
		}
	case *listExpr:
		return listLiteral(file, e.pos, e.elems)
	case *tupleExpr:
		return listLiteral(file, e.pos, e.elems)
	}
	return literal{}, errorAt(file, e.start(), "expected a literal value")
}

func listLiteral(file string, pos ir.Loc, elems []expr) (literal, *Error) {
	l := literal{kind: litList, pos: pos, elems: make([]literal, len(elems))}
	for i, x := range elems {
		v, err := evalLiteral(file, x)
		if err != nil {
			return literal{}, err
		}
		l.elems[i] = v
	}
	return l, nil
}

func numLiteral(file string, n *numExpr, neg bool) (literal, *Error) {
	text := n.text
	if neg {
		text = "-" + text
	}
	if n.isFloat {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil && !isRangeErr(err) {
			return literal{}, errorAt(file, n.pos, "bad number %s", n.text)
		}
		return literal{kind: litFloat, pos: n.pos, f: f, s: text}, nil
	}
	i, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return literal{}, errorAt(file, n.pos, "integer %s does not fit in 64 bits", text)
	}
	return literal{kind: litInt, pos: n.pos, i: i}, nil
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// parsePyFloat parses the argument of Python's float(): a decimal number, or inf, infinity, nan with an optional
// sign, in any case, with surrounding spaces.
func parsePyFloat(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	unsigned := s
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		unsigned = s[1:]
	}
	switch strings.ToLower(unsigned) {
	case "inf", "infinity":
		if s[0] == '-' {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	case "nan":
		return math.NaN(), true
	}
	if s == "" || strings.ContainsAny(s, "xXpP_") {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !isRangeErr(err) {
		return 0, false
	}
	return f, true
}
