package drrcli

import (
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
