package pirjson

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

// TestAttrNamesInterned: the reader stores the Context's copy of every attribute name (ir.Context.AttrName), so
// that lookups with that copy compare data pointers.
func TestAttrNamesInterned(t *testing.T) {
	src := `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[2],stop_gradient:[true]} : () -> builtin.tensor<2xf32>
    (%1) = "pd_op.relu" (%0) {stop_gradient:[true]} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>
    () = "builtin.shadow_output" (%1) {output_name:"out"} : (builtin.tensor<2xf32>) -> 
}
`
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	p, _, err := pirtext.Parse(ctx, "x.pir", []byte(src), pirtext.ReadOptions{})
	require.NoError(t, err)
	js, err := Marshal(p, WriteOptions{})
	require.NoError(t, err)
	ctx2, err := ir.NewDefaultContext()
	require.NoError(t, err)
	q, err := Read(ctx2, "x.json", js, ReadOptions{})
	require.NoError(t, err)
	n := 0
	for op := range q.Walk() {
		for _, a := range op.Attrs() {
			n++
			assert.Same(t, unsafe.StringData(ctx2.AttrName(a.Name)), unsafe.StringData(a.Name), "%s of %s", a.Name, op.Name())
		}
	}
	assert.GreaterOrEqual(t, n, 7)
}
