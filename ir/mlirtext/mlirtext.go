// Package mlirtext writes programs in MLIR's generic operation syntax, so that MLIR tools (mlir-opt with
// --allow-unregistered-dialect) and scripts written for them can read pirdrr's output:
//
//	module @ir {
//	func.func @main() {
//	  %0 = "pd_op.data"() {name = "x"} : () -> tensor<1x64x56x56xf32>
//	  %1 = "pd_op.conv2d"(%0, %5) {groups = 1 : i32, strides = [1 : i32, 1 : i32]} : (tensor<…>, tensor<…>) -> tensor<…>
//	  func.return
//	}
//	}
//
// The program body becomes the body of func.func @main, as ../shared/bench/gen.py renders the benchmark workload.
// MLIR reserves its builtin dialect, so PIR's builtin ops are renamed: builtin.parameter becomes pd_op.parameter
// (gen.py's spelling) and the others pir.NAME (pir.combine, pir.shadow_output, …); ops of dialects MLIR registers
// itself (cf, func, arith, scf, tensor) become pir.DIALECT.NAME (pir.cf.yield). Attributes take MLIR's typed
// forms (1 : i32, 1.000000e-05 : f32, [1 : i32, 1 : i32], "NCHW"); Paddle's own attribute kinds that MLIR lacks
// (DataType, Place, DataLayout, IntArray, Scalar) are written as their PIR text in a string, so nothing is lost for
// a reader that knows. Types: tensor<1x?xf32> (a dynamic dim is ?), v_tensor as !pd_op.v_tensor<…>, vec as
// tuple<…>, bool as i1. Regions are written in MLIR's generic form with ^bb0 block arguments.
package mlirtext

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// Write writes p to w in MLIR generic syntax.
func Write(w io.Writer, p *ir.Program) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	pr := &printer{w: bw, ids: map[*ir.Value]int{}, types: map[ir.Type]string{}, attrs: map[ir.Attribute]string{},
		names: map[string]string{}}
	bw.WriteString("module @ir {\nfunc.func @main() {\n")
	pr.block(p.Body(), 1, false)
	bw.WriteString("  func.return\n}\n}\n")
	return bw.Flush()
}

// printer writes one program. Types and attributes are interned, so their text is computed once per distinct
// one (a 300k-op program has a few hundred); value ids are numbers, written without building strings.
type printer struct {
	w     *bufio.Writer
	ids   map[*ir.Value]int // op results: n ≥ 0 for %n; block arguments: -(n+1) for %argn
	next  int
	args  int
	types map[ir.Type]string
	attrs map[ir.Attribute]string
	names map[string]string // op name → quoted MLIR name; attribute name → MLIR spelling
	buf   []byte
	tbuf  []ir.Type
}

// writeName writes the id of v.
func (pr *printer) writeName(v *ir.Value) {
	if v == nil {
		pr.w.WriteString("%null")
		return
	}
	n, ok := pr.ids[v]
	switch {
	case !ok:
		pr.w.WriteString("%undef")
	case n >= 0:
		pr.buf = strconv.AppendInt(append(pr.buf[:0], '%'), int64(n), 10)
		pr.w.Write(pr.buf)
	default:
		pr.buf = strconv.AppendInt(append(pr.buf[:0], "%arg"...), int64(-n-1), 10)
		pr.w.Write(pr.buf)
	}
}

func (pr *printer) typ(t ir.Type) string {
	s, ok := pr.types[t]
	if !ok {
		s = Type(t)
		pr.types[t] = s
	}
	return s
}

func (pr *printer) attr(a ir.Attribute) string {
	s, ok := pr.attrs[a]
	if !ok {
		s = Attr(a)
		pr.attrs[a] = s
	}
	return s
}

func (pr *printer) cached(key string, f func(string) string) string {
	s, ok := pr.names[key]
	if !ok {
		s = f(key)
		pr.names[key] = s
	}
	return s
}

func (pr *printer) indent(depth int) {
	for i := 0; i < depth; i++ {
		pr.w.WriteString("  ")
	}
}

func (pr *printer) block(b *ir.Block, depth int, header bool) {
	if header {
		pr.indent(depth - 1)
		pr.w.WriteString("^bb0")
		if b.NumArgs() > 0 {
			pr.w.WriteByte('(')
			for i, a := range b.Args() {
				if i > 0 {
					pr.w.WriteString(", ")
				}
				pr.ids[a] = -(pr.args + 1)
				pr.args++
				pr.writeName(a)
				pr.w.WriteString(": " + pr.typ(a.Type()))
			}
			pr.w.WriteByte(')')
		}
		pr.w.WriteString(":\n")
	}
	for op := range b.Ops() {
		pr.op(op, depth)
	}
}

func (pr *printer) op(op *ir.Op, depth int) {
	for _, r := range op.Results() {
		pr.ids[r] = pr.next
		pr.next++
	}
	pr.indent(depth)
	if op.NumResults() > 0 {
		for i, r := range op.Results() {
			if i > 0 {
				pr.w.WriteString(", ")
			}
			pr.writeName(r)
		}
		pr.w.WriteString(" = ")
	}
	pr.w.WriteString(pr.cached(op.Name(), func(n string) string { return strconv.Quote(OpName(n)) }))
	pr.w.WriteByte('(')
	// The operand types are written after the regions, whose ops use the scratch slice too.
	var types []ir.Type
	if op.NumRegions() == 0 {
		types = pr.tbuf[:0]
	}
	first := true
	for _, v := range op.Operands() {
		if v == nil {
			continue // MLIR has no absent operands; the attribute below records where they were
		}
		if !first {
			pr.w.WriteString(", ")
		}
		first = false
		pr.writeName(v)
		types = append(types, v.Type())
	}
	if op.NumRegions() == 0 {
		pr.tbuf = types
	}
	pr.w.WriteByte(')')
	if op.NumRegions() > 0 {
		pr.w.WriteString(" (")
		for i, r := range op.Regions() {
			if i > 0 {
				pr.w.WriteString(", ")
			}
			pr.w.WriteString("{\n")
			for _, b := range r.Blocks() {
				pr.block(b, depth+1, true)
			}
			pr.indent(depth)
			pr.w.WriteString("}")
		}
		pr.w.WriteString(")")
	}
	attrs := op.SortedAttrs()
	if absent := absentOperands(op); absent != "" {
		attrs = append(attrs, ir.NamedAttr{Name: "pir.absent_operands", Value: nil})
	}
	if len(attrs) > 0 {
		pr.w.WriteString(" {")
		for i, a := range attrs {
			if i > 0 {
				pr.w.WriteString(", ")
			}
			pr.w.WriteString(pr.cached(a.Name, attrName))
			pr.w.WriteString(" = ")
			if a.Value == nil {
				pr.w.WriteString(strconv.Quote(absentOperands(op)))
			} else {
				pr.w.WriteString(pr.attr(a.Value))
			}
		}
		pr.w.WriteByte('}')
	}
	pr.w.WriteString(" : (")
	for i, t := range types {
		if i > 0 {
			pr.w.WriteString(", ")
		}
		pr.w.WriteString(pr.typ(t))
	}
	pr.w.WriteString(") -> ")
	switch op.NumResults() {
	case 0:
		pr.w.WriteString("()")
	case 1:
		pr.w.WriteString(pr.typ(op.Result(0).Type()))
	default:
		pr.w.WriteByte('(')
		for i, r := range op.Results() {
			if i > 0 {
				pr.w.WriteString(", ")
			}
			pr.w.WriteString(pr.typ(r.Type()))
		}
		pr.w.WriteByte(')')
	}
	pr.w.WriteByte('\n')
}

// absentOperands lists the indices of absent optional operands ("3,4"), or "".
func absentOperands(op *ir.Op) string {
	var idx []string
	for i := 0; i < op.NumOperands(); i++ {
		if op.Operand(i) == nil {
			idx = append(idx, strconv.Itoa(i))
		}
	}
	return strings.Join(idx, ",")
}

// OpName maps a PIR op name to its MLIR name: builtin.parameter is pd_op.parameter, other builtin ops are pir.NAME,
// kernel ops without a dialect are pir.kernel."NAME".
func OpName(name string) string {
	d, op := ir.SplitOpName(name)
	switch {
	case name == ir.ParameterOpName:
		return "pd_op.parameter"
	case d == "builtin":
		return "pir." + op
	case d == "cf" || d == "func" || d == "arith" || d == "scf" || d == "tensor":
		return "pir." + d + "." + op // dialects MLIR registers itself
	case d == "":
		return "pir.kernel." + strings.NewReplacer("(", "_", ")", "_").Replace(op)
	}
	return name
}

func attrName(n string) string {
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !(c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return strconv.Quote(n)
		}
	}
	if n == "" {
		return `""`
	}
	return n
}

// Type renders a type in MLIR syntax.
func Type(t ir.Type) string {
	switch t := t.(type) {
	case *ir.ScalarType:
		return scalar(t.DType)
	case *ir.TensorType:
		var b strings.Builder
		if t.IsValue() {
			b.WriteString("!pd_op.v_tensor<")
		} else {
			b.WriteString("tensor<")
		}
		for _, d := range t.Dims {
			if d < 0 {
				b.WriteString("?x")
			} else {
				b.WriteString(strconv.FormatInt(d, 10) + "x")
			}
		}
		b.WriteString(Type(t.Elem))
		b.WriteByte('>')
		return b.String()
	case *ir.VectorType:
		parts := make([]string, len(t.Elems))
		for i, e := range t.Elems {
			parts[i] = Type(e)
		}
		return "tuple<" + strings.Join(parts, ", ") + ">"
	case *ir.NullType:
		return "none"
	}
	return "!pir.opaque<" + strconv.Quote(t.String()) + ">"
}

func scalar(d ir.DType) string {
	switch d {
	case ir.DTypeBool:
		return "i1"
	case ir.DTypeUint8:
		return "ui8"
	case ir.DTypeUint16:
		return "ui16"
	case ir.DTypeUint32:
		return "ui32"
	case ir.DTypeUint64:
		return "ui64"
	case ir.DTypeComplex64:
		return "complex<f32>"
	case ir.DTypeComplex128:
		return "complex<f64>"
	case ir.DTypeFloat8E4M3FN:
		return "f8E4M3FN"
	case ir.DTypeFloat8E5M2:
		return "f8E5M2"
	case ir.DTypeUndefined, ir.DTypePString:
		return "none"
	}
	return d.String()
}

// Attr renders an attribute in MLIR syntax.
func Attr(a ir.Attribute) string {
	switch a := a.(type) {
	case *ir.BoolAttr:
		return strconv.FormatBool(a.Value)
	case *ir.Int32Attr:
		return strconv.FormatInt(int64(a.Value), 10) + " : i32"
	case *ir.Int64Attr:
		return strconv.FormatInt(a.Value, 10) + " : i64"
	case *ir.IndexAttr:
		return strconv.FormatInt(a.Value, 10) + " : index"
	case *ir.FloatAttr:
		return float(float64(a.Value), 32) + " : f32"
	case *ir.DoubleAttr:
		return float(a.Value, 64) + " : f64"
	case *ir.StrAttr:
		return strconv.Quote(a.Value)
	case *ir.ArrayAttr:
		parts := make([]string, len(a.Elems))
		for i, e := range a.Elems {
			parts[i] = Attr(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *ir.TypeAttr:
		return Type(a.Type)
	}
	// Paddle's attribute kinds that MLIR has no form for keep their PIR text.
	return strconv.Quote(a.String())
}

// float renders a float literal MLIR parses back to the same value: digits with a '.' or an exponent, or the
// hexadecimal bit pattern for NaN and infinities.
func float(v float64, bits int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		if bits == 32 {
			return fmt.Sprintf("0x%08X", math.Float32bits(float32(v)))
		}
		return fmt.Sprintf("0x%016X", math.Float64bits(v))
	}
	s := strconv.FormatFloat(v, 'e', -1, bits) // shortest digits: 1e-05, 2.5e+00
	if mant, exp, ok := strings.Cut(s, "e"); ok && !strings.Contains(mant, ".") {
		s = mant + ".0e" + exp // MLIR's float literals need a '.'
	}
	return s
}
