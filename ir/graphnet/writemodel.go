package graphnet

import (
	"sort"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/ir"
)

const (
	stmtIndent  = 8
	modelHeader = "import paddle\n\n\nclass GraphModule(paddle.nn.Layer):\n    def __init__(self):\n        super().__init__()\n\n"
)

// model writes model.py.
func (w *writer) model() ([]byte, error) {
	var b strings.Builder
	b.WriteString(modelHeader)
	w.forwardHeader(&b)

	for _, op := range w.stmts {
		base := op.Name()[strings.IndexByte(op.Name(), '.')+1:]
		for _, r := range op.Results() {
			w.names[r] = w.fresh(base)
		}
	}
	// The statement after which each value is used for the last time: del follows it. Outputs are never deleted.
	lastUse := map[*ir.Value]int{}
	for i, op := range w.stmts {
		for _, v := range op.Operands() {
			if v != nil {
				lastUse[v] = i
			}
		}
	}
	for _, v := range w.outputs {
		delete(lastUse, v)
	}
	dels := make([][]string, len(w.stmts))
	for v, i := range lastUse {
		if n, ok := w.names[v]; ok {
			dels[i] = append(dels[i], n)
		}
	}
	for i, op := range w.stmts {
		if err := w.statement(&b, op); err != nil {
			return nil, err
		}
		if len(dels[i]) > 0 {
			names := dels[i]
			sort.Strings(names)
			items := make([]pyItem, len(names))
			for j, n := range names {
				items[j] = atom(n)
			}
			prefix := strings.Repeat(" ", stmtIndent) + "del "
			b.WriteString(prefix)
			if len(prefix)+len(strings.Join(names, ", ")) <= lineLength {
				b.WriteString(strings.Join(names, ", "))
				b.WriteByte('\n')
			} else {
				t := tuple(items...)
				t.alwaysExplode = true
				t.layout(&b, stmtIndent, prefix, "\n")
			}
		}
		b.WriteByte('\n')
	}
	// return a / return a, b / return (\n a,\n b,\n)
	outs := make([]pyItem, len(w.outputs))
	for i, v := range w.outputs {
		n, ok := w.names[v]
		if !ok {
			return nil, w.errorf(nil, "an output is not computed by the program's ops")
		}
		outs[i] = atom(n)
	}
	prefix := strings.Repeat(" ", stmtIndent) + "return "
	b.WriteString(prefix)
	if len(outs) == 1 {
		b.WriteString(outs[0].text)
		b.WriteByte('\n')
	} else {
		flat := tuple(outs...).flat()
		if len(prefix)+len(flat)-2 <= lineLength {
			b.WriteString(flat[1 : len(flat)-1])
			b.WriteByte('\n')
		} else {
			t := tuple(outs...)
			t.alwaysExplode = true
			t.layout(&b, stmtIndent, prefix, "\n")
		}
	}
	return []byte(b.String()), nil
}

// forwardHeader writes "def forward(self, …):" on one line when it fits, else one parameter per line.
func (w *writer) forwardHeader(b *strings.Builder) {
	params := []string{"self"}
	for _, in := range w.weights {
		params = append(params, in.name)
	}
	for _, in := range w.inputs {
		params = append(params, in.name)
	}
	line := "    def forward(" + strings.Join(params, ", ") + "):"
	if len(line) <= lineLength {
		b.WriteString(line)
		b.WriteByte('\n')
		return
	}
	b.WriteString("    def forward(\n")
	for _, p := range params {
		b.WriteString("        ")
		b.WriteString(p)
		b.WriteString(",\n")
	}
	b.WriteString("    ):\n")
}

// signatureComment returns "# op: (results) <- (operands)".
func (w *writer) signatureComment(op *ir.Op) (string, error) {
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", stmtIndent))
	b.WriteString("# ")
	b.WriteString(op.Name())
	b.WriteString(": (")
	for i, r := range op.Results() {
		if i > 0 {
			b.WriteString(", ")
		}
		if !formatType(&b, r.Type()) {
			return "", w.errorf(op, "result %d has type %s, which a GraphNet comment cannot spell", i, r.Type())
		}
	}
	b.WriteString(") <- (")
	for i, v := range op.Operands() {
		if i > 0 {
			b.WriteString(", ")
		}
		var t ir.Type
		if v != nil {
			t = v.Type()
		}
		if !formatType(&b, t) {
			return "", w.errorf(op, "operand %d has type %s, which a GraphNet comment cannot spell", i, t)
		}
	}
	b.WriteString(")\n")
	return b.String(), nil
}

// formOperands are the operand counts of the ops written with a statement form of their own.
var formOperands = map[string]int{opSplit: 1, opFullIntArray: 0, opAssign: 1, opShareData: 1}

// operand returns the Python name of an operand, or None.
func (w *writer) operand(op *ir.Op, i int) (pyItem, error) {
	v := op.Operand(i)
	if v == nil {
		return atom("None"), nil
	}
	n, ok := w.names[v]
	if !ok {
		return pyItem{}, w.errorf(op, "operand %d is not defined by an earlier op of the program's body", i)
	}
	return atom(n), nil
}

// statement writes the comment and the statement of one op.
func (w *writer) statement(b *strings.Builder, op *ir.Op) error {
	comment, err := w.signatureComment(op)
	if err != nil {
		return err
	}
	if op.NumResults() == 0 {
		return w.errorf(op, "an op without results cannot be a statement of forward")
	}
	targets := make([]pyItem, op.NumResults())
	for i, r := range op.Results() {
		targets[i] = atom(w.names[r])
	}
	b.WriteString(comment)
	indent := strings.Repeat(" ", stmtIndent)
	simple := func(rhs pyItem) {
		prefix := indent + targets[0].text + " = "
		b.WriteString(prefix)
		rhs.layout(b, stmtIndent, prefix, "\n")
	}
	operands := make([]pyItem, op.NumOperands())
	for i := range operands {
		if operands[i], err = w.operand(op, i); err != nil {
			return err
		}
	}
	if want, ok := formOperands[op.Name()]; ok && op.NumOperands() != want {
		return w.errorf(op, "has %d operands; GraphNet's statement for it takes %d", op.NumOperands(), want)
	}
	switch op.Name() {
	case opCombine:
		simple(list(operands...))
		return nil
	case opSplit:
		t := tuple(targets...)
		t.alwaysExplode = true
		b.WriteString(indent)
		t.layout(b, stmtIndent, indent, " = "+operands[0].text+"\n")
		return nil
	case opFullIntArray:
		vals, ok := ir.AsInts(op.Attr("value"))
		if !ok {
			return w.errorf(op, "value is not a list of ints")
		}
		items := make([]pyItem, len(vals))
		for i, v := range vals {
			items[i] = atom(strconv.FormatInt(v, 10))
		}
		simple(list(items...))
		return nil
	case opAssign:
		simple(operands[0])
		return nil
	case opShareData:
		simple(atom(operands[0].text + ".detach()"))
		return nil
	}
	schema := op.Schema()
	if schema == nil {
		return w.errorf(op, "the op is not in the catalog, so its Python call is unknown")
	}
	if internalOps[op.Name()] {
		return w.errorf(op, "pirdrr's own op has no paddle._C_ops function (lower value tensors before writing)")
	}
	if op.NumOperands() != len(schema.Operands) || schema.IsVariadic() {
		if schema.OperandsAsAttrs(op.NumOperands(), op.Attr) {
			return w.errorf(op, "has the older form where %s is an attribute; GraphNet passes it as an operand", schema.Operands[op.NumOperands()].Name)
		}
		return w.errorf(op, "has %d operands; the catalog's %s takes %d", op.NumOperands(), schema.Name, len(schema.Operands))
	}
	if pc, ok := publicCalls[op.Name()]; ok {
		args := make([]pyItem, 0, len(pc.positional)+len(pc.keywords))
		for _, name := range pc.positional {
			i := schema.OperandIndex(name)
			if i < 0 || i >= len(operands) {
				return w.errorf(op, "has no operand %s", name)
			}
			args = append(args, operands[i])
		}
		for _, name := range pc.keywords {
			a := op.AttrOrDefault(name)
			dt, ok := a.(*ir.DataTypeAttr)
			if !ok {
				return w.errorf(op, "attribute %s is not a DataType", name)
			}
			args = append(args, atom(name+"="+pyString(pythonDTypes[dt.DType])))
		}
		simple(call("paddle."+pc.fn, args...))
		return nil
	}
	args := make([]pyItem, len(schema.Args))
	for i, a := range schema.Args {
		if a.IsOperand() {
			args[i] = operands[a.Operand]
			if op.Name() == opOneHot && a.Operand == 0 && len(operands) > 1 && operands[0].text != "None" {
				// GraphNet keeps random indices in range: x % paddle.cast(num_classes, x.dtype).
				x := operands[0].text
				args[i] = atom(x + " % paddle.cast(" + operands[1].text + ", " + x + ".dtype)")
			}
			continue
		}
		spec := schema.Attrs[a.Attr]
		v := op.Attr(spec.Name)
		if v == nil {
			v = spec.Default
		}
		if v == nil {
			return w.errorf(op, "has no attribute %s and the catalog gives no default", spec.Name)
		}
		item, err := w.attrItem(op, spec.Name, v)
		if err != nil {
			return err
		}
		args[i] = item
	}
	fn := op.Name()[strings.IndexByte(op.Name(), '.')+1:]
	if alias, ok := callAliases[op.Name()]; ok {
		fn = alias
	}
	if !strings.HasPrefix(op.Name(), "pd_op.") {
		return w.errorf(op, "only pd_op ops have a paddle._C_ops function")
	}
	c := call("paddle._C_ops."+fn, args...)
	if op.NumResults() == 1 {
		simple(c)
		return nil
	}
	return w.multiResult(b, targets, c)
}

// multiResult writes GraphNet's idiom for ops with several results:
//
//	a, b = (lambda x, f: f(x))(
//	    paddle._C_ops.op(…),
//	    lambda out: out if isinstance(out, (list, tuple)) else (out, None),
//	)
func (w *writer) multiResult(b *strings.Builder, targets []pyItem, c pyItem) error {
	indent := strings.Repeat(" ", stmtIndent)
	inner := strings.Repeat(" ", stmtIndent+4)
	const head = "(lambda x, f: f(x))("
	lhs := tuple(targets...).flat()
	lhs = lhs[1 : len(lhs)-1]
	if len(targets) == 1 {
		lhs = targets[0].text
	}
	if len(indent)+len(lhs)+3+len(head) <= lineLength {
		b.WriteString(indent)
		b.WriteString(lhs)
		b.WriteString(" = " + head + "\n")
	} else {
		t := tuple(targets...)
		t.alwaysExplode = true
		b.WriteString(indent)
		t.layout(b, stmtIndent, indent, " = "+head+"\n")
	}
	b.WriteString(inner)
	c.layout(b, stmtIndent+4, inner, ",\n")
	nones := make([]string, len(targets)-1)
	for i := range nones {
		nones[i] = "None"
	}
	tail := "(out, " + strings.Join(nones, ", ") + ")"
	line := inner + "lambda out: out if isinstance(out, (list, tuple)) else " + tail + ","
	if len(line) <= lineLength {
		b.WriteString(line + "\n")
	} else {
		b.WriteString(inner + "lambda out: out\n")
		b.WriteString(inner + "if isinstance(out, (list, tuple))\n")
		b.WriteString(inner + "else " + tail + ",\n")
	}
	b.WriteString(indent + ")\n")
	return nil
}

// attrItem writes an attribute argument as Python.
func (w *writer) attrItem(op *ir.Op, name string, a ir.Attribute) (pyItem, error) {
	switch a := a.(type) {
	case *ir.BoolAttr:
		if a.Value {
			return atom("True"), nil
		}
		return atom("False"), nil
	case *ir.Int32Attr:
		return atom(strconv.FormatInt(int64(a.Value), 10)), nil
	case *ir.Int64Attr:
		return atom(strconv.FormatInt(a.Value, 10)), nil
	case *ir.IndexAttr:
		return atom(strconv.FormatInt(a.Value, 10)), nil
	case *ir.FloatAttr:
		return atom(`float("` + floatText(float64(a.Value), 32) + `")`), nil
	case *ir.DoubleAttr:
		return atom(`float("` + floatText(a.Value, 64) + `")`), nil
	case *ir.StrAttr:
		return atom(pyString(a.Value)), nil
	case *ir.DataLayoutAttr:
		return atom(pyString(a.Layout)), nil
	case *ir.IntArrayAttr:
		items := make([]pyItem, len(a.Values))
		for i, v := range a.Values {
			items[i] = atom(strconv.FormatInt(v, 10))
		}
		return list(items...), nil
	case *ir.DataTypeAttr:
		if a.DType == ir.DTypeUndefined {
			return atom("None"), nil
		}
		if n, ok := pythonDTypes[a.DType]; ok {
			return atom("paddle." + n), nil
		}
	case *ir.PlaceAttr:
		if a.Place.Type == ir.PlaceCPU {
			return atom("paddle.core.CPUPlace()"), nil
		}
		return atom("paddle.framework._current_expected_place()"), nil
	case *ir.ArrayAttr:
		items := make([]pyItem, len(a.Elems))
		for i, e := range a.Elems {
			item, err := w.attrItem(op, name, e)
			if err != nil {
				return pyItem{}, err
			}
			items[i] = item
		}
		return list(items...), nil
	}
	return pyItem{}, w.errorf(op, "attribute %s (%s) has no Python spelling", name, a)
}
