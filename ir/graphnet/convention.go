package graphnet

import "github.com/pirdrr/drr/ir"

// GraphNet's conventions for writing an op as Python, shared by the reader and the writer.

// The op names with a statement form of their own.
const (
	opCombine      = "builtin.combine"
	opSplit        = "builtin.split"
	opFullIntArray = "pd_op.full_int_array"
	opAssign       = "pd_op.assign"
	opShareData    = "pd_op.share_data_"
	opOneHot       = "pd_op.one_hot"
	opData         = "pd_op.data"
	opFetch        = ir.FetchOpName
	opShadowOutput = ir.ShadowOutputOpName
)

// callAliases are ops GraphNet calls through another paddle._C_ops function: the inplace batch_norm_ through
// batch_norm, whose Python binding returns the same six results.
var callAliases = map[string]string{"pd_op.batch_norm_": "batch_norm"}

// publicCall is an op GraphNet writes as a call of Paddle's public API instead of paddle._C_ops: the function, the
// arguments passed by position, those passed by keyword (as strings, for DataType attributes), and the attributes
// the call implies.
type publicCall struct {
	fn         string
	positional []string
	keywords   []string
	implied    map[string]ir.Place
}

// publicCalls: paddle.arange(start, end, step, dtype="float32") runs pd_op.arange on the expected place.
var publicCalls = map[string]publicCall{
	"pd_op.arange": {fn: "arange", positional: []string{"start", "end", "step"}, keywords: []string{"dtype"},
		implied: map[string]ir.Place{"place": expectedPlace}},
}

// expectedPlace is the place GraphNet writes as paddle.framework._current_expected_place(): the device the program
// runs on, which PIR writes as the undefined place (as Paddle's exported data ops do).
var expectedPlace = ir.Place{Type: ir.PlaceUndefined}

// internalOps are catalog ops that exist only in pirdrr (seed 000's value-semantics conversions): Paddle has no
// paddle._C_ops function for them, so a graph holding them cannot be written.
var internalOps = map[string]bool{"pd_op.to_vtensor": true, "pd_op.to_tensor": true}

// Names GraphNet gives the fetch ops that mark a program's outputs, as Paddle's exporter does.
const fetchNamePrefix = "fetch_name_"

// pythonDTypes maps DTypes to the names of paddle's dtype objects (paddle.float32) and back.
var pythonDTypes = map[ir.DType]string{
	ir.DTypeBool: "bool", ir.DTypeUint8: "uint8", ir.DTypeInt8: "int8", ir.DTypeInt16: "int16",
	ir.DTypeInt32: "int32", ir.DTypeInt64: "int64", ir.DTypeFloat16: "float16", ir.DTypeBFloat16: "bfloat16",
	ir.DTypeFloat32: "float32", ir.DTypeFloat64: "float64", ir.DTypeComplex64: "complex64",
	ir.DTypeComplex128: "complex128", ir.DTypeUint16: "uint16", ir.DTypeUint32: "uint32", ir.DTypeUint64: "uint64",
	ir.DTypeFloat8E4M3FN: "float8_e4m3fn", ir.DTypeFloat8E5M2: "float8_e5m2",
}

var pythonDTypeByName = func() map[string]ir.DType {
	m := map[string]ir.DType{}
	for d, n := range pythonDTypes {
		m[n] = d
	}
	return m
}()
