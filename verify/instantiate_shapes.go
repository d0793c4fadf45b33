package verify

import (
	"strings"

	"github.com/pirdrr/drr/ir"
)

// Operand recipes of Instantiate: the shapes (and constants) proposed for the operands of a pattern op that no
// earlier pattern op determines.

// The default sizes of proposed tensors: batch, channels, height, width. They differ from each other so that a
// rewrite confusing two axes fails to type-check or changes the numbers, instead of agreeing by accident.
const (
	instN    = 2
	instC    = 3
	instH    = 6
	instW    = 7
	instCout = 4
)

// operandPlan says how to make one operand.
type operandPlan struct {
	null     bool
	dims     []int64
	dtype    ir.DType
	spelling string // ir.ValueTensor for value-tensor operands; "" for builtin.tensor
	// Constant operands (mutable-attribute slots): a full_int_array of ints, or a one-element full of scalar.
	ints     []int64
	isInts   bool
	scalar   float64
	isScalar bool
	// data, when set, makes a constant tensor of dims and dtype holding these values (pd_op.assign_value): index
	// operands that must hold valid indices.
	data []float64
	// elems, when set, makes a vector operand (builtin.combine) of these plans.
	elems []operandPlan
}

func (p operandPlan) constant() bool {
	return p.isInts || p.isScalar || p.data != nil || p.elems != nil
}

func tensorPlan(dt ir.DType, dims ...int64) operandPlan {
	return operandPlan{dims: dims, dtype: dt}
}

// attrOf returns an attribute of a list, or nil.
func attrOf(attrs []ir.NamedAttr, name string) ir.Attribute {
	for _, a := range attrs {
		if a.Name == name {
			return a.Value
		}
	}
	return nil
}

// opDType is the element type of proposed tensors for an op: booleans for logical ops, integers for bitwise ops,
// float32 otherwise.
func opDType(name string) ir.DType {
	base := strings.TrimPrefix(ir.NonInplaceName(name), "pd_op.")
	switch {
	case strings.HasPrefix(base, "logical_"):
		return ir.DTypeBool
	case strings.HasPrefix(base, "bitwise_"):
		return ir.DTypeInt32
	}
	return ir.DTypeFloat32
}

// channelAxis is the channel axis of a rank-4 tensor in a data format.
func channelAxis(format string) int {
	if format == "NHWC" {
		return 3
	}
	return 1
}

// imageDims returns [N, C, H, W] in the layout of format.
func imageDims(format string, n, c, h, w int64) []int64 {
	if format == "NHWC" {
		return []int64{n, h, w, c}
	}
	return []int64{n, c, h, w}
}

// proposeOperands returns alternative plans for the operands of an op of schema s with the given attributes, one
// plan per operand; known[j] != nil marks operands already determined (their plans are ignored).
func proposeOperands(ctx *ir.Context, s *ir.OpSchema, attrs []ir.NamedAttr, known []*ir.Value) [][]operandPlan {
	n := len(s.Operands)
	knownT := make([]*ir.TensorType, n)
	for j, v := range known {
		if v != nil {
			knownT[j] = ir.TensorOf(v.Type())
		}
	}
	base := ir.NonInplaceName(s.Name)
	format, _ := ir.AsString(attrOf(attrs, "data_format"))
	switch base {
	case "pd_op.conv2d", "pd_op.depthwise_conv2d", "pd_op.fused_conv2d_add_act":
		return convPlans(s, base, format, attrs, knownT)
	case "pd_op.batch_norm", "pd_op.sync_batch_norm", "pd_op.group_norm", "pd_op.instance_norm":
		return batchNormPlans(s, format, knownT)
	}
	if plans := attrPlans(s, base, attrs, knownT); plans != nil {
		return plans
	}
	if r := opRecipes[base]; r != nil && len(s.Operands) > 0 {
		if plans := r(knownT); len(plans) > 0 && len(plans[0]) == len(s.Operands) {
			return plans
		}
	}
	alts := genericPlans(s, base, knownT, known)
	dims := []int64{instN, instC, instH, instW}
	for j, k := range knownT {
		if k != nil && k.Static() && s.Operands[j].Mutable == ir.KindAny {
			dims = k.Dims
			break
		}
	}
	alts = append(alts, shapeAlternatives(base, alts[0], dims)...)
	if compareOps[strings.TrimPrefix(base, "pd_op.")] {
		// Comparisons of booleans keep the boolean type (same_type of operand and result).
		for _, alt := range append([][]operandPlan(nil), alts...) {
			b := append([]operandPlan(nil), alt...)
			for j := range b {
				if !b[j].constant() {
					b[j].dtype = ir.DTypeBool
				}
			}
			alts = append(alts, b)
		}
	}
	return alts
}

// compareOps are the comparison ops (boolean results).
var compareOps = map[string]bool{"equal": true, "not_equal": true, "less_than": true, "less_equal": true,
	"greater_than": true, "greater_equal": true}

// convPlans: input [N, C, H, W] (or NHWC), filter [Cout, C/groups, 3, 3]; depthwise convolutions have C = groups;
// the fused op's bias is [Cout] and its residual the output's shape. When neither input nor filter is known, a
// second plan has 8 input and output channels per group (the alignment the cutlass kernels require,
// CUTLASS_NHWC_ALIGNMENT), for rules that ask channels to be multiples of 8, and a conv2d with groups > 1 a third,
// depthwise (one channel per group, as the cutlass depthwise rules ask).
func convPlans(s *ir.OpSchema, base, format string, attrs []ir.NamedAttr, known []*ir.TensorType) [][]operandPlan {
	plans := [][]operandPlan{convPlan(s, base, format, attrs, known, 1)}
	if known[0] == nil && known[1] == nil {
		plans = append(plans, convPlan(s, base, format, attrs, known, 8))
		if g, ok := ir.AsInt(attrOf(attrs, "groups")); ok && g > 1 && base == "pd_op.conv2d" {
			plans = append(plans, convPlan(s, base, format, attrs, known, 0))
		}
	}
	return plans
}

// convPlan is one plan of convPlans, with the default channel counts per group multiplied by align (align 0: one
// channel per group, a depthwise convolution).
func convPlan(s *ir.OpSchema, base, format string, attrs []ir.NamedAttr, known []*ir.TensorType, align int64) []operandPlan {
	g := int64(1)
	if v, ok := ir.AsInt(attrOf(attrs, "groups")); ok && v > 1 {
		g = v
	}
	cin := int64(instC)
	if g > 1 {
		cin = 2 * g
	}
	if align > 1 {
		cin = align * g
	}
	if base == "pd_op.depthwise_conv2d" || align == 0 {
		cin = g
	}
	dt := ir.DTypeFloat32
	if x := known[0]; x != nil && x.Rank() == 4 {
		cin = x.Dims[channelAxis(format)]
		dt = x.DType()
	}
	cout := int64(instCout)
	if g > 1 {
		cout = 2 * g
	}
	if align > 1 {
		cout = align * g
	}
	if base == "pd_op.depthwise_conv2d" || align == 0 {
		cout = cin
	}
	if w := known[1]; w != nil && w.Rank() == 4 {
		cout = w.Dims[0]
	}
	kin := cin
	if g > 0 && cin%g == 0 {
		kin = cin / g
	}
	plan := make([]operandPlan, len(s.Operands))
	plan[0] = tensorPlan(dt, imageDims(format, instN, cin, instH, instW)...)
	plan[1] = tensorPlan(dt, cout, kin, 3, 3)
	if len(plan) > 2 {
		plan[2] = tensorPlan(dt, cout)
	}
	if len(plan) > 3 {
		// The residual has the output's shape: 3×3 filter, so H−2 × W−2 with the default attributes; other
		// attributes make the build fail and the search move on.
		plan[3] = tensorPlan(dt, imageDims(format, instN, cout, instH-2, instW-2)...)
	}
	return plan
}

// batchNormPlans: x [N, C, H, W] (or NHWC), statistics, scale and bias [C] on x's channel axis (batch_norm;
// group_norm and instance_norm have scale and bias only).
func batchNormPlans(s *ir.OpSchema, format string, known []*ir.TensorType) [][]operandPlan {
	c := int64(instCout)
	x := tensorPlan(ir.DTypeFloat32, imageDims(format, instN, c, instH, instW)...)
	if k := known[0]; k != nil && k.Rank() >= 2 {
		axis := 1
		if format == "NHWC" {
			axis = k.Rank() - 1
		}
		c = k.Dims[axis]
	}
	plan := make([]operandPlan, len(s.Operands))
	plan[0] = x
	for j := 1; j < len(plan); j++ {
		plan[j] = tensorPlan(ir.DTypeFloat32, c)
	}
	return [][]operandPlan{plan}
}

// genericPlans: every tensor operand gets the shape of the first known tensor operand (or [N, C, H, W]); ops with
// several tensor operands also get the alternatives where the unknown ones, but the first, are per-channel
// broadcasts of it ([1, C, 1, 1] and [1, 1, 1, C], the channel axis of the known operand's producer first);
// constants for the mutable-attribute operands.
func genericPlans(s *ir.OpSchema, base string, known []*ir.TensorType, knownV []*ir.Value) [][]operandPlan {
	n := len(s.Operands)
	dims := []int64{instN, instC, instH, instW}
	dt := opDType(base)
	haveKnown := false
	axes := []int{1, -1}
	for j, k := range known {
		// A mutable-attribute operand (scale's scale, a pd_op.full the pattern builds) says nothing of the shape.
		if k != nil && k.Static() && s.Operands[j].Mutable == ir.KindAny {
			dims, dt, haveKnown = k.Dims, k.DType(), true
			// A per-channel broadcast along the channel axis of the producer's layout comes first.
			if d := knownV[j].DefiningOp(); d != nil {
				if f, _ := ir.AsString(d.Attr("data_format")); f == "NHWC" {
					axes = []int{-1, 1}
				}
			}
			break
		}
	}
	spelling := ""
	switch base {
	case "pd_op.to_tensor":
		spelling = ir.ValueTensor
	case "pd_op.squeeze":
		if !haveKnown {
			dims = []int64{instN, 1, instH, instW}
		}
	case "pd_op.matmul":
		if !haveKnown {
			return [][]operandPlan{{tensorPlan(dt, instN, instC, instH), tensorPlan(dt, instN, instH, instW)}}
		}
	}
	plan := make([]operandPlan, n)
	tensors := 0
	for j, o := range s.Operands {
		switch o.Mutable {
		case ir.KindIntArray:
			plan[j] = operandPlan{isInts: true, ints: intArrayOperand(base, o.Name, dims)}
		case ir.KindScalar:
			plan[j] = operandPlan{isScalar: true, scalar: scalarOperand(base, o.Name)}
		default:
			plan[j] = operandPlan{dims: dims, dtype: dt, spelling: spelling}
			tensors++
		}
	}
	alts := [][]operandPlan{plan}
	if tensors < 2 || len(dims) < 2 {
		return alts
	}
	// The reference operand keeps the shape: the known one, else the first tensor operand.
	ref := -1
	for j := range plan {
		if known[j] != nil || ref < 0 && !plan[j].constant() {
			ref = j
			if known[j] != nil {
				break
			}
		}
	}
	for _, axis := range axes {
		if axis < 0 {
			axis += len(dims)
		}
		b := make([]int64, len(dims))
		for i := range b {
			b[i] = 1
		}
		b[axis] = dims[axis]
		alt := append([]operandPlan(nil), plan...)
		for j := range alt {
			if j != ref && known[j] == nil && !alt[j].constant() {
				alt[j].dims = b
			}
		}
		alts = append(alts, alt)
	}
	return alts
}

// intArrayOperand is the value of an IntArray operand (reshape's shape, squeeze's axis, …) for an input of dims.
func intArrayOperand(base, operand string, dims []int64) []int64 {
	switch base {
	case "pd_op.reshape":
		if len(dims) > 0 {
			return []int64{dims[0], -1}
		}
		return []int64{-1}
	case "pd_op.squeeze", "pd_op.unsqueeze":
		return []int64{1}
	case "pd_op.pool2d":
		return []int64{2, 2}
	case "pd_op.sum", "pd_op.mean", "pd_op.max", "pd_op.min":
		return []int64{1}
	}
	return []int64{}
}

// scalarOperand is the value of a Scalar operand (scale's scale, clip's bounds, pow's exponent, …); integer
// arguments (axes, counts) get 1.
func scalarOperand(base, operand string) float64 {
	switch operand {
	case "axis", "k", "num_classes", "num_samples", "number", "index":
		return 1
	}
	switch base + "." + operand {
	case "pd_op.clip.min":
		return -0.5
	case "pd_op.clip.max":
		return 0.5
	case "pd_op.pow.y":
		return 2
	case "pd_op.scale.scale":
		return 2
	}
	return 1.5
}
