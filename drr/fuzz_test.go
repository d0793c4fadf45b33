package drr

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pirdrr/drr/diag"
	"golang.org/x/tools/txtar"
)

// FuzzParse checks, for any input:
//   - Parse never panics and never reports an internal error, nor one of
//     participle's own messages (every error comes from a terminal of the
//     grammar, in the user's terms);
//   - diagnostics are positioned inside the input and render;
//   - Format never panics on what Parse returns;
//   - if the input parses, its formatted form parses to the same tree
//     (positions, comments and spelling-only differences aside) and
//     formats to the same bytes (Format is idempotent);
//   - if the input parses, participle parsing the whole file at once (no
//     declaration-by-declaration driving, no recovery) builds the same tree.
//
// The seed corpus is every golden input and output plus printed PIR lines
// from the shared corpus, and rules nested and chained at and past the depth
// limits (depthSeeds).
func FuzzParse(f *testing.F) {
	for _, dir := range []string{"format", "errors"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.txtar"))
		for _, path := range files {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				continue
			}
			for _, file := range ar.Files {
				if strings.HasSuffix(file.Name, ".drr") {
					f.Add(file.Data)
				}
			}
		}
	}
	for i, line := range corpusLines(f, 40) {
		if i%4 == 0 {
			f.Add([]byte(wrapMatch(line.text)))
		}
	}
	f.Add(generateRules(2))
	for _, src := range depthSeeds() {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkParseProperties(t, src)
	})
}

func checkParseProperties(t *testing.T, src []byte) {
	file, err := Parse("fuzz.drr", src)
	if file == nil {
		t.Fatalf("Parse returned a nil file")
	}
	if err != nil {
		ds, ok := err.(diag.Diagnostics)
		if !ok {
			t.Fatalf("error is %T, not Diagnostics", err)
		}
		if len(ds) == 0 {
			t.Fatalf("empty diag.Diagnostics returned as error")
		}
		for _, d := range ds {
			if strings.Contains(d.Message, "(grammar: ") {
				t.Fatalf("participle's own error reached the user: %s\ninput: %q", d, src)
			}
			if strings.Contains(d.Message, "internal error") {
				t.Fatalf("%s\ninput: %q", d.Message, src)
			}
			if d.Pos.Line < 1 || d.Pos.Column < 1 || d.Pos.Offset < 0 || d.Pos.Offset > len(src) {
				t.Fatalf("diagnostic outside the input: %v (input %d bytes)\ninput: %q", d, len(src), src)
			}
		}
		ds.Render(src)
		checkSpans(t, file, src)
		Format(file)
		return
	}
	checkSpans(t, file, src)
	out := Format(file)
	if !utf8.Valid(out) && utf8.Valid(src) {
		t.Fatalf("Format produced invalid UTF-8\ninput: %q\noutput: %q", src, out)
	}
	file2, err := Parse("fuzz.drr", out)
	if err != nil {
		t.Fatalf("formatted output does not parse: %v\ninput:  %q\noutput: %q", err, src, out)
	}
	if a, b := dumpAST(file), dumpAST(file2); a != b {
		t.Fatalf("formatting changed the tree\ninput:  %q\noutput: %q\nbefore: %s\nafter:  %s", src, out, a, b)
	}
	if out2 := Format(file2); !bytes.Equal(out, out2) {
		t.Fatalf("Format is not idempotent\ninput:  %q\nfirst:  %q\nsecond: %q", src, out, out2)
	}
	whole, err := parseWhole("fuzz.drr", src)
	if err != nil {
		t.Fatalf("Parse accepts what participle rejects when it parses the whole file: %v\ninput: %q", err, src)
	}
	if a, b := dumpAST(file.Decls), dumpAST(whole.Decls); a != b {
		t.Fatalf("Parse and a whole-file parse disagree\ninput: %q\nParse: %s\nwhole: %s", src, a, b)
	}
}

// checkSpans checks that every span of the tree lies inside the source,
// with its start before its end.
func checkSpans(t *testing.T, file *File, src []byte) {
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Interface, reflect.Pointer:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		case reflect.Struct:
			if v.Type() == spanType {
				sp := v.Interface().(Span)
				if sp == (Span{}) {
					return // absent (the parentheses of a signature without inputs)
				}
				p, e := sp.Pos(), sp.End()
				if p.Offset < 0 || p.Offset > e.Offset || e.Offset > len(src) || p.Line < 1 || e.Line < p.Line ||
					(p.Line == e.Line && e.Column < p.Column) {
					t.Fatalf("bad span %v-%v (input %d bytes)\ninput: %q", p, e, len(src), src)
				}
				if got := strings.Count(string(src[:p.Offset]), "\n") + 1; got != p.Line {
					t.Fatalf("span %v is on line %d\ninput: %q", p, got, src)
				}
				return
			}
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		}
	}
	walk(reflect.ValueOf(file))
}

// dumpAST renders a tree without positions, comments and differences of
// spelling that the formatter normalises (quotes around plain op names, an
// empty attribute map), so that a file and its formatted form compare equal.
func dumpAST(v any) string {
	var b strings.Builder
	dumpValue(&b, reflect.ValueOf(v))
	return b.String()
}

var (
	spanType     = reflect.TypeOf(Span{})
	opNameType   = reflect.TypeOf(&OpName{})
	attrMapType  = reflect.TypeOf(&AttrMap{})
	commentsType = reflect.TypeOf([]*Comment{})
	docType      = reflect.TypeOf(&CommentGroup{})
)

func dumpValue(b *strings.Builder, v reflect.Value) {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		dumpValue(b, v.Elem())
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		switch v.Type() {
		case opNameType:
			b.WriteString("op:" + opNameString(v.Interface().(*OpName)))
			return
		case attrMapType:
			if m := v.Interface().(*AttrMap); len(m.Entries) == 0 && m.Rest == nil {
				b.WriteString("nil")
				return
			}
		}
		dumpValue(b, v.Elem())
	case reflect.Struct:
		b.WriteString(v.Type().Name())
		b.WriteByte('{')
		for i := 0; i < v.NumField(); i++ {
			ft := v.Type().Field(i)
			if !ft.IsExported() || ft.Type == spanType || ft.Type == commentsType || ft.Type == docType {
				continue
			}
			b.WriteString(ft.Name)
			b.WriteByte(':')
			dumpValue(b, v.Field(i))
			b.WriteByte(' ')
		}
		b.WriteByte('}')
	case reflect.Slice:
		b.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			dumpValue(b, v.Index(i))
			b.WriteByte(' ')
		}
		b.WriteByte(']')
	default:
		fmt.Fprintf(b, "%q", fmt.Sprint(v.Interface()))
	}
}

// TestFuzzCorpusRegressions replays the inputs the fuzzer found (kept in
// testdata/fuzz/FuzzParse by `go test -fuzz`) even when not fuzzing; go test
// does that already, this test also replays any extra files in
// testdata/fuzzcrashers.
func TestFuzzCorpusRegressions(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "fuzzcrashers", "*.drr"))
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(path), func(t *testing.T) { checkParseProperties(t, src) })
	}
}
