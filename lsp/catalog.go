package lsp

import (
	"fmt"
	"strings"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

// What the op catalog says of an op, for hover, completion and signature help.

// operandLabel is an operand as a signature shows it: x, x? (optional), xs... (variadic), shape: IntArray (an
// attribute PIR passes as an operand).
func operandLabel(o ir.OperandSpec) string {
	s := o.Name
	switch {
	case o.Variadic:
		s += "..."
	case o.Optional:
		s += "?"
	}
	if o.Mutable != ir.KindAny {
		s += ": " + o.Mutable.String()
	}
	return s
}

// resultLabel is a result as a signature shows it.
func resultLabel(r ir.ResultSpec) string {
	switch {
	case r.Variadic:
		return r.Name + "..."
	case r.Optional:
		return r.Name + "?"
	}
	return r.Name
}

// attrDefault is an attribute's default as a rule would write it ("" when the attribute is required): untagged,
// with a blank after each comma of a list, as drrc fmt prints lists.
func attrDefault(a ir.AttrSpec) string {
	if a.Default == nil {
		return ""
	}
	text := pirtext.AppendAttribute(nil, a.Default, true)
	var b strings.Builder
	inString := false
	for i, c := range text {
		b.WriteByte(c)
		switch {
		case c == '"' && (i == 0 || text[i-1] != '\\'):
			inString = !inString
		case c == ',' && !inString:
			b.WriteByte(' ')
		}
	}
	out := b.String()
	if (a.Type.Kind == ir.KindFloat || a.Type.Kind == ir.KindDouble) && !a.Type.Array && !strings.ContainsAny(out, ".eEain") {
		out += ".0" // a float as the catalog writes it: 0.0, not 0
	}
	return out
}

// opSignature is the one-line signature of an op: pd_op.conv2d(input, filter) -> (out).
func opSignature(s *ir.OpSchema) string {
	ops := make([]string, len(s.Operands))
	for i, o := range s.Operands {
		ops[i] = operandLabel(o)
	}
	res := make([]string, len(s.Results))
	for i, r := range s.Results {
		res[i] = resultLabel(r)
	}
	return s.Name + "(" + strings.Join(ops, ", ") + ") -> (" + strings.Join(res, ", ") + ")"
}

// pairs renders an inplace or view map with operand and result names: mean → mean_out.
func pairs(s *ir.OpSchema, ps []ir.IOPair) string {
	var out []string
	for _, p := range ps {
		o, r := fmt.Sprint(p.Operand), fmt.Sprint(p.Result)
		if p.Operand < len(s.Operands) {
			o = s.Operands[p.Operand].Name
		}
		if p.Result < len(s.Results) {
			r = s.Results[p.Result].Name
		}
		out = append(out, o+" → "+r)
	}
	return strings.Join(out, ", ")
}

// opMarkdown documents an op: its signature, attributes with kinds and defaults, traits, inplace and view maps,
// Paddle's argument order, its inplace counterpart and its catalog doc.
func opMarkdown(s *ir.OpSchema) string {
	var b strings.Builder
	fmt.Fprintf(&b, "```drr\n%s\n```\n", opSignature(s))
	if s.Doc != "" {
		b.WriteString("\n" + s.Doc + "\n")
	}
	if len(s.Attrs) > 0 {
		b.WriteString("\n| attribute | kind | default |\n|---|---|---|\n")
		for _, a := range s.Attrs {
			def := attrDefault(a)
			if a.Optional {
				def = "*optional*"
			} else if def == "" {
				def = "*required*"
			} else {
				def = "`" + strings.ReplaceAll(def, "|", "\\|") + "`"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", a.Name, a.Type, def)
		}
	}
	var facts []string
	for i, o := range s.Operands {
		if o.Mutable == ir.KindAny {
			continue
		}
		mk := "pd_op.full() {shape: [1], value: …}"
		if o.Mutable == ir.KindIntArray {
			mk = "pd_op.full_int_array() {value: […]}"
		}
		facts = append(facts, fmt.Sprintf("`%s` is operand %d, not an attribute: a %s Paddle's op yaml declares as an "+
			"attribute and PIR passes as a value (%s)", o.Name, i, o.Mutable, mk))
	}
	if s.Traits != 0 {
		facts = append(facts, "traits: "+strings.ReplaceAll(s.Traits.String(), "|", ", "))
	}
	if len(s.Inplace) > 0 {
		facts = append(facts, "inplace: "+pairs(s, s.Inplace))
	}
	if len(s.View) > 0 {
		facts = append(facts, "view: "+pairs(s, s.View))
	}
	if args := argOrder(s); args != "" {
		facts = append(facts, "arguments (paddle._C_ops."+shortName(s.Name)+"): "+args)
	}
	if s.Counterpart != nil {
		facts = append(facts, "counterpart: `"+s.Counterpart.Name+"`")
	}
	if s.Infer != "" {
		facts = append(facts, "result types: rule `"+s.Infer+"`")
	}
	if s.Regions > 0 {
		facts = append(facts, fmt.Sprintf("regions: %d", s.Regions))
	}
	if len(facts) > 0 {
		b.WriteString("\n")
		for _, f := range facts {
			b.WriteString("- " + f + "\n")
		}
	}
	if s.Dialect != nil && s.Dialect.Source != "" {
		fmt.Fprintf(&b, "\n*%s, from %s*\n", s.Dialect.Name, s.Dialect.Source)
	}
	return b.String()
}

// argOrder lists the op's arguments in Paddle's order (operands and attributes), or "" when it is the operands
// followed by the attributes.
func argOrder(s *ir.OpSchema) string {
	var names []string
	plain := true
	for i, a := range s.Args {
		names = append(names, a.Name)
		want := i < len(s.Operands) && a.Operand == i || i >= len(s.Operands) && a.Attr == i-len(s.Operands)
		if !want {
			plain = false
		}
	}
	if plain && len(s.Args) == len(s.Operands)+len(s.Attrs) {
		return ""
	}
	return strings.Join(names, ", ")
}

// shortName is an op name without its dialect.
func shortName(name string) string {
	if i := strings.IndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// attrMarkdown documents one attribute of an op.
func attrMarkdown(s *ir.OpSchema, a *ir.AttrSpec) string {
	def := attrDefault(*a)
	if a.Optional {
		def = "optional (absent unless set)"
	} else if def == "" {
		def = "required (no default)"
	} else {
		def = "default `" + def + "`"
	}
	return fmt.Sprintf("attribute `%s` of `%s`: %s, %s", a.Name, s.Name, a.Type, def)
}

// traitDoc says what a trait means.
var traitDoc = map[string]string{
	"ReadOnly":       "the op never writes its operands",
	"ValueSemantics": "ReadOnly, and no result aliases an operand (neither inplace nor a view)",
	"Inplace":        "some results are written into operands' buffers (the op's inplace map)",
	"ViewLike":       "some results alias operands' buffers without writing them (the op's view map)",
	"Terminator":     "the op ends a block of a region (cf.yield)",
	"SideEffects":    "the op must stay even when its results are unused",
	"Commutative":    "operands 0 and 1 may be swapped (patterns match either order)",
	"ConstantLike":   "the op's results depend on its attributes only (full, full_int_array): patterns match it by value (equal constants, one op for two patterns)",
}
