package rule

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// Rendering of checked rules back to .drr-like text, for automaton dumps, explanations and traces. The output reads
// like the rule language (a pattern line looks like the printed IR line it matches) but is a rendering of the
// checked model, not of the source: nested ops appear as their own statements, anonymous values keep their
// generated names, and literals print in tagged PIR syntax ((Int32)1).

// ValueName returns the printed name of value hole i of p: %name, or %vN when the hole has no name.
func ValueName(p *Pattern, i int) string {
	if p == nil || i < 0 || i >= len(p.Values) || p.Values[i].Name == "" {
		return "%v" + strconv.Itoa(i)
	}
	return "%" + p.Values[i].Name
}

// HoleName returns the printed name of $hole i of p: $name, or $hN when the hole has no name.
func HoleName(p *Pattern, i int) string {
	if p == nil || i < 0 || i >= len(p.Holes) || p.Holes[i].Name == "" {
		return "$h" + strconv.Itoa(i)
	}
	return "$" + p.Holes[i].Name
}

// OpName returns how op k of p is referred to in messages: @label if it has one, else "op k (name)".
func OpName(p *Pattern, k int) string {
	op := p.Ops[k]
	if op.Label != "" {
		return "@" + op.Label
	}
	n := op.Name
	if n == "" {
		n = "any op"
	}
	return "op " + strconv.Itoa(k) + " (" + n + ")"
}

// FormatPattern renders every op of p, one statement per line, in statement order.
func FormatPattern(p *Pattern) string {
	var b strings.Builder
	for k := range p.Ops {
		b.WriteString(FormatOp(p, k))
		b.WriteByte('\n')
	}
	return b.String()
}

// FormatOp renders op k of p as a statement: `@l = %y, _ = pd_op.conv2d(%x: tensor<?xf32>, %w) {groups: $g}`.
// Value types are written at the value's first mention in statement order.
func FormatOp(p *Pattern, k int) string {
	op := p.Ops[k]
	var b strings.Builder
	if op.Label != "" {
		b.WriteString("@" + op.Label + " = ")
	}
	if len(op.Results) > 0 || op.MoreResults {
		for i, r := range op.Results {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(resultText(p, k, i, r))
		}
		if op.MoreResults {
			if len(op.Results) > 0 {
				b.WriteString(", ")
			}
			b.WriteString("...")
		}
		b.WriteString(" = ")
	}
	b.WriteString(formatOpName(op.Name))
	b.WriteByte('(')
	for j := range op.Operands {
		if j > 0 {
			b.WriteString(", ")
		}
		if op.Commutative && j == 0 {
			b.WriteString("either(")
		}
		b.WriteString(operandText(p, k, j))
		if op.Commutative && j == 1 {
			b.WriteByte(')')
		}
	}
	b.WriteByte(')')
	if len(op.Attrs) > 0 || op.RestAttrs >= 0 {
		b.WriteString(" {")
		for i, a := range op.Attrs {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(formatAttrKey(a.Name) + ": " + attrPatternText(p, a))
		}
		if op.RestAttrs >= 0 {
			if len(op.Attrs) > 0 {
				b.WriteString(", ")
			}
			b.WriteString(HoleName(p, op.RestAttrs) + "...")
		}
		b.WriteByte('}')
	}
	return b.String()
}

func formatOpName(name string) string {
	if name == "" {
		return "_"
	}
	for _, c := range name {
		if !(c == '.' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return strconv.Quote(name)
		}
	}
	return name
}

func formatAttrKey(name string) string {
	for i, c := range name {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return strconv.Quote(name)
		}
	}
	return name
}

// attrPatternText renders the value side of an attribute pattern: $h, _ or the literal.
func attrPatternText(p *Pattern, a AttrPattern) string {
	switch a.Kind {
	case AttrBind:
		return HoleName(p, a.Hole)
	case AttrPresent:
		return "_"
	}
	if a.Literal == nil {
		return "<nil>"
	}
	return a.Literal.String()
}

// firstMention reports whether value hole v is mentioned first (in statement order, results before operands of
// the same op) at op k, result slot res (res >= 0) or operand slot opd.
func firstMention(p *Pattern, v, k, res, opd int) bool {
	for i, op := range p.Ops {
		for ri, r := range op.Results {
			if r.Value == v {
				return i == k && ri == res
			}
		}
		for oi, o := range op.Operands {
			if (o.Kind == OperandValue || o.Kind == OperandList) && o.Value == v {
				return i == k && oi == opd && res < 0
			}
		}
	}
	return false
}

func resultText(p *Pattern, k, ri int, r ResultPattern) string {
	if r.Value < 0 {
		return "_"
	}
	s := ValueName(p, r.Value)
	if t := p.Values[r.Value].Type; t != nil && firstMention(p, r.Value, k, ri, -1) {
		s += ": " + FormatType(p, t)
	}
	return s
}

func operandText(p *Pattern, k, j int) string {
	o := p.Ops[k].Operands[j]
	switch o.Kind {
	case OperandNull:
		return "null"
	case OperandAny:
		return "_"
	case OperandList:
		s := ValueName(p, o.Value) + "..."
		if t := p.Values[o.Value].Type; t != nil && firstMention(p, o.Value, k, -1, j) {
			s += ": " + FormatType(p, t)
		}
		return s
	case OperandAlt:
		if o.Alt < 0 || o.Alt >= len(p.Alts) {
			break
		}
		// The operand's value, then its alternatives: the values they name or define (an op of an alternative is
		// listed with the pattern's ops).
		parts := make([]string, len(p.Alts[o.Alt].Branches))
		for i, br := range p.Alts[o.Alt].Branches {
			parts[i] = ValueName(p, br.Value)
		}
		return ValueName(p, o.Value) + " = (" + strings.Join(parts, " | ") + ")"
	}
	s := ValueName(p, o.Value)
	if o.Value >= 0 && o.Value < len(p.Values) {
		if t := p.Values[o.Value].Type; t != nil && firstMention(p, o.Value, k, -1, j) {
			s += ": " + FormatType(p, t)
		}
	}
	return s
}

// FormatType renders a type pattern: the exact type, $t, or tensor<…> with ?, $d and * dimensions.
func FormatType(p *Pattern, t *TypePattern) string {
	switch {
	case t == nil:
		return "_"
	case t.Exact != nil:
		return t.Exact.String()
	case t.Tensor != nil:
		return FormatTensorPattern(p, t.Tensor)
	case t.Hole >= 0:
		return HoleName(p, t.Hole)
	}
	return "_"
}

// FormatTensorPattern renders a tensor pattern as tensor<dims x dtype>, naming the spelling unless it is the
// language's default set (builtin.tensor, pd_op.tensor, tensor).
func FormatTensorPattern(p *Pattern, t *TensorPattern) string {
	var b strings.Builder
	switch {
	case isDefaultSpellings(t.Spellings):
		b.WriteString("tensor")
	case len(t.Spellings) == 1:
		b.WriteString(t.Spellings[0])
	default:
		b.WriteString("{" + strings.Join(t.Spellings, "|") + "}")
	}
	// Dimensions are separated by x, or by " x " when a hole name could run into the separator.
	sep := "x"
	if !t.AnyDType && t.DTypeHole >= 0 {
		sep = " x "
	}
	for _, d := range t.Dims {
		if d.Kind == DimHole {
			sep = " x "
		}
	}
	b.WriteByte('<')
	for _, d := range t.Dims {
		b.WriteString(FormatDim(p, d))
		b.WriteString(sep)
	}
	switch {
	case t.AnyDType:
		b.WriteByte('?')
	case t.DTypeHole >= 0:
		b.WriteString(HoleName(p, t.DTypeHole))
	default:
		b.WriteString(t.DType.String())
	}
	b.WriteByte('>')
	return b.String()
}

func isDefaultSpellings(s []string) bool {
	return len(s) == 3 && s[0] == ir.DenseTensor && s[1] == ir.LegacyTensor && s[2] == ir.BareTensor
}

// FormatDim renders one dimension pattern: 64, ?, $d, * or ($d * 2).
func FormatDim(p *Pattern, d DimPattern) string {
	switch d.Kind {
	case DimAny:
		return "?"
	case DimHole:
		return HoleName(p, d.Hole)
	case DimRest:
		return "*"
	case DimExpr:
		return "(" + FormatExpr(&Rule{Pattern: p}, d.Expr) + ")"
	}
	return strconv.FormatInt(d.Value, 10)
}

// Operator precedence for FormatExpr (higher binds tighter).
func precedence(op string) int {
	switch op {
	case "||":
		return 1
	case "&&":
		return 2
	case "==", "!=", "<", "<=", ">", ">=", "in":
		return 3
	case "+", "-":
		return 4
	case "*", "/", "%":
		return 5
	}
	return 6
}

// FormatExpr renders an expression of rule r (r supplies hole and value names; it may be nil).
func FormatExpr(r *Rule, e Expr) string {
	var b strings.Builder
	formatExpr(&b, r, e, 0)
	return b.String()
}

func formatExpr(b *strings.Builder, r *Rule, e Expr, ctx int) {
	var p *Pattern
	if r != nil {
		p = r.Pattern
	}
	switch e := e.(type) {
	case *Lit:
		b.WriteString(FormatVal(e.Value))
	case *HoleRef:
		b.WriteString(HoleName(p, e.Hole))
	case *ParamRef:
		b.WriteString("$" + e.Name)
	case *ValueRef:
		b.WriteString(refName(r, e.Ref))
	case *Unary:
		if ctx > 6 {
			b.WriteByte('(')
		}
		b.WriteString(e.Op)
		formatExpr(b, r, e.X, 6)
		if ctx > 6 {
			b.WriteByte(')')
		}
	case *Binary:
		prec := precedence(e.Op)
		if prec < ctx {
			b.WriteByte('(')
		}
		formatExpr(b, r, e.X, prec)
		b.WriteString(" " + e.Op + " ")
		formatExpr(b, r, e.Y, prec+1)
		if prec < ctx {
			b.WriteByte(')')
		}
	case *Cond:
		if ctx > 0 {
			b.WriteByte('(')
		}
		formatExpr(b, r, e.Cond, 1)
		b.WriteString(" ? ")
		formatExpr(b, r, e.Then, 1)
		b.WriteString(" : ")
		formatExpr(b, r, e.Else, 0)
		if ctx > 0 {
			b.WriteByte(')')
		}
	case *List:
		b.WriteByte('[')
		for i, x := range e.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			formatExpr(b, r, x, 0)
		}
		b.WriteByte(']')
	case *Spread:
		formatExpr(b, r, e.X, 7)
		b.WriteString("...")
	case *Index:
		formatExpr(b, r, e.X, 7)
		b.WriteByte('[')
		formatExpr(b, r, e.Index, 0)
		b.WriteByte(']')
	case *Call:
		b.WriteString(e.Func)
		b.WriteByte('(')
		for i, x := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			formatExpr(b, r, x, 0)
		}
		b.WriteByte(')')
	default:
		fmt.Fprintf(b, "<%T>", e)
	}
}

func refName(r *Rule, ref Ref) string {
	if ref.New {
		if r != nil && ref.Index >= 0 && ref.Index < len(r.NewValues) && r.NewValues[ref.Index].Name != "" {
			return "%" + r.NewValues[ref.Index].Name
		}
		return "%new" + strconv.Itoa(ref.Index)
	}
	var p *Pattern
	if r != nil {
		p = r.Pattern
	}
	return ValueName(p, ref.Index)
}

// FormatVal renders an expression value as a literal of the language: 1, 1.5, "NCHW", [1, 2], float32, a type or
// an attribute in PIR syntax.
func FormatVal(v Val) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case int:
		return strconv.Itoa(v)
	case float64:
		s := ir.FormatFloat(v, 64)
		if !strings.ContainsAny(s, ".eani") {
			s += ".0"
		}
		return s
	case string:
		return ir.QuoteString(v)
	case []Val:
		var b strings.Builder
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(FormatVal(x))
		}
		b.WriteByte(']')
		return b.String()
	case ir.DType:
		return v.DataTypeName()
	case ir.Place:
		return v.String()
	case ir.Type:
		return v.String()
	case ir.Attribute:
		return v.String()
	case []ir.NamedAttr:
		var b strings.Builder
		b.WriteByte('{')
		for i, a := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(formatAttrKey(a.Name) + ": " + a.Value.String())
		}
		b.WriteByte('}')
		return b.String()
	}
	return fmt.Sprintf("<%T>", v)
}

// FormatRule renders r as a rule block: header clauses, match and where. Rewrite actions are summarized one per
// line.
func FormatRule(r *Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "rule %s {\n", r.ID())
	if r.Benefit != 1 {
		fmt.Fprintf(&b, "  benefit %d\n", r.Benefit)
	}
	if len(r.Labels) > 0 {
		fmt.Fprintf(&b, "  labels %s\n", strings.Join(r.Labels, ", "))
	}
	b.WriteString("  match {\n")
	for k := range r.Pattern.Ops {
		b.WriteString("    " + FormatOp(r.Pattern, k))
		if k == r.Pattern.Root && len(r.Pattern.Ops) > 1 {
			b.WriteString("  // root")
		}
		b.WriteByte('\n')
	}
	b.WriteString("  }\n")
	if len(r.Where) > 0 {
		b.WriteString("  where {\n")
		for _, e := range r.Where {
			b.WriteString("    " + FormatExpr(r, e) + "\n")
		}
		b.WriteString("  }\n")
	}
	if len(r.Actions) > 0 {
		b.WriteString("  rewrite {\n")
		for _, a := range r.Actions {
			b.WriteString("    " + FormatAction(r, a) + "\n")
		}
		b.WriteString("  }\n")
	}
	b.WriteString("}\n")
	return b.String()
}

// FormatAction renders one rewrite action.
func FormatAction(r *Rule, a Action) string {
	switch a := a.(type) {
	case *Create:
		var b strings.Builder
		if len(a.Results) > 0 {
			for i, v := range a.Results {
				if i > 0 {
					b.WriteString(", ")
				}
				if v < 0 {
					b.WriteByte('_')
				} else {
					b.WriteString(refName(r, Ref{New: true, Index: v}))
				}
			}
			b.WriteString(" = ")
		}
		b.WriteString(formatOpName(a.Op) + "(")
		for i, o := range a.Operands {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(formatRewriteOperand(r, o))
		}
		b.WriteByte(')')
		if len(a.Attrs) > 0 || a.RestAttrs >= 0 {
			b.WriteString(" {")
			for i, s := range a.Attrs {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(formatAttrKey(s.Name) + ": " + FormatExpr(r, s.Value))
			}
			if a.RestAttrs >= 0 {
				if len(a.Attrs) > 0 {
					b.WriteString(", ")
				}
				b.WriteString(HoleName(r.Pattern, a.RestAttrs) + "...")
			}
			b.WriteByte('}')
		}
		return b.String()
	case *Replace:
		later := ""
		if a.Later {
			later = "later uses of "
		}
		return "replace " + later + refName(r, a.Value) + " with " + refName(r, a.With)
	case *Erase:
		if a.Op >= 0 && a.Op < len(r.Pattern.Ops) && r.Pattern.Ops[a.Op].Label != "" {
			return "erase @" + r.Pattern.Ops[a.Op].Label
		}
		return "erase " + OpName(r.Pattern, a.Op)
	case *NativeRewrite:
		var b strings.Builder
		for i, v := range a.Results {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(refName(r, Ref{New: true, Index: v}))
		}
		if len(a.Results) > 0 {
			b.WriteString(" = ")
		}
		b.WriteString(FormatExpr(r, &Call{Func: a.Name, Args: a.Args, Native: true}))
		return b.String()
	}
	return fmt.Sprintf("<%T>", a)
}

// formatRewriteOperand prints an operand of a created op: a value, a spread list, null, or a choice per path
// (`bound(%m) ? %m : null`).
func formatRewriteOperand(r *Rule, o RewriteOperand) string {
	switch {
	case o.When != nil:
		return FormatExpr(r, o.When) + " ? " + formatRewriteOperand(r, RewriteOperand{Ref: o.Ref, Null: o.Null, List: o.List}) +
			" : " + formatRewriteOperand(r, *o.Else)
	case o.Null:
		return "null"
	case o.List:
		return refName(r, o.Ref) + "..."
	}
	return refName(r, o.Ref)
}
