package graphnet

import (
	"strings"

	"github.com/pirdrr/drr/ir"
)

// What the builder keeps from statement to statement to build ops cheaply: scratch slices and caches of
// attributes.

// argBuf, operandBuf and attrBuf return zeroed scratch slices of length n, reused from statement to statement
// (ir.Context.NewOp copies the operands; attributes are copied out before the next statement).
func (b *builder) argBuf(n int) ([]expr, []bool) {
	if cap(b.scratchArgs) < n {
		b.scratchArgs, b.scratchGiven = make([]expr, n), make([]bool, n)
	}
	args, given := b.scratchArgs[:n], b.scratchGiven[:n]
	clear(args)
	clear(given)
	return args, given
}

func (b *builder) operandBuf(n int) []*ir.Value {
	if cap(b.scratchOperands) < n {
		b.scratchOperands = make([]*ir.Value, n)
	}
	v := b.scratchOperands[:n]
	clear(v)
	return v
}

func (b *builder) attrBuf(n int) []ir.Attribute {
	if cap(b.scratchAttrs) < n {
		b.scratchAttrs = make([]ir.Attribute, n)
	}
	v := b.scratchAttrs[:n]
	clear(v)
	return v
}

// attrKey identifies a literal argument: the attribute type it converts to and its source text.
type attrKey struct {
	t   ir.AttrType
	neg bool
	src string
}

// literalKey returns the cache key of an attribute argument, if it has one.
func literalKey(e expr, t ir.AttrType) (attrKey, bool) {
	switch e := e.(type) {
	case *numExpr:
		return attrKey{t: t, src: e.text}, true
	case *unaryExpr:
		if n, ok := e.x.(*numExpr); ok && e.op == "-" {
			return attrKey{t: t, neg: true, src: n.text}, true
		}
	case *strExpr:
		return attrKey{t: t, src: e.value}, true
	case *listExpr:
		return attrKey{t: t, src: e.src}, e.src != ""
	case *nameExpr:
		return attrKey{t: t, src: e.id}, true
	case *attrExpr:
		if isName(e.x, "paddle") {
			return attrKey{t: t, src: e.name}, true
		}
	case *callExpr:
		if isName(e.fn, "float") && len(e.args) == 1 {
			if s, ok := e.args[0].(*strExpr); ok {
				return attrKey{t: t, src: s.value}, true
			}
		}
	}
	return attrKey{}, false
}

// attr converts an attribute argument, through the cache.
func (b *builder) attr(e expr, t ir.AttrType) (ir.Attribute, *Error) {
	key, ok := literalKey(e, t)
	if ok {
		if a, hit := b.attrCache[key]; hit {
			return a, nil
		}
	}
	a, err := attrFromExpr(b.ctx, b.file, e, t)
	if err == nil && ok {
		if b.attrCache == nil {
			b.attrCache = map[attrKey]ir.Attribute{}
		}
		key.src = strings.Clone(key.src) // the key outlives nothing, but keeps no source alive either
		b.attrCache[key] = a
	}
	return a, err
}

// stopGradientAttr returns the stop_gradient attribute of an op with n results.
func (b *builder) stopGradientAttr(sg bool, n int) *ir.ArrayAttr {
	i := 0
	if sg {
		i = 1
	}
	for len(b.sgAttrs[i]) <= n {
		elems := make([]ir.Attribute, len(b.sgAttrs[i]))
		for k := range elems {
			elems[k] = b.ctx.Bool(sg)
		}
		b.sgAttrs[i] = append(b.sgAttrs[i], b.ctx.Array(elems...))
	}
	return b.sgAttrs[i][n]
}
