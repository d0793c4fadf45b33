package graphnet

import (
	"fmt"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// The statements of forward: each assignment becomes one op.

// assign builds the op of one assignment statement.
func (b *builder) assign(s *assignStmt) *Error {
	sig, err := b.signatureOf(s)
	if err != nil {
		return err
	}
	schema := b.ctx.Schema(sig.op)
	if schema == nil {
		return b.errorf(sig.pos, "op %s is not in the catalog", sig.op)
	}
	targets, err := b.targets(s.target)
	if err != nil {
		return err
	}
	var operands []*ir.Value
	var attrs []ir.NamedAttr
	value := s.value
	padded := 0
	if bin, ok := value.(*binExpr); ok && bin.op == "+" {
		// (lambda …)(…) + (None,): GraphNet pads the results of a call that returns fewer than the op has.
		if t, ok := bin.y.(*tupleExpr); ok && allNone(t.elems) {
			value, padded = bin.x, len(t.elems)
		}
	}
	switch v := value.(type) {
	case *listExpr:
		operands, attrs, err = b.listForm(sig, v)
	case *nameExpr:
		if sig.op != opAssign && sig.op != opSplit {
			return b.errorf(v.pos, "a plain name is %s or %s, not %s", opAssign, opSplit, sig.op)
		}
		var x *ir.Value
		if x, err = b.value(v); err == nil {
			operands = []*ir.Value{x}
		}
		if err == nil && x == nil {
			err = b.errorf(v.pos, "%s of None", sig.op)
		}
	case *callExpr:
		call := v
		if inner, ok := lambdaIdiom(v); ok {
			call = inner
		} else if padded > 0 {
			return b.errorf(v.start(), "unexpected '+' after a call")
		}
		operands, attrs, err = b.callForm(sig, schema, call)
	default:
		return b.errorf(value.start(), "unsupported expression for op %s", sig.op)
	}
	if err != nil {
		return err
	}
	return b.create(s, sig, schema, targets, operands, attrs)
}

func allNone(es []expr) bool {
	for _, e := range es {
		if !isName(e, "None") {
			return false
		}
	}
	return len(es) > 0
}

// targets returns the names a statement binds, in order: one name, or a tuple or list of names.
func (b *builder) targets(t expr) ([]*nameExpr, *Error) {
	switch t := t.(type) {
	case *nameExpr:
		return []*nameExpr{t}, nil
	case *tupleExpr:
		return b.nameList(t.elems)
	case *listExpr:
		return b.nameList(t.elems)
	}
	return nil, b.errorf(t.start(), "an op's results must be bound to names")
}

func (b *builder) nameList(es []expr) ([]*nameExpr, *Error) {
	out := make([]*nameExpr, len(es))
	for i, e := range es {
		n, ok := e.(*nameExpr)
		if !ok {
			return nil, b.errorf(e.start(), "an op's results must be bound to names")
		}
		out[i] = n
	}
	return out, nil
}

// lambdaIdiom recognizes (lambda x, f: f(x))(CALL, lambda out: …), GraphNet's way of calling an op with several
// results, and returns CALL.
func lambdaIdiom(c *callExpr) (*callExpr, bool) {
	l, ok := c.fn.(*lambdaExpr)
	if !ok || len(l.params) != 2 || len(c.args) != 2 || len(c.keywords) != 0 {
		return nil, false
	}
	body, ok := l.body.(*callExpr)
	if !ok || !isName(body.fn, l.params[1]) || len(body.args) != 1 || !isName(body.args[0], l.params[0]) {
		return nil, false
	}
	if _, ok := c.args[1].(*lambdaExpr); !ok {
		return nil, false
	}
	inner, ok := c.args[0].(*callExpr)
	return inner, ok
}

// listForm handles name = [...]: full_int_array's value or combine's operands.
func (b *builder) listForm(sig *signature, l *listExpr) ([]*ir.Value, []ir.NamedAttr, *Error) {
	switch sig.op {
	case opCombine:
		vals := make([]*ir.Value, len(l.elems))
		for i, e := range l.elems {
			v, err := b.value(e)
			if err != nil {
				return nil, nil, err
			}
			if v == nil {
				return nil, nil, b.errorf(e.start(), "builtin.combine of None")
			}
			vals[i] = v
		}
		return vals, nil, nil
	case opFullIntArray:
		lit, err := evalLiteral(b.file, l)
		if err != nil {
			return nil, nil, err
		}
		value, err := attrFromLiteral(b.ctx, b.file, lit, ir.AttrType{Kind: ir.KindInt64, Array: true})
		if err != nil {
			return nil, nil, err
		}
		dt := ir.DTypeInt64
		if len(sig.results) == 1 {
			if t, ok := sig.results[0].(*ir.TensorType); ok {
				dt = t.DType()
			}
		}
		return nil, []ir.NamedAttr{{Name: "value", Value: value}, {Name: "dtype", Value: b.ctx.DataType(dt)},
			{Name: "place", Value: b.ctx.Place(ir.Place{Type: ir.PlaceCPU})}}, nil
	}
	return nil, nil, b.errorf(l.pos, "a list is %s or %s, not %s", opCombine, opFullIntArray, sig.op)
}

// callForm maps a call's arguments to the op's operands and attributes by the schema's argument order.
func (b *builder) callForm(sig *signature, schema *ir.OpSchema, c *callExpr) ([]*ir.Value, []ir.NamedAttr, *Error) {
	short := sig.op[strings.IndexByte(sig.op, '.')+1:]
	// x.detach() is share_data_.
	if a, ok := c.fn.(*attrExpr); ok && a.name == "detach" && sig.op == opShareData {
		if len(c.args) != 0 || len(c.keywords) != 0 {
			return nil, nil, b.errorf(c.lparen, "detach() takes no arguments")
		}
		v, err := b.value(a.x)
		if err != nil {
			return nil, nil, err
		}
		return []*ir.Value{v}, nil, nil
	}
	args, given := b.argBuf(len(schema.Args))
	implied := map[string]ir.Attribute{}
	switch {
	case isDotted(c.fn, "paddle", "_C_ops", short), callAliases[sig.op] != "" && isDotted(c.fn, "paddle", "_C_ops", callAliases[sig.op]):
		if len(c.args) > len(schema.Args) {
			return nil, nil, b.errorf(c.lparen, "%s takes %d arguments (%s), the call gives %d", sig.op, len(schema.Args), argList(schema), len(c.args))
		}
		for i, e := range c.args {
			args[i], given[i] = e, true
		}
	case publicCalls[sig.op].fn != "" && isDotted(c.fn, "paddle", publicCalls[sig.op].fn):
		pc := publicCalls[sig.op]
		if len(c.args) > len(pc.positional)+len(pc.keywords) {
			return nil, nil, b.errorf(c.lparen, "paddle.%s takes %d arguments, the call gives %d", pc.fn, len(pc.positional)+len(pc.keywords), len(c.args))
		}
		names := append(append([]string(nil), pc.positional...), pc.keywords...)
		for i, e := range c.args {
			k := argIndex(schema, names[i])
			if k < 0 {
				return nil, nil, b.errorf(e.start(), "%s has no argument %s", sig.op, names[i])
			}
			args[k], given[k] = e, true
		}
		for name, place := range pc.implied {
			implied[name] = b.ctx.Place(place)
		}
	default:
		return nil, nil, b.errorf(c.start(), "the call does not match the comment's op %s (expected paddle._C_ops.%s)", sig.op, short)
	}
	for _, kw := range c.keywords {
		k := argIndex(schema, kw.name)
		if k < 0 {
			return nil, nil, b.errorf(kw.pos, "%s has no argument %s (arguments: %s)", sig.op, kw.name, argList(schema))
		}
		if given[k] {
			return nil, nil, b.errorf(kw.pos, "argument %s given twice", kw.name)
		}
		args[k], given[k] = kw.value, true
	}
	operands := b.operandBuf(len(schema.Operands))
	attrVals := b.attrBuf(len(schema.Attrs))
	for i, a := range schema.Args {
		e := args[i]
		if a.IsOperand() {
			spec := schema.Operands[a.Operand]
			if !given[i] {
				if spec.Optional {
					continue
				}
				return nil, nil, b.errorf(c.lparen, "%s: missing operand %s", sig.op, a.Name)
			}
			v, err := b.value(e)
			if err != nil {
				return nil, nil, b.errorf(e.start(), "%s: argument %s is an operand: %s", sig.op, a.Name, err.Msg)
			}
			if v == nil && !spec.Optional {
				return nil, nil, b.errorf(e.start(), "%s: operand %s is not optional", sig.op, a.Name)
			}
			operands[a.Operand] = v
			continue
		}
		spec := schema.Attrs[a.Attr]
		if !given[i] {
			continue
		}
		v, err := b.attr(e, spec.Type)
		if err != nil {
			err.Msg = fmt.Sprintf("%s: argument %s: %s", sig.op, a.Name, err.Msg)
			return nil, nil, err
		}
		attrVals[a.Attr] = v
	}
	attrs := make([]ir.NamedAttr, 0, len(schema.Attrs)+1)
	for i, spec := range schema.Attrs {
		v := attrVals[i]
		if v == nil {
			v = implied[spec.Name]
		}
		if v == nil {
			v = spec.Default
		}
		if v == nil && spec.Optional {
			continue // a runtime attribute (force_backend): no argument of paddle._C_ops, absent unless set
		}
		if v == nil {
			return nil, nil, b.errorf(c.lparen, "%s: missing argument %s", sig.op, spec.Name)
		}
		attrs = append(attrs, ir.NamedAttr{Name: spec.Name, Value: v})
	}
	return operands, attrs, nil
}

func argIndex(s *ir.OpSchema, name string) int {
	for i, a := range s.Args {
		if a.Name == name {
			return i
		}
	}
	return -1
}

func argList(s *ir.OpSchema) string {
	names := make([]string, len(s.Args))
	for i, a := range s.Args {
		names[i] = a.Name
	}
	return strings.Join(names, ", ")
}

// create checks the op against its signature and schema, creates it, and binds its results.
func (b *builder) create(s *assignStmt, sig *signature, schema *ir.OpSchema, targets []*nameExpr, operands []*ir.Value, attrs []ir.NamedAttr) *Error {
	if len(sig.operands) != len(operands) {
		return b.errorf(sig.pos, "the comment gives %s %d operands, the statement %d", sig.op, len(sig.operands), len(operands))
	}
	if !schema.OperandCountOK(len(operands)) {
		return b.errorf(sig.pos, "%s has %d operands; the catalog's %s takes %d", sig.op, len(operands), schema.Name, len(schema.Operands))
	}
	sgAll := true
	for i, v := range operands {
		want := sig.operands[i]
		if v == nil {
			if want != nil {
				return b.errorf(sig.pos, "%s: operand %d is None in the statement but %s in the comment", sig.op, i, typeText(want))
			}
			continue
		}
		if want == nil || !b.fixInput(v, want) {
			return b.errorf(sig.pos, "%s: operand %d is %s, the comment says %s", sig.op, i, typeText(v.Type()), typeText(want))
		}
		sgAll = sgAll && stopGradient(v)
	}
	if !schema.ResultCountOK(len(sig.results)) {
		return b.errorf(sig.pos, "%s has %d results in the comment; the catalog's %s has %s", sig.op, len(sig.results), schema.Name, resultCount(schema))
	}
	if len(targets) != len(sig.results) && !(len(targets) == 1 && len(sig.results) == 1) {
		return b.errorf(s.target.start(), "the statement binds %d names to the %d results of %s", len(targets), len(sig.results), sig.op)
	}
	results := make([]ir.Type, len(sig.results))
	for i, t := range sig.results {
		if t == nil {
			t = b.ctx.NullType()
		}
		results[i] = t
	}
	attrs = append(attrs, ir.NamedAttr{Name: "stop_gradient", Value: b.stopGradientAttr(sgAll, len(results))})
	op := b.b.Create(ir.OpSpec{Name: sig.op, Operands: operands, Results: results, Attrs: attrs, Loc: s.pos})
	if sgAll {
		op.SetMark(markStopGradient)
	}
	for i, n := range targets {
		b.env[n.id] = binding{v: op.Result(i)}
	}
	return nil
}

func resultCount(s *ir.OpSchema) string {
	n := len(s.Results)
	if s.IsVariadic() {
		return fmt.Sprintf("a variable number (at least %d)", n-1)
	}
	return fmt.Sprint(n)
}

func typeText(t ir.Type) string {
	var sb strings.Builder
	if !formatType(&sb, t) {
		return t.String()
	}
	return sb.String()
}
