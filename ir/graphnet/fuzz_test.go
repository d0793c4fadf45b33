package graphnet

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

// goldenModels returns the model.py sections of the golden archives, as fuzz seeds.
func goldenSources(f *testing.F) []Source {
	f.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil {
		f.Fatal(err)
	}
	var out []Source
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		src := Source{Dir: "g"}
		for _, part := range strings.Split(string(data), "\n-- ")[1:] {
			name, body, _ := strings.Cut(part, " --\n")
			switch name {
			case ModelFile:
				src.Model = []byte(body)
			case WeightMetaFile:
				src.WeightMeta = []byte(body)
			case InputMetaFile:
				src.InputMeta = []byte(body)
			}
		}
		out = append(out, src)
	}
	return out
}

// FuzzParse feeds arbitrary text to the Python parser: it must return a syntax tree or a positioned error, never
// panic, and an error's position must lie inside the text (or just past its end).
func FuzzParse(f *testing.F) {
	for _, src := range goldenSources(f) {
		f.Add(src.Model)
		f.Add(src.WeightMeta)
	}
	f.Add([]byte("x = (lambda x, f: f(x))(a, lambda out: out if b else (out, None)) + (None,)\n"))
	f.Add([]byte("def f(a):\n\tif a:\n  return '''x\n'''\n"))
	f.Add([]byte("input_meta = {\"x\": {\"shape\": [1, 3], \"dtype\": \"float32\"}, 2: {}}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		mem := getArena()
		defer mem.release()
		_, err := parseModule("f.py", src, mem)
		if err == nil {
			return
		}
		lines := strings.Count(string(src), "\n") + 1
		if err.Pos.Line < 1 || err.Pos.Line > lines+1 || err.Pos.Column < 1 {
			t.Fatalf("error outside the text (%d lines): %v", lines, err)
		}
		if !strings.HasPrefix(err.Error(), "f.py:") {
			t.Fatalf("error without the file name: %v", err)
		}
	})
}

// FuzzDecode feeds the whole reader a mutated model.py with the golden graphs' metadata: it returns a program that
// verifies, or an *Error; it never panics.
func FuzzDecode(f *testing.F) {
	sources := goldenSources(f)
	for i, src := range sources {
		f.Add(src.Model, i)
	}
	ctx, err := ir.NewDefaultContext()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, model []byte, which int) {
		if which < 0 {
			which = -which
		}
		src := sources[which%len(sources)]
		src.Model = model
		p, err := Decode(ctx, src)
		if err != nil {
			var ge *Error
			if !errors.As(err, &ge) {
				t.Fatalf("not a positioned *Error: %v", err)
			}
			return
		}
		if ds := ir.Verify(p).Errors(); len(ds) > 0 {
			t.Fatalf("the reader built a program that does not verify: %v", ds)
		}
		if _, err := Encode(p, WriteOptions{}); err != nil {
			var ge *Error
			if !errors.As(err, &ge) {
				t.Fatalf("encode: not an *Error: %v", err)
			}
		}
	})
}

// FuzzEncode writes programs parsed from arbitrary PIR text as GraphNet graphs: Encode returns the files or an
// *Error, never panics, and what it writes reads back.
func FuzzEncode(f *testing.F) {
	ctx, err := ir.NewDefaultContext()
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(exported))
	for _, src := range goldenSources(f) {
		if p, err := Decode(ctx, src); err == nil {
			f.Add(pirtext.Print(p, pirtext.WriteOptions{}))
		}
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		p, _, err := pirtext.Parse(ctx, "f.pir", text, pirtext.ReadOptions{})
		if err != nil || len(ir.Verify(p).Errors()) > 0 {
			return
		}
		src, err := Encode(p, WriteOptions{})
		if err != nil {
			var ge *Error
			if !errors.As(err, &ge) {
				t.Fatalf("not an *Error: %v", err)
			}
			return
		}
		if _, err := Decode(ctx, src); err != nil {
			t.Fatalf("the written graph does not read back: %v\n%s", err, src.Model)
		}
	})
}

// FuzzProgramDesc feeds the reader samples that carry their program in graph_net.json (program_desc) with mutated
// program text and meta files: it returns a program or an *Error, never panics.
func FuzzProgramDesc(f *testing.F) {
	f.Add("{\n    (%0) = \"pd_op.data\" () {dtype:float32,name:\"x\",place:Place(undefined:0),shape:[2],stop_gradient:[true]} : () -> tensor<2xf32>\n"+
		"    (%1) = \"pd_op.relu\" (%0) {stop_gradient:[false]} : (tensor<2xf32>) -> tensor<2xf32>\n}", "input_meta = {}\n")
	f.Add("{\n}", "class C:\n    name = \"x\"\n    shape = [2]\n    dtype = \"float32\"\n    data = None\n")
	ctx, err := ir.NewDefaultContext()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, desc, meta string) {
		js, err := json.Marshal(map[string]string{"protocol": "PIR", "program_desc": desc})
		if err != nil {
			return
		}
		src := Source{Dir: "s", Model: []byte("class G:\n    def forward(self, *args):\n        pass\n"),
			WeightMeta: []byte(meta), InputMeta: []byte(meta), JSON: js}
		if _, err := Decode(ctx, src); err != nil {
			var ge *Error
			if !errors.As(err, &ge) {
				t.Fatalf("not a positioned *Error: %v", err)
			}
		}
	})
}
