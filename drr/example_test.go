package drr_test

import (
	"fmt"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr"
)

func ExampleParse() {
	src := []byte(`rule relu_relu {
  match {
    %y = pd_op.relu(pd_op.relu(%x))
  }
  rewrite {
    replace %y with pd_op.relu(%x)
  }
}
`)
	f, err := drr.Parse("example.drr", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	r := f.Rules[0]
	op := r.Match.Stmts[0].Op
	fmt.Println(r.Name.Name, op.Name.Name, op.Pos())
	// Output: relu_relu pd_op.relu example.drr:3:10
}

func ExampleFormat() {
	src := []byte(`rule pasted { match {
    (%2) = "pd_op.relu" (%1) {stop_gradient:[false]} : (builtin.tensor<-1x64xf32>) -> builtin.tensor<-1x64xf32>
  }
  rewrite { replace %2 with %1 } }
`)
	f, _ := drr.Parse("pasted.drr", src)
	fmt.Print(string(drr.Format(f)))
	// Output:
	// rule pasted {
	//   match {
	//     %2 = pd_op.relu(%1) {stop_gradient: [false]} : (builtin.tensor<-1x64xf32>) -> builtin.tensor<-1x64xf32>
	//   }
	//   rewrite {
	//     replace %2 with %1
	//   }
	// }
}

func ExampleDiagnostics_Render() {
	src := []byte("rule r {\n  match {\n    %y = pd_op.conv2d(%x, %w {strides: $s}\n  }\n  rewrite {}\n}\n")
	_, err := drr.Parse("bad.drr", src)
	fmt.Print(err.(diag.Diagnostics).Render(src))
	// Output:
	// bad.drr:3:30: error: expected ')' after operands of pd_op.conv2d, found '{'
	//     %y = pd_op.conv2d(%x, %w {strides: $s}
	//                              ^
}
