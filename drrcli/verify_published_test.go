package drrcli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// deadParamsProgram returns a program whose n parameters p0, p1, … nothing reads, beside a relu fetched as "out".
func deadParamsProgram(n int) string {
	var b strings.Builder
	b.WriteString("{\n")
	b.WriteString(`    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[2,3],stop_gradient:[true]} : () -> builtin.tensor<2x3xf32>` + "\n")
	for i := range n {
		fmt.Fprintf(&b, `    (%%%d) = "builtin.parameter" () {parameter_name:"p%d"} : () -> builtin.tensor<3xf32>`+"\n", i+1, i)
	}
	fmt.Fprintf(&b, `    (%%%d) = "pd_op.relu" (%%0) {} : (builtin.tensor<2x3xf32>) -> builtin.tensor<2x3xf32>`+"\n", n+1)
	fmt.Fprintf(&b, `    (%%%d) = "pd_op.fetch" (%%%d) {col:(Int32)0,name:"out"} : (builtin.tensor<2x3xf32>) -> builtin.tensor<2x3xf32>`+"\n", n+2, n+1)
	b.WriteString("}\n")
	return b.String()
}

// TestVerifyPublishedParameters: drrc verify of a pipeline that publishes dead parameters passes, and says which
// outputs it did not compare: three names, or every name with -v.
func TestVerifyPublishedParameters(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name  string
		n     int
		flags []string
		want  string
	}{
		{"one", 1, nil, "  not compared: 1 shadow_output(s) publishing a parameter unchanged (no model outputs): p0\n"},
		{"five", 5, nil, "  not compared: 5 shadow_output(s) publishing a parameter unchanged (no model outputs): p0, p1, p2, … 2 more (-v lists them)\n"},
		{"five, verbose", 5, []string{"-v"}, "  not compared: 5 shadow_output(s) publishing a parameter unchanged (no model outputs): p0, p1, p2, p3, p4\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			prog := write(t, dir, fmt.Sprintf("dead%d.pir", tc.n), deadParamsProgram(tc.n))
			args := append([]string{"verify", "-passes", "add_shadow_output_after_dead_parameter", "-runs", "1"}, tc.flags...)
			code, out, errs := run(t, "", append(args, prog)...)
			require.Equal(t, exitOK, code, "%s\n%s", out, errs)
			assert.Contains(t, out, tc.want)
			assert.Contains(t, out, "ok: 1 output(s) agree")
			assert.Contains(t, errs, fmt.Sprintf("add_shadow_output_after_dead_parameter  %d change", tc.n))
		})
	}
}
