package cost

import (
	"fmt"
	"strings"
)

// matmulFamily holds the matrix products and the fused ops built around one: 2·M·N·K operations for an [M, K] ×
// [K, N] product (a multiply and an add per term), times the batch the result's leading dims hold (broadcast
// included), the operands read once and the result written once, on the matrix units. Transposes (transpose_x,
// trans_y, …) only change which dim is K. A fused op adds its epilogue per output element: a bias 1, an activation
// its element-wise count, a residual add 1, a layer norm 8 (fused_fc_elementwise_layernorm), dequantizing a weight
// 1 per weight element (weight_only_linear). einsum counts 2 operations per point of the iteration space of all
// its subscripts (one operand: 1).
var matmulFamily = family{
	name: "matmul",
	doc:  "matrix products and fused GEMMs: 2·M·N·K per product plus the epilogue per output element",
	ops: map[string]formula{
		"pd_op.matmul":                         matmul("transpose_x"),
		"pd_op.legacy_matmul":                  matmul("transpose_x"),
		"pd_op.fused_gemm_epilogue":            gemmEpilogue,
		"pd_op.bmm":                            matmul(""),
		"pd_op.addmm":                          addmm,
		"pd_op.dot":                            dot,
		"pd_op.mv":                             dot,
		"pd_op.matmul_grad":                    matmulGrad,
		"pd_op.matmul_with_flatten":            matmulWithFlatten,
		"pd_op.fc":                             fc,
		"pd_op.fused_fc_elementwise_layernorm": fcElementwiseLayerNorm,
		"pd_op.batch_fc":                       batchFC,
		"pd_op.bilinear":                       bilinear,
		"pd_op.weight_only_linear":             weightOnlyLinear,
		"pd_op.llm_int8_linear":                weightOnlyLinear,
		"pd_op.multi_dot":                      multiDot,
		"pd_op.kron":                           elementwise(1),
		"pd_op.einsum":                         einsum,
	},
}

// gemm returns the work of a product with output shape out and contraction length k, operands read whole.
func gemm(v *opView, out shape, k int64) Work {
	return Work{FLOPs: 2 * out.elems() * k, Read: v.readAll(), Written: v.writeAll(), Kernels: 1, Unit: Matrix,
		DType: computeType(v)}
}

// contraction returns x's contraction length: its only dim for a vector, else its last (second last when
// transposed).
func contraction(x shape, transposed bool) int64 {
	if x.rank() == 1 {
		return x.dims[0]
	}
	if transposed {
		return x.dim(-2)
	}
	return x.dim(-1)
}

// matmul is x·y with operand 0 transposed when the attribute transAttr is set ("" for never).
func matmul(transAttr string) formula {
	return func(v *opView) (Work, error) {
		x, err := v.mustIn(0)
		if err != nil {
			return Work{}, err
		}
		out, err := v.mustOut(0)
		if err != nil {
			return Work{}, err
		}
		return gemm(v, out, contraction(x, transAttr != "" && v.bool(transAttr))), nil
	}
}

// gemmEpilogue is fused_gemm_epilogue: act(x·y + bias).
func gemmEpilogue(v *opView) (Work, error) {
	w, err := matmul("trans_x")(v)
	if err != nil {
		return w, err
	}
	act, err := activationOps(v.str("activation"))
	if err != nil {
		return w, err
	}
	out, _ := v.mustOut(0)
	w.FLOPs += (1 + act) * out.elems()
	return w, nil
}

// addmm is beta·input + alpha·x·y.
func addmm(v *opView) (Work, error) {
	x, err := v.mustIn(1)
	if err != nil {
		return Work{}, err
	}
	out, err := v.mustOut(0)
	if err != nil {
		return Work{}, err
	}
	w := gemm(v, out, x.dim(-1))
	w.FLOPs += 3 * out.elems()
	return w, nil
}

// dot is a row-wise dot product (dot) or a matrix-vector product (mv): 2 operations per element of x.
func dot(v *opView) (Work, error) {
	x, err := v.mustIn(0)
	if err != nil {
		return Work{}, err
	}
	return Work{FLOPs: 2 * x.elems(), Read: v.readAll(), Written: v.writeAll(), Kernels: 1, Unit: Matrix, DType: x.dt}, nil
}

// matmulGrad computes both gradients of x·y: two products of the output gradient's size.
func matmulGrad(v *opView) (Work, error) {
	x, err := v.mustIn(0)
	if err != nil {
		return Work{}, err
	}
	g, err := v.mustIn(2)
	if err != nil {
		return Work{}, err
	}
	w := gemm(v, g, contraction(x, v.bool("transpose_x")))
	w.FLOPs *= 2
	return w, nil
}

// flatten2 returns the product of the dims before and from num_col_dims.
func flatten2(s shape, numColDims int64) (rows, cols int64, err error) {
	if numColDims < 1 || int(numColDims) > s.rank() {
		return 0, 0, fmt.Errorf("num_col_dims %d out of range for rank %d", numColDims, s.rank())
	}
	rows, cols = 1, 1
	for i, d := range s.dims {
		if int64(i) < numColDims {
			rows *= d
		} else {
			cols *= d
		}
	}
	return rows, cols, nil
}

// matmulWithFlatten flattens x at x_num_col_dims into [M, K].
func matmulWithFlatten(v *opView) (Work, error) {
	x, err := v.mustIn(0)
	if err != nil {
		return Work{}, err
	}
	out, err := v.mustOut(0)
	if err != nil {
		return Work{}, err
	}
	_, k, err := flatten2(x, v.int("x_num_col_dims", 1))
	if err != nil {
		return Work{}, err
	}
	return gemm(v, out, k), nil
}

// fc is act(flatten(input)·w + bias): input flattened at in_num_col_dims into [M, K]; w is [K, N], 4 larger in each
// dim with padding_weights.
func fc(v *opView) (Work, error) {
	in, err := v.mustIn(0)
	if err != nil {
		return Work{}, err
	}
	out, err := v.mustOut(0)
	if err != nil {
		return Work{}, err
	}
	_, k, err := flatten2(in, v.int("in_num_col_dims", 1))
	if err != nil {
		return Work{}, err
	}
	w := gemm(v, out, k)
	if _, ok := v.in(2); ok {
		w.FLOPs += out.elems()
	}
	act, err := activationOps(v.str("activation_type"))
	if err != nil {
		return w, err
	}
	w.FLOPs += act * out.elems()
	return w, nil
}

// fcElementwiseLayerNorm is layer_norm(act(x·w + bias0) + y) with scale and bias1.
func fcElementwiseLayerNorm(v *opView) (Work, error) {
	x, err := v.mustIn(0)
	if err != nil {
		return Work{}, err
	}
	out, err := v.mustOut(0)
	if err != nil {
		return Work{}, err
	}
	_, k, err := flatten2(x, v.int("x_num_col_dims", 1))
	if err != nil {
		return Work{}, err
	}
	w := gemm(v, out, k)
	act, err := activationOps(v.str("activation_type"))
	if err != nil {
		return w, err
	}
	per := act + 1 + layerNormOps // residual add, then the norm
	if _, ok := v.in(3); ok {
		per++ // bias0
	}
	w.FLOPs += per * out.elems()
	return w, nil
}

// batchFC is a batch of fc layers: input [S, B, K], w [S, K, N], bias [S, N].
func batchFC(v *opView) (Work, error) {
	in, err := v.mustIn(0)
	if err != nil {
		return Work{}, err
	}
	out, err := v.mustOut(0)
	if err != nil {
		return Work{}, err
	}
	w := gemm(v, out, in.dim(-1))
	w.FLOPs += out.elems()
	return w, nil
}

// bilinear is out[b, o] = x[b]ᵀ·W[o]·y[b] + bias[o]: x [B, M], y [B, N], weight [O, M, N].
func bilinear(v *opView) (Work, error) {
	wt, err := v.mustIn(2)
	if err != nil {
		return Work{}, err
	}
	out, err := v.mustOut(0)
	if err != nil {
		return Work{}, err
	}
	w := Work{FLOPs: 2 * out.elems() * wt.dim(1) * wt.dim(2), Read: v.readAll(), Written: v.writeAll(), Kernels: 1,
		Unit: Matrix, DType: wt.dt}
	if _, ok := v.in(3); ok {
		w.FLOPs += out.elems()
	}
	return w, nil
}

// weightOnlyLinear is x·dequant(weight)ᵀ + bias with an int8 or int4 weight [N, K] and its scales: the product,
// the bias, and one operation per weight element to dequantize it.
func weightOnlyLinear(v *opView) (Work, error) {
	x, err := v.mustIn(0)
	if err != nil {
		return Work{}, err
	}
	wt, err := v.mustIn(1)
	if err != nil {
		return Work{}, err
	}
	out, err := v.mustOut(0)
	if err != nil {
		return Work{}, err
	}
	w := gemm(v, out, x.dim(-1))
	w.DType = x.dt
	w.FLOPs += wt.elems()
	if _, ok := v.in(2); ok {
		w.FLOPs += out.elems()
	}
	return w, nil
}

// multiDot multiplies its matrices left to right: 2·m·k·n per step.
func multiDot(v *opView) (Work, error) {
	ms := v.inList(0)
	if len(ms) < 2 {
		return Work{}, fmt.Errorf("multi_dot of %d matrices", len(ms))
	}
	flops := int64(0)
	rows := ms[0].dim(0)
	if ms[0].rank() == 1 {
		rows = 1
	}
	for _, m := range ms[1:] {
		k, n := m.dim(0), m.dim(-1)
		if m.rank() == 1 {
			n = 1
		}
		flops += 2 * rows * k * n
	}
	return Work{FLOPs: flops, Read: v.readAll(), Written: v.writeAll(), Kernels: 1, Unit: Matrix, DType: ms[0].dt}, nil
}

// einsum counts 2 operations per point of the iteration space of all its subscripts (1 with one operand): the
// product of every subscript's size, "..." standing for the broadcast of the dims it covers.
func einsum(v *opView) (Work, error) {
	eq := strings.ReplaceAll(v.str("equation"), " ", "")
	lhs, _, _ := strings.Cut(eq, "->")
	terms := strings.Split(lhs, ",")
	ops := v.inList(0)
	if len(terms) != len(ops) || len(ops) == 0 {
		return Work{}, fmt.Errorf("equation %q has %d operands, the op %d", eq, len(terms), len(ops))
	}
	size := map[rune]int64{}
	var ellipsis []int64 // broadcast over operands, aligned right
	for i, t := range terms {
		s := ops[i]
		letters := strings.Replace(t, "...", "", 1)
		ell := s.rank() - len(letters)
		if ell < 0 || ell > 0 && !strings.Contains(t, "...") {
			return Work{}, fmt.Errorf("subscripts %q do not fit operand %d of rank %d", t, i, s.rank())
		}
		dim := 0
		for j := 0; j < len(t); j++ {
			if strings.HasPrefix(t[j:], "...") {
				dims := s.dims[dim : dim+ell]
				for len(ellipsis) < len(dims) {
					ellipsis = append([]int64{1}, ellipsis...)
				}
				off := len(ellipsis) - len(dims)
				for k, d := range dims {
					ellipsis[off+k] = max(ellipsis[off+k], d)
				}
				dim += ell
				j += 2
				continue
			}
			size[rune(t[j])] = max(size[rune(t[j])], s.dims[dim])
			dim++
		}
	}
	space := int64(1)
	for _, d := range size {
		space *= d
	}
	for _, d := range ellipsis {
		space *= d
	}
	w := Work{FLOPs: space, Read: v.readAll(), Written: v.valueBytes(v.op.Result(0)), Kernels: 1, Unit: Vector, DType: ops[0].dt}
	if len(ops) > 1 {
		w.FLOPs = 2 * int64(len(ops)-1) * space
		w.Unit = Matrix
	}
	return w, nil
}
