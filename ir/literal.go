package ir

import (
	"fmt"
	"math"
	"strconv"
)

// LitKind is the syntactic kind of an untagged literal.
type LitKind uint8

// The untagged literal kinds.
const (
	LitInt    LitKind = iota // 1, -3
	LitFloat                 // 1e-05, 0.5, inf, nan
	LitString                // "EXPLICIT"
	LitBool                  // true, false
	LitIdent                 // float32, NCHW (data types and layouts written bare)
	LitPlace                 // Place(cpu)
	LitList                  // [1, 2]
)

// Literal is an untagged attribute literal as written in newer PIR prints, catalogs and rule files. It says what
// was written, not which attribute kind is meant; Context.Coerce turns it into an attribute of an expected kind, and
// Context.Guess picks a kind when none is known.
type Literal struct {
	Kind  LitKind
	Int   int64
	Float float64
	Str   string // string value, identifier, the inside of Place(…), or a float's spelling in the source
	Bool  bool
	List  []Literal
}

// String returns the literal in source syntax.
func (l Literal) String() string {
	switch l.Kind {
	case LitInt:
		return strconv.FormatInt(l.Int, 10)
	case LitFloat:
		return FormatFloat(l.Float, 64)
	case LitString:
		return QuoteString(l.Str)
	case LitBool:
		return strconv.FormatBool(l.Bool)
	case LitIdent:
		return l.Str
	case LitPlace:
		return "Place(" + l.Str + ")"
	case LitList:
		s := "["
		for i, e := range l.List {
			if i > 0 {
				s += ","
			}
			s += e.String()
		}
		return s + "]"
	}
	return "?"
}

// Coerce converts l to an attribute of type t. Integers convert to any numeric kind (with range checks), floats
// to f32/f64, identifiers or strings to DataType and DataLayout, lists to arrays and IntArray; KindAny guesses.
func (c *Context) Coerce(t AttrType, l Literal) (Attribute, error) {
	if t.Array {
		if l.Kind != LitList {
			return nil, fmt.Errorf("expected a list for %s, got %s", t, l)
		}
		elems := make([]Attribute, len(l.List))
		for i, e := range l.List {
			a, err := c.Coerce(AttrType{Kind: t.Kind}, e)
			if err != nil {
				return nil, fmt.Errorf("element %d: %w", i, err)
			}
			elems[i] = a
		}
		return c.Array(elems...), nil
	}
	bad := func() (Attribute, error) { return nil, fmt.Errorf("cannot use %s as %s", l, t) }
	switch t.Kind {
	case KindAny:
		return c.Guess(l)
	case KindBool:
		if l.Kind == LitBool {
			return c.Bool(l.Bool), nil
		}
	case KindInt32:
		if l.Kind == LitInt {
			if l.Int < math.MinInt32 || l.Int > math.MaxInt32 {
				return nil, fmt.Errorf("%d does not fit in i32", l.Int)
			}
			return c.Int32(int32(l.Int)), nil
		}
	case KindInt64:
		if l.Kind == LitInt {
			return c.Int64(l.Int), nil
		}
	case KindIndex:
		if l.Kind == LitInt {
			return c.Index(l.Int), nil
		}
	case KindFloat:
		if l.Kind == LitInt {
			return c.Float(float32(l.Int)), nil
		}
		if l.Kind == LitFloat {
			// Rounding the decimal spelling straight to f32 avoids the double rounding of decimal → f64 → f32,
			// which gives a different f32 for some spellings.
			if l.Str != "" {
				if f, err := strconv.ParseFloat(l.Str, 32); err == nil {
					return c.Float(float32(f)), nil
				}
			}
			return c.Float(float32(l.Float)), nil
		}
	case KindDouble:
		if l.Kind == LitInt {
			return c.Double(float64(l.Int)), nil
		}
		if l.Kind == LitFloat {
			return c.Double(l.Float), nil
		}
	case KindStr:
		if l.Kind == LitString || l.Kind == LitIdent {
			return c.Str(l.Str), nil
		}
	case KindTensorName:
		if l.Kind == LitString || l.Kind == LitIdent {
			return c.TensorName(l.Str), nil
		}
	case KindIntArray:
		if l.Kind == LitList {
			v := make([]int64, len(l.List))
			for i, e := range l.List {
				if e.Kind != LitInt {
					return bad()
				}
				v[i] = e.Int
			}
			return c.IntArray(v), nil
		}
	case KindDataType:
		if l.Kind == LitIdent || l.Kind == LitString {
			if d, ok := DTypeFromDataType(l.Str); ok {
				return c.DataType(d), nil
			}
			if d, ok := DTypeFromText(l.Str); ok {
				return c.DataType(d), nil
			}
			return nil, fmt.Errorf("unknown data type %q", l.Str)
		}
	case KindDataLayout:
		if l.Kind == LitIdent || l.Kind == LitString {
			return c.DataLayout(l.Str), nil
		}
	case KindPlace:
		if l.Kind == LitPlace || l.Kind == LitIdent || l.Kind == LitString {
			p, ok := ParsePlace(l.Str)
			if !ok {
				return nil, fmt.Errorf("bad place %q", l.Str)
			}
			return c.Place(p), nil
		}
	case KindScalar:
		switch l.Kind {
		case LitInt:
			return c.ScalarAttr(DTypeInt64, c.Int64(l.Int)), nil
		case LitFloat:
			return c.ScalarAttr(DTypeFloat64, c.Double(l.Float)), nil
		case LitBool:
			return c.ScalarAttr(DTypeBool, c.Bool(l.Bool)), nil
		}
	case KindPointer:
		if l.Kind == LitIdent || l.Kind == LitString {
			return c.Pointer(l.Str), nil
		}
	}
	return bad()
}

// Guess converts a literal whose kind no schema gives: integers become Int32 when they fit (Int64 otherwise),
// floats Double, strings Str, bare data-type names DataType, other identifiers Str, places Place, lists arrays of
// guessed elements.
func (c *Context) Guess(l Literal) (Attribute, error) {
	switch l.Kind {
	case LitInt:
		if l.Int >= math.MinInt32 && l.Int <= math.MaxInt32 {
			return c.Int32(int32(l.Int)), nil
		}
		return c.Int64(l.Int), nil
	case LitFloat:
		return c.Double(l.Float), nil
	case LitString:
		return c.Str(l.Str), nil
	case LitBool:
		return c.Bool(l.Bool), nil
	case LitIdent:
		if d, ok := DTypeFromDataType(l.Str); ok {
			return c.DataType(d), nil
		}
		return c.Str(l.Str), nil
	case LitPlace:
		p, ok := ParsePlace(l.Str)
		if !ok {
			return nil, fmt.Errorf("bad place %q", l.Str)
		}
		return c.Place(p), nil
	case LitList:
		elems := make([]Attribute, len(l.List))
		for i, e := range l.List {
			a, err := c.Guess(e)
			if err != nil {
				return nil, err
			}
			elems[i] = a
		}
		return c.Array(elems...), nil
	}
	return nil, fmt.Errorf("cannot guess the kind of %s", l)
}

// ParseNumber parses a number as PIR text and catalogs write it: an integer, a float, inf, -inf or nan.
func ParseNumber(s string) (Literal, error) {
	switch s {
	case "inf", "+inf":
		return Literal{Kind: LitFloat, Float: math.Inf(1)}, nil
	case "-inf":
		return Literal{Kind: LitFloat, Float: math.Inf(-1)}, nil
	case "nan", "-nan":
		return Literal{Kind: LitFloat, Float: math.NaN()}, nil
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return Literal{Kind: LitInt, Int: i}, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return Literal{}, fmt.Errorf("bad number %q", s)
	}
	return Literal{Kind: LitFloat, Float: f, Str: s}, nil
}
