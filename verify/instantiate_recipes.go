package verify

import (
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// Operand recipes of ops whose operands are not all alike: index tensors with valid indices, matrices of matching
// inner sizes, per-channel vectors, vectors of tensors. And the alternatives tried when a rule's constraints want
// something the default does not give (same_type(%a, %b) on a cast wants the cast to keep the dtype, on a
// reshape the shape): the search takes them in order until the rule matches.

// opRecipes propose the operands of an op by its non-inplace name; known[j] is the type of operand j when an
// earlier pattern op determines it (then its plan is ignored).
var opRecipes = map[string]func(known []*ir.TensorType) [][]operandPlan{
	"pd_op.addmm": func([]*ir.TensorType) [][]operandPlan {
		f := ir.DTypeFloat32
		return [][]operandPlan{{tensorPlan(f, 4, 5), tensorPlan(f, 4, 3), tensorPlan(f, 3, 5)},
			{tensorPlan(f, 1, 5), tensorPlan(f, 4, 3), tensorPlan(f, 3, 5)}}
	},
	"pd_op.affine_channel": func(known []*ir.TensorType) [][]operandPlan {
		f, c := ir.DTypeFloat32, int64(instC)
		if k := known[0]; k != nil && k.Rank() == 4 {
			c = k.Dims[1]
		}
		return [][]operandPlan{{tensorPlan(f, instN, c, instH, instW), tensorPlan(f, c), tensorPlan(f, c)}}
	},
	"pd_op.fill_diagonal_tensor": func([]*ir.TensorType) [][]operandPlan {
		f := ir.DTypeFloat32
		return [][]operandPlan{{tensorPlan(f, 3, 4), tensorPlan(f, 3)}, {tensorPlan(f, 2, 3, 4), tensorPlan(f, 4, 2)}}
	},
	"pd_op.index_add": func([]*ir.TensorType) [][]operandPlan {
		f := ir.DTypeFloat32
		return [][]operandPlan{{tensorPlan(f, 4, 3), dataPlan(ir.DTypeInt64, []int64{2}, 0, 2), tensorPlan(f, 2, 3)}}
	},
	"pd_op.scatter": func([]*ir.TensorType) [][]operandPlan {
		f := ir.DTypeFloat32
		return [][]operandPlan{{tensorPlan(f, 4, 3), dataPlan(ir.DTypeInt64, []int64{2}, 3, 1), tensorPlan(f, 2, 3)}}
	},
	"pd_op.index_put": func([]*ir.TensorType) [][]operandPlan {
		f := ir.DTypeFloat32
		return [][]operandPlan{
			{tensorPlan(f, 4, 3), {elems: []operandPlan{dataPlan(ir.DTypeInt64, []int64{2}, 1, 3)}}, tensorPlan(f, 3)},
			{tensorPlan(f, 4, 3), {elems: []operandPlan{dataPlan(ir.DTypeInt64, []int64{2}, 1, 3), dataPlan(ir.DTypeInt64, []int64{2}, 0, 2)}}, {dims: []int64{}, dtype: f}},
		}
	},
	"pd_op.put_along_axis": func([]*ir.TensorType) [][]operandPlan {
		f := ir.DTypeFloat32
		return [][]operandPlan{{tensorPlan(f, 3, 4), dataPlan(ir.DTypeInt64, []int64{1, 4}, 2, 0, 1, 2), tensorPlan(f, 1, 4)}}
	},
	"pd_op.random_routing": func([]*ir.TensorType) [][]operandPlan {
		f := ir.DTypeFloat32
		return [][]operandPlan{{tensorPlan(f, 4), tensorPlan(f, 4, 2), dataPlan(ir.DTypeInt64, []int64{4, 2}, 0, 1, 2, 3, 1, 0, 3, 2)}}
	},
	// A weight-only linear: x [N, C, 64] · int8 weight [16, 64] (weight_quantize's layout, values in [-127, 127])
	// scaled per output channel, bias [16] (absent when the pattern says null).
	"pd_op.weight_only_linear": func([]*ir.TensorType) [][]operandPlan {
		f, k, n := ir.DTypeFloat16, int64(64), int64(16)
		w := make([]float64, n*k)
		for i := range w {
			w[i] = float64(i*37%255 - 127)
		}
		return [][]operandPlan{{tensorPlan(f, instN, instC, k), dataPlan(ir.DTypeInt8, []int64{n, k}, w...),
			tensorPlan(f, n), tensorPlan(f, n)}}
	},
	// A one-element (0-D) tensor keeps its type through reductions to a scalar.
	"pd_op.l1_norm": func([]*ir.TensorType) [][]operandPlan {
		return [][]operandPlan{{tensorPlan(ir.DTypeFloat32, instN, instC)}, {{dims: []int64{}, dtype: ir.DTypeFloat32}}}
	},
}

// attrRecipes are alternative attribute values by non-inplace op name: the search tries the op with each set (the
// pattern's own attribute values win over them).
var attrRecipes = map[string][]map[string]rule.Val{
	"pd_op.cast":          {{}, {"dtype": ir.DTypeFloat32}},
	"pd_op.transpose":     {{}, {"perm": []rule.Val{int64(0), int64(1), int64(2), int64(3)}}},
	"pd_op.identity_loss": {{}, {"reduction": int64(2)}},
	"pd_op.cumprod":       {{"dim": int64(1)}},
}

// dataPlan is a constant operand of the given element type, shape and values (pd_op.assign_value).
func dataPlan(dt ir.DType, dims []int64, vals ...float64) operandPlan {
	return operandPlan{dims: dims, dtype: dt, data: vals}
}

// shapeAlternatives are more shapes for the tensor operands of ops whose type depends on them: identity forms
// (squeeze of a non-unit axis, reshape to the same shape, unsqueeze of no axis) that keep the operand's type.
func shapeAlternatives(base string, plan []operandPlan, dims []int64) [][]operandPlan {
	var out [][]operandPlan
	with := func(f func(p []operandPlan)) {
		alt := append([]operandPlan(nil), plan...)
		f(alt)
		out = append(out, alt)
	}
	switch base {
	case "pd_op.reshape":
		with(func(p []operandPlan) {
			for j := range p {
				if p[j].isInts {
					p[j].ints = append([]int64(nil), dims...)
				}
			}
		})
	case "pd_op.squeeze":
		with(func(p []operandPlan) {
			for j := range p {
				if !p[j].constant() && len(p[j].dims) == 4 {
					p[j].dims = []int64{instN, instC, instH, instW} // axis 1 has size 3: nothing is squeezed
				}
			}
		})
	case "pd_op.unsqueeze":
		with(func(p []operandPlan) {
			for j := range p {
				if p[j].isInts {
					p[j].ints = []int64{}
				}
			}
		})
	}
	return out
}
