package rules

import (
	"fmt"

	"github.com/pirdrr/drr/ir"
)

// MaximizeValueSemantics is Torch-MLIR's MaximizeValueSemantics pass over our dialect: pass 2 of seed 000 §2.5.1
// for the copies whose tensor is written or aliased, which the declarative rules of value_semantics.drr cannot
// handle. Both of its patterns are rooted at a copy t = pd_op.to_tensor(v) of a value tensor v; the pass applies
// them to every copy until neither applies any more and returns the number of copies removed.
//
// Pattern A (abstract interpretation within a block) collects the slice of the copy: the users of t and, through
// views (ViewLike ops that alias operand 0 as result 0: reshape, squeeze, unsqueeze, flatten, share_data, …) and
// overwrites (pd_op.assign_out_(x, output), whose result aliases output), of every value sharing its buffer. Every
// user must be in the copy's block and be a view, a pd_op.to_vtensor, an overwrite of an alias, or a return
// (pd_op.fetch, builtin.shadow_output). Walking the users in block order, the pass tracks which aliases still hold
// what it knows: an overwrite leaves only the overwritten alias, the overwrite's result and the identity aliases
// the overwritten alias was made from (through pd_op.share_data, our stand-in for Torch's tensor_static_info_cast,
// and through earlier overwrites' results), and every later user must read one of those. Then:
//
//   - every use of an overwritten alias (or of the overwrite's result) after an overwrite pd_op.assign_out_(x, …)
//     reads the overwriting value, a pd_op.to_vtensor snapshot of x taken just before it, and the overwrite is
//     erased;
//   - the copy and every pd_op.to_vtensor of an alias become the value they hold (v, or the snapshot);
//   - views move to value tensors (their results are retyped to pd_op.v_tensor);
//   - returns that read a mutable tensor read a new pd_op.to_tensor of the value instead.
//
// Pattern B (a view subgraph without mutation, which may cross blocks) applies when the only transitive users of t
// are pd_op.to_vtensor, returns and views, with at least one pd_op.to_vtensor or view: each to_vtensor(x) becomes
// x, t becomes v, views move to value tensors and returns read copies back.
//
// Anything else — an op without value semantics or with them but reading the mutable tensor, an unregistered op, a
// user in another block (pattern A), an overwrite whose source and destination types differ (our dialect has no
// static-info cast), a builtin.shadow_output before an overwrite (it publishes the buffer, not a snapshot), a
// slice read only by returns — leaves the copy alone. pd_op.fetch copies when it runs, so a fetch reads the value
// of its moment. Views and snapshots the rewrite leaves without users are erased together with the operands that die
// with them; a view nothing read to begin with stays (it is a result of a program without fetch ops).
func MaximizeValueSemantics(p *ir.Program, rw *ir.Rewriter) (int, error) {
	n := 0
	for {
		var copies []*ir.Op
		for op := range p.Walk() {
			if op.Name() == toTensorName {
				copies = append(copies, op)
			}
		}
		changed := false
		for _, c := range copies {
			if c.Erased() {
				continue
			}
			ok, err := maximizeCopy(p.Ctx, rw, c)
			if err != nil {
				return n, err
			}
			if ok {
				n++
				changed = true
			}
		}
		if !changed {
			return n, nil
		}
	}
}

const (
	toTensorName  = "pd_op.to_tensor"
	toVTensorName = "pd_op.to_vtensor"
	overwriteName = "pd_op.assign_out_"
	shareDataName = "pd_op.share_data"
)

// maximizeCopy applies pattern A, or else pattern B, to the copy cp.
func maximizeCopy(ctx *ir.Context, rw *ir.Rewriter, cp *ir.Op) (bool, error) {
	if s, err := analyzeBlockSlice(cp); err == nil {
		return true, rewriteBlockSlice(ctx, rw, s)
	}
	if s, err := analyzeViewSubgraph(cp); err == nil {
		return true, rewriteViewSubgraph(ctx, rw, s)
	}
	return false, nil
}

// sliceUse is a use of an alias of the copy's buffer, with the type the alias had when the slice was analyzed.
type sliceUse struct {
	use  *ir.Use
	orig ir.Type
}

// copySlice is what the analysis of a copy found: its users by kind, in block order for pattern A.
type copySlice struct {
	cp         *ir.Op
	views      []*ir.Op
	toV        []*ir.Op
	overwrites []*ir.Op
	returns    []*ir.Op
	// aliases are the mutable values of the slice: the copy, view results, overwrite results.
	aliases map[*ir.Value]bool
	// returnUses are the uses of aliases by returns, to convert back after the rewrite.
	returnUses []sliceUse
}

// isMutableTensor reports whether v is a program-level tensor that is not a value tensor.
func isMutableTensor(v *ir.Value) bool {
	if v == nil {
		return false
	}
	t := ir.TensorOf(v.Type())
	return t != nil && !t.IsValue() && plainTensor(t)
}

// isValueTensor reports whether v is a value tensor.
func isValueTensor(v *ir.Value) bool {
	if v == nil {
		return false
	}
	t := ir.TensorOf(v.Type())
	return t != nil && t.IsValue()
}

// isView reports whether op is a view the pass can follow: a registered, read-only ViewLike op (not inplace,
// without regions) with one result that aliases operand 0 and nothing else.
func isView(op *ir.Op) bool {
	s := op.Schema()
	if s == nil || !s.Has(ir.ViewLike) || !s.Has(ir.ReadOnly) || s.Has(ir.Inplace) || op.NumResults() != 1 ||
		op.NumRegions() > 0 || op.NumOperands() == 0 {
		return false
	}
	return len(s.View) == 1 && s.View[0] == ir.IOPair{Operand: 0, Result: 0}
}

// isCastLike reports whether op is an identity view (the same buffer, the same type): pd_op.share_data, the
// nearest thing Paddle has to Torch's tensor_static_info_cast.
func isCastLike(op *ir.Op) bool {
	return op != nil && op.Name() == shareDataName && isView(op)
}

// castLikeAliases returns the values v is an identity alias of (the same buffer with the same type): it follows
// pd_op.share_data to its operand and pd_op.assign_out_ to the tensor it overwrote, up the use-def chain. An
// overwrite of v changes all of them alike.
func castLikeAliases(v *ir.Value) []*ir.Value {
	var out []*ir.Value
	for d := v.DefiningOp(); d != nil; {
		var up *ir.Value
		switch {
		case isCastLike(d):
			up = d.Operand(0)
		case isOverwrite(d):
			up = d.Operand(1)
		}
		if !isMutableTensor(up) {
			break
		}
		out = append(out, up)
		d = up.DefiningOp()
	}
	return out
}

// isOverwrite reports whether op is pd_op.assign_out_(x, output) -> out.
func isOverwrite(op *ir.Op) bool {
	return op.Name() == overwriteName && op.NumOperands() == 2 && op.NumResults() == 1
}

// isReturn reports whether op returns a value to the caller: an output op (ir.IsOutputOp) other than
// builtin.set_parameter, which writes a weight rather than returning a value; a copy read by one stays a copy (the
// pass knows no snapshot rule for a stored weight).
func isReturn(op *ir.Op) bool {
	return ir.IsOutputOp(op) && op.Name() != ir.SetParameterOpName
}

// checkCopy checks the root of both patterns: a pd_op.to_tensor from a value tensor to a mutable tensor.
func checkCopy(cp *ir.Op) error {
	if cp.Name() != toTensorName || cp.NumOperands() != 1 || cp.NumResults() != 1 {
		return fmt.Errorf("%s is not a pd_op.to_tensor copy", cp.Name())
	}
	if !isValueTensor(cp.Operand(0)) {
		return fmt.Errorf("the copy's operand is not a value tensor")
	}
	if !isMutableTensor(cp.Result(0)) {
		return fmt.Errorf("the copy's result is not a mutable tensor")
	}
	if !sameTensorInfo(ir.TensorOf(cp.Operand(0).Type()), ir.TensorOf(cp.Result(0).Type())) {
		return fmt.Errorf("the copy changes the static type")
	}
	if !cp.Result(0).HasUses() {
		return fmt.Errorf("nothing reads the copy")
	}
	return nil
}

// opDesc names op for analysis failures.
func opDesc(op *ir.Op) string {
	if op.Schema() == nil {
		return op.Name() + " (unregistered)"
	}
	return op.Name()
}

// analyzeBlockSlice is the analysis of pattern A: it collects the slice of copy within its block and interprets
// it abstractly, or says why the pattern does not apply.
func analyzeBlockSlice(cp *ir.Op) (*copySlice, error) {
	if err := checkCopy(cp); err != nil {
		return nil, err
	}
	block := cp.Block()
	usedBy := map[*ir.Op][]*ir.Use{}
	var users []*ir.Op
	validViews := map[*ir.Op]bool{}
	var viewsToCheck []*ir.Op
	aliases := map[*ir.Value]bool{cp.Result(0): true}
	var work []*ir.Use
	push := func(v *ir.Value) {
		for u := range v.Uses() {
			work = append(work, u)
		}
	}
	push(cp.Result(0))
	for len(work) > 0 {
		u := work[len(work)-1]
		work = work[:len(work)-1]
		op := u.Owner()
		if op.Block() != block {
			return nil, fmt.Errorf("%s reads an alias of the copy in another block", opDesc(op))
		}
		switch {
		case isView(op):
			if r := op.Result(0); isMutableTensor(r) {
				if u.Index() == 0 {
					validViews[op] = true
					aliases[r] = true
					push(r)
				} else {
					viewsToCheck = append(viewsToCheck, op)
				}
			}
		case isOverwrite(op) && u.Index() == 1:
			// The result of an overwrite aliases the overwritten tensor.
			aliases[op.Result(0)] = true
			push(op.Result(0))
		}
		if _, seen := usedBy[op]; !seen {
			users = append(users, op)
		}
		usedBy[op] = append(usedBy[op], u)
	}
	onlyReturns := true
	for _, op := range users {
		onlyReturns = onlyReturns && isReturn(op)
	}
	if onlyReturns {
		return nil, fmt.Errorf("only returns read the copy")
	}
	for _, op := range viewsToCheck {
		if !validViews[op] {
			return nil, fmt.Errorf("%s takes an alias of the copy as an operand other than the viewed operand 0",
				opDesc(op))
		}
	}
	sortInBlock(users)

	s := &copySlice{cp: cp, aliases: aliases}
	available := map[*ir.Value]bool{cp.Result(0): true}
	var lastOverwrite *ir.Op
	var shadowOutputs []*ir.Op
	for _, op := range users {
		for _, u := range usedBy[op] {
			if !available[u.Value()] {
				return nil, fmt.Errorf("%s reads an alias of the copy that an overwrite has made stale", opDesc(op))
			}
		}
		switch {
		case isView(op):
			if r := op.Result(0); isMutableTensor(r) {
				available[r] = true
			}
			s.views = append(s.views, op)
		case op.Name() == toVTensorName:
			if err := checkSnapshot(op); err != nil {
				return nil, err
			}
			s.toV = append(s.toV, op)
		case isOverwrite(op):
			out := op.Operand(1)
			if !aliases[out] {
				return nil, fmt.Errorf("%s reads an alias of the copy as the source of an overwrite of another tensor",
					opDesc(op))
			}
			if err := checkOverwriteTypes(op); err != nil {
				return nil, err
			}
			available = map[*ir.Value]bool{out: true, op.Result(0): true}
			for _, a := range castLikeAliases(out) {
				available[a] = true
			}
			s.overwrites = append(s.overwrites, op)
			lastOverwrite = op
		case isReturn(op):
			s.returns = append(s.returns, op)
			if op.Name() == ir.ShadowOutputOpName {
				shadowOutputs = append(shadowOutputs, op)
			}
			for _, u := range usedBy[op] {
				s.returnUses = append(s.returnUses, sliceUse{use: u, orig: u.Value().Type()})
			}
		default:
			return nil, fmt.Errorf("unsupported op %s reads an alias of the copy", opDesc(op))
		}
	}
	// builtin.shadow_output publishes the buffer itself, not a snapshot: it sees the writes that come after it.
	for _, so := range shadowOutputs {
		if lastOverwrite != nil && so.IsBefore(lastOverwrite) {
			return nil, fmt.Errorf("builtin.shadow_output publishes the buffer before a later overwrite of it")
		}
	}
	return s, nil
}

// checkOverwriteTypes requires the overwriting value to have the overwritten tensor's type up to the spelling:
// Paddle has no op that changes only static type information (Torch's tensor_static_info_cast), so the users of
// the overwritten tensor could not read the overwriting value.
func checkOverwriteTypes(op *ir.Op) error {
	src, dst := ir.TensorOf(op.Operand(0).Type()), ir.TensorOf(op.Operand(1).Type())
	if src == nil || dst == nil || !plainTensor(src) {
		return fmt.Errorf("%s overwrites with a value that is not a tensor", opDesc(op))
	}
	if !sameTensorInfo(src, dst) {
		return fmt.Errorf("%s overwrites a %s with a %s (our dialect has no static-info cast)", opDesc(op), dst, src)
	}
	return nil
}

// checkSnapshot requires a pd_op.to_vtensor to keep its operand's static type, so that the value replacing it
// has the type its users expect.
func checkSnapshot(op *ir.Op) error {
	if op.NumOperands() != 1 || op.NumResults() != 1 {
		return fmt.Errorf("malformed %s", op.Name())
	}
	src, dst := ir.TensorOf(op.Operand(0).Type()), ir.TensorOf(op.Result(0).Type())
	if src == nil || dst == nil || !dst.IsValue() || !sameTensorInfo(src, dst) {
		return fmt.Errorf("%s changes the static type (%s to %s)", op.Name(), op.Operand(0).Type(), op.Result(0).Type())
	}
	return nil
}

// sameTensorInfo reports whether a and b differ at most in their spelling.
func sameTensorInfo(a, b *ir.TensorType) bool {
	if a.Elem != b.Elem || a.Layout != b.Layout || a.Offset != b.Offset || len(a.Dims) != len(b.Dims) ||
		len(a.LoD) != len(b.LoD) {
		return false
	}
	for i := range a.Dims {
		if a.Dims[i] != b.Dims[i] {
			return false
		}
	}
	for i := range a.LoD {
		if len(a.LoD[i]) != len(b.LoD[i]) {
			return false
		}
		for j := range a.LoD[i] {
			if a.LoD[i][j] != b.LoD[i][j] {
				return false
			}
		}
	}
	return true
}

// sortInBlock sorts ops of one block by position.
func sortInBlock(ops []*ir.Op) {
	// Insertion sort: slices are small, and IsBefore is amortized O(1).
	for i := 1; i < len(ops); i++ {
		for j := i; j > 0 && ops[j].IsBefore(ops[j-1]); j-- {
			ops[j], ops[j-1] = ops[j-1], ops[j]
		}
	}
}

// rewriteBlockSlice is the rewrite of pattern A.
func rewriteBlockSlice(ctx *ir.Context, rw *ir.Rewriter, s *copySlice) error {
	read := readViews(s.views)
	copyLike := []*ir.Op{s.cp}
	copyLike = append(copyLike, s.toV...)
	var dead []*ir.Op
	// Overwrites go first, last to first: uses after an overwrite read the overwriting value.
	for i := len(s.overwrites) - 1; i >= 0; i-- {
		ow := s.overwrites[i]
		src, out, res := ow.Operand(0), ow.Operand(1), ow.Result(0)
		val := src
		if !isValueTensor(src) {
			rw.SetInsertionPointBefore(ow)
			snap := rw.Create(ir.OpSpec{Name: toVTensorName, Operands: []*ir.Value{src},
				Results: []ir.Type{ctx.WithSpelling(ir.TensorOf(src.Type()), ir.ValueTensor)}, Loc: ow.Loc})
			val = snap.Result(0)
			if s.aliases[src] {
				copyLike = append(copyLike, snap)
			} else {
				dead = append(dead, snap)
			}
		}
		overwritten := append([]*ir.Value{out}, castLikeAliases(out)...)
		for _, a := range overwritten {
			rw.ReplaceUsesIf(a, val, func(u *ir.Use) bool {
				o := u.Owner()
				return o != ow && o.Block() == ow.Block() && !o.IsBefore(ow)
			})
		}
		rw.ReplaceAllUsesWith(res, val)
		if err := rw.Erase(ow); err != nil {
			return err
		}
		dead = append(dead, operandDefs(out, src)...)
	}
	for _, op := range copyLike {
		if err := rw.ReplaceOp(op, []*ir.Value{op.Operand(0)}); err != nil {
			return err
		}
	}
	retypeViews(ctx, rw, s.views)
	convertReturns(rw, s.returnUses)
	return eraseDead(rw, append(dead, read...))
}

// readViews returns the views that something reads. Only they may be erased once the rewrite leaves them without
// users: a view nothing read to begin with is a result of the program (a sink of a program without fetch ops, the
// squeeze that ends a classifier), not something the rewrite made dead.
func readViews(views []*ir.Op) []*ir.Op {
	var out []*ir.Op
	for _, op := range views {
		if op.HasUses() {
			out = append(out, op)
		}
	}
	return out
}

// operandDefs returns the defining ops of vs.
func operandDefs(vs ...*ir.Value) []*ir.Op {
	var out []*ir.Op
	for _, v := range vs {
		if d := v.DefiningOp(); d != nil {
			out = append(out, d)
		}
	}
	return out
}

// retypeViews moves views to value tensors.
func retypeViews(ctx *ir.Context, rw *ir.Rewriter, views []*ir.Op) {
	for _, op := range views {
		r := op.Result(0)
		if t := ir.TensorOf(r.Type()); t != nil && !t.IsValue() {
			rw.SetType(r, ctx.WithSpelling(t, ir.ValueTensor))
		}
	}
}

// convertReturns makes the returns that read a mutable tensor before the rewrite read a pd_op.to_tensor copy of
// the value that replaced it, so that program outputs keep their types.
func convertReturns(rw *ir.Rewriter, uses []sliceUse) {
	for _, su := range uses {
		u := su.use
		ret := u.Owner()
		if ret.Erased() || !isValueTensor(u.Value()) {
			continue
		}
		rw.SetInsertionPointBefore(ret)
		back := rw.Create(ir.OpSpec{Name: toTensorName, Operands: []*ir.Value{u.Value()}, Results: []ir.Type{su.orig},
			Loc: ret.Loc})
		rw.SetOperand(ret, u.Index(), back.Result(0))
	}
}

// eraseDead erases the ops of candidates that nothing uses, and then the defining ops of their operands that die
// with them (registered ops without side effects), as MLIR's greedy driver does.
func eraseDead(rw *ir.Rewriter, candidates []*ir.Op) error {
	work := append([]*ir.Op(nil), candidates...)
	for len(work) > 0 {
		op := work[len(work)-1]
		work = work[:len(work)-1]
		if op.Erased() || !removable(op) {
			continue
		}
		defs := operandDefs(op.Operands()...)
		if err := rw.Erase(op); err != nil {
			return err
		}
		work = append(work, defs...)
	}
	return nil
}

// removable reports whether op can be erased: registered, unused, without side effects, regions or a terminator
// role.
func removable(op *ir.Op) bool {
	s := op.Schema()
	return s != nil && !op.HasUses() && !s.Has(ir.SideEffects) && !s.Has(ir.Terminator) && op.NumRegions() == 0
}

// analyzeViewSubgraph is the analysis of pattern B: the transitive users of copy through views are only
// pd_op.to_vtensor copies, returns and views (in any block), and there is a to_vtensor or a view.
func analyzeViewSubgraph(cp *ir.Op) (*copySlice, error) {
	if err := checkCopy(cp); err != nil {
		return nil, err
	}
	s := &copySlice{cp: cp, aliases: map[*ir.Value]bool{cp.Result(0): true}}
	seenView := map[*ir.Op]bool{}
	validViews := map[*ir.Op]bool{}
	var viewsToCheck []*ir.Op
	var work []*ir.Use
	push := func(v *ir.Value) {
		for u := range v.Uses() {
			work = append(work, u)
		}
	}
	push(cp.Result(0))
	for len(work) > 0 {
		u := work[len(work)-1]
		work = work[:len(work)-1]
		op := u.Owner()
		switch {
		case op.Name() == toVTensorName:
			if err := checkSnapshot(op); err != nil {
				return nil, err
			}
			s.toV = append(s.toV, op)
		case isReturn(op):
			s.returns = append(s.returns, op)
			s.returnUses = append(s.returnUses, sliceUse{use: u, orig: u.Value().Type()})
		case isView(op):
			if !seenView[op] {
				seenView[op] = true
				s.views = append(s.views, op)
			}
			r := op.Result(0)
			if u.Index() != 0 {
				if isMutableTensor(r) {
					viewsToCheck = append(viewsToCheck, op)
				}
				continue
			}
			validViews[op] = true
			if isMutableTensor(r) {
				s.aliases[r] = true
				push(r)
			}
		default:
			return nil, fmt.Errorf("%s reads an alias of the copy and is not a pd_op.to_vtensor, a view or a return",
				opDesc(op))
		}
	}
	for _, op := range viewsToCheck {
		if !validViews[op] {
			return nil, fmt.Errorf("%s takes an alias of the copy as an operand other than the viewed operand 0",
				opDesc(op))
		}
	}
	if len(s.toV) == 0 && len(s.views) == 0 {
		return nil, fmt.Errorf("no pd_op.to_vtensor and no view reads the copy")
	}
	return s, nil
}

// rewriteViewSubgraph is the rewrite of pattern B.
func rewriteViewSubgraph(ctx *ir.Context, rw *ir.Rewriter, s *copySlice) error {
	read := readViews(s.views)
	for _, op := range s.toV {
		if err := rw.ReplaceOp(op, []*ir.Value{op.Operand(0)}); err != nil {
			return err
		}
	}
	if err := rw.ReplaceOp(s.cp, []*ir.Value{s.cp.Operand(0)}); err != nil {
		return err
	}
	retypeViews(ctx, rw, s.views)
	convertReturns(rw, s.returnUses)
	return eraseDead(rw, read)
}
