package interp

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// Random ops. Paddle draws them from a device generator; the interpreter draws each random op's numbers from its
// own stream, seeded by the feed's seed (Feed.Seed) and the op's key: the op's kind and its rank among the random
// ops of that kind in execution order (the third dropout to run draws stream "dropout#2"), or, for an op with a
// fixed non-zero seed attribute, that seed alone (Paddle's contract: a fixed seed repeats its numbers). So the
// programs before and after a rewrite that keeps the random ops — the usual case: fusions around a dropout —
// draw the same numbers and are compared exactly. A rewrite that adds, removes or reorders random ops changes
// the streams: its outputs are flagged as depending on random ops (Output.Random, compare.Report), which tells the reader
// that a difference may be a different draw rather than a wrong rewrite.

// randomOps are the ops whose results are random draws.
var randomOps = map[string]bool{
	"pd_op.uniform": true, "pd_op.randint": true, "pd_op.gaussian": true, "pd_op.bernoulli": true,
	"pd_op.uniform_inplace": true, "pd_op.uniform_inplace_": true, "pd_op.gaussian_inplace": true,
	"pd_op.gaussian_inplace_": true, "pd_op.exponential_": true, "pd_op.randperm": true,
}

// streamKind maps fused ops to the kind of the random op they replace, whose streams they draw from.
var streamKind = map[string]string{"pd_op.fused_dropout_add": "pd_op.dropout"}

// isRandomOp reports whether op draws random numbers (dropout only in training).
func isRandomOp(op *ir.Op) bool {
	test, _ := ir.AsBool(op.AttrOrDefault("is_test"))
	switch op.Name() {
	case "pd_op.dropout", "pd_op.dropout_", "pd_op.fused_dropout_add":
		return !test
	case "pd_op.rnn":
		p, _ := ir.AsFloat(op.AttrOrDefault("dropout_prob"))
		return !test && p > 0
	case "pd_op.flash_attn":
		p, _ := ir.AsFloat(op.AttrOrDefault("dropout"))
		return !test && p > 0
	}
	return randomOps[op.Name()]
}

func registerRandom[T tensor.Float](r registry[T]) {
	r["pd_op.uniform"] = kUniform[T]
	r["pd_op.randint"] = kRandint[T]
	r["pd_op.gaussian"] = kGaussian[T]
	r["pd_op.uniform_inplace"] = kUniformInplace[T]
	r["pd_op.gaussian_inplace"] = kGaussianInplace[T]
	r["pd_op.exponential_"] = kExponential[T]
	r["pd_op.bernoulli"] = kBernoulli[T]
	r["pd_op.randperm"] = kRandperm[T]
	r["pd_op.dropout"] = kDropout[T]
}

// streamSeed returns the seed of op's stream (see the comment at the top of this file).
func (c *call[T]) streamSeed() uint64 {
	if s := c.attrInt("seed", 0); s != 0 && (c.attr("fix_seed") == nil || c.attrBool("fix_seed", false)) {
		return tensor.NamedSeed(0, fmt.Sprintf("fixed seed %d", s))
	}
	name := ir.NonInplaceName(c.op.Name())
	if kind, ok := streamKind[name]; ok {
		name = kind
	}
	k := c.m.randomCount[name]
	c.m.randomCount[name] = k + 1
	return tensor.NamedSeed(c.m.feed.Seed, fmt.Sprintf("op %s#%d", name, k))
}

// draw fills n values from op's stream, in chunks (the same numbers for every GOMAXPROCS).
func (c *call[T]) draw(n int, f func(r *rand.Rand) float64) []T {
	seed := c.streamSeed()
	out := make([]T, n)
	dt := c.outDType(0)
	chunks := (n + tensor.DrawChunk - 1) / tensor.DrawChunk
	tensor.ParallelFor(chunks, tensor.DrawChunk*8, func(c0, c1 int) {
		for k := c0; k < c1; k++ {
			r := tensor.NewRand(tensor.ChunkSeed(seed, k))
			for i := k * tensor.DrawChunk; i < min((k+1)*tensor.DrawChunk, n); i++ {
				out[i] = T(RoundTo(dt, f(r)))
			}
		}
	})
	return out
}

// shapeArg reads the shape argument of a creation op.
func (c *call[T]) shapeArg() ([]int, error) {
	shape, err := c.requireInts("shape", 0)
	if err != nil {
		return nil, err
	}
	if _, err := NumElements(shape); err != nil {
		return nil, err
	}
	if err := c.m.opts.CheckSize("the result", shape); err != nil {
		return nil, err
	}
	return shape, nil
}

// kUniform draws uniformly from [min, max).
func kUniform[T tensor.Float](c *call[T]) ([]*value[T], error) {
	shape, err := c.shapeArg()
	if err != nil {
		return nil, err
	}
	lo, err := c.requireScalar("min", 1)
	if err != nil {
		return nil, err
	}
	hi, err := c.requireScalar("max", 2)
	if err != nil {
		return nil, err
	}
	return c.one(&tensor.Tensor[T]{Shape: shape, Data: c.draw(prod(shape), func(r *rand.Rand) float64 {
		return lo + float64((hi-lo)*r.Float64())
	})}, nil)
}

// kRandint draws integers uniformly from [low, high).
func kRandint[T tensor.Float](c *call[T]) ([]*value[T], error) {
	shape, err := c.shapeArg()
	if err != nil {
		return nil, err
	}
	lo, hi := c.attrInt("low", 0), c.attrInt("high", 0)
	if hi <= lo {
		return nil, fmt.Errorf("randint needs low < high, has %d and %d", lo, hi)
	}
	return c.one(&tensor.Tensor[T]{Shape: shape, Data: c.draw(prod(shape), func(r *rand.Rand) float64 {
		return float64(lo + r.IntN(hi-lo))
	})}, nil)
}

// kGaussian draws from N(mean, std²).
func kGaussian[T tensor.Float](c *call[T]) ([]*value[T], error) {
	shape, err := c.shapeArg()
	if err != nil {
		return nil, err
	}
	mean, std := c.attrFloat("mean", 0), c.attrFloat("std", 1)
	return c.one(&tensor.Tensor[T]{Shape: shape, Data: c.draw(prod(shape), func(r *rand.Rand) float64 {
		return mean + float64(std*r.NormFloat64())
	})}, nil)
}

// kUniformInplace is x's shape drawn uniformly from [min, max), then diag_val written at i·diag_step + i for
// i < diag_num.
func kUniformInplace[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.arg(0)
	if err != nil {
		return nil, err
	}
	lo, hi := c.attrFloat("min", -1), c.attrFloat("max", 1)
	data := c.draw(x.NumElements(), func(r *rand.Rand) float64 { return lo + float64((hi-lo)*r.Float64()) })
	step, val := c.attrInt("diag_step", 0), T(c.attrFloat("diag_val", 1))
	for i := range c.attrInt("diag_num", 0) {
		if p := i*step + i; p < len(data) {
			data[p] = val
		}
	}
	return c.one(&tensor.Tensor[T]{Shape: append([]int{}, x.shape...), Data: data}, nil)
}

// kGaussianInplace is x's shape drawn from N(mean, std²).
func kGaussianInplace[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.arg(0)
	if err != nil {
		return nil, err
	}
	mean, std := c.attrFloat("mean", 0), c.attrFloat("std", 1)
	return c.one(&tensor.Tensor[T]{Shape: append([]int{}, x.shape...), Data: c.draw(x.NumElements(), func(r *rand.Rand) float64 {
		return mean + float64(std*r.NormFloat64())
	})}, nil)
}

// kExponential is x's shape drawn from the exponential distribution of rate lam.
func kExponential[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.arg(0)
	if err != nil {
		return nil, err
	}
	lam := c.attrFloat("lam", 1)
	return c.one(&tensor.Tensor[T]{Shape: append([]int{}, x.shape...), Data: c.draw(x.NumElements(), func(r *rand.Rand) float64 {
		return -math.Log1p(-r.Float64()) / lam
	})}, nil)
}

// kBernoulli is 1 with probability x, elementwise.
func kBernoulli[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	i := 0
	u := c.draw(len(x.Data), func(r *rand.Rand) float64 { return r.Float64() })
	out := make([]T, len(x.Data))
	for i = range out {
		if float64(u[i]) < float64(x.Data[i]) {
			out[i] = 1
		}
	}
	return c.one(&tensor.Tensor[T]{Shape: append([]int{}, x.Shape...), Data: out}, nil)
}

// kRandperm is a random permutation of 0 … n−1.
func kRandperm[T tensor.Float](c *call[T]) ([]*value[T], error) {
	n := c.attrInt("n", 0)
	if n < 0 {
		return nil, fmt.Errorf("randperm of %d", n)
	}
	r := tensor.NewRand(c.streamSeed())
	out := make([]T, n)
	for i, p := range r.Perm(n) {
		out[i] = T(p)
	}
	return c.one(&tensor.Tensor[T]{Shape: []int{n}, Data: out}, nil)
}

// kDropout returns (out, mask). In test mode, upscale_in_train is the identity and downgrade_in_infer scales by
// 1 − p; the mask is all ones. In training, each element is kept with probability 1 − p (mask 1): upscale_in_train
// divides the kept elements by 1 − p, downgrade_in_infer keeps them as they are; dropped elements are 0.
func kDropout[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	p, err := c.requireScalar("p", 2)
	if err != nil {
		return nil, err
	}
	if p < 0 || p > 1 {
		return nil, fmt.Errorf("dropout probability %v is outside [0, 1]", p)
	}
	mode := c.attrString("mode", "upscale_in_train")
	if mode != "upscale_in_train" && mode != "downgrade_in_infer" {
		return nil, unsupported("dropout mode %q", mode)
	}
	upscale := mode == "upscale_in_train"
	mask := make([]T, len(x.Data))
	var out *tensor.Tensor[T]
	if c.attrBool("is_test", false) {
		for i := range mask {
			mask[i] = 1
		}
		if upscale {
			out = x.Clone()
		} else {
			out = mapUnary(x, func(v float64) float64 { return v * (1 - p) })
		}
	} else {
		keep := c.draw(len(x.Data), func(r *rand.Rand) float64 { return b2f(r.Float64() >= p) })
		out = &tensor.Tensor[T]{Shape: append([]int{}, x.Shape...), Data: make([]T, len(x.Data))}
		for i, k := range keep {
			mask[i] = k
			if k == 0 {
				continue
			}
			if upscale {
				out.Data[i] = T(float64(x.Data[i]) / (1 - p))
			} else {
				out.Data[i] = x.Data[i]
			}
		}
	}
	res := []*value[T]{c.out(out, 0)}
	if c.op.NumResults() > 1 {
		res = append(res, c.out(&tensor.Tensor[T]{Shape: append([]int{}, x.Shape...), Data: mask}, 1))
	}
	return res, nil
}
