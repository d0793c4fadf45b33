// Package jsonrpc2 is the JSON-RPC 2.0 transport of the language server: messages framed with Content-Length
// headers over a byte stream (stdio), requests handled concurrently with cancellation ($/cancelRequest),
// notifications handled in order, and requests from the server to the client.
//
// It is small on purpose: the Go JSON-RPC packages for LSP either stop at an old protocol version or bring
// dependencies, and what the server needs — ordered notifications, concurrent cancellable requests, and a
// connection that survives malformed input — fits in a few hundred lines that the server's tests exercise.
package jsonrpc2
