package interp

import (
	"fmt"

	"github.com/pirdrr/drr/interp/tensor"
)

// The ops of distributed and stream-scheduled programs evaluated as one process: the interpreter is a world of
// one rank, where every collective (all-reduce, broadcast, reduce, all-gather of one part) returns its operand,
// stream synchronisations do nothing, and random_routing keeps its top-k choice.
func registerCollective[T tensor.Float](r registry[T]) {
	r["pd_op.share_data"] = kCopy[T]
	r["pd_op.random_routing"] = kRandomRouting[T]
	for _, name := range []string{"c_allreduce_sum", "c_allreduce_max", "c_allreduce_min", "c_allreduce_prod",
		"c_allreduce_avg", "all_reduce", "c_broadcast", "c_identity", "c_reduce_sum", "c_reduce_max", "c_reduce_min",
		"c_reduce_prod", "c_reduce_avg", "c_sync_calc_stream", "c_sync_comm_stream", "sync_calc_stream", "nop"} {
		r["pd_op."+name] = kCopy[T]
	}
	r["pd_op.partial_allgather"] = kPartialAllgather[T]
	r["pd_op.c_reducescatter"] = kPartialAllgather[T]
	r["pd_op.c_allgather"] = kPartialAllgather[T]
}

// kPartialAllgather gathers (c_reducescatter: reduces and scatters) the parts of nranks ranks: with one rank, its
// operand.
func kPartialAllgather[T tensor.Float](c *call[T]) ([]*value[T], error) {
	if n := c.attrInt("nranks", 1); n != 1 {
		return nil, unsupported("%s over %d ranks (the interpreter is one rank)", c.op.Name(), n)
	}
	return kCopy(c)
}

// kRandomRouting is the routing step of mixture-of-experts gating: a copy of topk_idx [tokens, k] whose second
// choice is dropped (-1) where twice its gate value is below the token's prob.
func kRandomRouting[T tensor.Float](c *call[T]) ([]*value[T], error) {
	prob, err := c.in(0)
	if err != nil {
		return nil, err
	}
	val, idx, err := c.inPair(1, 2)
	if err != nil {
		return nil, err
	}
	if len(idx.Shape) != 2 || !sameInts(val.Shape, idx.Shape) || len(prob.Data) != idx.Shape[0] {
		return nil, fmt.Errorf("random_routing needs prob [N], topk_value and topk_idx [N, k], has %v, %v, %v",
			prob.Shape, val.Shape, idx.Shape)
	}
	k := idx.Shape[1]
	out := idx.Clone()
	if k >= 2 {
		for i, p := range prob.Data {
			if 2*float64(val.Data[i*k+1]) < float64(p) {
				out.Data[i*k+1] = -1
			}
		}
	}
	return c.one(out, nil)
}
