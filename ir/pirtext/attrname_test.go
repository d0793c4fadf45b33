package pirtext

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// TestAttrNamesInterned: the reader stores the Context's copy of every attribute name (ir.Context.AttrName), bare
// or quoted, so that lookups with that copy compare data pointers.
func TestAttrNamesInterned(t *testing.T) {
	src := `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[2],stop_gradient:[true]} : () -> builtin.tensor<2xf32>
    (%1) = "my.op" (%0) {"quoted key":1,axis:(Int32)1} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>
}
`
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	p, _, err := Parse(ctx, "x.pir", []byte(src), ReadOptions{})
	require.NoError(t, err)
	n := 0
	for op := range p.Walk() {
		for _, a := range op.Attrs() {
			n++
			assert.Same(t, unsafe.StringData(ctx.AttrName(a.Name)), unsafe.StringData(a.Name), "%s of %s", a.Name, op.Name())
		}
	}
	assert.Equal(t, 7, n)
}
