package graphnet

import (
	"math"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// attrFromExpr converts an attribute argument of a call to an attribute of type t. Besides literals it knows
// paddle's dtype objects (paddle.float32), dtype names ("float32", None for undefined) and places
// (paddle.core.CPUPlace(), paddle.CUDAPlace(n), paddle.framework._current_expected_place()).
func attrFromExpr(ctx *ir.Context, file string, e expr, t ir.AttrType) (ir.Attribute, *Error) {
	if !t.Array {
		switch t.Kind {
		case ir.KindDataType:
			return dtypeAttr(ctx, file, e)
		case ir.KindPlace:
			return placeAttr(ctx, file, e)
		}
	}
	l, err := evalLiteral(file, e)
	if err != nil {
		return nil, errorAt(file, e.start(), "expected a %s value", t)
	}
	return attrFromLiteral(ctx, file, l, t)
}

func dtypeAttr(ctx *ir.Context, file string, e expr) (ir.Attribute, *Error) {
	switch e := e.(type) {
	case *attrExpr:
		if isName(e.x, "paddle") {
			if d, ok := pythonDTypeByName[e.name]; ok {
				return ctx.DataType(d), nil
			}
		}
	case *strExpr:
		if d, ok := pythonDTypeByName[e.value]; ok {
			return ctx.DataType(d), nil
		}
	case *nameExpr:
		if e.id == "None" {
			return ctx.DataType(ir.DTypeUndefined), nil
		}
	}
	return nil, errorAt(file, e.start(), "expected a dtype (paddle.float32, \"float32\" or None)")
}

func placeAttr(ctx *ir.Context, file string, e expr) (ir.Attribute, *Error) {
	if c, ok := e.(*callExpr); ok && len(c.keywords) == 0 {
		switch {
		case len(c.args) == 0 && isDotted(c.fn, "paddle", "core", "CPUPlace"), len(c.args) == 0 && isDotted(c.fn, "paddle", "CPUPlace"):
			return ctx.Place(ir.Place{Type: ir.PlaceCPU}), nil
		case len(c.args) == 0 && isDotted(c.fn, "paddle", "framework", "_current_expected_place"):
			return ctx.Place(expectedPlace), nil
		case len(c.args) == 1 && (isDotted(c.fn, "paddle", "CUDAPlace") || isDotted(c.fn, "paddle", "core", "CUDAPlace")):
			if l, err := evalLiteral(file, c.args[0]); err == nil && l.kind == litInt && l.i >= 0 && l.i <= math.MaxInt32 {
				return ctx.Place(ir.Place{Type: ir.PlaceGPU, Device: int(l.i)}), nil
			}
		}
	}
	return nil, errorAt(file, e.start(), "expected a place (paddle.core.CPUPlace() or paddle.framework._current_expected_place())")
}

// isName reports whether e is the name id.
func isName(e expr, id string) bool {
	n, ok := e.(*nameExpr)
	return ok && n.id == id
}

// isDotted reports whether e is the dotted name parts[0].parts[1]….
func isDotted(e expr, parts ...string) bool {
	for i := len(parts) - 1; i > 0; i-- {
		a, ok := e.(*attrExpr)
		if !ok || a.name != parts[i] {
			return false
		}
		e = a.x
	}
	return isName(e, parts[0])
}

// attrFromLiteral converts a literal to an attribute of type t.
func attrFromLiteral(ctx *ir.Context, file string, l literal, t ir.AttrType) (ir.Attribute, *Error) {
	if t.Array {
		if l.kind != litList {
			return nil, errorAt(file, l.pos, "expected a list (%s), not %s", t, l.describe())
		}
		elems := make([]ir.Attribute, len(l.elems))
		for i, e := range l.elems {
			a, err := attrFromLiteral(ctx, file, e, ir.AttrType{Kind: t.Kind})
			if err != nil {
				return nil, err
			}
			elems[i] = a
		}
		return ctx.Array(elems...), nil
	}
	bad := func() (ir.Attribute, *Error) {
		return nil, errorAt(file, l.pos, "expected %s, not %s", kindText(t.Kind), l.describe())
	}
	switch t.Kind {
	case ir.KindAny:
		return guessAttr(ctx, file, l)
	case ir.KindBool:
		if l.kind != litBool {
			return bad()
		}
		return ctx.Bool(l.b), nil
	case ir.KindInt32, ir.KindInt64, ir.KindIndex:
		if l.kind != litInt {
			return bad()
		}
		switch t.Kind {
		case ir.KindInt32:
			if l.i < math.MinInt32 || l.i > math.MaxInt32 {
				return nil, errorAt(file, l.pos, "%d does not fit in i32", l.i)
			}
			return ctx.Int32(int32(l.i)), nil
		case ir.KindInt64:
			return ctx.Int64(l.i), nil
		}
		return ctx.Index(l.i), nil
	case ir.KindFloat, ir.KindDouble:
		if l.kind != litFloat { // GraphNet writes every float, integral or not, as float("…")
			return bad()
		}
		f := l.f
		if t.Kind == ir.KindFloat {
			return ctx.Float(float32(f)), nil
		}
		return ctx.Double(f), nil
	case ir.KindStr:
		if l.kind != litStr {
			return bad()
		}
		return ctx.Str(strings.Clone(l.s)), nil // l.s may share the source file's memory
	case ir.KindDataLayout:
		if l.kind != litStr {
			return bad()
		}
		return ctx.DataLayout(strings.Clone(l.s)), nil
	case ir.KindIntArray:
		if l.kind == litInt {
			return ctx.IntArray([]int64{l.i}), nil
		}
		if l.kind != litList {
			return bad()
		}
		v := make([]int64, len(l.elems))
		for i, e := range l.elems {
			if e.kind != litInt {
				return nil, errorAt(file, e.pos, "expected an int, not %s", e.describe())
			}
			v[i] = e.i
		}
		return ctx.IntArray(v), nil
	case ir.KindDataType:
		if l.kind == litNone {
			return ctx.DataType(ir.DTypeUndefined), nil
		}
		if l.kind == litStr {
			if d, ok := pythonDTypeByName[l.s]; ok {
				return ctx.DataType(d), nil
			}
		}
		return bad()
	}
	return nil, errorAt(file, l.pos, "attributes of kind %s cannot be read from Python", t.Kind)
}

// guessAttr converts a literal to the attribute a Python value of its type becomes in PIR: bool → Bool, int →
// Int64, float → Double, str → Str, list → Array.
func guessAttr(ctx *ir.Context, file string, l literal) (ir.Attribute, *Error) {
	switch l.kind {
	case litBool:
		return ctx.Bool(l.b), nil
	case litInt:
		return ctx.Int64(l.i), nil
	case litFloat:
		return ctx.Double(l.f), nil
	case litStr:
		return ctx.Str(strings.Clone(l.s)), nil
	case litList:
		elems := make([]ir.Attribute, len(l.elems))
		for i, e := range l.elems {
			a, err := guessAttr(ctx, file, e)
			if err != nil {
				return nil, err
			}
			elems[i] = a
		}
		return ctx.Array(elems...), nil
	}
	return nil, errorAt(file, l.pos, "None is not an attribute value here")
}

func kindText(k ir.AttrKind) string {
	switch k {
	case ir.KindBool:
		return "True or False"
	case ir.KindInt32, ir.KindInt64, ir.KindIndex:
		return "an int (" + k.String() + ")"
	case ir.KindFloat, ir.KindDouble:
		return "a number (" + k.String() + ")"
	case ir.KindStr, ir.KindDataLayout:
		return "a string"
	case ir.KindIntArray:
		return "a list of ints"
	}
	return "a " + k.String() + " value"
}
