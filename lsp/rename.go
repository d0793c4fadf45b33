package lsp

import (
	"context"
	"regexp"
	"slices"
	"strings"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/lsp/protocol"
)

func init() {
	methods[protocol.MethodPrepareRename] = on(prepareRename)
	methods[protocol.MethodRename] = on(rename)
}

var (
	nameRe  = regexp.MustCompile(`^[A-Za-z0-9_]+$`)          // values, holes, labels
	identRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) // families, family variables, rules
)

// renamable returns the symbol under the cursor if it can be renamed here: a value, hole, label or family
// variable (in its rule), a family or a rule declared in this document. Natives keep the name a plugin registered
// them under; a family declared in an imported file is renamed there.
func (s *snapshot) renamable(pos protocol.Position) (*occurrence, error) {
	o := s.index().at(s.lines.offset(pos))
	if o == nil {
		return nil, errorf("there is no value, hole, label, family or rule here to rename")
	}
	switch o.kind {
	case symNative:
		return nil, errorf("native %s is named by the plugin that registers it; it cannot be renamed here", o.name)
	case symFamily:
		if d := s.index().def(o); d == nil {
			return nil, errorf("family %s is declared in an imported file; rename it there", o.name)
		}
	case symParam:
		if d := s.index().def(o); d == nil {
			return nil, errorf("parameter %s is not declared in this file; rename it where it is declared", o.name)
		}
	}
	return o, nil
}

func prepareRename(s *Server, ctx context.Context, p *protocol.TextDocumentPositionParams) (any, error) {
	snap, err := s.snapshot(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	o, err := snap.renamable(p.Position)
	if err != nil {
		return nil, err
	}
	return &protocol.PrepareRenameResult{Range: snap.lines.rng(o.nameStart(), o.end), Placeholder: o.name}, nil
}

// rename renames a symbol everywhere in its scope: a value, hole, label or family variable in its rule, a family
// or rule in the document.
func rename(s *Server, ctx context.Context, p *protocol.RenameParams) (any, error) {
	snap, err := s.snapshot(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	o, err := snap.renamable(p.Position)
	if err != nil {
		return nil, err
	}
	name := strings.TrimPrefix(p.NewName, o.kind.sigil())
	re := nameRe
	if !o.kind.ruleScoped() || o.kind == symFamilyVar {
		re = identRe
	}
	if !re.MatchString(name) || strings.Contains(name, ".") {
		return nil, errorf("%q is not a valid %s name", p.NewName, o.kind.noun())
	}
	if o.kind == symFamilyVar || o.kind == symFamily || o.kind == symRule || o.kind == symParam {
		if slices.Contains(drr.Keywords, name) {
			return nil, errorf("%q is a keyword", name)
		}
	}
	for _, x := range snap.index().occs {
		if x.kind == o.kind && x.name == name && (!o.kind.ruleScoped() || x.rule == o.rule) && name != o.name {
			where := "this file"
			if o.kind.ruleScoped() && o.rule != nil && o.rule.Name != nil {
				where = "rule " + o.rule.Name.Name
			}
			return nil, errorf("%s%s is already used in %s", o.kind.sigil(), name, where)
		}
	}
	var edits []protocol.TextEdit
	for _, r := range snap.index().refs(o) {
		edits = append(edits, protocol.TextEdit{Range: snap.lines.rng(r.nameStart(), r.end), NewText: name})
	}
	return &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{snap.doc.uri: edits}}, nil
}
