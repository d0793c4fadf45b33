package interp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pirdrr/drr/interp/tensor"
)

// einsum: the equation is parsed into one label list per operand and one for the output ("..." stands for the
// broadcast dims, right-aligned); operands are contracted pairwise, left to right, each pair as one batched matrix
// product ([batch, free of x, contracted] × [batch, contracted, free of y]), labels nobody needs later being summed
// first; the result is summed over labels missing from the output and transposed into its order.

// label is one letter of an equation; ellipsis dims get labels past the letters, by position from the right.
type label = rune

const ellipsisBase label = 0x10000

// parseEinsum returns the labels of each operand (of the given ranks) and of the output.
func parseEinsum(eq string, ranks []int) ([][]label, []label, error) {
	eq = strings.ReplaceAll(eq, " ", "")
	lhs, rhs, explicit := strings.Cut(eq, "->")
	terms := strings.Split(lhs, ",")
	if len(terms) != len(ranks) {
		return nil, nil, fmt.Errorf("equation %q has %d operands, the op %d", eq, len(terms), len(ranks))
	}
	maxEll := 0
	ins := make([][]label, len(terms))
	for i, term := range terms {
		before, after, hasEll := strings.Cut(term, "...")
		letters := len(before) + len(after)
		nEll := 0
		if hasEll {
			nEll = ranks[i] - letters
			if nEll < 0 || strings.Contains(after, "...") {
				return nil, nil, fmt.Errorf("equation %q: operand %d (rank %d) does not fit %q", eq, i, ranks[i], term)
			}
		} else if letters != ranks[i] {
			return nil, nil, fmt.Errorf("equation %q: operand %d has rank %d, %q names %d dims", eq, i, ranks[i], term, letters)
		}
		maxEll = max(maxEll, nEll)
		var ls []label
		for _, r := range before {
			ls = append(ls, r)
		}
		for k := nEll - 1; k >= 0; k-- {
			ls = append(ls, ellipsisBase+label(k))
		}
		for _, r := range after {
			ls = append(ls, r)
		}
		for _, r := range ls {
			if r < ellipsisBase && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
				return nil, nil, fmt.Errorf("equation %q: bad label %q", eq, r)
			}
		}
		ins[i] = ls
	}
	var out []label
	if explicit {
		before, after, hasEll := strings.Cut(rhs, "...")
		for _, r := range before {
			out = append(out, r)
		}
		if hasEll {
			for k := maxEll - 1; k >= 0; k-- {
				out = append(out, ellipsisBase+label(k))
			}
		}
		for _, r := range after {
			out = append(out, r)
		}
	} else {
		// Implicit output: the broadcast dims, then the letters used once, alphabetically.
		for k := maxEll - 1; k >= 0; k-- {
			out = append(out, ellipsisBase+label(k))
		}
		count := map[label]int{}
		for _, ls := range ins {
			for _, r := range ls {
				count[r]++
			}
		}
		var once []label
		for r, n := range count {
			if n == 1 && r < ellipsisBase {
				once = append(once, r)
			}
		}
		slices.Sort(once)
		out = append(out, once...)
	}
	for _, ls := range ins {
		seen := map[label]bool{}
		for _, r := range ls {
			if seen[r] {
				return nil, nil, unsupported("einsum label %q repeated in one operand of %q", r, eq)
			}
			seen[r] = true
		}
	}
	return ins, out, nil
}

// labeled is a tensor whose dims carry labels.
type labeled[T tensor.Float] struct {
	t  *tensor.Tensor[T]
	ls []label
}

func (l labeled[T]) size(r label) int {
	if i := slices.Index(l.ls, r); i >= 0 {
		return l.t.Shape[i]
	}
	return 1
}

// sumLabels sums over the labels of l that keep rejects.
func sumLabels[T tensor.Float](l labeled[T], keep func(label) bool) (labeled[T], error) {
	var axes []int
	var ls []label
	for i, r := range l.ls {
		if keep(r) {
			ls = append(ls, r)
		} else {
			axes = append(axes, i)
		}
	}
	if len(axes) == 0 {
		return l, nil
	}
	t, err := tensor.Sum(l.t, axes, false)
	if err != nil {
		return l, err
	}
	return labeled[T]{t, ls}, nil
}

// arrange transposes l into the label order want, broadcasting its size-1 (or missing) dims to sizes.
func arrange[T tensor.Float](l labeled[T], want []label, sizes map[label]int) (*tensor.Tensor[T], error) {
	perm := make([]int, 0, len(l.ls))
	var view []int
	for _, r := range want {
		if i := slices.Index(l.ls, r); i >= 0 {
			perm = append(perm, i)
			view = append(view, l.t.Shape[i])
		} else {
			view = append(view, 1)
		}
	}
	t := l.t
	if !isIdentity(perm) {
		var err error
		if t, err = tensor.Transpose(t, perm); err != nil {
			return nil, err
		}
	}
	target := make([]int, len(want))
	for i, r := range want {
		target[i] = sizes[r]
	}
	v := &tensor.Tensor[T]{Shape: view, Data: t.Data}
	if sameInts(view, target) {
		return v, nil
	}
	return broadcastTo(v, target)
}

// contract multiplies a and b, keeping the labels keep asks for.
func contract[T tensor.Float](a, b labeled[T], keep func(label) bool) (labeled[T], error) {
	in := func(ls []label, r label) bool { return slices.Contains(ls, r) }
	// Labels only one side has and nobody needs are summed first.
	var err error
	if a, err = sumLabels(a, func(r label) bool { return in(b.ls, r) || keep(r) }); err != nil {
		return a, err
	}
	if b, err = sumLabels(b, func(r label) bool { return in(a.ls, r) || keep(r) }); err != nil {
		return b, err
	}
	sizes := map[label]int{}
	for _, l := range []labeled[T]{a, b} {
		for i, r := range l.ls {
			n := l.t.Shape[i]
			if s, ok := sizes[r]; ok && s != n && s != 1 && n != 1 {
				return a, fmt.Errorf("label %q has sizes %d and %d", r, s, n)
			}
			if n != 1 || sizes[r] == 0 {
				sizes[r] = max(sizes[r], n)
			}
		}
	}
	var batch, sum, freeA, freeB []label
	for _, r := range a.ls {
		switch {
		case in(b.ls, r) && keep(r):
			batch = append(batch, r)
		case in(b.ls, r):
			sum = append(sum, r)
		default:
			freeA = append(freeA, r)
		}
	}
	for _, r := range b.ls {
		if !in(a.ls, r) {
			freeB = append(freeB, r)
		}
	}
	ta, err := arrange(a, slices.Concat(batch, freeA, sum), sizes)
	if err != nil {
		return a, err
	}
	tb, err := arrange(b, slices.Concat(batch, sum, freeB), sizes)
	if err != nil {
		return a, err
	}
	nb, m, k, n := 1, 1, 1, 1
	for _, r := range batch {
		nb *= sizes[r]
	}
	for _, r := range freeA {
		m *= sizes[r]
	}
	for _, r := range sum {
		k *= sizes[r]
	}
	for _, r := range freeB {
		n *= sizes[r]
	}
	ta.Shape, tb.Shape = []int{nb, m, k}, []int{nb, k, n}
	prod, err := tensor.Matmul(ta, tb, false, false)
	if err != nil {
		return a, err
	}
	ls := slices.Concat(batch, freeA, freeB)
	shape := make([]int, len(ls))
	for i, r := range ls {
		shape[i] = sizes[r]
	}
	prod.Shape = shape
	return labeled[T]{prod, ls}, nil
}

// kEinsum evaluates einsum on the tensors of its vector operand; only the out result is computed.
func kEinsum[T tensor.Float](c *call[T]) ([]*value[T], error) {
	xs, err := c.vector(0)
	if err != nil {
		return nil, err
	}
	if len(xs) == 0 {
		return nil, fmt.Errorf("einsum of no operands")
	}
	ranks := make([]int, len(xs))
	for i, x := range xs {
		ranks[i] = len(x.shape)
	}
	ins, out, err := parseEinsum(c.attrString("equation", ""), ranks)
	if err != nil {
		return nil, err
	}
	ops := make([]labeled[T], len(xs))
	for i, x := range xs {
		ops[i] = labeled[T]{x.tensor(), ins[i]}
	}
	needed := func(rest []labeled[T]) func(label) bool {
		return func(r label) bool {
			if slices.Contains(out, r) {
				return true
			}
			for _, l := range rest {
				if slices.Contains(l.ls, r) {
					return true
				}
			}
			return false
		}
	}
	acc := ops[0]
	for i := 1; i < len(ops); i++ {
		if acc, err = contract(acc, ops[i], needed(ops[i+1:])); err != nil {
			return nil, err
		}
	}
	if acc, err = sumLabels(acc, needed(nil)); err != nil {
		return nil, err
	}
	sizes := map[label]int{}
	for _, r := range out {
		sizes[r] = acc.size(r)
		for _, l := range ops {
			sizes[r] = max(sizes[r], l.size(r))
		}
	}
	res, err := arrange(acc, out, sizes)
	if err != nil {
		return nil, err
	}
	if len(res.Data) > 0 && len(xs[0].buf.data) > 0 && &res.Data[0] == &xs[0].buf.data[0] {
		res = res.Clone() // an identity equation: results are fresh buffers
	}
	outs := []*value[T]{c.out(res, 0)}
	if c.op.NumResults() > 1 {
		// inner_cache and xshape, kept by Paddle for the backward pass: empty tensors, and copies of the operands
		// (programs split these vectors even when nothing reads their elements).
		cache, shapes := make([]*tensor.Tensor[T], len(xs)), make([]*tensor.Tensor[T], len(xs))
		for i, x := range xs {
			cache[i] = &tensor.Tensor[T]{Shape: []int{0}, Data: []T{}}
			shapes[i] = x.tensor().Clone()
		}
		outs = append(outs, c.vecOut(cache, 1))
		if c.op.NumResults() > 2 {
			outs = append(outs, c.vecOut(shapes, 2))
		}
	}
	return outs, nil
}
