package lsp

import (
	"testing"

	"github.com/pirdrr/drr/lsp/protocol"
)

// Exports for the tests of package lsp_test, which compare the server with drrc (package drrcli imports lsp, so
// those tests cannot be in package lsp).

// TestClient is a client connected to a server over pipes.
type TestClient = client

// StartTestServer starts a server with the default op catalogs and an initialized client.
func StartTestServer(t testing.TB) *TestClient { return startServer(t, Options{}) }

// Open opens a document in the test's folder.
func (c *client) Open(name, text string) protocol.DocumentURI { return c.open(name, text) }

// Diagnostics waits for the diagnostics of the first version of a document.
func (c *client) Diagnostics(uri protocol.DocumentURI) []protocol.Diagnostic {
	return c.diagnostics(uri, 1)
}

// Path returns the file name of a document of the test.
func (c *client) Path(name string) string { return c.path(name) }

// Write writes a file into the test's folder.
func (c *client) Write(name, text string) string { return c.write(name, text) }
