package rules_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/drrtest"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/rules"
)

var update = flag.Bool("update", false, "rewrite the expected sections of the golden archives")

const valueSemanticsDir = "testdata/value_semantics"

// TestValueSemanticsGoldens runs the ports of value-semantics.md's golden cases (and seed 000 §2.5's examples).
func TestValueSemanticsGoldens(t *testing.T) {
	drrtest.Run(t, valueSemanticsDir, drrtest.Options{Update: *update})
}

// TestValueSemanticsGoldenOutputsVerify checks that every expected output is a valid program: Go passes run
// without the driver's verify-each, so the archives' outputs are verified here.
func TestValueSemanticsGoldenOutputsVerify(t *testing.T) {
	files, err := drrtest.Files(valueSemanticsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			ar := txtar.Parse(data)
			for _, sec := range ar.Files {
				if sec.Name != "output.pir" {
					continue
				}
				p := parse(t, string(sec.Data))
				if ds := ir.Verify(p).Errors(); len(ds) > 0 {
					t.Errorf("output does not verify:\n%s", ds.Error())
				}
				return
			}
			t.Errorf("no output.pir section")
		})
	}
}

func parse(t *testing.T, src string) *ir.Program {
	t.Helper()
	ctx := ir.NewContext()
	if err := ctx.LoadDefaultDialects(); err != nil {
		t.Fatal(err)
	}
	p, _, err := pirfile.Parse(ctx, "test.pir", []byte(src), pirfile.PIRText)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	return p
}

// Building blocks of the slice programs: a, b are value tensors (2x3), x a mutable program input.
const (
	tV       = "pd_op.v_tensor<2x3xf32>"
	tT       = "builtin.tensor<2x3xf32>"
	preamble = `(%a) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"a",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[2,3]} : () -> ` + tV + `
(%b) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"b",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[2,3]} : () -> ` + tV + `
(%x) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[2,3]} : () -> ` + tT + `
(%c) = "pd_op.data" () {dtype:(pd_op.DataType)bool,name:"c",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[1]} : () -> pd_op.v_tensor<1xb>
(%l) = "pd_op.full_int_array" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),value:[(Int64)3,(Int64)2]} : () -> pd_op.v_tensor<2xi64>
`
	toT  = `"pd_op.to_tensor" (%a) {} : (` + tV + `) -> ` + tT
	toTB = `"pd_op.to_tensor" (%b) {} : (` + tV + `) -> ` + tT
	toVT = `"pd_op.to_vtensor" (%t) {} : (` + tT + `) -> ` + tV
	owBT = `"pd_op.assign_out_" (%bt, %t) {} : (` + tT + `, ` + tT + `) -> ` + tT
)

// program wraps body (ops using the preamble's values; the copy under test defines %t) into a program.
func program(body string) string { return "{\n" + preamble + body + "\n}\n" }

// rootCopy returns the copy under test: the first pd_op.to_tensor that reads the program input a (or x).
func rootCopy(t *testing.T, p *ir.Program) *ir.Op {
	t.Helper()
	for op := range p.Walk() {
		if op.Name() == "pd_op.to_tensor" {
			if d := op.Operand(0).DefiningOp(); d != nil && d.Name() == "pd_op.data" {
				if n, _ := ir.AsString(d.Attr("name")); n == "a" || n == "x" {
					return op
				}
			}
		}
	}
	t.Fatal("no copy of a in the program")
	return nil
}

// TestSliceAnalysis checks which copies the two patterns of MaximizeValueSemantics accept, and why they refuse the
// others.
func TestSliceAnalysis(t *testing.T) {
	tests := []struct {
		name string
		body string
		// a, b: "" if the pattern applies, else a substring of the reason it does not.
		a, b string
	}{
		{
			name: "snapshots",
			body: `(%t) = ` + toT + `
(%v) = ` + toVT + `
(%w) = ` + toVT + `
(%o) = "pd_op.fetch" (%v) {col:(Int32)0,name:"o"} : (` + tV + `) -> ` + tV,
		},
		{
			name: "overwrite then snapshot",
			body: `(%t) = ` + toT + `
(%bt) = ` + toTB + `
(%r) = ` + owBT + `
(%v) = ` + toVT + `
(%o) = "pd_op.fetch" (%v) {col:(Int32)0,name:"o"} : (` + tV + `) -> ` + tV,
			b: "pd_op.assign_out_ reads an alias of the copy and is not a pd_op.to_vtensor, a view or a return",
		},
		{
			name: "overwrite result is an alias",
			body: `(%t) = ` + toT + `
(%bt) = ` + toTB + `
(%r) = ` + owBT + `
(%v) = "pd_op.to_vtensor" (%r) {} : (` + tT + `) -> ` + tV + `
(%o) = "pd_op.fetch" (%v) {col:(Int32)0,name:"o"} : (` + tV + `) -> ` + tV,
			b: "is not a pd_op.to_vtensor, a view or a return",
		},
		{
			name: "views then snapshot",
			body: `(%t) = ` + toT + `
(%w) = "pd_op.reshape" (%t, %l) {} : (` + tT + `, pd_op.v_tensor<2xi64>) -> builtin.tensor<3x2xf32>
(%f) = "pd_op.flatten" (%w) {start_axis:(Int32)0,stop_axis:(Int32)1} : (builtin.tensor<3x2xf32>) -> builtin.tensor<6xf32>
(%v) = "pd_op.to_vtensor" (%f) {} : (builtin.tensor<6xf32>) -> pd_op.v_tensor<6xf32>`,
		},
		{
			name: "view only",
			body: `(%t) = ` + toT + `
(%w) = "pd_op.reshape" (%t, %l) {} : (` + tT + `, pd_op.v_tensor<2xi64>) -> builtin.tensor<3x2xf32>`,
		},
		{
			name: "copy of a mutable tensor",
			body: `(%t) = "pd_op.to_tensor" (%x) {} : (` + tT + `) -> ` + tT + `
(%v) = ` + toVT,
			a: "operand is not a value tensor", b: "operand is not a value tensor",
		},
		{
			name: "copy changing the static type",
			body: `(%t) = "pd_op.to_tensor" (%a) {} : (` + tV + `) -> builtin.tensor<-1x3xf32>
(%v) = "pd_op.to_vtensor" (%t) {} : (builtin.tensor<-1x3xf32>) -> pd_op.v_tensor<-1x3xf32>`,
			a: "the copy changes the static type", b: "the copy changes the static type",
		},
		{
			name: "snapshot changing the static type",
			body: `(%t) = ` + toT + `
(%v) = "pd_op.to_vtensor" (%t) {} : (` + tT + `) -> pd_op.v_tensor<-1x3xf32>`,
			a: "pd_op.to_vtensor changes the static type", b: "pd_op.to_vtensor changes the static type",
		},
		{
			name: "dead copy",
			body: `(%t) = ` + toT,
			a:    "nothing reads the copy", b: "nothing reads the copy",
		},
		{
			name: "only a return",
			body: `(%t) = ` + toT + `
(%o) = "pd_op.fetch" (%t) {col:(Int32)0,name:"o"} : (` + tT + `) -> ` + tT,
			a: "only returns read the copy", b: "no pd_op.to_vtensor and no view reads the copy",
		},
		{
			name: "snapshot in another block",
			body: `(%t) = ` + toT + `
(%r) = "pd_op.if" (%c) {} -> ` + tV + ` {
    (%v) = ` + toVT + `
    () = "cf.yield" (%v) {} : (` + tV + `) ->
} else {
    () = "cf.yield" (%a) {} : (` + tV + `) ->
}`,
			a: "pd_op.to_vtensor reads an alias of the copy in another block",
		},
		{
			name: "overwrite in another block",
			body: `(%t) = ` + toT + `
(%bt) = ` + toTB + `
() = "pd_op.if" (%c) {} -> {
    (%r) = ` + owBT + `
    () = "cf.yield" () {} : () ->
} else {
    () = "cf.yield" () {} : () ->
}
(%v) = ` + toVT,
			a: "pd_op.assign_out_ reads an alias of the copy in another block",
			b: "pd_op.assign_out_ reads an alias of the copy and is not",
		},
		{
			name: "unregistered user",
			body: `(%t) = ` + toT + `
() = "my.opaque" (%t) {} : (` + tT + `) ->
(%v) = ` + toVT,
			a: "unsupported op my.opaque (unregistered)", b: "my.opaque (unregistered) reads an alias",
		},
		{
			name: "op with value semantics reading the tensor",
			body: `(%t) = ` + toT + `
(%y) = "pd_op.tanh" (%t) {} : (` + tT + `) -> ` + tT,
			a: "unsupported op pd_op.tanh", b: "pd_op.tanh reads an alias",
		},
		{
			name: "inplace op on the tensor",
			body: `(%t) = ` + toT + `
(%y) = "pd_op.relu_" (%t) {} : (` + tT + `) -> ` + tT + `
(%v) = ` + toVT,
			a: "unsupported op pd_op.relu_", b: "pd_op.relu_ reads an alias",
		},
		{
			name: "view read after an overwrite of its base",
			body: `(%t) = ` + toT + `
(%w) = "pd_op.reshape" (%t, %l) {} : (` + tT + `, pd_op.v_tensor<2xi64>) -> builtin.tensor<3x2xf32>
(%bt) = ` + toTB + `
(%r) = ` + owBT + `
(%v) = "pd_op.to_vtensor" (%w) {} : (builtin.tensor<3x2xf32>) -> pd_op.v_tensor<3x2xf32>`,
			a: "pd_op.to_vtensor reads an alias of the copy that an overwrite has made stale",
			b: "pd_op.assign_out_ reads an alias",
		},
		{
			name: "copy is the source of an overwrite",
			body: `(%t) = ` + toT + `
(%xt) = "pd_op.assign_out_" (%t, %x) {} : (` + tT + `, ` + tT + `) -> ` + tT,
			a: "as the source of an overwrite of another tensor", b: "pd_op.assign_out_ reads an alias",
		},
		{
			name: "alias as a view's second operand",
			body: `(%t) = ` + toT + `
(%d) = "pd_op.depend" (%x, %t) {} : (` + tT + `, ` + tT + `) -> ` + tT + `
(%v) = "pd_op.to_vtensor" (%d) {} : (` + tT + `) -> ` + tV,
			a: "pd_op.depend takes an alias of the copy as an operand other than the viewed operand 0",
			b: "pd_op.depend takes an alias of the copy as an operand other than the viewed operand 0",
		},
		{
			name: "alias as both operands of a view",
			body: `(%t) = ` + toT + `
(%d) = "pd_op.depend" (%t, %t) {} : (` + tT + `, ` + tT + `) -> ` + tT + `
(%v) = "pd_op.to_vtensor" (%d) {} : (` + tT + `) -> ` + tV,
		},
		{
			name: "overwrite with another static type",
			body: `(%t) = ` + toT + `
(%s) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"s",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[-1,3]} : () -> builtin.tensor<-1x3xf32>
(%r) = "pd_op.assign_out_" (%s, %t) {} : (builtin.tensor<-1x3xf32>, ` + tT + `) -> ` + tT + `
(%v) = ` + toVT,
			a: "overwrites a builtin.tensor<2x3xf32> with a builtin.tensor<-1x3xf32>",
			b: "pd_op.assign_out_ reads an alias",
		},
		{
			name: "shadow_output before an overwrite",
			body: `(%t) = ` + toT + `
() = "builtin.shadow_output" (%t) {output_name:"o"} : (` + tT + `) ->
(%bt) = ` + toTB + `
(%r) = ` + owBT + `
(%v) = ` + toVT,
			a: "shadow_output publishes the buffer before a later overwrite",
			b: "pd_op.assign_out_ reads an alias",
		},
		{
			name: "shadow_output after an overwrite",
			body: `(%t) = ` + toT + `
(%bt) = ` + toTB + `
(%r) = ` + owBT + `
() = "builtin.shadow_output" (%r) {output_name:"o"} : (` + tT + `) ->`,
			b: "pd_op.assign_out_ reads an alias",
		},
		{
			name: "share_data chain stays known after an overwrite",
			body: `(%t) = ` + toT + `
(%s) = "pd_op.share_data" (%t) {} : (` + tT + `) -> ` + tT + `
(%bt) = ` + toTB + `
(%r) = "pd_op.assign_out_" (%bt, %s) {} : (` + tT + `, ` + tT + `) -> ` + tT + `
(%v) = ` + toVT,
			b: "pd_op.assign_out_ reads an alias",
		},
		{
			name: "an overwrite's result is an identity alias",
			body: `(%t) = ` + toT + `
(%bt) = ` + toTB + `
(%r) = ` + owBT + `
(%r2) = "pd_op.assign_out_" (%bt, %r) {} : (` + tT + `, ` + tT + `) -> ` + tT + `
(%v) = ` + toVT,
			b: "pd_op.assign_out_ reads an alias",
		},
		{
			name: "an earlier overwrite's result is stale after a later overwrite",
			body: `(%t) = ` + toT + `
(%bt) = ` + toTB + `
(%r) = ` + owBT + `
(%r2) = "pd_op.assign_out_" (%bt, %t) {} : (` + tT + `, ` + tT + `) -> ` + tT + `
(%v) = "pd_op.to_vtensor" (%r) {} : (` + tT + `) -> ` + tV,
			a: "pd_op.to_vtensor reads an alias of the copy that an overwrite has made stale",
			b: "pd_op.assign_out_ reads an alias",
		},
		{
			name: "a reshape is not an identity view",
			body: `(%t) = ` + toT + `
(%w) = "pd_op.reshape" (%t, %l) {} : (` + tT + `, pd_op.v_tensor<2xi64>) -> builtin.tensor<3x2xf32>
(%bt) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"s",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[3,2]} : () -> builtin.tensor<3x2xf32>
(%r) = "pd_op.assign_out_" (%bt, %w) {} : (builtin.tensor<3x2xf32>, builtin.tensor<3x2xf32>) -> builtin.tensor<3x2xf32>
(%v) = ` + toVT,
			a: "pd_op.to_vtensor reads an alias of the copy that an overwrite has made stale",
			b: "pd_op.assign_out_ reads an alias",
		},
		{
			name: "views and snapshots across blocks",
			body: `(%t) = ` + toT + `
(%w) = "pd_op.reshape" (%t, %l) {} : (` + tT + `, pd_op.v_tensor<2xi64>) -> builtin.tensor<3x2xf32>
(%r) = "pd_op.if" (%c) {} -> pd_op.v_tensor<3x2xf32> {
    (%v) = "pd_op.to_vtensor" (%w) {} : (builtin.tensor<3x2xf32>) -> pd_op.v_tensor<3x2xf32>
    () = "cf.yield" (%v) {} : (pd_op.v_tensor<3x2xf32>) ->
} else {
    (%u) = "pd_op.reshape" (%w, %l) {} : (builtin.tensor<3x2xf32>, pd_op.v_tensor<2xi64>) -> builtin.tensor<3x2xf32>
    (%v2) = "pd_op.to_vtensor" (%u) {} : (builtin.tensor<3x2xf32>) -> pd_op.v_tensor<3x2xf32>
    () = "cf.yield" (%v2) {} : (pd_op.v_tensor<3x2xf32>) ->
}`,
			a: "reads an alias of the copy in another block",
		},
		{
			name: "tensor yielded from a branch",
			body: `(%t) = ` + toT + `
(%r) = "pd_op.if" (%c) {} -> ` + tT + ` {
    () = "cf.yield" (%t) {} : (` + tT + `) ->
} else {
    () = "cf.yield" (%x) {} : (` + tT + `) ->
}`,
			a: "cf.yield reads an alias of the copy in another block",
			b: "cf.yield reads an alias of the copy and is not",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := parse(t, program(tc.body))
			cp := rootCopy(t, p)
			check := func(pattern string, err error, want string) {
				t.Helper()
				switch {
				case want == "" && err != nil:
					t.Errorf("pattern %s: want it to apply, got %v", pattern, err)
				case want != "" && err == nil:
					t.Errorf("pattern %s: applies, want failure %q", pattern, want)
				case want != "" && !strings.Contains(err.Error(), want):
					t.Errorf("pattern %s: got %q, want a reason containing %q", pattern, err, want)
				}
			}
			check("A", rules.AnalyzeBlockSlice(cp), tc.a)
			check("B", rules.AnalyzeViewSubgraph(cp), tc.b)
		})
	}
}

// TestMaximizeValueSemanticsFixpoint runs the pass directly on every golden input: the result verifies and a
// second run changes nothing.
func TestMaximizeValueSemanticsFixpoint(t *testing.T) {
	files, err := drrtest.Files(valueSemanticsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var src string
			for _, sec := range txtar.Parse(data).Files {
				if sec.Name == "input.pir" {
					src = string(sec.Data)
				}
			}
			p := parse(t, src)
			if _, err := rules.WrapValueSemantics(p, ir.NewRewriter(p.Ctx, nil)); err != nil {
				t.Fatal(err)
			}
			if _, err := rules.MaximizeValueSemantics(p, ir.NewRewriter(p.Ctx, nil)); err != nil {
				t.Fatal(err)
			}
			if ds := ir.Verify(p).Errors(); len(ds) > 0 {
				t.Fatalf("does not verify after the pass:\n%s", ds.Error())
			}
			n, err := rules.MaximizeValueSemantics(p, ir.NewRewriter(p.Ctx, nil))
			if err != nil || n != 0 {
				t.Errorf("second run: %d changes, %v; want none", n, err)
			}
		})
	}
}
