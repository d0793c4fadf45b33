package lsp

import (
	"context"
	"slices"

	"github.com/pirdrr/drr/lsp/protocol"
)

func init() {
	methods[protocol.MethodInitialized] = on(func(s *Server, ctx context.Context, p *struct{}) (any, error) { return nil, nil })
	methods[protocol.MethodShutdown] = on(shutdown)
}

// initialize negotiates the position encoding and announces the server's features.
func initialize(s *Server, ctx context.Context, p *protocol.InitializeParams) (any, error) {
	enc := protocol.UTF16
	if g := p.Capabilities.General; g != nil {
		// The client lists what it supports, preferred first; UTF-16 is always supported.
		for _, e := range g.PositionEncodings {
			if slices.Contains([]protocol.PositionEncodingKind{protocol.UTF8, protocol.UTF16, protocol.UTF32}, e) {
				enc = e
				break
			}
		}
	}
	s.mu.Lock()
	s.enc = enc
	s.state = stateRunning
	s.mu.Unlock()
	return &protocol.InitializeResult{
		ServerInfo: &protocol.ServerInfo{Name: "drrc lsp", Version: s.opts.Version},
		Capabilities: protocol.ServerCapabilities{
			PositionEncoding: enc,
			TextDocumentSync: protocol.TextDocumentSyncOptions{OpenClose: true, Change: protocol.SyncIncremental},
			HoverProvider:    true,
			CompletionProvider: &protocol.CompletionOptions{
				TriggerCharacters: []string{".", "%", "$", "@", "{", ",", "("},
			},
			SignatureHelpProvider: &protocol.SignatureHelpOptions{
				TriggerCharacters: []string{"(", ","}, RetriggerCharacters: []string{","},
			},
			DefinitionProvider:         true,
			ReferencesProvider:         true,
			DocumentHighlightProvider:  true,
			DocumentSymbolProvider:     true,
			CodeActionProvider:         &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix}},
			CodeLensProvider:           &protocol.CodeLensOptions{},
			DocumentFormattingProvider: true,
			RenameProvider:             &protocol.RenameOptions{PrepareProvider: true},
			ExecuteCommandProvider:     &protocol.ExecuteCommandOptions{Commands: commandNames()},
			SemanticTokensProvider: &protocol.SemanticTokensOptions{
				Legend: protocol.SemanticTokensLegend{TokenTypes: tokenTypes, TokenModifiers: tokenModifiers},
				Full:   true,
			},
			InlayHintProvider: true,
		},
	}, nil
}

// shutdown stops the server from answering further requests; exit then ends it.
func shutdown(s *Server, ctx context.Context, p *struct{}) (any, error) {
	s.mu.Lock()
	s.state = stateShutDown
	s.mu.Unlock()
	return nil, nil
}
