package lsp

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/lsp/jsonrpc2"
	"github.com/pirdrr/drr/lsp/protocol"
)

// TestNoInternalErrors asks every position-based request at many places of files that are broken in many ways —
// cut short, with characters deleted or inserted, or junk — and requires that no request fails with an internal
// error (a panic the connection recovered) and that the server logs no panic.
func TestNoInternalErrors(t *testing.T) {
	c := startServer(t, Options{})
	r := rand.New(rand.NewPCG(7, 11))
	bases := []string{foldRule, shipped(t, "conv2d_add_act_fuse.drr"), shipped(t, "inplace.drr")}
	var texts []string
	for _, b := range bases {
		texts = append(texts, b)
		for i := 0; i < 3; i++ {
			cut := r.IntN(len(b))
			texts = append(texts, b[:cut])
			del := r.IntN(len(b) - 8)
			texts = append(texts, b[:del]+b[del+1+r.IntN(6):])
			ins := r.IntN(len(b))
			const junk = "{}()[],:%$@\"\n=x"
			texts = append(texts, b[:ins]+string(junk[r.IntN(len(junk))])+b[ins:])
		}
	}
	texts = append(texts, "", "\x00\xff\xfe", "rule", "rule r {", "family f = [", "%%%$$$@@@", strings.Repeat("(", 200))
	methods := []string{protocol.MethodHover, protocol.MethodCompletion, protocol.MethodDefinition, protocol.MethodReferences,
		protocol.MethodDocumentHighlight, protocol.MethodSignatureHelp, protocol.MethodPrepareRename}
	for i, text := range texts {
		uri := c.open("r"+itoa(i)+".drr", text)
		doc := protocol.TextDocumentIdentifier{URI: uri}
		li := newLineIndex(text, protocol.UTF16)
		for off := 0; off <= len(text); off += 1 + len(text)/25 {
			p := protocol.TextDocumentPositionParams{TextDocument: doc, Position: li.position(off)}
			for _, m := range methods {
				var params any = p
				if m == protocol.MethodReferences {
					params = protocol.ReferenceParams{TextDocumentPositionParams: p}
				}
				requireNotInternal(t, c.callErr(m, params, nil), m, text, off)
			}
			requireNotInternal(t, c.callErr(protocol.MethodRename, protocol.RenameParams{TextDocumentPositionParams: p, NewName: "q"}, nil),
				"rename", text, off)
		}
		for _, m := range []string{protocol.MethodDocumentSymbol, protocol.MethodSemanticTokensFull, protocol.MethodCodeLens,
			protocol.MethodFormatting} {
			requireNotInternal(t, c.callErr(m, protocol.DocumentFormattingParams{TextDocument: doc}, nil), m, text, -1)
		}
		requireNotInternal(t, c.callErr(protocol.MethodInlayHint, protocol.InlayHintParams{TextDocument: doc}, nil), "inlay", text, -1)
		requireNotInternal(t, c.callErr(protocol.MethodCodeAction, protocol.CodeActionParams{TextDocument: doc,
			Range: li.rng(0, len(text))}, nil), "code action", text, -1)
		c.diagnostics(uri, 1)
	}
	require.NotContains(t, c.log(), "panic")
}

func requireNotInternal(t *testing.T, err error, what, text string, off int) {
	t.Helper()
	var e *jsonrpc2.Error
	if errors.As(err, &e) && e.Code == jsonrpc2.CodeInternalError {
		t.Fatalf("%s at offset %d of\n%s\n: %v", what, off, text, err)
	}
}
