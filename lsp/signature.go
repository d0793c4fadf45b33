package lsp

import (
	"context"
	"strings"

	"github.com/pirdrr/drr/lsp/protocol"
)

func init() {
	methods[protocol.MethodSignatureHelp] = on(signatureHelp)
}

// signatureHelp shows, inside the parentheses of a call, the signature of what is called — a builtin, a native
// of the file, an op of the catalog (its operands, then its attributes and results) — with the argument under
// the cursor highlighted.
func signatureHelp(s *Server, ctx context.Context, p *protocol.TextDocumentPositionParams) (any, error) {
	snap, err := s.snapshot(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	off := snap.lines.offset(p.Position)
	c := contextAt(snap.text, off)
	call, _ := c.call()
	if call == nil {
		return nil, nil
	}
	name := strings.Trim(call.word, `"`)
	label, params, doc := snap.callSignature(c, name)
	if label == "" {
		return nil, nil
	}
	info := protocol.SignatureInformation{Label: label, Documentation: markdown(doc)}
	for _, r := range params {
		info.Parameters = append(info.Parameters, protocol.ParameterInformation{Label: [2]uint32{uint32(r[0]), uint32(r[1])}})
	}
	active := call.commas
	if n := len(params); n > 0 && active >= n && strings.HasSuffix(label[params[n-1][0]:params[n-1][1]], "...") {
		active = n - 1 // a variadic last parameter takes the rest
	}
	return &protocol.SignatureHelp{Signatures: []protocol.SignatureInformation{info}, ActiveParameter: uint32(active)}, nil
}

// callSignature returns the signature of what name calls at context c, the byte ranges of its parameters in it,
// and its documentation; label is "" when name calls nothing known.
func (s *snapshot) callSignature(c *textContext, name string) (label string, params [][2]int, doc string) {
	if b, ok := lookupBuiltin(name); ok {
		label, params = b.signature()
		return label, params, b.Doc
	}
	f, _ := s.parsed()
	if f != nil {
		for _, n := range f.Natives {
			if n.Name == nil || n.Name.Name != name {
				continue
			}
			var sb strings.Builder
			sb.WriteString(name + "(")
			for i, p := range n.Params {
				if i > 0 {
					sb.WriteString(", ")
				}
				start := sb.Len()
				sb.WriteString(strings.TrimSpace(s.nodeText(p)))
				params = append(params, [2]int{start, sb.Len()})
			}
			sb.WriteString(")")
			if n.Result != nil {
				sb.WriteString(" -> " + n.Result.Name)
			}
			return sb.String(), params, n.Doc.Text()
		}
	}
	sc := s.schemaOf(ruleAtOffset(f, c.prefixStart), name)
	if sc == nil {
		return "", nil, ""
	}
	var sb strings.Builder
	sb.WriteString(sc.Name + "(")
	for i, o := range sc.Operands {
		if i > 0 {
			sb.WriteString(", ")
		}
		start := sb.Len()
		sb.WriteString(operandLabel(o))
		params = append(params, [2]int{start, sb.Len()})
	}
	sb.WriteString(")")
	if len(sc.Attrs) > 0 {
		var attrs []string
		for _, a := range sc.Attrs {
			attrs = append(attrs, a.Name+": "+a.Type.String())
		}
		sb.WriteString(" {" + strings.Join(attrs, ", ") + "}")
	}
	var res []string
	for _, r := range sc.Results {
		res = append(res, resultLabel(r))
	}
	sb.WriteString(" -> (" + strings.Join(res, ", ") + ")")
	return sb.String(), params, sc.Doc
}
