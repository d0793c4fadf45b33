package pirjson

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/ir"
)

var (
	fuzzCtxOnce sync.Once
	fuzzCtx     *ir.Context // with the catalogs, shared by the fuzz iterations (a Context is safe for concurrent use)
)

// FuzzRead is acceptance test 6: Read never panics, and a program it reads writes a file that reads back to a
// program writing the same bytes: Marshal(Read(Marshal(p))) == Marshal(p). It reads into a fresh Context with no
// dialects and into a shared one with the catalogs (which makes the writer reorder attributes by schema).
func FuzzRead(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join(corpusDir, "*.json"))
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	goldens, _ := filepath.Glob("testdata/*/*.txtar")
	more, _ := filepath.Glob("testdata/*.txtar")
	for _, g := range append(goldens, more...) {
		a, err := txtar.ParseFile(g)
		if err != nil {
			continue
		}
		for _, file := range a.Files {
			if filepath.Ext(file.Name) == ".json" {
				f.Add(file.Data)
			}
		}
	}
	f.Add([]byte(program("1", paramOp, whileOp(true))))
	f.Add([]byte(program("2", paramOp, unary("1.pool2d", entry("strides", f32s("1.0"))))))
	f.Add([]byte(oneOp(`{"#":"1.t_sparse_coo_tensor","D":[{"#":"0.t_f32"},[4],[2],"NCHW",`+dense(f32, "[2]")+`,`+dense(f32, "[2]")+`]}`,
		`{"#":"1.a_scalar","D":["complex128",1.0,null]}`)))
	f.Add([]byte(oneOp(f32, `{"#":"4.a_op_dist","D":[{"#":"4.a_process_mesh","D":[[2],[0,1],["x"]]},[],[],-1]}`)))
	fuzzCtxOnce.Do(func() {
		c := ir.NewContext()
		if c.LoadDefaultDialects() == nil {
			fuzzCtx = c
		}
	})
	f.Fuzz(func(t *testing.T, src []byte) {
		ctxs := []*ir.Context{ir.NewContext()}
		if fuzzCtx != nil {
			ctxs = append(ctxs, fuzzCtx)
		}
		for _, ctx := range ctxs {
			p, err := Read(ctx, "fuzz.json", src, ReadOptions{})
			if err != nil {
				if p != nil {
					t.Fatalf("a program and an error: %v", err)
				}
				if _, ok := err.(*Error); !ok {
					t.Fatalf("error of type %T: %v", err, err)
				}
				continue
			}
			first, err := Marshal(p, WriteOptions{})
			if err != nil {
				t.Fatalf("a program that reads does not write: %v", err)
			}
			q, err := Read(ctx, "first.json", first, ReadOptions{})
			if err != nil {
				t.Fatalf("the written file does not read: %v\n%s", err, first)
			}
			second, err := Marshal(q, WriteOptions{})
			if err != nil {
				t.Fatalf("the re-read program does not write: %v", err)
			}
			if string(first) != string(second) {
				t.Fatalf("not a fixed point:\n%s", firstDiff(first, second))
			}
		}
	})
}
