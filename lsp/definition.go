package lsp

import (
	"context"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/lsp/protocol"
)

func init() {
	methods[protocol.MethodDefinition] = on(definition)
	methods[protocol.MethodReferences] = on(references)
	methods[protocol.MethodDocumentHighlight] = on(highlights)
}

// definition goes to where the symbol under the cursor is bound: a value to the statement that binds it, a hole
// to its first occurrence in the match block, a family variable to its for clause, a family, native or rule to
// its declaration, a $parameter to its param declaration (in an imported file too).
func definition(s *Server, ctx context.Context, p *protocol.TextDocumentPositionParams) (any, error) {
	snap, err := s.snapshot(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	o := snap.index().at(snap.lines.offset(p.Position))
	if o == nil {
		return []protocol.Location{}, nil
	}
	if d := snap.index().def(o); d != nil {
		return []protocol.Location{{URI: snap.doc.uri, Range: snap.lines.rng(d.start, d.end)}}, nil
	}
	if o.kind == symFamily || o.kind == symNative || o.kind == symParam {
		// Declared in an imported file: the check has read the imports.
		res, err := snap.checked(ctx)
		if err != nil {
			return nil, err
		}
		for _, f := range res.files {
			if n := declNamed(f, o.kind, o.name); n != nil {
				return []protocol.Location{s.fileLocation(f.Name, n)}, nil
			}
		}
	}
	return []protocol.Location{}, nil
}

// declNamed returns the name of the family, native or parameter declaration of f with the given name, or nil.
func declNamed(f *drr.File, k symKind, name string) *drr.Ident {
	switch k {
	case symFamily:
		for _, fam := range f.Families {
			if fam.Name != nil && fam.Name.Name == name {
				return fam.Name
			}
		}
	case symNative:
		for _, n := range f.Natives {
			if n.Name != nil && n.Name.Name == name {
				return n.Name
			}
		}
	case symParam:
		for _, p := range f.Params {
			if p.Name != nil && p.Name.Name == name {
				return p.Name
			}
		}
	}
	return nil
}

// fileLocation returns the location of a node of an imported file.
func (s *Server) fileLocation(name string, n drr.Node) protocol.Location {
	src, _ := s.readFile(name)
	li := newLineIndex(string(src), protocol.UTF16)
	return protocol.Location{URI: pathToURI(name), Range: li.rng(n.Pos().Offset, n.End().Offset)}
}

// references lists the occurrences of the symbol under the cursor in the document (with its declaration unless
// the client asks without).
func references(s *Server, ctx context.Context, p *protocol.ReferenceParams) (any, error) {
	snap, err := s.snapshot(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	o := snap.index().at(snap.lines.offset(p.Position))
	out := []protocol.Location{}
	if o == nil {
		return out, nil
	}
	for _, r := range snap.index().refs(o) {
		if !p.Context.IncludeDeclaration && r.role == roleDecl {
			continue
		}
		out = append(out, protocol.Location{URI: snap.doc.uri, Range: snap.lines.rng(r.start, r.end)})
	}
	return out, nil
}

// highlights marks the occurrences of the symbol under the cursor: where it is bound as a write, the others as
// reads.
func highlights(s *Server, ctx context.Context, p *protocol.TextDocumentPositionParams) (any, error) {
	snap, err := s.snapshot(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []protocol.DocumentHighlight{}
	o := snap.index().at(snap.lines.offset(p.Position))
	if o == nil {
		return out, nil
	}
	def := snap.index().def(o)
	for _, r := range snap.index().refs(o) {
		kind := 2
		if r == def {
			kind = 3
		}
		out = append(out, protocol.DocumentHighlight{Range: snap.lines.rng(r.start, r.end), Kind: kind})
	}
	return out, nil
}
