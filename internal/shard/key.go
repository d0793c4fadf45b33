package shard

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// GraphHashFile is the file of a GraphNet graph folder that holds the hash of the graph's content.
const GraphHashFile = "graph_hash.txt"

// Key returns the stable name a program is placed by: "graph:HASH" for a GraphNet graph folder with a
// graph_hash.txt (HASH its content, a hex digest), else "path:REL" with rel the program's path relative to the
// folder it was found in, with slashes.
//
// The graph hash, because it names the graph itself: the same graph is in the same shard whatever the checkout's
// folder is called and wherever the collection moves it. A path otherwise, not a hash of the file's content: every
// shard computes every program's key, and hashing the content would make each of N shards read the whole corpus
// (up to gigabytes) before it starts; a relative path is stable across machines and checkouts all the same.
func Key(path, rel string) string {
	if h := graphHash(path); h != "" {
		return "graph:" + h
	}
	return "path:" + filepath.ToSlash(rel)
}

// graphHash reads dir/graph_hash.txt: its first line, trimmed, when it is a regular file holding a hex digest;
// "" otherwise.
func graphHash(dir string) string {
	info, err := os.Stat(dir)
	if err != nil || !info.IsDir() {
		return ""
	}
	file := filepath.Join(dir, GraphHashFile)
	if info, err := os.Stat(file); err != nil || !info.Mode().IsRegular() {
		return ""
	}
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	head, _ := io.ReadAll(io.LimitReader(f, 256))
	line, _, _ := bytes.Cut(head, []byte("\n"))
	h := strings.TrimSpace(string(line))
	if h == "" || len(h) > 128 || strings.Trim(h, "0123456789abcdefABCDEF") != "" {
		return ""
	}
	return strings.ToLower(h)
}
