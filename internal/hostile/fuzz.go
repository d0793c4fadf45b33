package hostile

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// FuzzCorpus returns the inputs of a Go fuzz corpus folder (testdata/fuzz/FuzzParse: files in the "go test fuzz
// v1" encoding of a single []byte or string argument), by file name. A folder that does not exist has none.
func FuzzCorpus(dir string) (map[string][]byte, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		v, err := fuzzValue(string(data))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", filepath.Join(dir, e.Name()), err)
		}
		out[e.Name()] = v
	}
	return out, nil
}

// fuzzValue decodes a one-value corpus file: "go test fuzz v1" then []byte("…") or string("…").
func fuzzValue(text string) ([]byte, error) {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if len(lines) != 2 || lines[0] != "go test fuzz v1" {
		return nil, fmt.Errorf("not a one-value go test fuzz v1 file")
	}
	v := lines[1]
	for _, prefix := range []string{"[]byte(", "string("} {
		if rest, ok := strings.CutPrefix(v, prefix); ok && strings.HasSuffix(rest, ")") {
			s, err := strconv.Unquote(strings.TrimSuffix(rest, ")"))
			if err != nil {
				return nil, err
			}
			return []byte(s), nil
		}
	}
	return nil, fmt.Errorf("value %.40q is not a []byte or string", v)
}

// Names returns the keys of m, sorted.
func Names[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
