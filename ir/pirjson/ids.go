package pirjson

import (
	"strconv"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// Dialect ids of Paddle's DialectIdMap (paddle/fluid/pir/serialize_deserialize/src/schema.cc). Op, type and
// attribute ids of these dialects are written "<id>.<name>"; other dialects are written with their full name.
var dialectIDs = map[string]string{
	"builtin":   "0",
	"pd_op":     "1",
	"cf":        "2",
	"custom_op": "3",
	"pd_dist":   "4",
}

var dialectByID = func() map[string]string {
	m := make(map[string]string, len(dialectIDs))
	for name, id := range dialectIDs {
		m[id] = name
	}
	return m
}()

// paramOpID is the compressed id of builtin.parameter.
const paramOpID = "p"

// nullID is the id of the null type and the null attribute.
const nullID = "NULL"

// Reserved attribute names this package stores in the IR so that what a file said survives conversions (see the
// package documentation).
const (
	// omitAttr marks a builtin.parameter read from a "p" that had no "DA" and/or "QA" key; its value is an array
	// of the omitted keys ("DA", "QA").
	omitAttr = "pirjson_omit"
	// kwargsAttr records the keyword arguments of the blocks of an op's regions (of the module op for the program
	// body): an array with one entry per block (regions in order, blocks in order), each an array of the keys of
	// the block's trailing arguments that are keyword arguments.
	kwargsAttr = "pirjson_kwargs"
)

// splitID splits a compressed id ("1.conv2d", "0.t_f32") at its first dot and resolves the dialect: a numeric
// prefix must be a known dialect id, other prefixes are dialect names. known is false for an unknown numeric id.
func splitID(id string) (dialect, name string, numeric, known bool) {
	i := strings.IndexByte(id, '.')
	if i <= 0 {
		return "", id, false, true
	}
	prefix := id[:i]
	if isNumericID(prefix) {
		d, ok := dialectByID[prefix]
		return d, id[i+1:], true, ok
	}
	return prefix, id[i+1:], false, true
}

// isNumericID reports whether s is a (possibly negative) decimal integer, the form of dialect ids.
func isNumericID(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// compressName returns the JSON id of a full op name ("pd_op.conv2d" → "1.conv2d"); names of dialects without an
// id and names without a dialect are returned unchanged.
func compressName(full string) string {
	d, rest := ir.SplitOpName(full)
	if id, ok := dialectIDs[d]; ok {
		return id + "." + rest
	}
	return full
}

// Type ids (the name part; the dialect prefix is added when writing).
const (
	tDenseTensor  = "t_dtensor"
	tValueTensor  = "t_vtensor" // our extension, in pd_op: a pd_op.v_tensor with the dense tensor payload
	tVector       = "t_vec"
	tTensorArray  = "t_dense_tensor_array"
	tSelectedRows = "t_selected_rows"
	tSparseCOO    = "t_sparse_coo_tensor"
	tSparseCSR    = "t_sparse_csr_tensor"
	tDistTensor   = "t_dist_dtensor"
)

// cfTypes maps the control-flow dialect's type ids to their PIR text (they have no parameters).
var cfTypes = map[string]string{"t_stack": "cf.stack", "t_inlet": "cf.inlet", "t_outlet": "cf.outlet"}

// cfTypeIDs is the inverse of cfTypes.
var cfTypeIDs = map[string]string{"cf.stack": "2.t_stack", "cf.inlet": "2.t_inlet", "cf.outlet": "2.t_outlet"}

// Attribute ids (the name part).
const (
	aBool       = "a_bool"
	aInt32      = "a_i32"
	aInt64      = "a_i64"
	aIndex      = "a_index"
	aFloat      = "a_f32"
	aDouble     = "a_f64"
	aStr        = "a_str"
	aTensorName = "a_tensorname"
	aArray      = "a_array"
	aType       = "a_type"
	aPointer    = "a_pointer" // our extension: Paddle's writer cannot serialize pointers
	aC64        = "a_c64"
	aC128       = "a_c128"
	aIntArray   = "a_intarray"
	aDataType   = "a_dtype"
	aPlace      = "a_place"
	aLayout     = "a_layout"
	aScalar     = "a_scalar"
)

// distAttrs are the pd_dist attribute ids, kept as opaque raw JSON.
var distAttrs = map[string]bool{"a_process_mesh": true, "a_tensor_dist": true, "a_op_dist": true, "a_placements": true}

// Attribute names with a fixed place in PIR JSON.
const (
	attrStopGradient = "stop_gradient"
	attrPersistable  = "persistable"
	attrOpCallstack  = "op_callstack"
	attrOpDistAttr   = "op_dist_attr"
	attrOpRole       = "op_role"
	attrStructName   = "struct_name"
)

// trailingAttrRank ranks the attributes Paddle writes after the yaml attributes of a pd_op op: the dist attributes
// (op_dist_attr, op_role), then the quant attribute (struct_name). It returns -1 for other names.
func trailingAttrRank(name string) int {
	switch name {
	case attrOpDistAttr:
		return 0
	case attrOpRole:
		return 1
	case attrStructName:
		return 2
	}
	return -1
}

// itoa formats an int64.
func itoa(v int64) string { return strconv.FormatInt(v, 10) }
