// Package lsp is the language server for .drr rule files (drrc lsp): the Language Server Protocol 3.17 over
// stdio, for VS Code (editors/vscode), Neovim (editors/nvim) and any other client.
//
// # Model
//
// A Server holds the documents the client has open. Each change makes a new snapshot of a document: its text and
// version, and what is computed from them on demand:
//
//   - the syntax tree, by a drr.Reparser that re-parses only the top-level declarations the change touched
//     (participle costs about 1 ms per rule; a 1,000-line file re-parses in a couple of milliseconds);
//   - the symbol index (index.go): every occurrence of a %value, $hole, @label, family variable, family, native
//     and rule, with what it does there (binds, uses, declares), for definition, references, highlights,
//     rename, hover and inlay hints;
//   - the check: what drrc check reports — syntax errors alone when there are any, otherwise the checker's
//     diagnostics (imports read from disk) and, when the rules check, the lint's findings — and the checked rule
//     set, made once per snapshot on a goroutine of its own.
//
// A goroutine per document publishes diagnostics: after a change it waits for the changes to pause (the debounce,
// Options.Debounce), checks the latest snapshot and publishes its diagnostics unless a newer version arrived.
// Requests are answered concurrently (package jsonrpc2): a request during a long check is answered from the
// syntax tree, and a request that needs the check waits with its context, so $/cancelRequest ends it.
//
// Features read the same data the command line does: the op catalog of the ir.Context (hover, completion,
// signature help, inlay hints), the builtins (builtins.go, the one place they are read from), drr.Format
// (formatting), the matcher's automaton (the drr.view command), the rewriter (the drr.apply command behind the
// "apply to…" code lens).
//
// # Files
//
// server.go (dispatch), lifecycle.go, documents.go, snapshot.go, diagnostics.go, lines.go (positions in the
// negotiated encoding), index.go, textctx.go (the cursor's context read from text that may not parse), and one
// file per feature: hover.go, completion.go, signature.go, definition.go, symbols.go, inlay.go, format.go,
// rename.go, codeaction.go, semantic.go, commands.go (drr.view and its views), apply.go (drr.apply and the
// code lenses).
package lsp
