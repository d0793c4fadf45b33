package drrcli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// namesFolder reports whether an -o value names a folder by its spelling: it ends in a path separator (out/).
func namesFolder(out string) bool {
	return strings.HasSuffix(out, "/") || strings.HasSuffix(out, string(filepath.Separator))
}

// isOwnInput reports whether out names the input program in itself (the same file, or the same folder of a
// GraphNet graph, through any link): writing there replaces what was read, which -w must ask for.
func isOwnInput(in, out string) bool {
	if in == "-" || out == "-" {
		return false
	}
	a, err := os.Stat(in)
	if err != nil {
		return false
	}
	b, err := os.Stat(out)
	return err == nil && os.SameFile(a, b)
}

// isFolder reports whether path is an existing folder.
func isFolder(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

// missingDirs returns the folders from dir up that do not exist yet, deepest first: those a write into dir creates.
func missingDirs(dir string) []string {
	var out []string
	for dir = filepath.Clean(dir); dir != "." && dir != string(filepath.Separator); dir = filepath.Dir(dir) {
		if _, err := os.Lstat(dir); err == nil {
			break
		}
		out = append(out, dir)
	}
	return out
}

// removeEmptyDirs removes the folders of dirs (deepest first) that are empty: those a run created for outputs it
// did not write in the end.
func removeEmptyDirs(dirs []string) {
	for _, d := range dirs {
		_ = os.Remove(d) // fails, as it should, on a folder that holds something
	}
}

// replaceableOutput fails unless path is absent or a regular file that command wrote: one that starts with header,
// the line command's outputs open with. drrc gen and drrc mine replace their own outputs and nothing else (not a
// folder, not a symbolic link, which the write would replace, not a file of the user's).
func replaceableOutput(path, header, command string) error {
	info, err := os.Lstat(path)
	if err != nil {
		return nil // absent (or unreadable: the write reports it)
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s exists and is not a regular file: not replacing it", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, len(header))
	if _, err := io.ReadFull(f, head); err != nil || string(head) != header {
		return fmt.Errorf("%s exists and was not written by %s: not replacing it", path, command)
	}
	return nil
}
