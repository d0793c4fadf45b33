// Package protocol holds the types of the Language Server Protocol 3.17 that the .drr language server uses: the
// messages of the lifecycle, document synchronization and the language features, with their JSON names. It is a
// subset — what the server sends and reads — written from the specification
// (https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/), not generated:
// the Go packages that carry generated types stop at protocol 3.15 or 3.16, before inlay hints and position
// encodings. Optional fields are pointers or omitempty, so that what is not set is not sent.
package protocol
