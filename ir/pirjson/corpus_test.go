package pirjson

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

// The corpus is read in place from the shared folder, never copied into the repository.
const (
	corpusDir = "../../../shared/corpus/pir_json"
	textDir   = "../../../shared/corpus/pir_text"
	// handWrapped is the one corpus file that Paddle did not write: the design doc's example, wrapped by hand and
	// without "DA"/"QA" on its parameter ops. It is not byte-reproducible.
	handWrapped = "community_pir_save_load_fc.json"
	serverDet   = "nanaikaros__PP-OCRv5_server_det_infer.inference.json"
)

// corpusJSON is one file of shared/corpus/pir_json.
type corpusJSON struct {
	name string
	src  []byte
}

// corpusFiles returns the PIR JSON corpus, or skips the test if it is absent.
func corpusFiles(tb testing.TB) []corpusJSON {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join(corpusDir, "*.json"))
	require.NoError(tb, err)
	if len(paths) == 0 {
		tb.Skipf("corpus folder %s is absent or empty (the tests read shared/corpus next to the repository)", corpusDir)
	}
	sort.Strings(paths)
	var out []corpusJSON
	for _, p := range paths {
		src, err := os.ReadFile(p)
		require.NoError(tb, err)
		out = append(out, corpusJSON{filepath.Base(p), src})
	}
	return out
}

// corpusFile returns one corpus file, or skips.
func corpusFile(tb testing.TB, name string) []byte {
	tb.Helper()
	src, err := os.ReadFile(filepath.Join(corpusDir, name))
	if err != nil {
		tb.Skipf("corpus file %s is absent: %v", name, err)
	}
	return src
}

// ctxMode is a way to set up the Context programs are read into.
type ctxMode struct {
	name     string
	catalogs bool
}

func (m ctxMode) new(tb testing.TB) *ir.Context {
	ctx := ir.NewContext()
	if m.catalogs {
		require.NoError(tb, ctx.LoadDefaultDialects())
	}
	return ctx
}

// ctxModes returns the plain mode (every op unregistered) and, when the engine's catalogs load, the catalog mode.
func ctxModes(tb testing.TB) []ctxMode {
	modes := []ctxMode{{name: "no-dialects"}}
	if err := ir.NewContext().LoadDefaultDialects(); err != nil {
		tb.Logf("default dialects do not load, testing without them: %v", err)
		return modes
	}
	return append(modes, ctxMode{name: "default-dialects", catalogs: true})
}

// firstDiff describes where two outputs start to differ.
func firstDiff(want, got []byte) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	lo := max(0, i-80)
	return "first difference at byte " + itoa(int64(i)) + ":\nwant …" + string(want[lo:min(len(want), i+80)]) +
		"\n got …" + string(got[lo:min(len(got), i+80)])
}

// TestCorpusRoundTrip is acceptance test 1: every machine-written corpus file re-writes byte for byte, with and
// without the catalogs; with them the programs also verify without errors.
func TestCorpusRoundTrip(t *testing.T) {
	for _, mode := range ctxModes(t) {
		for _, f := range corpusFiles(t) {
			if f.name == handWrapped {
				continue
			}
			t.Run(mode.name+"/"+f.name, func(t *testing.T) {
				p, err := Read(mode.new(t), f.name, f.src, ReadOptions{})
				require.NoError(t, err)
				out, err := Marshal(p, WriteOptions{})
				require.NoError(t, err)
				if string(out) != string(f.src) {
					t.Fatal(firstDiff(f.src, out))
				}
				if mode.catalogs {
					assert.Empty(t, ir.Verify(p).Errors(), "verifier errors")
				}
			})
		}
	}
}

// TestCorpusShape checks what the reader builds from the corpus: op counts, parameters, positions, nesting.
func TestCorpusShape(t *testing.T) {
	tests := []struct {
		name           string
		ops, params    int
		firstOp        string
		loc            ir.Loc // of the first op
		regionsOfIf    int
		valuesInRegion int
	}{
		{serverDet, 1052, 539, "builtin.parameter", ir.Loc{Line: 1, Col: 139}, 0, 0},
		{"nanaikaros__PP-OCRv5_mobile_det_infer.inference.json", 668, 234, "builtin.parameter", ir.Loc{Line: 1, Col: 139}, 0, 0},
		{"Paddle2ONNX__ifelse__model.json", 29, 0, "pd_op.data", ir.Loc{Line: 1, Col: 139}, 2, 8},
		{"Paddle2ONNX__tests_thresholded_relu__model.json", 5, 0, "pd_op.data", ir.Loc{Line: 1, Col: 139}, 0, 0},
		{handWrapped, 9, 2, "builtin.parameter", ir.Loc{Line: 3, Col: 5}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Read(ir.NewContext(), tt.name, corpusFile(t, tt.name), ReadOptions{})
			require.NoError(t, err)
			assert.Equal(t, tt.ops, p.NumOps())
			assert.Len(t, p.Params, tt.params)
			assert.Equal(t, tt.name, p.File)
			assert.Equal(t, 1, p.Version)
			assert.True(t, p.Trainable)
			first := p.Body().First()
			assert.Equal(t, tt.firstOp, first.Name())
			assert.Equal(t, tt.loc, first.Loc)
			for op := range p.Walk() {
				if op.Name() != "pd_op.if" {
					continue
				}
				assert.Equal(t, tt.regionsOfIf, op.NumRegions())
				n := 0
				for inner := range op.Nested() {
					n += inner.NumResults()
				}
				assert.Equal(t, 2*tt.valuesInRegion, n, "results inside the branches")
			}
		})
	}
}

// TestCommunityFC is acceptance test 2: the hand-wrapped design-doc example loads and re-writes in canonical form
// (the golden in testdata/community_fc.txtar, our output), and its program is the text program 09 of the corpus,
// except that full.value is a Float in the (older) JSON and a Double in the text.
func TestCommunityFC(t *testing.T) {
	src := corpusFile(t, handWrapped)
	for _, mode := range ctxModes(t) {
		t.Run(mode.name, func(t *testing.T) {
			ctx := mode.new(t)
			p, err := Read(ctx, handWrapped, src, ReadOptions{})
			require.NoError(t, err)
			out, err := Marshal(p, WriteOptions{})
			require.NoError(t, err)

			golden := "testdata/community_fc.txtar"
			a, err := txtar.ParseFile(golden)
			if *update && !mode.catalogs {
				if err != nil {
					a = &txtar.Archive{Comment: []byte("Canonical re-write of shared/corpus/pir_json/" + handWrapped + " (our output).\n")}
				}
				setTxtarFile(a, "canonical.json", append(out, '\n'))
				require.NoError(t, os.WriteFile(golden, txtar.Format(a), 0o644))
			} else {
				require.NoError(t, err)
			}
			want, ok := txtarFile(a, "canonical.json")
			require.True(t, ok)
			assert.Equal(t, strings.TrimSuffix(string(want), "\n"), string(out))
			assert.NotContains(t, string(out), `"DA"`, "the parameter ops had no DA and QA, and still have none")

			// The canonical form is a fixed point.
			q, err := Read(ctx, "canonical.json", out, ReadOptions{})
			require.NoError(t, err)
			again, err := Marshal(q, WriteOptions{})
			require.NoError(t, err)
			assert.Equal(t, string(out), string(again))

			if mode.catalogs {
				// The doc example predates full.value becoming a Double.
				var msgs []string
				for _, d := range ir.Verify(p) {
					msgs = append(msgs, d.Error())
				}
				assert.Equal(t, []string{handWrapped + ":9:5: warning: %6 = pd_op.full: attribute value is f32; pd_op.full wants f64 (an older program's width)"}, msgs)
			}

			textSrc, err := os.ReadFile(filepath.Join(textDir, "09_community_pir_save_load_fc.pir"))
			if err != nil {
				t.Skipf("text corpus absent: %v", err)
			}
			tp, _, err := pirtext.Parse(ctx, "09.pir", textSrc, pirtext.ReadOptions{})
			require.NoError(t, err)
			require.NoError(t, ir.Equal(p, tp, ir.EqualOptions{IgnoreAttrs: []string{"value", omitAttr}}))
			var jv, tv ir.Attribute
			for op := range p.Walk() {
				if op.Name() == "pd_op.full" {
					jv = op.Attr("value")
				}
			}
			for op := range tp.Walk() {
				if op.Name() == "pd_op.full" {
					tv = op.Attr("value")
				}
			}
			assert.Equal(t, ctx.Float(1), jv)
			assert.Equal(t, ctx.Double(1), tv)
		})
	}
}

// TestCorpusThroughText is acceptance test 3: JSON → PIR text → JSON loses nothing. Attribute order is not
// stored in the IR (the text printer sorts keys); the writer recovers Paddle's order from the op schemas, so this
// holds with the catalogs. Without them, ops with several attributes come back sorted, which the test checks too.
func TestCorpusThroughText(t *testing.T) {
	for _, mode := range ctxModes(t) {
		for _, f := range corpusFiles(t) {
			t.Run(mode.name+"/"+f.name, func(t *testing.T) {
				ctx := mode.new(t)
				p, err := Read(ctx, f.name, f.src, ReadOptions{})
				require.NoError(t, err)
				want, err := Marshal(p, WriteOptions{})
				require.NoError(t, err)
				text := pirtext.Print(p, pirtext.WriteOptions{})
				q, warns, err := pirtext.Parse(ctx, f.name+".pir", text, pirtext.ReadOptions{})
				require.NoError(t, err)
				assert.Empty(t, warns)
				require.NoError(t, ir.Equal(p, q, ir.EqualOptions{}), "the text holds the whole program")
				got, err := Marshal(q, WriteOptions{})
				require.NoError(t, err)
				if mode.catalogs {
					if string(got) != string(want) {
						t.Fatal(firstDiff(want, got))
					}
					return
				}
				// Without schemas only the order of "A" may differ.
				r, err := Read(ctx, "again.json", got, ReadOptions{})
				require.NoError(t, err)
				require.NoError(t, ir.Equal(p, r, ir.EqualOptions{}))
			})
		}
	}
}
