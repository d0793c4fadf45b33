package paddle

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

func newContext(t testing.TB) *ir.Context {
	t.Helper()
	ctx := ir.NewContext()
	require.NoError(t, ctx.LoadDefaultDialects())
	return ctx
}

// TestAttrTypeTable checks the table on the attributes whose C++ type is easy to get wrong: full.value is a
// double (the catalog's f64: a Scalar PIR 3.x stores as a DoubleAttribute) with no builder, scale.bias a float,
// IntArray and DataType and Place their phi types, i32[] a std::vector<int32_t>, an i64[] readable but not
// creatable, a Scalar attribute neither.
func TestAttrTypeTable(t *testing.T) {
	ctx := newContext(t)
	tests := []struct {
		op, attr string
		want     CppType
	}{
		{"pd_op.full", "value", CppType{Read: "double", Compute: "double"}},
		{"pd_op.scale", "bias", CppType{Read: "float", Compute: "float", Builder: "Float32Attr"}},
		{"pd_op.full", "shape", CppType{Read: "std::vector<int64_t>", Compute: "std::vector<int64_t>", Builder: "VectorInt64Attr"}},
		{"pd_op.full", "dtype", CppType{Read: "phi::DataType", Compute: "phi::DataType", Builder: "DataTypeAttr"}},
		{"pd_op.full", "place", CppType{Read: "phi::Place", Compute: "phi::Place", Builder: "PlaceAttr"}},
		{"pd_op.transpose", "perm", CppType{Read: "std::vector<int32_t>", Compute: "std::vector<int32_t>", Builder: "VectorInt32Attr"}},
		{"pd_op.full_int_array", "value", CppType{Read: "std::vector<int64_t>"}},
		{"pd_op.matmul", "transpose_x", CppType{Read: "bool", Compute: "bool", Builder: "BoolAttr"}},
		{"pd_op.group_norm", "groups", CppType{Read: "int32_t", Compute: "int32_t", Builder: "Int32Attr"}},
		{"pd_op.dropout", "mode", CppType{Read: "std::string", Compute: "std::string", Builder: "StrAttr"}},
	}
	for _, tt := range tests {
		t.Run(tt.op+"."+tt.attr, func(t *testing.T) {
			at, err := AttrType(ctx, tt.op, tt.attr)
			require.NoError(t, err)
			assert.Equal(t, tt.want, TypeOf(at))
		})
	}
	// A Scalar attribute: Paddle's DRR has no C++ type for it.
	assert.Equal(t, CppType{}, TypeOf(ir.AttrType{Kind: ir.KindScalar}))
	assert.Equal(t, CppType{Builder: "DataLayoutAttr"}, TypeOf(ir.AttrType{Kind: ir.KindDataLayout}))
}

// TestCheckReadWrite: an access of the wrong C++ type is an error naming both types.
func TestCheckReadWrite(t *testing.T) {
	ctx := newContext(t)
	require.NoError(t, CheckRead(ctx, "pd_op.full", "value", "double"))
	err := CheckRead(ctx, "pd_op.full", "value", "float")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "read as double, not float")
	require.NoError(t, CheckWrite(ctx, "pd_op.scale", "bias", "Float32Attr", true))
	require.NoError(t, CheckWrite(ctx, "pd_op.full", "value", "double", false))
	err = CheckWrite(ctx, "pd_op.full", "value", "Float32Attr", true)
	require.Error(t, err, "full.value has no builder: Float32Attr would make a FloatAttribute")
	err = CheckWrite(ctx, "pd_op.full_int_array", "value", "std::vector<int64_t>", false)
	require.Error(t, err, "a std::vector<int64_t> creates an IntArray, not full_int_array's i64[]")
	err = CheckWrite(ctx, "pd_op.transpose", "perm", "std::vector<int64_t>", false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "std::vector<int32_t>")
	_, err = AttrType(ctx, "pd_op.full", "nope")
	require.Error(t, err)
}
