package ir

import (
	"fmt"
	"slices"
	"strings"
)

// Result-type rules of matrix products and linear algebra, after Paddle's MatmulInferMeta and the InferMeta
// functions each rule names.

func inferMatmul(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, y := ts[0], ts[1]
	tx, _ := AsBool(in.Attr("transpose_x"))
	ty, _ := AsBool(in.Attr("transpose_y"))
	xd, yd := append([]int64(nil), x.Dims...), append([]int64(nil), y.Dims...)
	if len(xd) == 0 || len(yd) == 0 {
		return nil, fmt.Errorf("matmul operands must have rank >= 1")
	}
	xVec, yVec := len(xd) == 1, len(yd) == 1
	if xVec {
		xd = []int64{1, xd[0]}
		tx = false
	}
	if yVec {
		yd = []int64{yd[0], 1}
		ty = false
	}
	if tx {
		xd[len(xd)-1], xd[len(xd)-2] = xd[len(xd)-2], xd[len(xd)-1]
	}
	if ty {
		yd[len(yd)-1], yd[len(yd)-2] = yd[len(yd)-2], yd[len(yd)-1]
	}
	m, k1 := xd[len(xd)-2], xd[len(xd)-1]
	k2, n := yd[len(yd)-2], yd[len(yd)-1]
	if k1 >= 0 && k2 >= 0 && k1 != k2 {
		return nil, fmt.Errorf("matmul inner dimensions %d and %d differ", k1, k2)
	}
	batch, err := BroadcastDims(xd[:len(xd)-2], yd[:len(yd)-2])
	if err != nil {
		return nil, err
	}
	dims := batch
	if !xVec {
		dims = append(dims, m)
	}
	if !yVec {
		dims = append(dims, n)
	}
	return fillResults(c, in.Schema, []Type{c.WithDims(x, dims)}), nil
}

// matrixOf checks that t is a (batch of) matrices and returns its batch dims, rows and columns.
func matrixOf(t *TensorType, what string) (batch []int64, m, n int64, err error) {
	if t.Rank() < 2 {
		return nil, 0, 0, fmt.Errorf("%s must have rank 2 or more, has %d", what, t.Rank())
	}
	r := t.Rank()
	return t.Dims[:r-2], t.Dims[r-2], t.Dims[r-1], nil
}

// inferBMM (BmmInferMeta): [B, M, K] × [B, K, N] → [B, M, N].
func inferBMM(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, y := ts[0], ts[1]
	if x.Rank() != 3 || y.Rank() != 3 {
		return nil, fmt.Errorf("x and y must be 3-D, have ranks %d and %d", x.Rank(), y.Rank())
	}
	return []Type{c.WithDims(x, dims(mergeDim(x.Dims[0], y.Dims[0]), x.Dims[1], y.Dims[2]))}, nil
}

// inferAddmm (AddmmInferMeta): input + x·y: [x rows, y columns] in input's element type.
func inferAddmm(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1, 2)
	if err != nil {
		return nil, err
	}
	input, x, y := ts[0], ts[1], ts[2]
	if x.Rank() != 2 || y.Rank() != 2 {
		return nil, fmt.Errorf("x and y must be matrices")
	}
	return []Type{c.WithDims(input, dims(x.Dims[0], y.Dims[1]))}, nil
}

// inferBilinear (BilinearInferMeta): x [B, M], y [B, N] and weight [K, M, N] give [B, K].
func inferBilinear(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 2)
	if err != nil {
		return nil, err
	}
	x, w := ts[0], ts[1]
	if x.Rank() != 2 || w.Rank() != 3 {
		return nil, fmt.Errorf("x must be [B, M] and weight [K, M, N]")
	}
	return []Type{c.WithDims(x, dims(x.Dims[0], w.Dims[0]))}, nil
}

// inferBatchFC (BatchFCInferMeta): input [S, B, I] times w [S, I, O]: [S, B, O].
func inferBatchFC(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, w := ts[0], ts[1]
	if x.Rank() != 3 || w.Rank() != 3 {
		return nil, fmt.Errorf("input must be [S, B, I] and w [S, I, O]")
	}
	return []Type{c.WithDims(x, dims(x.Dims[0], x.Dims[1], w.Dims[2]))}, nil
}

// inferKron (KronInferMeta): the shapes aligned at their last dims (the shorter padded with 1s) and multiplied.
func inferKron(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, y := ts[0], ts[1]
	xd, yd := dims(x.Dims...), dims(y.Dims...)
	for len(xd) < len(yd) {
		xd = append([]int64{1}, xd...)
	}
	for len(yd) < len(xd) {
		yd = append([]int64{1}, yd...)
	}
	d := make([]int64, len(xd))
	for i := range d {
		d[i] = mulDim(xd[i], yd[i])
	}
	return []Type{c.WithDims(x, d)}, nil
}

// inferMV (MvInferMeta): [M, N] times [N]: [M].
func inferMV(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	if x.Rank() != 2 {
		return nil, fmt.Errorf("x must be a matrix, has rank %d", x.Rank())
	}
	return []Type{c.WithDims(x, dims(x.Dims[0]))}, nil
}

// inferMultiDot (MultiDotInferMeta): the chain's first rows and last columns; a 1-D first or last tensor drops its
// side.
func inferMultiDot(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensors(0)
	if err != nil {
		return nil, err
	}
	if len(ts) < 2 {
		return nil, fmt.Errorf("multi_dot needs 2 or more tensors, has %d", len(ts))
	}
	first, last := ts[0], ts[len(ts)-1]
	d := dims()
	if first.Rank() == 2 {
		d = append(d, first.Dims[0])
	}
	if last.Rank() == 2 {
		d = append(d, last.Dims[1])
	}
	return []Type{c.WithDims(first, d)}, nil
}

// inferMatmulWithFlatten (MatmulWithFlattenInferMeta, Paddle's "mul"): x flattened to a matrix after x_num_col_dims
// times y flattened after y_num_col_dims: x's leading dims and y's trailing dims.
func inferMatmulWithFlatten(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, y := ts[0], ts[1]
	xn, yn := in.intAttr("x_num_col_dims", 1), in.intAttr("y_num_col_dims", 1)
	if xn < 1 || int(xn) >= x.Rank()+1 || yn < 1 || int(yn) >= y.Rank() {
		return nil, fmt.Errorf("x_num_col_dims %d and y_num_col_dims %d do not fit ranks %d and %d", xn, yn, x.Rank(), y.Rank())
	}
	return []Type{c.WithDims(x, append(dims(x.Dims[:xn]...), y.Dims[yn:]...))}, nil
}

// inferBatchOf gives the batch dims of a matrix x (0-D for one matrix), in x's element type or in d
// (DeterminantInferMeta: det; MatrixRankInferMeta, which sets no element type: float32).
func inferBatchOf(d DType) InferFunc {
	return func(c *Context, in *InferInput) ([]Type, error) {
		x, err := in.tensor(0)
		if err != nil {
			return nil, err
		}
		batch, _, _, err := matrixOf(x, "x")
		if err != nil {
			return nil, err
		}
		dt := d
		if dt == DTypeUndefined {
			dt = x.DType()
		}
		return []Type{with(c, x, dims(batch...), dt)}, nil
	}
}

// inferSlogdet (SlogdetInferMeta): the sign and the log of |det| stacked: [2, batch…].
func inferSlogdet(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	batch, _, _, err := matrixOf(x, "x")
	if err != nil {
		return nil, err
	}
	return []Type{c.WithDims(x, append(dims(2), batch...))}, nil
}

// inferSVD (SvdInferMeta): u [… M, K], s [… K], vh [… K, N] with K = min(M, N), all in x's element type;
// full_matrices makes u [… M, M] and vh [… N, N].
func inferSVD(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	batch, m, n, err := matrixOf(x, "x")
	if err != nil {
		return nil, err
	}
	k := minDim(m, n)
	uc, vr := k, k
	if in.boolAttr("full_matrices") {
		uc, vr = m, n
	}
	b := func(ds ...int64) []int64 { return append(dims(batch...), ds...) }
	return []Type{c.WithDims(x, b(m, uc)), c.WithDims(x, b(k)), c.WithDims(x, b(vr, n))}, nil
}

// minDim is the smaller of two sizes, unknown when either is.
func minDim(a, b int64) int64 {
	if a < 0 || b < 0 {
		return Dynamic
	}
	return min(a, b)
}

// inferQR (QrInferMeta): mode "reduced" gives q [… M, K] and r [… K, N] with K = min(M, N); "complete" q [… M, M]
// and r [… M, N]; "r" an empty q ([0]).
func inferQR(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	batch, m, n, err := matrixOf(x, "x")
	if err != nil {
		return nil, err
	}
	mode := in.strAttr("mode", "reduced")
	k := minDim(m, n)
	if mode == "complete" {
		k = m
	}
	b := func(ds ...int64) []int64 { return append(dims(batch...), ds...) }
	q := c.WithDims(x, b(m, k))
	if mode == "r" {
		q = c.WithDims(x, dims(0))
	}
	return []Type{q, c.WithDims(x, b(k, n))}, nil
}

// inferEig (EigInferMeta, EigvalsInferMeta, EighInferMeta, EigvalshInferMeta): the eigenvalues [… N] and, for the
// two-result ops, the eigenvectors [… N, N]. complexResult gives complex results (eig, eigvals); the Hermitian
// forms give real eigenvalues and eigenvectors in x's element type (vectorsOfX).
func inferEig(complexResult, vectorsOfX bool) InferFunc {
	return func(c *Context, in *InferInput) ([]Type, error) {
		x, err := in.tensor(0)
		if err != nil {
			return nil, err
		}
		batch, _, n, err := matrixOf(x, "x")
		if err != nil {
			return nil, err
		}
		wd, vd := toReal(x.DType()), toReal(x.DType())
		if complexResult {
			wd, vd = toComplex(x.DType()), toComplex(x.DType())
		} else if vectorsOfX {
			vd = x.DType()
		}
		w := with(c, x, append(dims(batch...), n), wd)
		if len(in.Schema.Results) == 1 {
			return []Type{w}, nil
		}
		return []Type{w, with(c, x, x.Dims, vd)}, nil
	}
}

// inferLU (LUInferMeta): the factors in x's type; int32 pivots [… min(M, N)]; int32 infos, one per matrix (the
// batch dims; 0-D for a single matrix).
func inferLU(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	batch, m, n, err := matrixOf(x, "x")
	if err != nil {
		return nil, err
	}
	infos := dims(batch...)
	return []Type{x, with(c, x, append(dims(batch...), minDim(m, n)), DTypeInt32), with(c, x, infos, DTypeInt32)}, nil
}

// inferLUUnpack (LUUnpackInferMeta): the permutation [… M, M], L [… M, K] and U [… K, N] with K = min(M, N).
func inferLUUnpack(c *Context, in *InferInput) ([]Type, error) {
	x, err := in.tensor(0)
	if err != nil {
		return nil, err
	}
	batch, m, n, err := matrixOf(x, "x")
	if err != nil {
		return nil, err
	}
	k := minDim(m, n)
	b := func(ds ...int64) []int64 { return append(dims(batch...), ds...) }
	return []Type{c.WithDims(x, b(m, m)), c.WithDims(x, b(m, k)), c.WithDims(x, b(k, n))}, nil
}

// inferLstsq (LstsqInferMeta): solution [… N, K] for x [… M, N] and y [… M, K]; residuals [… K]; rank [batch…]
// int32; singular values [… min(M, N)].
func inferLstsq(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, y := ts[0], ts[1]
	batch, m, n, err := matrixOf(x, "x")
	if err != nil {
		return nil, err
	}
	_, _, k, err := matrixOf(y, "y")
	if err != nil {
		return nil, err
	}
	b := func(ds ...int64) []int64 { return append(dims(batch...), ds...) }
	rd := toReal(x.DType())
	return []Type{c.WithDims(x, b(n, k)), with(c, x, b(k), rd), with(c, x, b(), DTypeInt32),
		with(c, x, b(minDim(m, n)), rd)}, nil
}

// inferSolveLike (SolveInferMeta, TriangularSolveInferMeta): for x·out = y, y's matrices with the batch dims of x
// and y broadcast; a vector y stays a vector.
func inferSolveLike(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, y := ts[0], ts[1]
	xb, _, _, err := matrixOf(x, "x")
	if err != nil {
		return nil, err
	}
	if y.Rank() == 1 {
		return []Type{c.WithDims(y, append(dims(xb...), y.Dims[0]))}, nil
	}
	yb, m, n, err := matrixOf(y, "y")
	if err != nil {
		return nil, err
	}
	b, err := BroadcastDims(xb, yb)
	if err != nil {
		return nil, err
	}
	return []Type{c.WithDims(y, append(b, m, n))}, nil
}

// inferMatmulGrad (MatmulGradInferMeta): the gradients have the types of x and y.
func inferMatmulGrad(c *Context, in *InferInput) ([]Type, error) {
	x, y := in.Operand(0), in.Operand(1)
	if x == nil || y == nil {
		return nil, fmt.Errorf("x and y are needed")
	}
	return []Type{x.Type(), y.Type()}, nil
}

// inferEinsum (EinsumRawInferMeta, ParseEinsumEquation): the equation's output labels (or, without "->", the
// ellipsis dims then the labels used once, in alphabetical order) sized from the inputs, a label of size 1
// broadcasting; x's first element type. The inner cache is left unset (unsetMeta), one per input; xshape repeats
// the inputs' types.
func inferEinsum(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensors(0)
	if err != nil {
		return nil, err
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("no operands")
	}
	eq := strings.ReplaceAll(in.strAttr("equation", ""), " ", "")
	lhs, rhs, explicit := strings.Cut(eq, "->")
	terms := strings.Split(lhs, ",")
	if len(terms) != len(ts) {
		return nil, fmt.Errorf("equation %q has %d operands, the op %d", eq, len(terms), len(ts))
	}
	size := map[byte]int64{}
	count := map[byte]int{}
	var ellipsis []int64
	for i, term := range terms {
		labels, hasDots := strings.ReplaceAll(term, "...", ""), strings.Contains(term, "...")
		nDots := ts[i].Rank() - len(labels)
		if nDots < 0 || nDots > 0 && !hasDots {
			return nil, fmt.Errorf("operand %d (%s) does not fit %q", i, ts[i], term)
		}
		pos := 0
		for k := 0; k < len(term); k++ {
			if strings.HasPrefix(term[k:], "...") {
				dd := ts[i].Dims[pos : pos+nDots]
				if ellipsis, err = BroadcastDims(ellipsis, dd); err != nil {
					return nil, err
				}
				pos += nDots
				k += 2
				continue
			}
			l := term[k]
			if !isLabel(l) {
				return nil, fmt.Errorf("equation %q: %q is not a label", eq, l)
			}
			s := ts[i].Dims[pos]
			if old, ok := size[l]; ok {
				b, err := BroadcastDims([]int64{old}, []int64{s})
				if err != nil {
					return nil, fmt.Errorf("label %c has sizes %d and %d", l, old, s)
				}
				s = b[0]
			}
			size[l] = s
			count[l]++
			pos++
		}
	}
	var out []int64
	if explicit {
		for k := 0; k < len(rhs); k++ {
			if strings.HasPrefix(rhs[k:], "...") {
				out = append(out, ellipsis...)
				k += 2
				continue
			}
			s, ok := size[rhs[k]]
			if !ok {
				return nil, fmt.Errorf("equation %q: output label %q is in no operand", eq, rhs[k])
			}
			out = append(out, s)
		}
	} else {
		out = append(out, ellipsis...)
		var once []byte
		for l, n := range count {
			if n == 1 {
				once = append(once, l)
			}
		}
		slices.Sort(once)
		for _, l := range once {
			out = append(out, size[l])
		}
	}
	cache := make([]Type, len(ts))
	shapes := make([]Type, len(ts))
	for i, t := range ts {
		cache[i], shapes[i] = unsetMeta(c), t
	}
	return []Type{c.WithDims(ts[0], dims(out...)), c.Vector(cache...), c.Vector(shapes...)}, nil
}

func isLabel(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// inferCholeskySolve (CholeskySolveInferMeta): the right-hand sides are x, the Cholesky factor y: x's matrices with
// the batch dims of x and y broadcast.
func inferCholeskySolve(c *Context, in *InferInput) ([]Type, error) {
	ts, err := in.tensorsAt(0, 1)
	if err != nil {
		return nil, err
	}
	x, y := ts[0], ts[1]
	xb, m, n, err := matrixOf(x, "x")
	if err != nil {
		return nil, err
	}
	yb, _, _, err := matrixOf(y, "y")
	if err != nil {
		return nil, err
	}
	b, err := BroadcastDims(xb, yb)
	if err != nil {
		return nil, err
	}
	return []Type{c.WithDims(x, append(b, m, n))}, nil
}
