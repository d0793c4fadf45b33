package analysis

import "github.com/pirdrr/drr/ir"

// The buffer model. Values are tensors with storage; an op can write the storage of some operands (inplace ops) and
// can make a result share storage with an operand (views, inplace results). Everything is derived from the schemas'
// traits and maps; ops without a schema are assumed to write and alias all their operands.

// batchNormFamily are the ops whose inplace or view maps on mean and variance mean "updated in training": they
// write those buffers only when BatchNormTraining holds (otherwise Paddle's kernels read the running statistics
// and leave them alone).
var batchNormFamily = map[string]bool{
	"pd_op.batch_norm": true, "pd_op.batch_norm_": true, "pd_op.sync_batch_norm_": true,
	"pd_op.fused_batch_norm_act": true, "pd_op.fused_batch_norm_act_": true,
	"pd_op.fused_bn_add_activation": true, "pd_op.fused_bn_add_activation_": true,
}

// BatchNormTraining reports whether a batch-norm-family op normalizes with the batch's own statistics and updates
// its running statistics, as Paddle's kernels decide it: global statistics are used when use_global_stats is set,
// or when is_test is set and trainable_statistics is not.
func BatchNormTraining(op *ir.Op) bool {
	isTest, _ := ir.AsBool(op.AttrOrDefault("is_test"))
	global, _ := ir.AsBool(op.AttrOrDefault("use_global_stats"))
	trainable, _ := ir.AsBool(op.AttrOrDefault("trainable_statistics"))
	return !(global || isTest && !trainable)
}

// HasValueSemantics reports whether op neither writes nor exposes aliases of its operands' buffers in a way that
// matters: its schema has ValueSemantics, or it is a batch norm in inference mode, whose statistics outputs alias
// the running statistics that nothing writes.
func HasValueSemantics(op *ir.Op) bool {
	s := op.Schema()
	if s == nil {
		return false
	}
	if s.Has(ir.ValueSemantics) {
		return true
	}
	return batchNormFamily[s.Name] && !BatchNormTraining(op)
}

// Writes reports whether op may write the buffer of its operand i.
func Writes(op *ir.Op, i int) bool {
	s := op.Schema()
	if s == nil {
		return op.Operand(i) != nil
	}
	if batchNormFamily[s.Name] {
		if !BatchNormTraining(op) {
			return false
		}
		for _, p := range s.Inplace {
			if p.Operand == i {
				return true
			}
		}
		for _, p := range s.View {
			if p.Operand == i {
				return true
			}
		}
		return false
	}
	for _, p := range s.Inplace {
		if p.Operand == i {
			return true
		}
	}
	if !s.Has(ir.ReadOnly) && len(s.Inplace) == 0 && !isPlainRegionOp(op) {
		// A registered op that admits writing but says nothing about where: assume it writes everything.
		return op.Operand(i) != nil
	}
	return false
}

func isPlainRegionOp(op *ir.Op) bool {
	switch op.Name() {
	case "pd_op.if", "pd_op.while", "cf.yield", ir.ModuleOpName:
		return true
	}
	return false
}

// links returns the pairs of values op makes share a buffer.
func links(op *ir.Op) [][2]*ir.Value {
	var out [][2]*ir.Value
	add := func(a, b *ir.Value) {
		if a != nil && b != nil && a != b {
			out = append(out, [2]*ir.Value{a, b})
		}
	}
	switch op.Name() {
	case "builtin.combine":
		for i := 0; i < op.NumOperands(); i++ {
			add(op.Operand(i), op.Result(0))
		}
		return out
	case "builtin.split":
		for i := 0; i < op.NumResults(); i++ {
			add(op.Operand(0), op.Result(i))
		}
		return out
	case "builtin.slice":
		add(op.Operand(0), op.Result(0))
		return out
	case "pd_op.if":
		for _, r := range op.Regions() {
			for _, b := range r.Blocks() {
				if t := b.Terminator(); t != nil {
					for i := 0; i < t.NumOperands() && i < op.NumResults(); i++ {
						add(t.Operand(i), op.Result(i))
					}
				}
			}
		}
		return out
	case "pd_op.while":
		for i := 1; i < op.NumOperands(); i++ {
			in := op.Operand(i)
			if i-1 < op.NumResults() {
				add(in, op.Result(i-1))
			}
			if op.NumRegions() == 1 && op.Region(0).NumBlocks() == 1 {
				body := op.Region(0).Block(0)
				if i-1 < body.NumArgs() {
					add(in, body.Arg(i-1))
				}
				if t := body.Terminator(); t != nil && i < t.NumOperands() {
					add(t.Operand(i), body.Arg(i-1))
					if i-1 < op.NumResults() {
						add(t.Operand(i), op.Result(i-1))
					}
				}
			}
		}
		return out
	case "cf.yield", ir.ModuleOpName:
		return nil
	}
	s := op.Schema()
	if s == nil || !s.Has(ir.ValueSemantics) && len(s.Inplace) == 0 && len(s.View) == 0 {
		// Unregistered, or registered without any statement about aliasing: any result may alias any operand.
		if s != nil && s.Has(ir.ReadOnly) && op.NumResults() == 0 {
			return nil
		}
		for i := 0; i < op.NumOperands(); i++ {
			for j := 0; j < op.NumResults(); j++ {
				add(op.Operand(i), op.Result(j))
			}
		}
		return out
	}
	for _, p := range s.Inplace {
		if p.Operand < op.NumOperands() && p.Result < op.NumResults() {
			add(op.Operand(p.Operand), op.Result(p.Result))
		}
	}
	for _, p := range s.View {
		if p.Operand < op.NumOperands() && p.Result < op.NumResults() {
			add(op.Operand(p.Operand), op.Result(p.Result))
		}
	}
	return out
}

// neighbours calls f for every value that shares a buffer with v through a single op: v's defining op, or an op
// using v.
func neighbours(v *ir.Value, f func(*ir.Value)) {
	visit := func(op *ir.Op) {
		for _, l := range links(op) {
			switch v {
			case l[0]:
				f(l[1])
			case l[1]:
				f(l[0])
			}
		}
	}
	if d := v.DefiningOp(); d != nil {
		visit(d)
	} else if p := v.OwnerBlock().ParentOp(); p != nil {
		visit(p)
	}
	seen := map[*ir.Op]bool{}
	for u := range v.Uses() {
		o := u.Owner()
		if !seen[o] {
			seen[o] = true
			visit(o)
		}
		// A yield links its operands to the results of the region op that owns its block.
		if o.Name() == "cf.yield" {
			if p := o.ParentOp(); p != nil && !seen[p] {
				seen[p] = true
				visit(p)
			}
		}
	}
}

// Buffer returns the values that may share v's buffer (v included), found by following buffer links from v
// without entering any value of except.
func Buffer(v *ir.Value, except ...*ir.Value) []*ir.Value {
	seen := map[*ir.Value]bool{v: true}
	for _, x := range except {
		if x != v {
			seen[x] = true
		}
	}
	out := []*ir.Value{v}
	for i := 0; i < len(out); i++ {
		neighbours(out[i], func(n *ir.Value) {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		})
	}
	return out
}

// Aliased reports whether some value other than v may share v's buffer, ignoring what is reachable only through the
// values of except (for `b = relu_(a)`, Aliased(a, b) asks whether anything but b aliases a).
func Aliased(v *ir.Value, except ...*ir.Value) bool { return len(Buffer(v, except...)) > 1 }

// Mutated reports whether some op may write v's buffer (through v or any value sharing it).
func Mutated(v *ir.Value) bool {
	for _, m := range Buffer(v) {
		for u := range m.Uses() {
			if Writes(u.Owner(), u.Index()) {
				return true
			}
		}
	}
	return false
}

// IsParam reports whether v is read from a parameter (builtin.parameter or builtin.get_parameter).
func IsParam(v *ir.Value) bool {
	d := v.DefiningOp()
	return d != nil && (d.Name() == ir.ParameterOpName || d.Name() == ir.GetParameterOpName)
}

// ParamName returns the name of the parameter v reads, or "".
func ParamName(v *ir.Value) string {
	if !IsParam(v) {
		return ""
	}
	n, _ := ir.AsString(v.DefiningOp().Attr("parameter_name"))
	return n
}

// Immutable reports whether v is a parameter the program never changes — no builtin.set_parameter writes its
// name (Program.Params, see ir.Program.CollectParams) and no op writes its buffer — or a copy
// (pd_op.to_vtensor, pd_op.to_tensor) of such a parameter that nothing writes either.
func Immutable(p *ir.Program, v *ir.Value) bool {
	if d := v.DefiningOp(); d != nil && (d.Name() == "pd_op.to_vtensor" || d.Name() == "pd_op.to_tensor") {
		return d.Operand(0) != nil && Immutable(p, d.Operand(0)) && !Mutated(v)
	}
	if !IsParam(v) {
		return false
	}
	if vr := p.Params[ParamName(v)]; vr == nil || vr.Mutable {
		return false
	}
	return !Mutated(v)
}

// IsInput reports whether v is a program input: a result of pd_op.data or pd_op.feed, or an argument of the
// program's top-level block.
func IsInput(v *ir.Value) bool {
	if d := v.DefiningOp(); d != nil {
		return d.Name() == "pd_op.data" || d.Name() == "pd_op.feed"
	}
	return v.OwnerBlock().ParentOp() == nil || v.OwnerBlock().ParentOp().Name() == ir.ModuleOpName
}

// DiesAt reports whether op is the last reader of v: every use of v is by op, by an op nested in op, or by an op
// that comes before op.
func DiesAt(v *ir.Value, op *ir.Op) bool {
	for u := range v.Uses() {
		x := u.Owner()
		if x == op || op.IsAncestorOf(x) {
			continue
		}
		if !before(x, op) {
			return false
		}
	}
	return true
}

// before reports whether x runs before y: it lifts both to the innermost block that contains them and compares.
// Ops in a region op's body count as running after the code before it and before the code after it.
func before(x, y *ir.Op) bool {
	anc := map[*ir.Block]*ir.Op{}
	for o := y; o != nil; o = o.ParentOp() {
		if o.Block() != nil {
			anc[o.Block()] = o
		}
	}
	for o := x; o != nil; o = o.ParentOp() {
		if ya, ok := anc[o.Block()]; ok {
			if o == ya {
				return false
			}
			return o.IsBefore(ya)
		}
	}
	return false
}

// Constant reports whether v's value is fixed before the program runs: an immutable parameter, the result of a
// ConstantLike op (full, full_int_array), or computed from constants by registered ops that have value semantics
// or are views and have no side effects and no regions (the weight arithmetic conv2d_bn_fold builds). Nothing may
// write the buffers involved.
func Constant(p *ir.Program, v *ir.Value) bool {
	return constant(p, v, map[*ir.Value]bool{})
}

func constant(p *ir.Program, v *ir.Value, memo map[*ir.Value]bool) bool {
	if c, ok := memo[v]; ok {
		return c
	}
	memo[v] = false // cycles (impossible in SSA) and repeated visits start pessimistic
	c := false
	switch d := v.DefiningOp(); {
	case d == nil:
	case IsParam(v):
		c = Immutable(p, v)
	default:
		s := d.Schema()
		if s == nil || s.Has(ir.SideEffects) || d.NumRegions() > 0 || (!HasValueSemantics(d) && !s.Has(ir.ViewLike)) {
			break
		}
		c = !Mutated(v)
		for i := 0; c && i < d.NumOperands(); i++ {
			if o := d.Operand(i); o != nil && !constant(p, o, memo) {
				c = false
			}
		}
	}
	memo[v] = c
	return c
}
