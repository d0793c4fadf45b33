package kernels_test

import (
	"testing"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/kernels"
)

// FuzzParse: no table text makes the parser panic or loop; what parses, checks a program without panicking.
func FuzzParse(f *testing.F) {
	_, src, err := ir.KernelTableSource("gpu")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(src))
	f.Add("kernels gpu\nop pd_op.fc dtypes(float32) source \"s\"\n require a: $activation_type in [\"\", \"relu\"] && dim(%w, -1) % 8 == 0 \"m {dim(%w, 0)}\"\n")
	f.Add("kernels gpu\nruntime force_backend\nop pd_op.relu source \"s\"\n kernel a if($force_backend == \"gpu\") dtypes(any)\n kernel b dtypes(float16)\n")
	f.Add("kernels cpu\nop pd_op.data instruction \"x\"\n")
	ctx, err := ir.NewDefaultContext()
	if err != nil {
		f.Fatal(err)
	}
	p := parseProgram(f, ctx, "{\n"+
		`    (%0) = "builtin.parameter" () {parameter_name:"x"} : () -> builtin.tensor<4x8xf32>`+"\n"+
		`    (%1) = "builtin.parameter" () {parameter_name:"w"} : () -> builtin.tensor<8x2xf32>`+"\n"+
		`    (%2) = "pd_op.fc" (%0, %1, <<NULL VALUE>>) {activation_type:"relu"} : (builtin.tensor<4x8xf32>, builtin.tensor<8x2xf32>, <<NULL TYPE>>) -> builtin.tensor<4x2xf32>`+"\n"+
		`    (%3) = "pd_op.relu" (%2) {} : (builtin.tensor<4x2xf32>) -> builtin.tensor<4x2xf32>`+"\n}\n")
	f.Fuzz(func(t *testing.T, src string) {
		tab, err := kernels.Parse(ctx, "fuzz.kernels", []byte(src))
		if err != nil {
			return
		}
		for _, target := range []ir.Target{ir.GPU(80), ir.GPU(70), ir.CPU()} {
			kernels.Check(p, tab, target)
		}
	})
}
