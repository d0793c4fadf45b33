package rules

import (
	"fmt"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// HorizontalFuse is the Go pass horizontal_fuse, Paddle's horizontal_fuse_pass (a hand-written pass there too: a
// group of any size of users of one value is not a .drr pattern): three or more projections of one value x —
// matmul(x, w_i) without transposes, or fc(x, w_i, b_i) — with 2-D weights read from parameters (or constants and
// program inputs, as Paddle allows) become one projection by the weights concatenated along N, split back into the
// users' results. As in Paddle, x may also be the second operand of the matmuls, matmul(w_i, x): the weights are
// concatenated along M, and the result is split along its second-to-last axis. It returns the number of groups
// fused.
//
// Unlike Paddle's pass, which counts the users that agree with the first one but then fuses every valid user (so
// an fc among matmuls gets a bias and an activation, and an fc without bias shortens the bias concat), a group
// here is made of users that agree on everything the fused op keeps: the op, its attributes, K, the dtype and,
// for fc, a 1-D bias of N elements.
func HorizontalFuse(p *ir.Program, rw *ir.Rewriter) (int, error) {
	fused := 0
	var values []*ir.Value
	for op := range p.Walk() {
		values = append(values, op.Results()...)
	}
	for _, v := range values {
		if v.DefiningOp() != nil && v.DefiningOp().Erased() {
			continue
		}
		for _, g := range projectionGroups(v) {
			if len(g) < 3 {
				continue
			}
			if err := fuseProjections(p.Ctx, rw, v, g); err != nil {
				return fused, err
			}
			fused++
		}
	}
	return fused, nil
}

// projectionGroups returns v's projection users grouped by what a fused op must share, in program order.
func projectionGroups(v *ir.Value) [][]*ir.Op {
	groups := map[string][]*ir.Op{}
	var keys []string
	for _, u := range v.Users() {
		key, ok := projectionKey(v, u)
		if !ok {
			continue
		}
		if _, seen := groups[key]; !seen {
			keys = append(keys, key)
		}
		groups[key] = append(groups[key], u)
	}
	out := make([][]*ir.Op, 0, len(keys))
	for _, k := range keys {
		out = append(out, groups[k])
	}
	return out
}

// projectionKey reports whether u projects v by a weight (matmul(v, w) or matmul(w, v) without transposes, or
// fc(v, w, b) with a 1-D bias), and what a group it joins must share: op, attributes, the side v is on, K, dtypes,
// block.
func projectionKey(v *ir.Value, u *ir.Op) (string, bool) {
	if u.NumResults() != 1 || u.Block() == nil {
		return "", false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%p", u.Name(), u.Block())
	switch u.Name() {
	case "pd_op.matmul":
		if u.NumOperands() != 2 || attrTrue(u, "transpose_x") || attrTrue(u, "transpose_y") {
			return "", false
		}
	case "pd_op.fc":
		if u.NumOperands() != 3 || u.Operand(2) == nil || attrTrue(u, "padding_weights") {
			return "", false
		}
		bias := ir.TensorOf(u.Operand(2).Type())
		w := ir.TensorOf(u.Operand(1).Type())
		if bias == nil || w == nil || bias.Rank() != 1 || w.Rank() != 2 || bias.Dims[0] != w.Dims[1] ||
			!isWeight(u.Operand(2)) || bias.DType() != w.DType() {
			return "", false
		}
		for _, name := range []string{"in_num_col_dims", "activation_type"} {
			fmt.Fprintf(&b, "|%s=%v", name, u.AttrOrDefault(name))
		}
	default:
		return "", false
	}
	if u.Name() == "pd_op.matmul" && u.Operand(1) == v && u.Operand(0) != v {
		// matmul(w, x): w [M, K] by x [.., K, N].
		w, x := ir.TensorOf(u.Operand(0).Type()), ir.TensorOf(v.Type())
		if !isWeight(u.Operand(0)) || w == nil || x == nil || w.Rank() != 2 || x.Rank() < 2 || w.Dims[1] < 0 ||
			w.Dims[0] <= 0 || w.Dims[1] != x.Dims[x.Rank()-2] || w.DType() != x.DType() {
			return "", false
		}
		fmt.Fprintf(&b, "|Y|K=%d|%s", w.Dims[1], w.DType())
		return b.String(), true
	}
	if u.Operand(0) != v || u.Operand(1) == v || !isWeight(u.Operand(1)) {
		return "", false
	}
	w, x := ir.TensorOf(u.Operand(1).Type()), ir.TensorOf(v.Type())
	if w == nil || x == nil || w.Rank() != 2 || x.Rank() < 2 || w.Dims[0] < 0 || w.Dims[1] <= 0 ||
		w.Dims[0] != x.Dims[x.Rank()-1] || w.DType() != x.DType() {
		return "", false
	}
	fmt.Fprintf(&b, "|K=%d|%s", w.Dims[0], w.DType())
	return b.String(), true
}

// isWeight reports whether v is read from a parameter, a constant or a program input (Paddle's condition).
func isWeight(v *ir.Value) bool {
	d := v.DefiningOp()
	if d == nil {
		return false
	}
	switch d.Name() {
	case ir.ParameterOpName, "builtin.constant", "pd_op.data":
		return true
	}
	return false
}

func attrTrue(op *ir.Op, name string) bool {
	b, _ := ir.AsBool(op.AttrOrDefault(name))
	return b
}

// fuseProjections replaces the users g of x by one projection by the concatenated weights (and biases), split.
// The new ops go right before the first user, where x is defined; the weights are moved there if they are defined
// later.
func fuseProjections(ctx *ir.Context, rw *ir.Rewriter, x *ir.Value, g []*ir.Op) error {
	// x is the first operand (weights w_i [K, N_i], concatenated along N, the result split along its last axis) or,
	// for matmul(w_i, x), the second (weights [M_i, K] concatenated along M, the result split along its
	// second-to-last axis).
	wIdx, wAxis, wDim, splitAxis := 1, int64(1), 1, int64(-1)
	if g[0].Operand(0) != x {
		wIdx, wAxis, wDim, splitAxis = 0, 0, 0, -2
	}
	first := g[0]
	for op := first.Block().First(); op != nil; op = op.Next() {
		if inGroup(op, g) {
			first = op
			break
		}
	}
	// A weight (or bias) read only after the first user may be defined after it: its op (a parameter, constant or
	// input, without operands) moves up, before the first user.
	for _, u := range g {
		for i := 1; i < u.NumOperands(); i++ {
			if d := u.Operand(i).DefiningOp(); d != nil && d.Block() == first.Block() && !before(d, first) {
				rw.MoveBefore(d, first)
			}
		}
	}
	rw.SetInsertionPointBefore(first)
	create := func(name string, operands []*ir.Value, attrs []ir.NamedAttr) (*ir.Op, error) {
		types, err := ctx.InferResultTypes(ctx.Schema(name), operands, attrs)
		if err != nil {
			return nil, fmt.Errorf("horizontal_fuse: %s: %w", name, err)
		}
		return rw.Create(ir.OpSpec{Name: name, Operands: operands, Results: types, Attrs: attrs, Loc: first.Loc}), nil
	}
	constant := func(value int64) (*ir.Value, error) {
		op, err := create("pd_op.full", nil, []ir.NamedAttr{{Name: "shape", Value: ctx.IntArray([]int64{1})},
			{Name: "value", Value: ctx.Double(float64(value))}, {Name: "dtype", Value: ctx.DataType(ir.DTypeInt32)},
			{Name: "place", Value: ctx.Place(ir.Place{Type: ir.PlaceCPU})}})
		if err != nil {
			return nil, err
		}
		return op.Result(0), nil
	}
	concat := func(operand int, axis int64) (*ir.Value, error) {
		vs := make([]*ir.Value, len(g))
		for i, u := range g {
			vs[i] = u.Operand(operand)
		}
		cmb, err := create("builtin.combine", vs, nil)
		if err != nil {
			return nil, err
		}
		ax, err := constant(axis)
		if err != nil {
			return nil, err
		}
		op, err := create("pd_op.concat", []*ir.Value{cmb.Result(0), ax}, nil)
		if err != nil {
			return nil, err
		}
		return op.Result(0), nil
	}
	w, err := concat(wIdx, wAxis)
	if err != nil {
		return err
	}
	operands := []*ir.Value{x, w}
	if wIdx == 0 {
		operands = []*ir.Value{w, x}
	}
	if first.Name() == "pd_op.fc" {
		bias, err := concat(2, 0)
		if err != nil {
			return err
		}
		operands = append(operands, bias)
	}
	proj, err := create(first.Name(), operands, first.Attrs())
	if err != nil {
		return err
	}
	sections := make([]int64, len(g))
	for i, u := range g {
		sections[i] = ir.TensorOf(u.Operand(wIdx).Type()).Dims[wDim]
	}
	secs, err := create("pd_op.full_int_array", nil, []ir.NamedAttr{{Name: "value", Value: ctx.Int64s(sections...)},
		{Name: "dtype", Value: ctx.DataType(ir.DTypeInt64)}, {Name: "place", Value: ctx.Place(ir.Place{Type: ir.PlaceCPU})}})
	if err != nil {
		return err
	}
	ax, err := constant(splitAxis)
	if err != nil {
		return err
	}
	split, err := create("pd_op.split", []*ir.Value{proj.Result(0), secs.Result(0), ax}, nil)
	if err != nil {
		return err
	}
	parts, err := create("builtin.split", []*ir.Value{split.Result(0)}, nil)
	if err != nil {
		return err
	}
	for i, u := range g {
		if parts.Result(i).Type().String() != u.Result(0).Type().String() {
			return fmt.Errorf("horizontal_fuse: piece %d is %s, the %s it replaces %s", i, parts.Result(i).Type(),
				u.Name(), u.Result(0).Type())
		}
	}
	for i, u := range g {
		rw.ReplaceAllUsesWith(u.Result(0), parts.Result(i))
		if err := rw.Erase(u); err != nil {
			return err
		}
	}
	return nil
}

func inGroup(op *ir.Op, g []*ir.Op) bool {
	for _, u := range g {
		if u == op {
			return true
		}
	}
	return false
}

// before reports whether a comes before b in their block.
func before(a, b *ir.Op) bool {
	for op := a.Next(); op != nil; op = op.Next() {
		if op == b {
			return true
		}
	}
	return false
}
