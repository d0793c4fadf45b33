package lsp

import (
	"net/url"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/pirdrr/drr/lsp/protocol"
)

// uriToPath returns the file name of a file: URI, the name diagnostics and imports use; other URIs (an unsaved
// editor buffer, untitled:Untitled-1) are their own name, and ok is false.
func uriToPath(uri protocol.DocumentURI) (name string, ok bool) {
	u, err := url.Parse(string(uri))
	if err != nil || u.Scheme != "file" {
		return string(uri), false
	}
	p := u.Path
	if runtime.GOOS == "windows" {
		p = strings.TrimPrefix(p, "/") // file:///C:/x → C:/x
	}
	return filepath.FromSlash(p), true
}

// pathToURI returns the file: URI of a file name.
func pathToURI(path string) protocol.DocumentURI {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return protocol.DocumentURI((&url.URL{Scheme: "file", Path: p}).String())
}
