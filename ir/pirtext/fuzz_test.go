package pirtext

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/ir"
)

// FuzzParse: reading never panics and fails only with a positioned *Error; the fast path reads what the general
// reader reads (parseBoth); what reads prints (tagged) to a text that reads back to an equal program and prints to
// the same bytes, and its untagged print reads back too.
// Seeds: every corpus program, the inputs of the golden files, and testdata/fuzz/FuzzParse (crashers found so
// far are kept there).
func FuzzParse(f *testing.F) {
	if _, err := os.Stat(corpusDir); err == nil {
		for _, c := range corpusFiles(f) {
			f.Add(c.src)
		}
	}
	for _, dir := range []string{"errors", "print"} {
		paths, _ := filepath.Glob(filepath.Join("testdata", dir, "*.txtar"))
		for _, p := range paths {
			a, err := txtar.ParseFile(p)
			if err != nil {
				f.Fatal(err)
			}
			if in, ok := section(a, "input.pir"); ok {
				f.Add([]byte(in))
			}
		}
	}
	catalog, err := os.ReadFile("testdata/gen.dialect")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte) { fuzzBody(t, catalog, src) })
}

// fuzzBody is FuzzParse's property check for one input.
func fuzzBody(t *testing.T, catalog, src []byte) {
	{
		ctx := ir.NewContext()
		if _, err := ctx.LoadCatalog("gen.dialect", catalog); err != nil {
			t.Fatal(err)
		}
		parseBoth(t, ctx, "fuzz.pir", src)
		p, _, err := Parse(ctx, "fuzz.pir", src, ReadOptions{})
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Internal {
				t.Fatalf("not a positioned input error: %v", err)
			}
			if p != nil {
				t.Fatal("a failed read returned a program")
			}
			return
		}
		once := Print(p, WriteOptions{})
		q, _, err := Parse(ctx, "once.pir", once, ReadOptions{})
		if err != nil {
			t.Fatalf("the print does not read back: %v\n%s", err, once)
		}
		if err := ir.Equal(p, q, ir.EqualOptions{}); err != nil {
			t.Fatalf("the print reads back different: %v\n%s", err, once)
		}
		if twice := Print(q, WriteOptions{}); !bytes.Equal(once, twice) {
			t.Fatalf("not a fixed point:\n%s\n----\n%s", once, twice)
		}
		untagged := Print(p, WriteOptions{Untagged: true})
		if _, _, err := Parse(ctx, "untagged.pir", untagged, ReadOptions{}); err != nil {
			t.Fatalf("the untagged print does not read back: %v\n%s", err, untagged)
		}
	}
}
