package lsp

import (
	"context"
	"encoding/json"

	"github.com/pirdrr/drr/lsp/protocol"
)

func init() {
	methods[protocol.MethodCodeAction] = on(codeActions)
}

// codeActions offers quick fixes for the diagnostics at the range that suggest a replacement ("unknown op
// pd_op.rleu (did you mean pd_op.relu?)"): replace the text the diagnostic points at with the suggestion. The
// diagnostics come from the client; when it sends none, those of the server's last check at the range are used.
func codeActions(s *Server, ctx context.Context, p *protocol.CodeActionParams) (any, error) {
	snap, err := s.snapshot(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []protocol.CodeAction{}
	diags := p.Context.Diagnostics
	if len(diags) == 0 {
		if res := snap.checkedNow(); res != nil {
			from, to := snap.lines.offset(p.Range.Start), snap.lines.offset(p.Range.End)
			for _, d := range snap.protocolDiagnostics(res.diags) {
				start, end := snap.lines.offset(d.Range.Start), snap.lines.offset(d.Range.End)
				if start <= to && from <= end {
					diags = append(diags, d)
				}
			}
		}
	}
	for _, d := range diags {
		fix := ""
		var data diagnosticData
		if len(d.Data) > 0 && json.Unmarshal(d.Data, &data) == nil && data.Replace != "" {
			fix = data.Replace
		} else if f, ok := suggestion(d.Message); ok {
			fix = f
		}
		if fix == "" {
			continue
		}
		start, end := snap.lines.offset(d.Range.Start), snap.lines.offset(d.Range.End)
		if snap.text[start:end] == fix {
			continue // already fixed
		}
		out = append(out, protocol.CodeAction{
			Title:       "Change to " + fix,
			Kind:        protocol.QuickFix,
			Diagnostics: []protocol.Diagnostic{d},
			IsPreferred: true,
			Edit: &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{
				snap.doc.uri: {{Range: d.Range, NewText: fix}}}},
		})
	}
	return out, nil
}
