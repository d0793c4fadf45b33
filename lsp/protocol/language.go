package protocol

import "encoding/json"

// Hover is the answer to textDocument/hover.
type Hover struct {
	Contents MarkupContent `json:"contents"`
	Range    *Range        `json:"range,omitempty"`
}

// CompletionParams are the parameters of textDocument/completion.
type CompletionParams struct {
	TextDocumentPositionParams
	Context *CompletionContext `json:"context,omitempty"`
}

// CompletionContext says how completion was triggered.
type CompletionContext struct {
	TriggerKind      int    `json:"triggerKind"`
	TriggerCharacter string `json:"triggerCharacter,omitempty"`
}

// CompletionItemKind is the kind of a completion item (the icon a client shows).
type CompletionItemKind int

// Completion item kinds (the ones the server uses).
const (
	CompletionText     CompletionItemKind = 1
	CompletionFunction CompletionItemKind = 3
	CompletionField    CompletionItemKind = 5
	CompletionVariable CompletionItemKind = 6
	CompletionClass    CompletionItemKind = 7
	CompletionProperty CompletionItemKind = 10
	CompletionValue    CompletionItemKind = 12
	CompletionEnum     CompletionItemKind = 13
	CompletionKeyword  CompletionItemKind = 14
	CompletionSnippet  CompletionItemKind = 15
	CompletionConstant CompletionItemKind = 21
	CompletionOperator CompletionItemKind = 24
	CompletionTypeParm CompletionItemKind = 25
)

// InsertTextFormat says whether insert text is plain or a snippet.
type InsertTextFormat int

// Insert text formats.
const (
	PlainTextFormat InsertTextFormat = 1
	SnippetFormat   InsertTextFormat = 2
)

// CompletionItem is one proposal.
type CompletionItem struct {
	Label            string             `json:"label"`
	Kind             CompletionItemKind `json:"kind,omitempty"`
	Detail           string             `json:"detail,omitempty"`
	Documentation    *MarkupContent     `json:"documentation,omitempty"`
	SortText         string             `json:"sortText,omitempty"`
	FilterText       string             `json:"filterText,omitempty"`
	InsertTextFormat InsertTextFormat   `json:"insertTextFormat,omitempty"`
	TextEdit         *TextEdit          `json:"textEdit,omitempty"`
}

// CompletionList is the answer to textDocument/completion.
type CompletionList struct {
	IsIncomplete bool             `json:"isIncomplete"`
	Items        []CompletionItem `json:"items"`
}

// SignatureHelp is the answer to textDocument/signatureHelp.
type SignatureHelp struct {
	Signatures      []SignatureInformation `json:"signatures"`
	ActiveSignature uint32                 `json:"activeSignature"`
	ActiveParameter uint32                 `json:"activeParameter"`
}

// SignatureInformation is one signature.
type SignatureInformation struct {
	Label         string                 `json:"label"`
	Documentation *MarkupContent         `json:"documentation,omitempty"`
	Parameters    []ParameterInformation `json:"parameters,omitempty"`
}

// ParameterInformation is one parameter: its label is a [start, end) range of the signature's label (in UTF-16
// code units).
type ParameterInformation struct {
	Label         [2]uint32      `json:"label"`
	Documentation *MarkupContent `json:"documentation,omitempty"`
}

// ReferenceParams are the parameters of textDocument/references.
type ReferenceParams struct {
	TextDocumentPositionParams
	Context struct {
		IncludeDeclaration bool `json:"includeDeclaration"`
	} `json:"context"`
}

// DocumentHighlight is one occurrence of the symbol under the cursor.
type DocumentHighlight struct {
	Range Range `json:"range"`
	Kind  int   `json:"kind,omitempty"` // 1 text, 2 read, 3 write
}

// DocumentSymbolParams are the parameters of textDocument/documentSymbol and of the requests that only name a
// document (semantic tokens, inlay hints without a range, code lenses).
type DocumentSymbolParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

// SymbolKind is the kind of a document symbol.
type SymbolKind int

// Symbol kinds (the ones the server uses).
const (
	SymbolModule    SymbolKind = 2
	SymbolNamespace SymbolKind = 3
	SymbolClass     SymbolKind = 5
	SymbolMethod    SymbolKind = 6
	SymbolField     SymbolKind = 8
	SymbolEnum      SymbolKind = 10
	SymbolFunction  SymbolKind = 12
	SymbolVariable  SymbolKind = 13
	SymbolEvent     SymbolKind = 24
	SymbolOperator  SymbolKind = 25
	SymbolTypeParam SymbolKind = 26
)

// DocumentSymbol is a symbol of a document with its children.
type DocumentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail,omitempty"`
	Kind           SymbolKind       `json:"kind"`
	Range          Range            `json:"range"`
	SelectionRange Range            `json:"selectionRange"`
	Children       []DocumentSymbol `json:"children,omitempty"`
}

// InlayHintParams are the parameters of textDocument/inlayHint.
type InlayHintParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Range        Range                  `json:"range"`
}

// InlayHintKind is Type (1) or Parameter (2).
type InlayHintKind int

// Inlay hint kinds.
const (
	InlayType      InlayHintKind = 1
	InlayParameter InlayHintKind = 2
)

// InlayHint is a label shown inline at a position.
type InlayHint struct {
	Position     Position       `json:"position"`
	Label        string         `json:"label"`
	Kind         InlayHintKind  `json:"kind,omitempty"`
	Tooltip      *MarkupContent `json:"tooltip,omitempty"`
	PaddingLeft  bool           `json:"paddingLeft,omitempty"`
	PaddingRight bool           `json:"paddingRight,omitempty"`
}

// FormattingOptions are the client's formatting preferences (drrc fmt has one canonical layout and ignores them).
type FormattingOptions struct {
	TabSize      uint32 `json:"tabSize"`
	InsertSpaces bool   `json:"insertSpaces"`
}

// DocumentFormattingParams are the parameters of textDocument/formatting.
type DocumentFormattingParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Options      FormattingOptions      `json:"options"`
}

// RenameParams are the parameters of textDocument/rename.
type RenameParams struct {
	TextDocumentPositionParams
	NewName string `json:"newName"`
}

// PrepareRenameResult is the range to rename and the name it holds.
type PrepareRenameResult struct {
	Range       Range  `json:"range"`
	Placeholder string `json:"placeholder"`
}

// CodeActionKind is the kind of a code action.
type CodeActionKind string

// Code action kinds.
const (
	QuickFix CodeActionKind = "quickfix"
)

// CodeActionParams are the parameters of textDocument/codeAction.
type CodeActionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Range        Range                  `json:"range"`
	Context      CodeActionContext      `json:"context"`
}

// CodeActionContext carries the diagnostics at the range.
type CodeActionContext struct {
	Diagnostics []Diagnostic     `json:"diagnostics"`
	Only        []CodeActionKind `json:"only,omitempty"`
}

// CodeAction is a change the client can apply.
type CodeAction struct {
	Title       string         `json:"title"`
	Kind        CodeActionKind `json:"kind,omitempty"`
	Diagnostics []Diagnostic   `json:"diagnostics,omitempty"`
	IsPreferred bool           `json:"isPreferred,omitempty"`
	Edit        *WorkspaceEdit `json:"edit,omitempty"`
}

// CodeLens is a command shown above a line.
type CodeLens struct {
	Range   Range    `json:"range"`
	Command *Command `json:"command,omitempty"`
}

// SemanticTokensParams are the parameters of textDocument/semanticTokens/full.
type SemanticTokensParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

// SemanticTokens are the tokens of a document, five integers each: delta line, delta start character, length,
// type index, modifier bits.
type SemanticTokens struct {
	Data []uint32 `json:"data"`
}

// ExecuteCommandParams are the parameters of workspace/executeCommand.
type ExecuteCommandParams struct {
	Command   string            `json:"command"`
	Arguments []json.RawMessage `json:"arguments,omitempty"`
}

// CancelParams are the parameters of $/cancelRequest.
type CancelParams struct {
	ID json.RawMessage `json:"id"`
}
