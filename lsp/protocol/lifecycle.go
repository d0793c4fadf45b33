package protocol

import "encoding/json"

// InitializeParams are the parameters of initialize (the fields the server reads).
type InitializeParams struct {
	ProcessID             *int32             `json:"processId"`
	ClientInfo            *ClientInfo        `json:"clientInfo,omitempty"`
	RootURI               DocumentURI        `json:"rootUri,omitempty"`
	Capabilities          ClientCapabilities `json:"capabilities"`
	InitializationOptions json.RawMessage    `json:"initializationOptions,omitempty"`
	WorkspaceFolders      []WorkspaceFolder  `json:"workspaceFolders,omitempty"`
}

// ClientInfo names the client.
type ClientInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// WorkspaceFolder is a folder open in the client.
type WorkspaceFolder struct {
	URI  DocumentURI `json:"uri"`
	Name string      `json:"name"`
}

// ClientCapabilities are what the client supports (the parts the server looks at).
type ClientCapabilities struct {
	General      *GeneralClientCapabilities      `json:"general,omitempty"`
	TextDocument *TextDocumentClientCapabilities `json:"textDocument,omitempty"`
}

// GeneralClientCapabilities lists, among others, the position encodings the client supports, preferred first.
type GeneralClientCapabilities struct {
	PositionEncodings []PositionEncodingKind `json:"positionEncodings,omitempty"`
}

// TextDocumentClientCapabilities are the client's document feature capabilities (the parts the server reads).
type TextDocumentClientCapabilities struct {
	Completion *struct {
		CompletionItem *struct {
			SnippetSupport bool `json:"snippetSupport,omitempty"`
		} `json:"completionItem,omitempty"`
	} `json:"completion,omitempty"`
	DocumentSymbol *struct {
		HierarchicalDocumentSymbolSupport bool `json:"hierarchicalDocumentSymbolSupport,omitempty"`
	} `json:"documentSymbol,omitempty"`
}

// PositionEncodingKind names how Position.Character counts: utf-8 (bytes), utf-16 (code units), utf-32 (runes).
type PositionEncodingKind string

// Position encodings.
const (
	UTF8  PositionEncodingKind = "utf-8"
	UTF16 PositionEncodingKind = "utf-16"
	UTF32 PositionEncodingKind = "utf-32"
)

// InitializeResult is the answer to initialize.
type InitializeResult struct {
	Capabilities ServerCapabilities `json:"capabilities"`
	ServerInfo   *ServerInfo        `json:"serverInfo,omitempty"`
}

// ServerInfo names the server.
type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// TextDocumentSyncKind says how the client sends changes: 1 the full text, 2 incremental edits.
type TextDocumentSyncKind int

// Sync kinds.
const (
	SyncFull        TextDocumentSyncKind = 1
	SyncIncremental TextDocumentSyncKind = 2
)

// TextDocumentSyncOptions say which document notifications the server wants.
type TextDocumentSyncOptions struct {
	OpenClose bool                 `json:"openClose"`
	Change    TextDocumentSyncKind `json:"change"`
	Save      bool                 `json:"save,omitempty"`
}

// ServerCapabilities are the features the server provides.
type ServerCapabilities struct {
	PositionEncoding           PositionEncodingKind    `json:"positionEncoding,omitempty"`
	TextDocumentSync           TextDocumentSyncOptions `json:"textDocumentSync"`
	HoverProvider              bool                    `json:"hoverProvider,omitempty"`
	CompletionProvider         *CompletionOptions      `json:"completionProvider,omitempty"`
	SignatureHelpProvider      *SignatureHelpOptions   `json:"signatureHelpProvider,omitempty"`
	DefinitionProvider         bool                    `json:"definitionProvider,omitempty"`
	ReferencesProvider         bool                    `json:"referencesProvider,omitempty"`
	DocumentHighlightProvider  bool                    `json:"documentHighlightProvider,omitempty"`
	DocumentSymbolProvider     bool                    `json:"documentSymbolProvider,omitempty"`
	CodeActionProvider         *CodeActionOptions      `json:"codeActionProvider,omitempty"`
	CodeLensProvider           *CodeLensOptions        `json:"codeLensProvider,omitempty"`
	DocumentFormattingProvider bool                    `json:"documentFormattingProvider,omitempty"`
	RenameProvider             *RenameOptions          `json:"renameProvider,omitempty"`
	ExecuteCommandProvider     *ExecuteCommandOptions  `json:"executeCommandProvider,omitempty"`
	SemanticTokensProvider     *SemanticTokensOptions  `json:"semanticTokensProvider,omitempty"`
	InlayHintProvider          bool                    `json:"inlayHintProvider,omitempty"`
}

// CompletionOptions configure completion.
type CompletionOptions struct {
	TriggerCharacters []string `json:"triggerCharacters,omitempty"`
	ResolveProvider   bool     `json:"resolveProvider,omitempty"`
}

// SignatureHelpOptions configure signature help.
type SignatureHelpOptions struct {
	TriggerCharacters   []string `json:"triggerCharacters,omitempty"`
	RetriggerCharacters []string `json:"retriggerCharacters,omitempty"`
}

// CodeActionOptions configure code actions.
type CodeActionOptions struct {
	CodeActionKinds []CodeActionKind `json:"codeActionKinds,omitempty"`
}

// CodeLensOptions configure code lenses.
type CodeLensOptions struct {
	ResolveProvider bool `json:"resolveProvider,omitempty"`
}

// RenameOptions configure rename.
type RenameOptions struct {
	PrepareProvider bool `json:"prepareProvider,omitempty"`
}

// ExecuteCommandOptions list the commands the server runs.
type ExecuteCommandOptions struct {
	Commands []string `json:"commands"`
}

// SemanticTokensOptions configure semantic tokens.
type SemanticTokensOptions struct {
	Legend SemanticTokensLegend `json:"legend"`
	Full   bool                 `json:"full,omitempty"`
	Range  bool                 `json:"range,omitempty"`
}

// SemanticTokensLegend names the token types and modifiers by index.
type SemanticTokensLegend struct {
	TokenTypes     []string `json:"tokenTypes"`
	TokenModifiers []string `json:"tokenModifiers"`
}
