package lsp

import (
	"context"
	"fmt"
	"strings"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/lsp/protocol"
)

func init() {
	methods[protocol.MethodDocumentSymbol] = on(documentSymbols)
}

// documentSymbols outlines the document: imports, families, natives, and rules with their match, where and
// rewrite blocks and, in those, the ops the pattern matches and the statements of the rewrite.
func documentSymbols(s *Server, ctx context.Context, p *protocol.DocumentSymbolParams) (any, error) {
	snap, err := s.snapshot(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	f, _ := snap.parsed()
	out := []protocol.DocumentSymbol{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *drr.Import:
			if d.Path != nil {
				out = append(out, snap.symbol(d.Path.Value, "import", protocol.SymbolModule, d, d.Path, nil))
			}
		case *drr.Family:
			if d.Name != nil {
				detail := fmt.Sprintf("%d ops", len(snap.familyMembers(d.Name.Name)))
				out = append(out, snap.symbol(d.Name.Name, detail, protocol.SymbolEnum, d, d.Name, nil))
			}
		case *drr.Native:
			if d.Name != nil {
				out = append(out, snap.symbol(d.Name.Name, "native "+d.Kind.String(), protocol.SymbolMethod, d, d.Name, nil))
			}
		case *drr.Rule:
			if d.Name != nil {
				out = append(out, snap.symbol(d.Name.Name, ruleDetail(d), protocol.SymbolFunction, d, d.Name, snap.ruleChildren(d)))
			}
		}
	}
	return out, nil
}

func (s *snapshot) symbol(name, detail string, kind protocol.SymbolKind, n, sel drr.Node, children []protocol.DocumentSymbol) protocol.DocumentSymbol {
	return protocol.DocumentSymbol{Name: name, Detail: detail, Kind: kind,
		Range:          s.lines.rng(n.Pos().Offset, n.End().Offset),
		SelectionRange: s.lines.rng(sel.Pos().Offset, sel.End().Offset),
		Children:       children}
}

// ruleDetail summarizes a rule's header: benefit, labels, families.
func ruleDetail(r *drr.Rule) string {
	var parts []string
	if r.Benefit != nil && r.Benefit.Value != nil {
		parts = append(parts, "benefit "+r.Benefit.Value.Text)
	}
	if r.Labels != nil {
		var ls []string
		for _, l := range r.Labels.Names {
			ls = append(ls, l.Name)
		}
		parts = append(parts, "labels "+strings.Join(ls, ", "))
	}
	for _, f := range r.Fors {
		var ns []string
		for _, n := range f.Names {
			ns = append(ns, n.Name)
		}
		if f.Family != nil {
			parts = append(parts, "for "+strings.Join(ns, ", ")+" in "+f.Family.Name)
		}
	}
	return strings.Join(parts, "; ")
}

// ruleChildren lists a rule's blocks and their statements.
func (s *snapshot) ruleChildren(r *drr.Rule) []protocol.DocumentSymbol {
	var out []protocol.DocumentSymbol
	if r.Match != nil {
		var stmts []protocol.DocumentSymbol
		for _, st := range r.Match.Stmts {
			if st.Op == nil || st.Op.Name == nil {
				continue
			}
			stmts = append(stmts, s.symbol(st.Op.Name.Name, resultsText(st.Results), protocol.SymbolOperator, st, st.Op.Name, nil))
		}
		out = append(out, s.symbol("match", fmt.Sprintf("%d ops", len(stmts)), protocol.SymbolNamespace, r.Match, r.Match, stmts))
	}
	if r.Where != nil {
		out = append(out, s.symbol("where", fmt.Sprintf("%d constraints", len(r.Where.Constraints)), protocol.SymbolNamespace, r.Where, r.Where, nil))
	}
	if r.Rewrite != nil {
		var stmts []protocol.DocumentSymbol
		for _, st := range r.Rewrite.Stmts {
			name := shorten(s.nodeText(st))
			if a, ok := st.(*drr.AssignStmt); ok {
				name = resultsText(a.Results) + " = …"
			}
			stmts = append(stmts, s.symbol(name, "", protocol.SymbolField, st, st, nil))
		}
		out = append(out, s.symbol("rewrite", fmt.Sprintf("%d statements", len(stmts)), protocol.SymbolNamespace, r.Rewrite, r.Rewrite, stmts))
	}
	return out
}

// resultsText renders a result list: %y, _, ...
func resultsText(rs []*drr.Result) string {
	var parts []string
	for _, r := range rs {
		switch r.Kind {
		case drr.ResultValue:
			parts = append(parts, "%"+r.Name)
		case drr.ResultWildcard:
			parts = append(parts, "_")
		default:
			parts = append(parts, "...")
		}
	}
	return strings.Join(parts, ", ")
}
