package tensor

import (
	"fmt"
	"runtime"
	"slices"
)

// Matmul implements Paddle's matmul (matmul_v2) for inputs of rank >= 1:
//
//   - the last two dimensions are the matrix dimensions, transposed first when
//     transposeX / transposeY is set;
//   - a 1-D x of length K is treated as a 1×K row vector and a 1-D y as a K×1
//     column vector; the transpose flag of a 1-D operand is ignored, and the
//     added dimension is removed from the result (so vector·vector is 0-D);
//   - leading (batch) dimensions broadcast like numpy.
//
// Sums are accumulated in T by a cache-blocked kernel.
func Matmul[T Float](x, y *Tensor[T], transposeX, transposeY bool) (*Tensor[T], error) {
	if err := x.validate("matmul x"); err != nil {
		return nil, err
	}
	if err := y.validate("matmul y"); err != nil {
		return nil, err
	}
	if len(x.Shape) == 0 || len(y.Shape) == 0 {
		return nil, fmt.Errorf("tensor: matmul: inputs must have rank >= 1, got %v and %v", x.Shape, y.Shape)
	}
	xs, ys := x.Shape, y.Shape
	xVec, yVec := len(xs) == 1, len(ys) == 1
	if xVec {
		xs = []int{1, xs[0]}
		transposeX = false
	}
	if yVec {
		ys = []int{ys[0], 1}
		transposeY = false
	}
	xr, xc := xs[len(xs)-2], xs[len(xs)-1]
	yr, yc := ys[len(ys)-2], ys[len(ys)-1]
	m, kx := xr, xc
	if transposeX {
		m, kx = xc, xr
	}
	ky, n := yr, yc
	if transposeY {
		ky, n = yc, yr
	}
	if kx != ky {
		return nil, fmt.Errorf("tensor: matmul: contraction mismatch: x %v (transpose %v) has K=%d, y %v (transpose %v) has K=%d",
			x.Shape, transposeX, kx, y.Shape, transposeY, ky)
	}
	xb, yb := xs[:len(xs)-2], ys[:len(ys)-2]
	batch, err := BroadcastShape(xb, yb)
	if err != nil {
		return nil, fmt.Errorf("tensor: matmul: batch dimensions: %w", err)
	}
	outShape := append([]int{}, batch...)
	if !xVec {
		outShape = append(outShape, m)
	}
	if !yVec {
		outShape = append(outShape, n)
	}
	if err := checkAlloc("matmul", outShape); err != nil {
		return nil, err
	}
	out := newUnchecked[T](outShape)
	nb := 1
	for _, d := range batch {
		nb *= d
	}
	if len(out.Data) == 0 {
		return out, nil
	}
	// Batch strides measured in matrices, 0 on broadcast dimensions.
	bsx := broadcastStrides(xb, batch)
	bsy := broadcastStrides(yb, batch)
	xMat, yMat := xr*xc, yr*yc
	xv := matView[T]{rs: xc, cs: 1}
	if transposeX {
		xv = matView[T]{rs: 1, cs: xc}
	}
	yv := matView[T]{rs: yc, cs: 1}
	if transposeY {
		yv = matView[T]{rs: 1, cs: yc}
	}
	// One matrix y for every batch of a row-major x (a linear layer on [batch…, rows, k] activations): x's
	// batches are the rows of one product, so y is packed once rather than once per batch (ConvNeXt's [1, 56, 56,
	// 128]·[128, 512] packed y 56 times: a sixth of its verify time). Every element is computed by the same
	// operations as per batch: m ≥ gemmFewRows keeps each batch's product on the packed tiles, whose sums do not
	// depend on the rows around them.
	if nb > 1 && !transposeX && !xVec && m >= gemmFewRows && slices.Equal(xb, batch) && len(y.Data) == yMat {
		xv.data, yv.data = x.Data, y.Data
		gemm(nb*m, n, kx, xv, yv, out.Data, n, true)
		return out, nil
	}
	// Batches are independent: split them across goroutines, or, when there are fewer batches than processors,
	// split each matrix product instead.
	inner := nb < runtime.GOMAXPROCS(0)
	run := func(lo, hi int) {
		xv, yv := xv, yv
		for bi := lo; bi < hi; bi++ {
			xo, yo := 0, 0
			rem := bi
			for d := len(batch) - 1; d >= 0; d-- {
				v := rem % batch[d]
				rem /= batch[d]
				xo += v * bsx[d]
				yo += v * bsy[d]
			}
			xv.data = x.Data[xo*xMat : (xo+1)*xMat]
			yv.data = y.Data[yo*yMat : (yo+1)*yMat]
			gemm(m, n, kx, xv, yv, out.Data[bi*m*n:(bi+1)*m*n], n, inner)
		}
	}
	if inner {
		run(0, nb)
	} else {
		ParallelFor(nb, 2*m*n*kx, run)
	}
	return out, nil
}
