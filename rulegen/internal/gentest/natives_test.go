package gentest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drrtest"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rules"
)

// registerNatives registers the natives of testdata/natives.txtar: the constraint wider_than(%v, $n) (the last
// dimension of v is static and larger than n) and the rewrite copy_of(%x) (a pd_op.assign of x).
func registerNatives(t *testing.T, reg *rewriter.Registry) {
	require.NoError(t, reg.RegisterConstraint("wider_than", func(args []any) (bool, error) {
		v, ok := args[0].(*ir.Value)
		n, ok2 := args[1].(int64)
		if !ok || !ok2 || v == nil {
			return false, fmt.Errorf("wider_than: arguments %T, %T", args[0], args[1])
		}
		tt := ir.TensorOf(v.Type())
		if tt == nil || tt.Rank() == 0 {
			return false, nil
		}
		return tt.Dims[tt.Rank()-1] > n, nil
	}))
	require.NoError(t, reg.RegisterRewrite("copy_of", func(rw *ir.Rewriter, args []any) ([]*ir.Value, error) {
		x, ok := args[0].(*ir.Value)
		if !ok {
			return nil, fmt.Errorf("copy_of: argument 1 is %T, not a value", args[0])
		}
		op := rw.Create(ir.OpSpec{Name: "pd_op.assign", Operands: []*ir.Value{x}, Results: []ir.Type{x.Type()}})
		return op.Results(), nil
	}))
}

// TestNatives runs this package's golden archives (natives.txtar) with the interpreted rules, as drrc test does,
// against their expected output; TestArchives compares the generated pass with them.
func TestNatives(t *testing.T) {
	reg := rewriter.NewRegistry()
	require.NoError(t, rules.Register(reg))
	registerNatives(t, reg)
	drrtest.Run(t, "testdata", drrtest.Options{Registry: reg})
}
