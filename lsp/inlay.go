package lsp

import (
	"context"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/lsp/protocol"
)

func init() {
	methods[protocol.MethodInlayHint] = on(inlayHints)
}

// inlayHints shows, after the value a match statement binds, what the checker knows of it (its type pattern, or
// the dtype, rank and shape its where clauses require), and, before each positional operand of an op and argument
// of a native, the name of the operand or parameter.
func inlayHints(s *Server, ctx context.Context, p *protocol.InlayHintParams) (any, error) {
	snap, err := s.snapshot(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	if _, err := snap.checked(ctx); err != nil {
		return nil, err // the types come from the check
	}
	from, to := snap.lines.offset(p.Range.Start), snap.lines.offset(p.Range.End)
	if p.Range == (protocol.Range{}) {
		from, to = 0, len(snap.text)
	}
	out := []protocol.InlayHint{}
	f, _ := snap.parsed()
	for _, r := range f.Rules {
		if r.End().Offset < from || r.Pos().Offset > to {
			continue
		}
		out = append(out, snap.typeHints(r, from, to)...)
		out = append(out, snap.argumentHints(r, from, to)...)
	}
	return out, nil
}

// typeHints are the ": type" hints after the values rule r binds.
func (s *snapshot) typeHints(r *drr.Rule, from, to int) []protocol.InlayHint {
	var out []protocol.InlayHint
	seen := map[string]bool{}
	for _, o := range s.index().occs {
		if o.rule != r || o.kind != symValue || seen[o.name] || o.end < from || o.start > to {
			continue
		}
		def := s.index().def(o)
		if def != o || def.role == roleAssign {
			continue
		}
		seen[o.name] = true
		if vo, ok := o.node.(*drr.ValueOperand); ok && vo.Type != nil {
			continue // the type is written there
		}
		vf := s.valueFacts(r, o)
		if vf.short == "" {
			continue
		}
		out = append(out, protocol.InlayHint{Position: s.lines.position(o.end), Label: ": " + vf.short,
			Kind: protocol.InlayType, Tooltip: markdown(s.symbolMarkdown(o))})
	}
	return out
}

// argumentHints are the "name:" hints before positional operands and native arguments of rule r.
func (s *snapshot) argumentHints(r *drr.Rule, from, to int) []protocol.InlayHint {
	var out []protocol.InlayHint
	hint := func(n drr.Node, name string) {
		off := n.Pos().Offset
		if off < from || off > to || name == "" {
			return
		}
		if v, ok := n.(*drr.ValueOperand); ok && v.Name == name {
			return // %input for operand input says it already
		}
		if v, ok := n.(*drr.ValueExpr); ok && v.Name == name {
			return
		}
		out = append(out, protocol.InlayHint{Position: s.lines.position(off), Label: name + ":",
			Kind: protocol.InlayParameter, PaddingRight: true})
	}
	operands := func(name *drr.OpName, args []drr.Node) {
		if name == nil {
			return
		}
		if n := s.native(name.Name); n != nil {
			for i, a := range args {
				if i < len(n.Params) {
					hint(a, n.Params[i].Name)
				}
			}
			return
		}
		sc := s.schemaOf(r, name.Name)
		if sc == nil {
			return
		}
		for i, a := range args {
			if i >= len(sc.Operands) {
				break
			}
			hint(a, sc.Operands[i].Name)
			if sc.Operands[i].Variadic {
				break
			}
		}
	}
	drr.Inspect(r, func(n drr.Node) bool {
		switch n := n.(type) {
		case *drr.OpPattern:
			args := make([]drr.Node, len(n.Operands))
			for i, o := range n.Operands {
				args[i] = o
			}
			operands(n.Name, args)
		case *drr.CallExpr:
			if n.Func != nil && (!n.Func.IsBare() || s.native(n.Func.Name) != nil || isFamilyVar(r, n.Func.Name)) {
				args := make([]drr.Node, len(n.Args))
				for i, a := range n.Args {
					args[i] = a
				}
				operands(n.Func, args)
			}
		}
		return true
	})
	return out
}

// native returns the native declaration of the document with the given name, or nil.
func (s *snapshot) native(name string) *drr.Native {
	f, _ := s.parsed()
	for _, n := range f.Natives {
		if n.Name != nil && n.Name.Name == name {
			return n
		}
	}
	return nil
}

// isFamilyVar reports whether name is a family variable of rule r.
func isFamilyVar(r *drr.Rule, name string) bool {
	for _, f := range r.Fors {
		for _, n := range f.Names {
			if n.Name == name {
				return true
			}
		}
	}
	return false
}
