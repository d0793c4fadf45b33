package rewriter

import (
	"fmt"
	"slices"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// NativeRewrite is a rewrite written in Go and called by name from a rule's rewrite block. It gets the rewriter
// (to create ops at the rewrite's insertion point and to change the program) and the evaluated arguments (values,
// attributes converted to plain Go values, …), and returns the values it defines.
type NativeRewrite func(rw *ir.Rewriter, args []any) ([]*ir.Value, error)

// Applier applies matches: it builds a rule's result ops, redirects uses and erases what died. It never leaves a
// program half rewritten when a rule's own actions fail: every op of the rewrite is built (attributes computed,
// result types inferred) before anything is inserted. Only native rewrites, which change the program themselves,
// run in the commit phase.
type Applier struct {
	Rewriter *ir.Rewriter
	Program  *ir.Program
	// Natives resolves native rewrite names.
	Natives map[string]NativeRewrite
	// Oracle answers program-level builtins in attribute expressions (rarely needed there).
	Oracle rule.Oracle

	plans     map[*rule.Create]*createPlan
	rulePlans map[*rule.Rule]*rulePlan

	// Scratch space reused by every Apply.
	env      matchEnv
	built    []*ir.Op
	operands []*ir.Value
	types    []ir.Type
	attrBuf  []ir.NamedAttr
	attrVals []ir.Attribute
}

// Oracle is rule.Oracle, the one oracle of the matcher, the rewriter and the verifier.
//
// Deprecated: use rule.Oracle; this name stays for the code written against it.
type Oracle = rule.Oracle

// ApplyError is a rewrite that could not be carried out. Committed reports whether the program was already
// changed when it failed (only native rewrites and explicit erasures can fail that late).
type ApplyError struct {
	Rule      *rule.Rule
	Root      *ir.Op
	Committed bool
	Err       error
}

func (e *ApplyError) Error() string { return fmt.Sprintf("rule %s: %v", e.Rule.ID(), e.Err) }

func (e *ApplyError) Unwrap() error { return e.Err }

// matchEnv evaluates expressions against a match and the values the rewrite has defined so far.
type matchEnv struct {
	m      *rule.Match
	newV   []*ir.Value
	newL   [][]*ir.Value // the list new values (NewValue.List)
	oracle rule.Oracle
}

func (e *matchEnv) Hole(i int) (any, bool) {
	v := e.m.Holes[i]
	return v, v != nil
}

func (e *matchEnv) Value(r rule.Ref) *ir.Value {
	if r.New {
		return e.newV[r.Index]
	}
	return e.m.Values[r.Index]
}

func (e *matchEnv) List(r rule.Ref) []*ir.Value {
	if r.New {
		return e.newL[r.Index]
	}
	return e.m.Lists[r.Index]
}

func (e *matchEnv) Builtin(name string, args []any) (any, bool, error) {
	if e.oracle == nil {
		return nil, false, nil
	}
	return e.oracle.Builtin(name, args)
}

func (e *matchEnv) Native(name string, args []any) (any, error) {
	if e.oracle == nil {
		return nil, fmt.Errorf("native constraint %s is not available", name)
	}
	return e.oracle.Native(name, args)
}

// Param implements rule.ParamSource: rule-set parameters come with the oracle (rule.WithParams).
func (e *matchEnv) Param(name string) (any, bool) { return rule.OracleParam(e.oracle, name) }

// Apply carries out match m. On success it returns the ops it created; the slice is the applier's and is reused
// by its next Apply.
func (a *Applier) Apply(m *rule.Match) ([]*ir.Op, error) {
	m = a.onPath(m)
	r := m.Rule
	root := m.Root()
	env := &a.env
	env.m, env.oracle = m, a.Oracle
	env.newV = append(env.newV[:0], make([]*ir.Value, len(r.NewValues))...)
	env.newL = append(env.newL[:0], make([][]*ir.Value, len(r.NewValues))...)

	ip, err := insertionPoint(m)
	if err != nil {
		return nil, a.fail(m, false, "%v", err)
	}
	replaced := a.rulePlan(r).replaced

	// Phase 1: build the result ops detached, up to the first native rewrite.
	a.built = a.built[:0]
	next := 0
	for ; next < len(r.Actions); next++ {
		c, ok := r.Actions[next].(*rule.Create)
		if !ok {
			if _, native := r.Actions[next].(*rule.NativeRewrite); native {
				break
			}
			continue
		}
		op, err := a.build(c, env, m, replaced)
		if err != nil {
			a.release()
			return nil, a.fail(m, false, "%s: %v", c.Op, err)
		}
		a.built = append(a.built, op)
	}
	var moves []*ir.Op
	if !inputsDominate(r, m, ip) {
		if moves = lateInputs(r, m, ip); moves == nil {
			a.release()
			return nil, a.fail(m, false, "an input of the rewrite is not defined before the insertion point")
		}
	}
	// A replacement must keep the type the users read: a fused op built with the wrong attributes (a conv's
	// paddings left at their defaults) infers another shape, and its users would silently read a wrong one.
	for _, act := range r.Actions {
		rep, ok := act.(*rule.Replace)
		if !ok {
			continue
		}
		if rep.Each {
			if err := eachReplaceable(r, rep, env); err != nil {
				a.release()
				return nil, a.fail(m, false, "%v", err)
			}
			continue
		}
		from, to := env.Value(rep.Value), env.Value(rep.With)
		if from == nil || to == nil || replaceableBy(from.Type(), to.Type()) {
			continue
		}
		name := rule.ValueName(r.Pattern, rep.Value.Index)
		if rep.Value.New {
			name = "%" + r.NewValues[rep.Value.Index].Name
		}
		a.release()
		return nil, a.fail(m, false, "%s is replaced by a value of type %s, not %s: its users would read another type",
			name, to.Type(), from.Type())
	}

	// Phase 2: commit. The created ops are a.built, to which the ops built after a native rewrite are added.
	b := a.Rewriter
	for _, d := range moves {
		b.MoveBefore(d, ip)
	}
	b.SetInsertionPointBefore(ip)
	for _, op := range a.built {
		b.Insert(op)
	}
	for i := 0; i < len(r.Actions); i++ {
		act := r.Actions[i]
		if i < next {
			if _, isCreate := act.(*rule.Create); isCreate {
				continue
			}
		}
		switch act := act.(type) {
		case *rule.Create:
			op, err := a.build(act, env, m, replaced)
			if err != nil {
				return a.built, a.fail(m, true, "%s: %v", act.Op, err)
			}
			b.SetInsertionPointBefore(ip)
			b.Insert(op)
			a.built = append(a.built, op)
		case *rule.NativeRewrite:
			f := a.Natives[act.Name]
			if f == nil {
				return a.built, a.fail(m, true, "%s", rule.UnregisteredNative("rewrite", act.Name))
			}
			args := make([]any, len(act.Args))
			for j, x := range act.Args {
				v, err := rule.Eval(x, env)
				if err != nil {
					return a.built, a.fail(m, true, "%v", err)
				}
				args[j] = v
			}
			b.SetInsertionPointBefore(ip)
			vals, err := f(b, args)
			if err != nil {
				return a.built, a.fail(m, true, "native rewrite %s: %v", act.Name, err)
			}
			if len(vals) != len(act.Results) {
				return a.built, a.fail(m, true, "native rewrite %s returned %d values, the rule expects %d", act.Name, len(vals), len(act.Results))
			}
			for j, k := range act.Results {
				if k >= 0 {
					env.newV[k] = vals[j]
				}
			}
		case *rule.Replace:
			if act.Each {
				for i, from := range env.List(act.Value) {
					b.ReplaceAllUsesWith(from, env.List(act.With)[i])
				}
				continue
			}
			from, to := env.Value(act.Value), env.Value(act.With)
			if from == nil || to == nil {
				return a.built, a.fail(m, true, "replace: value not bound")
			}
			if act.Later {
				created := a.built
				b.ReplaceUsesIf(from, to, func(u *ir.Use) bool {
					o := u.Owner()
					if slices.Contains(created, o) {
						return false
					}
					l := ir.LiftTo(o, root.Block())
					return l != nil && l != root && root.IsBefore(l)
				})
			} else {
				b.ReplaceAllUsesWith(from, to)
			}
		case *rule.Erase:
			op := m.Ops[act.Op]
			if op.Erased() {
				continue
			}
			if err := b.Erase(op); err != nil {
				return a.built, a.fail(m, true, "erase: %v", err)
			}
		}
	}
	a.eraseDead(m)
	return a.built, nil
}

// fail returns the ApplyError of a rewrite of m that could not be carried out.
func (a *Applier) fail(m *rule.Match, committed bool, format string, args ...any) error {
	return &ApplyError{Rule: m.Rule, Root: m.Root(), Committed: committed, Err: fmt.Errorf(format, args...)}
}

// release destroys the ops built for a rewrite that is abandoned before its commit.
func (a *Applier) release() {
	rel := ir.NewRewriter(a.Rewriter.Ctx, nil)
	for i := len(a.built) - 1; i >= 0; i-- {
		_ = rel.Erase(a.built[i])
	}
	a.built = a.built[:0]
}

// eraseDead erases the matched ops that have no uses left, consumers before producers. Ops with the SideEffects
// trait stay unless the rule erased them explicitly.
func (a *Applier) eraseDead(m *rule.Match) {
	for changed := true; changed; {
		changed = false
		for i := len(m.Group) - 1; i >= 0; i-- { // a users group's elements (Group[0] is Ops[Root] too)
			if op := m.Group[i]; !op.Erased() && !op.HasUses() && !op.Has(ir.SideEffects) && a.Rewriter.Erase(op) == nil {
				changed = true
			}
		}
		for i := len(m.Ops) - 1; i >= 0; i-- {
			op := m.Ops[i]
			if op == nil || op.Erased() || op.HasUses() || op.Has(ir.SideEffects) {
				continue
			}
			if a.Rewriter.Erase(op) == nil {
				changed = true
			}
		}
	}
}

// insertionPoint returns the op before which the rewrite's ops go: the root, or the first user (in the root's
// block) of a value the rewrite replaces, whichever comes first.
func insertionPoint(m *rule.Match) (*ir.Op, error) {
	root := m.Root()
	blk := root.Block()
	ip := root
	for _, act := range m.Rule.Actions {
		rep, ok := act.(*rule.Replace)
		if !ok || rep.Later || rep.Value.New {
			continue
		}
		vs := m.Lists[rep.Value.Index] // a per-element value of a users group
		if v := m.Values[rep.Value.Index]; v != nil {
			vs = []*ir.Value{v}
		}
		for _, v := range vs {
			for u := range v.Uses() {
				l := ir.LiftTo(u.Owner(), blk)
				if l == nil {
					return nil, fmt.Errorf("%s is used outside the block of the root", "a replaced value")
				}
				if l.IsBefore(ip) {
					ip = l
				}
			}
		}
	}
	return ip, nil
}

// lateInputs returns, for a rule with a users group, the ops that define the rewrite's inputs after ip when each
// is an op without operands in ip's block (a parameter, constant or data op read only by later elements): the
// rewrite moves them before ip, as Paddle's horizontal_fuse_pass does. It returns nil when the rule has no group or
// an input is defined after ip otherwise.
func lateInputs(r *rule.Rule, m *rule.Match, ip *ir.Op) []*ir.Op {
	if m.Group == nil {
		return nil
	}
	var moves []*ir.Op
	ok := true
	check := func(v *ir.Value) {
		if v == nil || ir.Dominates(v, ip) {
			return
		}
		d := v.DefiningOp()
		if d == nil || d.Block() != ip.Block() || d.NumOperands() > 0 || d.NumRegions() > 0 {
			ok = false
			return
		}
		if !slices.Contains(moves, d) {
			moves = append(moves, d)
		}
	}
	for _, act := range r.Actions {
		c, isCreate := act.(*rule.Create)
		if !isCreate {
			continue
		}
		for _, o := range c.Operands {
			switch {
			case o.Null || o.Ref.New:
			case o.List:
				for _, v := range m.Lists[o.Ref.Index] {
					check(v)
				}
			default:
				check(m.Values[o.Ref.Index])
			}
		}
	}
	if !ok || len(moves) == 0 {
		return nil
	}
	// In program order, so that the moved ops keep their order.
	slices.SortFunc(moves, func(x, y *ir.Op) int {
		if x.IsBefore(y) {
			return -1
		}
		return 1
	})
	return moves
}

// eachReplaceable checks a pairwise replace of a users group's per-element value: as many replacements as
// elements, each of a type its users may read.
func eachReplaceable(r *rule.Rule, rep *rule.Replace, env *matchEnv) error {
	from, to := env.List(rep.Value), env.List(rep.With)
	name := rule.ValueName(r.Pattern, rep.Value.Index)
	if len(from) != len(to) {
		return fmt.Errorf("%s... has %d elements, its replacement %d", name, len(from), len(to))
	}
	for i := range from {
		if to[i] == nil || !replaceableBy(from[i].Type(), to[i].Type()) {
			return fmt.Errorf("%s[%d] is replaced by a value of another type than %s: its users would read another type",
				name, i, from[i].Type())
		}
	}
	return nil
}

// inputsDominate reports whether every matched value the rewrite's ops read is defined before ip.
func inputsDominate(r *rule.Rule, m *rule.Match, ip *ir.Op) bool {
	for _, act := range r.Actions {
		c, ok := act.(*rule.Create)
		if !ok {
			continue
		}
		for _, o := range c.Operands {
			if o.Null || o.Ref.New {
				continue
			}
			if o.List {
				for _, v := range m.Lists[o.Ref.Index] {
					if v != nil && !ir.Dominates(v, ip) { // nil: an absent optional operand in the list
						return false
					}
				}
			} else if v := m.Values[o.Ref.Index]; v != nil && !ir.Dominates(v, ip) {
				return false
			}
		}
	}
	return true
}

// replaceableBy reports whether a value of type to may take the place of one of type from: the same type, or
// tensors of the same kind and element type whose dimensions agree wherever both are known.
func replaceableBy(from, to ir.Type) bool {
	if from == to {
		return true
	}
	ft, tt := ir.TensorOf(from), ir.TensorOf(to)
	if ft == nil || tt == nil {
		return false
	}
	if !sameTensorKind(ft.Spelling, tt.Spelling) || ft.Elem != tt.Elem || len(ft.Dims) != len(tt.Dims) {
		return false
	}
	for i, d := range ft.Dims {
		if d >= 0 && tt.Dims[i] >= 0 && d != tt.Dims[i] {
			return false
		}
	}
	return true
}

// sameTensorKind reports whether two tensor spellings name the same kind of tensor: builtin.tensor, pd_op.tensor
// (2023 prints) and the bare tensor (newest prints) are one mutable dense tensor printed three ways, and programs
// of the older syntax mix them (a builtin.get_parameter yields pd_op.tensor, its users read builtin.tensor); the
// value tensor and kernel-dialect spellings are kinds of their own.
func sameTensorKind(a, b string) bool {
	dense := func(s string) bool { return s == ir.DenseTensor || s == ir.LegacyTensor || s == ir.BareTensor }
	return a == b || dense(a) && dense(b)
}
