package verify

import "github.com/pirdrr/drr/ir"

// Operand recipes that read the op's attributes: the matrix an fc multiplies by depends on in_num_col_dims, a layer
// norm's scale and bias on begin_norm_axis. And the embedding tables, whose indices the interpreter draws from
// {0, …, 7}.

// embedRows is the number of rows of a proposed embedding table: the interpreter's random integers are below it.
const embedRows = 8

// attrPlans proposes the operands of ops whose operand shapes depend on attributes; nil for other ops.
func attrPlans(s *ir.OpSchema, base string, attrs []ir.NamedAttr, known []*ir.TensorType) [][]operandPlan {
	n := len(s.Operands)
	switch base {
	case "pd_op.fc":
		if n != 3 {
			return nil
		}
		k, _ := ir.AsInt(attrOf(attrs, "in_num_col_dims"))
		x := tensorPlan(ir.DTypeFloat32, instN, instC, instH)
		if t := known[0]; t != nil && t.Static() {
			x = tensorPlan(t.DType(), t.Dims...)
		}
		if k < 1 || k >= int64(len(x.dims)) {
			return nil
		}
		rows := prodDims(x.dims[k:])
		cout := int64(instCout)
		return [][]operandPlan{
			{x, tensorPlan(x.dtype, rows, cout), tensorPlan(x.dtype, cout)},
			{x, tensorPlan(x.dtype, rows, cout), tensorPlan(x.dtype, 1, cout)},
		}
	case "pd_op.layer_norm":
		if n != 3 {
			return nil
		}
		b, _ := ir.AsInt(attrOf(attrs, "begin_norm_axis"))
		x := tensorPlan(ir.DTypeFloat32, instN, instC, instH, instW)
		if t := known[0]; t != nil && t.Static() {
			x = tensorPlan(t.DType(), t.Dims...)
		}
		if b < 0 {
			b += int64(len(x.dims))
		}
		if b < 1 || b >= int64(len(x.dims)) {
			return nil
		}
		// Paddle's layer norms of half-precision tensors read float32 scale and bias.
		c := prodDims(x.dims[b:])
		return [][]operandPlan{
			{x, tensorPlan(x.dtype, c), tensorPlan(x.dtype, c)},
			{x, tensorPlan(ir.DTypeFloat32, c), tensorPlan(ir.DTypeFloat32, c)},
		}
	case "pd_op.add_group_norm_silu":
		if n != 4 {
			return nil
		}
		// x and the residual [N, C, H, W] in data_format's layout, with 4 channels so that groups 1 and 2 both
		// divide them; scale and bias [C], of x's type or float32.
		format, _ := ir.AsString(attrOf(attrs, "data_format"))
		x := tensorPlan(ir.DTypeFloat32, imageDims(format, instN, instCout, instH, instW)...)
		if t := known[0]; t != nil && t.Static() {
			x = tensorPlan(t.DType(), t.Dims...)
		}
		if len(x.dims) < 2 {
			return nil
		}
		c := x.dims[1]
		if format == "NHWC" {
			c = x.dims[len(x.dims)-1]
		}
		return [][]operandPlan{
			{x, x, tensorPlan(x.dtype, c), tensorPlan(x.dtype, c)},
			{x, x, tensorPlan(ir.DTypeFloat32, c), tensorPlan(ir.DTypeFloat32, c)},
		}
	case "pd_op.embedding":
		if n != 2 {
			return nil
		}
		return [][]operandPlan{{tensorPlan(ir.DTypeInt64, instN, instC), tensorPlan(ir.DTypeFloat32, embedRows, instW)}}
	}
	return nil
}

// prodDims is the number of elements of a tensor of dims.
func prodDims(dims []int64) int64 {
	n := int64(1)
	for _, d := range dims {
		n *= d
	}
	return n
}
