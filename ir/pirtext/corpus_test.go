package pirtext

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
)

// The corpus is read in place from the shared folder; it is never copied into the repository.
const (
	corpusDir = "../../../shared/corpus"
	// benchGen is the bench workload generator, relative to this package.
	benchGen = "../../../shared/bench/gen.py"
)

// corpusFile is one program of shared/corpus/pir_text or shared/corpus/graphnet.
type corpusFile struct {
	id   string // "01" … "24" for pir_text, the file name without .pir for graphnet
	name string
	src  []byte
}

// corpusFiles returns the corpus programs, or skips the test if the corpus is absent.
func corpusFiles(t testing.TB) []corpusFile {
	t.Helper()
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skipf("corpus folder %s is absent (the tests read shared/corpus next to the repository)", corpusDir)
	}
	var out []corpusFile
	for _, sub := range []string{"pir_text", "graphnet"} {
		paths, err := filepath.Glob(filepath.Join(corpusDir, sub, "*.pir"))
		require.NoError(t, err)
		sort.Strings(paths)
		for _, p := range paths {
			src, err := os.ReadFile(p)
			require.NoError(t, err)
			name := filepath.Base(p)
			id := strings.TrimSuffix(name, ".pir")
			if sub == "pir_text" {
				id, _, _ = strings.Cut(name, "_")
			}
			out = append(out, corpusFile{id: id, name: name, src: src})
		}
	}
	require.NotEmpty(t, out, "no .pir files under %s", corpusDir)
	return out
}

// corpusFileByID returns one corpus program.
func corpusFileByID(t *testing.T, id string) corpusFile {
	t.Helper()
	for _, f := range corpusFiles(t) {
		if f.id == id {
			return f
		}
	}
	t.Fatalf("corpus file %s not found", id)
	return corpusFile{}
}

// ctxMode is a way to set up the Context programs are read into.
type ctxMode struct {
	name     string
	catalogs bool
	new      func(t testing.TB) *ir.Context
}

var plainMode = ctxMode{name: "no-dialects", new: func(testing.TB) *ir.Context { return ir.NewContext() }}

var catalogMode = ctxMode{name: "default-dialects", catalogs: true, new: func(t testing.TB) *ir.Context {
	ctx := ir.NewContext()
	require.NoError(t, ctx.LoadDefaultDialects())
	return ctx
}}

// ctxModes returns the plain mode and, when the engine's default dialect catalogs load, the catalog mode.
func ctxModes(t testing.TB) []ctxMode {
	if err := ir.NewContext().LoadDefaultDialects(); err != nil {
		t.Logf("default dialects unavailable, testing without them: %v", err)
		return []ctxMode{plainMode}
	}
	return []ctxMode{plainMode, catalogMode}
}

// mustParse parses src and fails the test on error.
func mustParse(t testing.TB, ctx *ir.Context, name string, src []byte) (*ir.Program, diag.Diagnostics) {
	t.Helper()
	p, warns, err := Parse(ctx, name, src, ReadOptions{})
	require.NoError(t, err)
	require.NotNil(t, p)
	return p, warns
}

// Files whose print differs from the source beyond the normal form, each with its own test.
var normalFormExceptions = map[string]string{
	"01": "signature operand types contradict the operands (warnings)",
	"02": "signature operand types contradict the operands (warnings)",
	"05": "hand-edited key order",
	"10": "older unquoted pd_op.if",
	"24": "era A, rejected",
}

// TestCorpusNormalForm: for every corpus program but the exceptions, printing what was read gives the same normal
// form (normalize.py) as the source. With the default dialects, the GraphNet programs also verify.
func TestCorpusNormalForm(t *testing.T) {
	files := corpusFiles(t)
	var sources, prints []string // for the cross-check with normalize.py itself
	defer func() {
		if t.Failed() || len(sources) == 0 {
			return
		}
		pySrc, ok := pythonNormalForms(t, sources)
		if !ok {
			t.Log("python3 or normalize.py is missing: no cross-check with normalize.py")
			return
		}
		pyOut, _ := pythonNormalForms(t, prints)
		for i := range sources {
			assert.Equal(t, pySrc[i], pyOut[i], "normalize.py: the print of source %d differs", i)
			assert.Equal(t, pySrc[i], normalForm(sources[i]), "normalize.py and the port disagree on source %d", i)
		}
		if ran, same, msg := pythonNormalizeSame(t, sources[0], prints[0]); ran {
			assert.True(t, same, "normalize.py A B: %s", msg)
		}
	}()
	for _, mode := range ctxModes(t) {
		for _, f := range files {
			if _, skip := normalFormExceptions[f.id]; skip {
				continue
			}
			t.Run(mode.name+"/"+f.name, func(t *testing.T) {
				p, warns := mustParse(t, mode.new(t), f.name, f.src)
				assert.Empty(t, warns, "warnings")
				out := Print(p, WriteOptions{})
				want, got := normalForm(string(f.src)), normalForm(string(out))
				if want != got {
					t.Fatalf("%s\nprinted:\n%s", firstDiff(want, got), out)
				}
				sources, prints = append(sources, string(f.src)), append(prints, string(out))
				if mode.catalogs && strings.HasPrefix(f.name, "graphnet") {
					assert.Empty(t, ir.Verify(p).Errors(), "ir.Verify errors")
				}
			})
		}
	}
}

// TestCorpusOperandTypeWarnings: 01 and 02 declare signature operand types that contradict the operands' own
// types; the reader keeps the operand's type and warns once per mismatch, at the signature's type.
func TestCorpusOperandTypeWarnings(t *testing.T) {
	wantWarns := func(file string) []string {
		return []string{
			file + ":10:234: warning: operand 0 (%7) has type builtin.tensor<-1x8x224x224xf32> but the signature says builtin.tensor<-1x3x224x224xf32>; using the value's type",
			file + ":10:268: warning: operand 1 (%0) has type builtin.tensor<64x8x7x7xf32> but the signature says builtin.tensor<64x3x7x7xf32>; using the value's type",
			file + ":13:236: warning: operand 0 (%15) has type builtin.tensor<-1x64x112x112xf32> but the signature says builtin.tensor<-1x64x56x56xf32>; using the value's type",
		}
	}
	tests := []struct{ id, name string }{
		{"01", "01_paddle_auto_layout_program_v2.pir"},
		{"02", "02_paddle_auto_layout_program_v1.pir"},
	}
	for _, mode := range ctxModes(t) {
		for _, tc := range tests {
			t.Run(mode.name+"/"+tc.id, func(t *testing.T) {
				f := corpusFileByID(t, tc.id)
				require.Equal(t, tc.name, f.name)
				p, warns := mustParse(t, mode.new(t), f.name, f.src)
				var got []string
				for _, w := range warns {
					assert.Equal(t, diag.Warning, w.Severity)
					got = append(got, w.Error())
				}
				assert.Equal(t, wantWarns(f.name), got)
				// The printed signature carries the operands' own types; apart from that line the print has the
				// source's normal form.
				out := string(Print(p, WriteOptions{}))
				assert.Contains(t, out, `(%8) = "pd_op.conv2d" (%7, %0) {data_format:"NCHW",dilations:[(Int32)1,(Int32)1],groups:(Int32)1,padding_algorithm:"EXPLICIT",paddings:[(Int32)3,(Int32)3],persistable:[false],stop_gradient:[false],strides:[(Int32)2,(Int32)2]} : (builtin.tensor<-1x8x224x224xf32>, builtin.tensor<64x8x7x7xf32>) -> builtin.tensor<-1x64x112x112xf32>`)
				fixed := strings.Replace(string(f.src), "(builtin.tensor<-1x3x224x224xf32>, builtin.tensor<64x3x7x7xf32>)",
					"(builtin.tensor<-1x8x224x224xf32>, builtin.tensor<64x8x7x7xf32>)", 1)
				fixed = strings.Replace(fixed, "(builtin.tensor<-1x64x56x56xf32>, builtin.tensor<64x64x3x3xf32>)",
					"(builtin.tensor<-1x64x112x112xf32>, builtin.tensor<64x64x3x3xf32>)", 1)
				wantNF, gotNF := normalForm(fixed), normalForm(out)
				assert.Equal(t, wantNF, gotNF, firstDiff(wantNF, gotNF))
			})
		}
	}
}

// TestCorpusUnsortedKeys: 05 has hand-edited key order; it reads, and prints its keys sorted.
func TestCorpusUnsortedKeys(t *testing.T) {
	f := corpusFileByID(t, "05")
	for _, mode := range ctxModes(t) {
		t.Run(mode.name, func(t *testing.T) {
			p, warns := mustParse(t, mode.new(t), f.name, f.src)
			assert.Empty(t, warns)
			out := string(Print(p, WriteOptions{}))
			assert.Contains(t, out, "\n    (%4) = \"pd_op.all_reduce_\" (%3) {event_to_record:\"event_7989\",events_to_wait:[],"+
				"execution_stream:\"auto_parallel_mp\",force_record_event:false,persistable:[false],reduce_type:(Int32)0,"+
				"ring_id:(Int32)36,stop_gradient:[false],use_model_parallel:true} : (builtin.tensor<4096x1x8192xbf16>) -> "+
				"builtin.tensor<4096x1x8192xbf16>\n")
			// Sorting the source's keys gives the print's normal form.
			sorted := strings.Replace(string(f.src), "stop_gradient:[false],reduce_type:(Int32)0,use_model_parallel:true",
				"reduce_type:(Int32)0,stop_gradient:[false],use_model_parallel:true", 1)
			sorted = strings.Replace(sorted, "persistable:[false],ring_id:(Int32)36,reduce_type:(Int32)0,",
				"persistable:[false],reduce_type:(Int32)0,ring_id:(Int32)36,", 1)
			assert.Equal(t, normalForm(sorted), normalForm(out), firstDiff(normalForm(sorted), normalForm(out)))
		})
	}
}

// TestCorpusOlderIf: 10 has the older unquoted pd_op.if with "{" on its own line; it reads, and prints the
// current form.
func TestCorpusOlderIf(t *testing.T) {
	f := corpusFileByID(t, "10")
	want := `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"i",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[1],stop_gradient:[true]} : () -> pd_op.tensor<1xf32>
    (%1) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"a",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[1],stop_gradient:[true]} : () -> pd_op.tensor<1xf32>
    (%2) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[],stop_gradient:[true],value:(Float)3} : () -> pd_op.tensor<f32>
    (%3) = "pd_op.greater_equal" (%0, %2) {stop_gradient:[true]} : (pd_op.tensor<1xf32>, pd_op.tensor<f32>) -> pd_op.tensor<1xb>
    (%4) = "pd_op.if" (%3) {stop_gradient:[true]} -> pd_op.tensor<1xf32> {
        (%5) = "pd_op.add" (%1, %1) {stop_gradient:[true]} : (pd_op.tensor<1xf32>, pd_op.tensor<1xf32>) -> pd_op.tensor<1xf32>
        () = "cf.yield" (%5) {} : (pd_op.tensor<1xf32>) -> 
    } else {
        (%6) = "pd_op.subtract" (%1, %1) {stop_gradient:[true]} : (pd_op.tensor<1xf32>, pd_op.tensor<1xf32>) -> pd_op.tensor<1xf32>
        () = "cf.yield" (%6) {} : (pd_op.tensor<1xf32>) -> 
    }
    (%7) = "pd_op.mean" (%4) {axis:(pd_op.IntArray)[],keepdim:false,stop_gradient:[true]} : (pd_op.tensor<1xf32>) -> pd_op.tensor<f32>
}
`
	for _, mode := range ctxModes(t) {
		t.Run(mode.name, func(t *testing.T) {
			p, warns := mustParse(t, mode.new(t), f.name, f.src)
			assert.Empty(t, warns)
			assert.Equal(t, want, string(Print(p, WriteOptions{})))
			ifOp := p.Body().First().Next().Next().Next().Next()
			require.Equal(t, "pd_op.if", ifOp.Name())
			assert.Equal(t, ir.Loc{Line: 6, Col: 9}, ifOp.Loc)
			assert.Equal(t, 2, ifOp.NumRegions())
		})
	}
}

// TestCorpusEraA: 24 is a 2023 print (pd. dialect, untyped attributes, elision lines); it is rejected with a
// positioned error.
func TestCorpusEraA(t *testing.T) {
	f := corpusFileByID(t, "24")
	for _, mode := range ctxModes(t) {
		t.Run(mode.name, func(t *testing.T) {
			p, warns, err := Parse(mode.new(t), f.name, f.src, ReadOptions{})
			assert.Nil(t, p)
			assert.Empty(t, warns)
			require.Error(t, err)
			assert.Equal(t, f.name+":2:51: error: expected an attribute value, found identifier batch_norm_0.b_0 (strings must be quoted)", err.Error())
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, Error{Pos: diag.Position{Filename: f.name, Line: 2, Column: 51}, Msg: "expected an attribute value, found identifier batch_norm_0.b_0 (strings must be quoted)"}, *e)
			assert.Equal(t, f.name+":2:51: error: expected an attribute value, found identifier batch_norm_0.b_0 (strings must be quoted)",
				e.Diagnostics().Error())
		})
	}
}

// TestCorpusFixedPoint: printing what was read from a print gives the same bytes, tagged and untagged.
func TestCorpusFixedPoint(t *testing.T) {
	files := corpusFiles(t)
	for _, mode := range ctxModes(t) {
		for _, untagged := range []bool{false, true} {
			opts := WriteOptions{Untagged: untagged}
			for _, f := range files {
				if f.id == "24" {
					continue
				}
				t.Run(mode.name+"/"+syntaxName(untagged)+"/"+f.name, func(t *testing.T) {
					ctx := mode.new(t)
					p, _ := mustParse(t, ctx, f.name, f.src)
					once := Print(p, opts)
					q, _ := mustParse(t, ctx, "once.pir", once)
					twice := Print(q, opts)
					assert.Equal(t, string(once), string(twice))
				})
			}
		}
	}
}

func syntaxName(untagged bool) string {
	if untagged {
		return "untagged"
	}
	return "tagged"
}

// TestCorpusRoundTrip: the program read back from a print is structurally equal to the one printed. Tagged
// printing is lossless; untagged printing is compared with untaggedEqual, which allows exactly the documented
// losses.
func TestCorpusRoundTrip(t *testing.T) {
	files := corpusFiles(t)
	for _, mode := range ctxModes(t) {
		for _, f := range files {
			if f.id == "24" {
				continue
			}
			t.Run(mode.name+"/"+f.name, func(t *testing.T) {
				ctx := mode.new(t)
				p, _ := mustParse(t, ctx, f.name, f.src)
				q, _ := mustParse(t, ctx, "tagged.pir", Print(p, WriteOptions{}))
				require.NoError(t, ir.Equal(p, q, ir.EqualOptions{}))
				u, _ := mustParse(t, ctx, "untagged.pir", Print(p, WriteOptions{Untagged: true}))
				untaggedEqual(t, p, u)
			})
		}
	}
}
