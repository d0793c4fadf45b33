package paddle

import (
	"fmt"
	"strings"
)

// cppReserved are names an op's C++ variable must not take.
var cppReserved = map[string]bool{"pat": true, "res": true, "ctx": true, "match_ctx": true, "if": true,
	"while": true, "assert": true, "for": true, "switch": true, "case": true, "default": true, "return": true,
	"new": true, "delete": true, "and": true, "or": true, "not": true, "xor": true, "int": true, "float": true,
	"double": true, "bool": true, "char": true, "long": true, "short": true, "signed": true, "unsigned": true,
	"const": true, "auto": true, "class": true, "struct": true, "union": true, "enum": true, "this": true}

// varNames are the C++ variables of one operator(): source and result ops share it.
type varNames map[string]bool

func (v varNames) fresh(base string) string {
	if cppReserved[base] {
		base += "_op"
	}
	name := base
	for i := 2; v[name]; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	v[name] = true
	return name
}

// nameOps gives the source ops their C++ variables.
func (pt *pattern) nameOps() {
	pt.vars = varNames{}
	for k, op := range pt.ops {
		op.varName = pt.vars.fresh(pt.opBase(k))
	}
}

// writeSource prints the source pattern: each op declared and called, producers first.
func (pt *pattern) writeSource(b *strings.Builder) {
	done := make([]bool, len(pt.ops))
	var visit func(k int)
	visit = func(k int) {
		if done[k] {
			return
		}
		done[k] = true
		if pt.cut[k] {
			return // matched by value: its result is an input of the pattern
		}
		for _, t := range pt.ops[k].operands {
			for h, v := range pt.p.Values {
				if v.Def >= 0 && pt.tensor(h) == t {
					visit(v.Def)
				}
			}
		}
		op := pt.ops[k]
		var attrs []string
		for _, a := range op.attrs {
			attrs = append(attrs, fmt.Sprintf("{%q, pat.Attr(%q)}", a[0], a[1]))
		}
		writeOpDecl(b, op.varName, "pat", op.name, attrs)
		ins := make([]string, len(op.operands))
		for j, t := range op.operands {
			ins[j] = tensorRef("pat", t, true)
		}
		outs := make([]string, len(op.results))
		for i, t := range op.results {
			outs[i] = tensorRef("pat", t, false)
		}
		writeCall(b, op.varName, "pat", ins, outs)
	}
	for k := range pt.ops {
		visit(k)
	}
}

// tensorRef is the C++ of a tensor of pattern pat (pat or res): a named one, or the none tensor.
func tensorRef(pat, name string, input bool) string {
	if name == "" {
		if input {
			return pat + ".InputNoneTensor()"
		}
		return pat + ".OutputNoneTensor()"
	}
	return fmt.Sprintf("%s.Tensor(%q)", pat, name)
}

// writeOpDecl prints the declaration of an op of a pattern.
func writeOpDecl(b *strings.Builder, v, pat, name string, attrs []string) {
	head := fmt.Sprintf("    const auto &%s = %s.Op(%q", v, pat, name)
	if len(attrs) == 0 {
		b.WriteString(head + ");\n")
		return
	}
	one := head + ", {" + strings.Join(attrs, ", ") + "});"
	if len(one) <= 80 {
		b.WriteString(one + "\n")
		return
	}
	b.WriteString(head + ",\n")
	for i, a := range attrs {
		open, end := " ", ","
		if i == 0 {
			open = "{"
		}
		if i == len(attrs)-1 {
			end = "});"
		}
		fmt.Fprintf(b, "        %s%s%s\n", open, indentCont(a, "         "), end)
	}
}

// writeCall prints the call of an op of a pattern: t = op(a, b) for one output and at most three inputs, the
// general op({&a, …}, {&t, …}) otherwise.
func writeCall(b *strings.Builder, v, pat string, ins, outs []string) {
	if len(outs) == 1 && len(ins) <= 3 && !strings.HasSuffix(outs[0], "NoneTensor()") {
		line := fmt.Sprintf("    %s = %s(%s);", outs[0], v, strings.Join(ins, ", "))
		if len(line) <= 80 {
			b.WriteString(line + "\n")
			return
		}
		fmt.Fprintf(b, "    %s =\n        %s(%s);\n", outs[0], v, strings.Join(ins, ",\n            "))
		return
	}
	refs := func(xs []string) string {
		out := make([]string, len(xs))
		for i, x := range xs {
			out[i] = "&" + x
		}
		return "{" + strings.Join(out, ", ") + "}"
	}
	line := fmt.Sprintf("    %s(%s, %s);", v, refs(ins), refs(outs))
	if len(line) <= 80 {
		b.WriteString(line + "\n")
		return
	}
	fmt.Fprintf(b, "    %s(%s,\n", v, wrapList(refs(ins), "      "))
	fmt.Fprintf(b, "      %s);\n", wrapList(refs(outs), "       "))
}

// wrapList breaks a braced list after its commas when it is long.
func wrapList(s, indent string) string {
	if len(s) <= 70 {
		return s
	}
	return strings.ReplaceAll(s, ", &", ",\n"+indent+"&")
}
