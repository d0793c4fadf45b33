package rules_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/compare"
	"github.com/pirdrr/drr/drrtest"
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rules"
)

// The golden archives of the shipped rule sets (drrtest format; regenerate with go test ./rules -update, or
// drrc test -update DIR, and read every changed output before committing it):
//
//   - testdata/conv_bn_relu: conv2d_bn_fold and the conv2d + add (+ activation) fusions, one positive or negative
//     case per rule condition;
//   - testdata/inplace: deinplace and reinplace;
//   - testdata/pipeline: seed 000 §2.5.2's conv → batch_norm → relu_ example after each prefix of the inference
//     pipeline, and the whole pipeline;
//   - testdata/value_semantics (run by TestValueSemanticsGoldens) has the value-semantics cases.
var goldenDirs = []string{"testdata/conv_bn_relu", "testdata/inplace", "testdata/pipeline"}

func TestConvBnReluGoldens(t *testing.T) {
	drrtest.Run(t, "testdata/conv_bn_relu", drrtest.Options{Update: *update})
}

func TestInplaceGoldens(t *testing.T) {
	drrtest.Run(t, "testdata/inplace", drrtest.Options{Update: *update})
}

func TestPipelineGoldens(t *testing.T) {
	drrtest.Run(t, "testdata/pipeline", drrtest.Options{Update: *update})
}

// goldenArchive is one archive's input and expected output.
type goldenArchive struct {
	name          string
	path          string
	input, output string
}

func goldenArchives(t *testing.T, dirs ...string) []goldenArchive {
	t.Helper()
	var out []goldenArchive
	for _, dir := range dirs {
		files, err := drrtest.Files(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			a := goldenArchive{name: filepath.Base(dir) + "/" + strings.TrimSuffix(filepath.Base(f), ".txtar"), path: f}
			for _, sec := range txtar.Parse(data).Files {
				switch sec.Name {
				case "input.pir":
					a.input = string(sec.Data)
				case "output.pir":
					a.output = string(sec.Data)
				}
			}
			if a.input == "" || a.output == "" {
				t.Fatalf("%s: needs an input.pir and an output.pir section", f)
			}
			out = append(out, a)
		}
	}
	return out
}

// TestGoldenOutputsVerify checks that every expected output is a valid program (Go passes run without the
// driver's verify-each).
func TestGoldenOutputsVerify(t *testing.T) {
	for _, a := range goldenArchives(t, goldenDirs...) {
		t.Run(a.name, func(t *testing.T) {
			if ds := ir.Verify(parse(t, a.output)).Errors(); len(ds) > 0 {
				t.Errorf("output does not verify:\n%s", ds.Error())
			}
		})
	}
}

// TestGoldensPreserveValues runs every archive's input and expected output in the reference interpreter on random
// inputs and weights: a golden output that computes something else than its input is a wrong expectation (or a
// wrong rule), whatever it looks like. Archives with ops the interpreter cannot evaluate (collectives) are skipped.
func TestGoldensPreserveValues(t *testing.T) {
	archives := goldenArchives(t, goldenDirs...)
	archives = append(archives, goldenArchives(t, "testdata/value_semantics")...)
	for _, a := range archives {
		t.Run(a.name, func(t *testing.T) {
			before, after := parse(t, a.input), parse(t, a.output)
			rep, err := compare.Programs(before, after, compare.Options{Runs: 2})
			if err != nil && strings.Contains(err.Error(), "does not compute") {
				// An op reads a result the interpreter leaves out (batch_norm's reserve_space, copied by
				// value_semantics.wrap): drop dead ops and compare again (dce keeps ops that write an operand:
				// see TestDeadInplaceWriteIsKept).
				t.Logf("%v; comparing after dce", err)
				dce(t, before)
				dce(t, after)
				rep, err = compare.Programs(before, after, compare.Options{Runs: 2})
			}
			if errors.Is(err, interp.ErrUnsupported) {
				t.Skipf("the interpreter cannot run it: %v", err)
			}
			if err != nil {
				if rep != nil {
					t.Fatalf("%v\n%s", err, rep)
				}
				t.Fatal(err)
			}
			if len(rep.Outputs) == 0 {
				t.Fatalf("no outputs compared")
			}
		})
	}
}

// dce runs the dce pass on p.
func dce(t *testing.T, p *ir.Program) {
	t.Helper()
	runPasses(t, p, "dce")
}

// runPasses runs the named passes and pipelines of the shipped registry on p.
func runPasses(t *testing.T, p *ir.Program, names ...string) []*rewriter.PassResult {
	t.Helper()
	reg := rewriter.NewRegistry()
	if err := rules.Register(reg); err != nil {
		t.Fatal(err)
	}
	pl, err := reg.Pipeline(p.Ctx, names...)
	if err != nil {
		t.Fatal(err)
	}
	res, err := pl.Run(p, &rewriter.Env{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestDeadInplaceWriteIsKept: an inplace op whose result is unused still writes its operand's buffer, which a
// later op may read. In
//
//	a = tanh(x); _ = relu_(a); fetch(a)
//
// the fetch reads relu(tanh(x)); no pass may erase the relu_ as dead (the driver did, before it learned which ops
// write their operands).
func TestDeadInplaceWriteIsKept(t *testing.T) {
	const src = `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[2,3],stop_gradient:[true]} : () -> builtin.tensor<2x3xf32>
    (%1) = "pd_op.tanh" (%0) {} : (builtin.tensor<2x3xf32>) -> builtin.tensor<2x3xf32>
    (%2) = "pd_op.relu_" (%1) {} : (builtin.tensor<2x3xf32>) -> builtin.tensor<2x3xf32>
    (%3) = "pd_op.fetch" (%1) {col:(Int32)0,name:"out"} : (builtin.tensor<2x3xf32>) -> builtin.tensor<2x3xf32>
}
`
	for _, pass := range []string{"dce", "inplace", "conv_bn_relu"} {
		t.Run(pass, func(t *testing.T) {
			before, after := parse(t, src), parse(t, src)
			runPasses(t, after, pass)
			rep, err := compare.Programs(before, after, compare.Options{Runs: 1})
			if errors.Is(err, compare.ErrMismatch) {
				t.Fatalf("pass %s erased an unused relu_ whose write a later fetch reads:\n%s", pass, rep)
			}
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}
