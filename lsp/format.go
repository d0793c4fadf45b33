package lsp

import (
	"context"
	"strings"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/lsp/protocol"
)

func init() {
	methods[protocol.MethodFormatting] = on(formatting)
}

// formatting formats the document as drrc fmt does (the client's tab size and spaces are not used: the layout is
// canonical). A document with syntax errors is not formatted; the request fails with the first error.
func formatting(s *Server, ctx context.Context, p *protocol.DocumentFormattingParams) (any, error) {
	snap, err := s.snapshot(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	f, perr := snap.parsed()
	if len(perr) > 0 {
		return nil, errorf("cannot format %s: it has syntax errors (%s)", snap.doc.name, perr[0].Error())
	}
	return snap.edits(string(drr.Format(f))), nil
}

// edits returns the edits that turn the document's text into text: one edit replacing the lines that differ
// (none when nothing does), so that the client keeps its marks and cursor in the lines around it.
func (s *snapshot) edits(text string) []protocol.TextEdit {
	if text == s.text {
		return []protocol.TextEdit{}
	}
	a, b := strings.SplitAfter(s.text, "\n"), strings.SplitAfter(text, "\n")
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	start := 0
	for _, l := range a[:pre] {
		start += len(l)
	}
	end := len(s.text)
	for _, l := range a[len(a)-suf:] {
		end -= len(l)
	}
	return []protocol.TextEdit{{Range: s.lines.rng(start, end), NewText: strings.Join(b[pre:len(b)-suf], "")}}
}
