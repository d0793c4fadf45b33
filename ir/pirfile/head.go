package pirfile

import (
	"bytes"
	"io"
	"os"
)

// startsLikeJSON reports whether the file at path begins as PIR JSON does (Detect on its first bytes, or on all of
// them after a long run of white space); false when it cannot be read (the reader then reports why).
func startsLikeJSON(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	if n == len(head) && len(bytes.TrimLeft(head, " \t\r\n\ufeff")) < 2 {
		rest, _ := io.ReadAll(f)
		head = append(head, rest...)
		n = len(head)
	}
	return Detect(head[:n]) == JSON
}
