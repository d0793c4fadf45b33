package pirtext

// This file is a faithful Go port of ../shared/corpus/normalize.py: the normal form
// of a printed PIR program, which removes exactly the differences that copying programs out of documents
// introduces (comments, indentation, trailing spaces, empty lines, the enclosing braces, value numbering) and
// nothing else. Python's text-mode semantics are reproduced where they matter: universal newlines on read,
// str.splitlines' line boundaries, str.strip's white space, and the Unicode-aware \d and \b of re.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// normalizeScript is normalize.py, relative to this package.
const normalizeScript = "../../../shared/corpus/normalize.py"

// pyStripComment is normalize.py's strip_comment: drops a // comment outside string literals.
func pyStripComment(line string) string {
	var out strings.Builder
	inStr := false
	for i := 0; i < len(line); {
		c := line[i]
		if inStr {
			if c == '\\' && i+1 < len(line) {
				// Python slices two code points; the second may be a multi-byte rune.
				_, size := utf8.DecodeRuneInString(line[i+1:])
				out.WriteString(line[i : i+1+size])
				i += 1 + size
				continue
			}
			if c == '"' {
				inStr = false
			}
		} else {
			if c == '"' {
				inStr = true
			} else if strings.HasPrefix(line[i:], "//") {
				break
			}
		}
		out.WriteByte(c)
		i++
	}
	return out.String()
}

// pyIsSpace is Python's str.isspace for one code point: Unicode White_Space plus the separators U+001C–U+001F.
func pyIsSpace(r rune) bool {
	return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f
}

// pyIsWord is a code point of Python's re \w for str patterns: letters, numbers and the underscore.
func pyIsWord(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// pySplitLines is Python's str.splitlines() (without keepends).
func pySplitLines(s string) []string {
	var lines []string
	start := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
			lines = append(lines, s[start:i])
			next := i + size
			if r == '\r' && next < len(s) && s[next] == '\n' {
				next++
			}
			start, i = next, next
			continue
		}
		i += size
	}
	if start < len(s) {
		lines = append(lines, s[start:])
	}
	return lines
}

// pyRead is what open(path).read() returns in text mode: universal newlines (\r\n and \r become \n).
func pyRead(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// normalForm is normalize.py's normal_form applied to a file's contents.
func normalForm(text string) string {
	var lines []string
	for _, l := range pySplitLines(pyRead(text)) {
		l = strings.TrimFunc(pyStripComment(l), pyIsSpace)
		if l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 || lines[0] != "{" {
		lines = append(append([]string{"{"}, lines...), "}")
	}
	ids := map[string]string{}
	for i, l := range lines {
		lines[i] = pyRenumber(l, ids)
	}
	return strings.Join(lines, "\n") + "\n"
}

// pyRenumber is re.sub(r'%(\d+)\b', renumber, line): a run of decimal digits after % that ends at a word
// boundary is replaced by its number in order of first appearance.
func pyRenumber(line string, ids map[string]string) string {
	var out strings.Builder
	for i := 0; i < len(line); {
		if line[i] == '%' {
			j := i + 1
			for j < len(line) {
				r, size := utf8.DecodeRuneInString(line[j:])
				if !unicode.IsDigit(r) {
					break
				}
				j += size
			}
			if j > i+1 {
				next, _ := utf8.DecodeRuneInString(line[j:])
				if j == len(line) || !pyIsWord(next) {
					k := line[i+1 : j]
					id, ok := ids[k]
					if !ok {
						id = strconv.Itoa(len(ids))
						ids[k] = id
					}
					out.WriteString("%" + id)
					i = j
					continue
				}
			}
		}
		out.WriteByte(line[i])
		i++
	}
	return out.String()
}

// firstDiff describes the first line where two normal forms differ, as normalize.py does.
func firstDiff(a, b string) string {
	al, bl := strings.Split(strings.TrimSuffix(a, "\n"), "\n"), strings.Split(strings.TrimSuffix(b, "\n"), "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return "line " + strconv.Itoa(i+1) + " of the normal form differs:\n  want: " + al[i] + "\n  got:  " + bl[i]
		}
	}
	if len(al) != len(bl) {
		return "normal forms differ in length: " + strconv.Itoa(len(al)) + " vs " + strconv.Itoa(len(bl)) + " lines"
	}
	return ""
}

// python returns the path of a Python 3 interpreter (resolved once, so that version-manager shims are not run for
// every call), or "" if there is none or normalize.py is absent.
var python = sync.OnceValue(func() string {
	py, err := exec.LookPath("python3")
	if err != nil {
		return ""
	}
	if _, err := os.Stat(normalizeScript); err != nil {
		return ""
	}
	out, err := exec.Command(py, "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return ""
	}
	if exe := strings.TrimSpace(string(out)); exe != "" {
		return exe
	}
	return py
})

// pythonNormalForms computes normalize.py's normal_form of each text in one Python process (the texts go through
// files, as normalize.py reads them); ok is false when Python or the script is missing.
func pythonNormalForms(t *testing.T, texts []string) (forms []string, ok bool) {
	t.Helper()
	py := python()
	if py == "" {
		return nil, false
	}
	dir := t.TempDir()
	var paths []string
	for i, text := range texts {
		p := filepath.Join(dir, strconv.Itoa(i)+".pir")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	script, err := filepath.Abs(normalizeScript)
	if err != nil {
		t.Fatal(err)
	}
	const driver = `import json, sys, importlib.util
spec = importlib.util.spec_from_file_location("normalize", sys.argv[1])
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
json.dump([m.normal_form(open(p).read()) for p in sys.argv[2:]], sys.stdout)`
	out, err := exec.Command(py, append([]string{"-c", driver, script}, paths...)...).Output()
	if err != nil {
		t.Fatalf("normalize.py: %v", err)
	}
	if err := json.Unmarshal(out, &forms); err != nil {
		t.Fatalf("normalize.py output: %v", err)
	}
	return forms, true
}

// pythonNormalizeSame runs the script's command line, normalize.py A B, on two texts; ran is false when Python or
// the script is missing.
func pythonNormalizeSame(t *testing.T, a, b string) (ran, same bool, out string) {
	t.Helper()
	py := python()
	if py == "" {
		return false, false, ""
	}
	dir := t.TempDir()
	pa, pb := filepath.Join(dir, "a.pir"), filepath.Join(dir, "b.pir")
	if err := os.WriteFile(pa, []byte(a), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pb, []byte(b), 0o644); err != nil {
		t.Fatal(err)
	}
	o, err := exec.Command(py, normalizeScript, pa, pb).CombinedOutput()
	return true, err == nil, string(o)
}

// TestNormalFormPort checks the port against normalize.py on tricky inputs (and against fixed expectations when
// python3 is not installed).
func TestNormalFormPort(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"wraps bare ops", "(%3) = \"a\" () {} : () -> f32\n", "{\n(%0) = \"a\" () {} : () -> f32\n}\n"},
		{"comments and strings", "{ // c\n  (%7) = \"a\" () {s:\"x//y\\\"//z\"} : () -> f32 // tail\n}\n",
			"{\n(%0) = \"a\" () {s:\"x//y\\\"//z\"} : () -> f32\n}\n"},
		{"CRLF and blank lines", "{\r\n\r\n    (%2) = \"a\" (%1) {} : () -> \r\n}\r\n", "{\n(%0) = \"a\" (%1) {} : () ->\n}\n"},
		{"word boundary", "{\n%12abc %3, %arg_0 %kwarg_x %3\n}\n", "{\n%12abc %0, %arg_0 %kwarg_x %0\n}\n"},
		{"ids are strings", "{\n%01 %1 %01\n}\n", "{\n%0 %1 %0\n}\n"},
		{"unicode space and digits", "{\n\u00a0(%٣) = x\u2028%٣\n}\n", "{\n(%0) = x\n%0\n}\n"},
		{"empty", "", "{\n}\n"},
	}
	var ins []string
	for _, tc := range tests {
		ins = append(ins, tc.in)
		assert.Equal(t, tc.want, normalForm(tc.in), tc.name)
	}
	if py, ok := pythonNormalForms(t, ins); ok {
		for i, tc := range tests {
			assert.Equal(t, py[i], normalForm(tc.in), "normalize.py disagrees with the port on %s", tc.name)
		}
	} else {
		t.Log("python3 or normalize.py is missing: the port is checked against fixed expectations only")
	}
}
