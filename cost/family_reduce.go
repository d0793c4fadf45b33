package cost

import "math"

// reduceFamily holds reductions, scans, normalizing ops along one axis and sorting, one kernel each, reading the
// input once and writing the (smaller) result: a reduction does k operations per input element (sum, max, any: 1;
// mean: 1 plus a division per output; p_norm and logsumexp: 3), a scan (cumsum, cumprod) 1, softmax 5 per element
// (max, subtract, exp, sum, divide) and log_softmax 6, a loss its few per element, topk log2(k) comparisons per
// element and a sort (argsort, unique's) log2(n) along its axis.
var reduceFamily = family{
	name: "reduce",
	doc:  "reductions, scans, softmax and losses along axes: input read once, k operations per input element",
	ops: map[string]formula{
		"pd_op.sum":                          reduce(1),
		"pd_op.mean":                         reduce(1),
		"pd_op.max":                          reduce(1),
		"pd_op.min":                          reduce(1),
		"pd_op.prod":                         reduce(1),
		"pd_op.all":                          reduce(1),
		"pd_op.any":                          reduce(1),
		"pd_op.amax":                         reduce(1),
		"pd_op.amin":                         reduce(1),
		"pd_op.argmax":                       reduce(1),
		"pd_op.argmin":                       reduce(1),
		"pd_op.mean_all":                     reduce(1),
		"pd_op.reduce_as":                    reduce(1),
		"pd_op.l1_norm":                      reduce(2),
		"pd_op.squared_l2_norm":              reduce(2),
		"pd_op.frobenius_norm":               reduce(2),
		"pd_op.trace":                        reduce(1),
		"pd_op.p_norm":                       reduce(3),
		"pd_op.logsumexp":                    reduce(3),
		"pd_op.dist":                         reduce(3),
		"pd_op.norm":                         reduce(4),
		"pd_op.clip_by_norm":                 reduce(4),
		"pd_op.renorm":                       reduce(4),
		"pd_op.cumsum":                       reduce(1),
		"pd_op.cumprod":                      reduce(1),
		"pd_op.cummax":                       reduce(1),
		"pd_op.cummin":                       reduce(1),
		"pd_op.logcumsumexp":                 reduce(3),
		"pd_op.softmax":                      reduce(5),
		"pd_op.log_softmax":                  reduce(6),
		"pd_op.cross_entropy_with_softmax":   reduce(7),
		"pd_op.c_softmax_with_cross_entropy": reduce(7),
		"pd_op.sigmoid_cross_entropy_with_logits": reduce(6),
		"pd_op.bce_loss":   reduce(5),
		"pd_op.log_loss":   reduce(5),
		"pd_op.huber_loss": reduce(3),
		"pd_op.kldiv_loss": reduce(4),
		"pd_op.nll_loss":   reduce(1),
		"pd_op.accuracy":   reduce(2),
		"pd_op.topk":       topk,
		"pd_op.kthvalue":   sortAlong,
		"pd_op.mode":       sortAlong,
		"pd_op.nanmedian":  sortAlong,
		"pd_op.argsort":    sortAlong,
	},
}

// reduce returns the formula of a reduction-like op doing k operations per element of its first operand.
func reduce(k int64) formula {
	return func(v *opView) (Work, error) {
		x, err := v.mustIn(0)
		if err != nil {
			return Work{}, err
		}
		return Work{FLOPs: k * x.elems(), Read: v.readAll(), Written: v.writeAll(), Kernels: 1, Unit: Vector, DType: x.dt}, nil
	}
}

// topk keeps the k largest along an axis: log2(k) comparisons per element (a heap of k). k is the constant operand
// 1, else the axis length.
func topk(v *opView) (Work, error) {
	x, err := v.mustIn(0)
	if err != nil {
		return Work{}, err
	}
	k := x.dim(int(v.int("axis", -1)))
	if ks, ok := v.constInts(1); ok && len(ks) == 1 && ks[0] > 0 {
		k = ks[0]
	}
	return Work{FLOPs: x.elems() * log2ceil(k), Read: v.readAll(), Written: v.writeAll(), Kernels: 1, Unit: Vector, DType: x.dt}, nil
}

// sortAlong sorts along an axis (-1 unless the op says): log2(n) comparisons per element.
func sortAlong(v *opView) (Work, error) {
	x, err := v.mustIn(0)
	if err != nil {
		return Work{}, err
	}
	n := x.dim(int(v.int("axis", -1)))
	return Work{FLOPs: x.elems() * log2ceil(n), Read: v.readAll(), Written: v.writeAll(), Kernels: 1, Unit: Vector, DType: x.dt}, nil
}

// log2ceil returns ⌈log2 n⌉, at least 1.
func log2ceil(n int64) int64 {
	if n <= 2 {
		return 1
	}
	return int64(math.Ceil(math.Log2(float64(n))))
}
