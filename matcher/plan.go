package matcher

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// Plan is how one rule is matched at an op: a sequence of instructions that bind the pattern's ops, values and
// $holes one by one and check everything the matching semantics (doc.go) require, in the exploration order. It is
// the one form of matching, as MLIR lowers PDL to PDLInterp: the automaton derives its decision tree and the
// remainders it runs from the plans, Explain interprets a plan with a message per instruction, and the code
// drrc gen writes (package rulegen) prints a plan as Go, a statement per instruction. A change of the language is
// a change of the planner (NewPlan) and of the instructions, nowhere else.
//
// The instructions run in order; a check that fails abandons the current alternative: execution resumes at the
// newest choice point (ChooseSwap, ChooseUser, ChooseAlt) that has an alternative left, or the rule does not match.
// Each alternative of a choice point runs the rest of the plan. Success ends a match: the bindings then are the
// rule's match at the op (the first, in the order of the alternatives).
//
// Alternatives in a pattern (rule.AltGroup, `a | b` in the language) are a ChooseAlt whose branches are laid out
// after it, one after the other. Where the paths through the branches go on alike — each has bound its branch's ops
// and has nothing left but the producer of one value read from outside the alternatives, or nothing — the branches
// join: each ends with a Jump to the code after them, planned once (ChooseAlt.Join); there the ops and values of a
// branch not taken are nil, and a constraint that calls bound(…) is decided on the match. Otherwise each branch is
// the rest of the plan, planned for that branch (its ops bound, the others not), and ends with its own Success.
//
// A constant-like op pattern (rule.OpPattern.Constant) matches by value: CheckDistinct never separates two of
// them, and a second reader of the value one defines checks it with CheckConst (the same value, or the result of
// an equal constant op) instead of CheckOperand.
//
// A users group (rule.UsersGroup) is BindRoot, the group's value, one CollectUsers whose Sub is the element's code,
// the group's constraints and Success: the users are collected in program order, not searched.
type Plan struct {
	// Rule is the rule the plan matches.
	Rule *rule.Rule
	// Instrs are the instructions: BindRoot first, Success last.
	Instrs []Instr
}

// Opcode says what an instruction does. In the comments, Ops[Op] is the op bound to pattern op Op, %Value the value
// (or list) bound to value hole Value, and $Hole the binding of $hole Hole.
type Opcode uint8

// The instructions.
const (
	BindRoot         Opcode = iota // Ops[Op] = the op being matched (Op is the pattern's root)
	CheckName                      // Ops[Op] is named Name (the root's name: what the matcher dispatched on)
	CheckOperands                  // Ops[Op] has N operands (AtLeast: N or more)
	CheckResults                   // Ops[Op] has N results (AtLeast: N or more)
	BindAttr                       // $Hole = attribute Name of Ops[Op], or its schema default; one of them must exist
	CheckAttr                      // attribute Name of Ops[Op] (or its default) exists and is $Hole, bound before
	CheckAttrLit                   // attribute Name of Ops[Op] (or its default) is Literal
	CheckAttrPresent               // Ops[Op] carries attribute Name itself (a default does not count)
	BindRestAttrs                  // $Hole = the attributes of Ops[Op] not in Names, in order (bound: must equal it)
	CheckUnused                    // result Index of Ops[Op] has no uses
	CheckExtraUnused               // results N and later of Ops[Op] have no uses
	BindResult                     // %Value = result Index of Ops[Op]
	ChooseSwap                     // choice point: operands 0 and 1 of Ops[Op] as written, then swapped
	CheckOperand                   // operand Index of Ops[Op] is %Value
	CheckConst                     // operand Index of Ops[Op] is %Value or a value equal to it (SameConstant)
	BindOperand                    // %Value = operand Index of Ops[Op], which must be present
	BindDef                        // Ops[Op] = the op defining %Value, of which %Value must be result N
	CheckDistinct                  // Ops[Op] is none of the ops bound to the pattern ops Bound (those it could be)
	CheckNull                      // operand Index of Ops[Op] is absent
	BindList                       // %Value... = operands Index and later of Ops[Op] (possibly none)
	CheckList                      // operands Index and later of Ops[Op] are exactly %Value...
	CheckType                      // the type of %Value (of each element of a list, all present) matches Type
	ChooseUser                     // choice point: Ops[Op] = each distinct user of %Value, in program order
	CheckClosure                   // every use of %Value is an operand of an op of the match
	CheckUses                      // uses(%Value) Cmp N: where constraint number Where (Expr), decided directly
	CheckWhere                     // where constraint number Where (Expr) evaluates to true
	Success                        // the bindings are a match
	ChooseAlt                      // choice point: the branches of alternatives Alt (at operand Index of Ops[Op], bound to %Value), in order; branch b's code starts at Targets[b], after unbinding the ops Reset
	BindAlias                      // %Value = %Other: branch Index of alternatives Alt is the value it names (or defines)
	CheckAlias                     // %Value is %Other: branch Index of alternatives Alt names a value bound already
	CollectUsers                   // users group: Ops[Op] (the root) and each later user of %Value in its block that passes Sub are the elements, N (min) to Max of them
	Jump                           // continue at instruction N: a branch of alternatives joins the code after them (ChooseAlt.Join)
)

var opcodeNames = [...]string{BindRoot: "BindRoot", CheckName: "CheckName", CheckOperands: "CheckOperands",
	CheckResults: "CheckResults", BindAttr: "BindAttr", CheckAttr: "CheckAttr", CheckAttrLit: "CheckAttrLit",
	CheckAttrPresent: "CheckAttrPresent", BindRestAttrs: "BindRestAttrs", CheckUnused: "CheckUnused",
	CheckExtraUnused: "CheckExtraUnused", BindResult: "BindResult", ChooseSwap: "ChooseSwap",
	CheckOperand: "CheckOperand", CheckConst: "CheckConst", BindOperand: "BindOperand", BindDef: "BindDef", CheckDistinct: "CheckDistinct",
	CheckNull: "CheckNull", BindList: "BindList", CheckList: "CheckList", CheckType: "CheckType",
	ChooseUser: "ChooseUser", CheckClosure: "CheckClosure", CheckUses: "CheckUses", CheckWhere: "CheckWhere",
	Success: "Success", ChooseAlt: "ChooseAlt", BindAlias: "BindAlias", CheckAlias: "CheckAlias",
	CollectUsers: "CollectUsers", Jump: "Jump"}

func (c Opcode) String() string {
	if int(c) < len(opcodeNames) {
		return opcodeNames[c]
	}
	return "Opcode(" + strconv.Itoa(int(c)) + ")"
}

// Instr is one instruction of a plan. The fields an opcode does not mention are zero.
type Instr struct {
	Code Opcode
	// Op is a pattern op (an index in Pattern.Ops); Index an operand or result index of it. An operand index is
	// the pattern's: under the swapped choice of a ChooseSwap, operands 0 and 1 of the op are read crosswise.
	Op, Index int
	// Value is a value hole (an index in Pattern.Values), Hole a $hole (an index in Pattern.Holes).
	Value, Hole int
	// N is a number of operands or results, the first result of CheckExtraUnused, BindDef's result index, the
	// count CheckUses compares with, or Jump's target.
	N int
	// AtLeast makes CheckOperands and CheckResults accept N or more.
	AtLeast bool
	// Name is an op name (CheckName) or an attribute name.
	Name string
	// Literal is CheckAttrLit's attribute.
	Literal ir.Attribute
	// Names are the attributes the op pattern lists (BindRestAttrs).
	Names []string
	// Bound are the pattern ops bound before Op that could bind the same op (CheckDistinct), in the order they
	// were bound.
	Bound []int
	// Type is the type pattern of %Value (CheckType).
	Type *rule.TypePattern
	// Cmp is CheckUses's comparison.
	Cmp Cmp
	// Where is the index in Rule.Where of the constraint of CheckUses and CheckWhere; Expr is that constraint, or
	// for a constraint that calls bound(…), the constraint with bound decided for the path the instruction is on
	// (Path.Fold); a constraint that folds to true is not checked. After branches that joined, which serve several
	// paths, the constraint is as written (bound is decided on the match) and Path is nil.
	Where int
	Expr  rule.Expr
	// Path is what the CheckWhere's path through the alternatives binds, when its constraint calls bound(…) (nil
	// otherwise): the printer of a plan folds its own form of the constraint with it.
	Path *rule.PathBinds
	// Alt is the alternatives (an index in Pattern.Alts) of ChooseAlt, BindAlias and CheckAlias; Other the value
	// hole BindAlias reads and CheckAlias compares with.
	Alt, Other int
	// Targets are the instruction indices where ChooseAlt's branches start; Reset, ResetVals and ResetHoles the
	// pattern ops, value holes and $holes not bound before it, which entering a branch unbinds (a branch binds ops,
	// values and $holes the others do not, which a match leaves nil).
	Targets, Reset, ResetVals, ResetHoles []int
	// Join is, for a ChooseAlt whose branches join, the index of the instruction where the code after them starts:
	// each branch ends with a Jump to it. It is 0 when each branch runs to its own Success.
	Join int
	// Sub is CollectUsers's element code: the checks and per-element bindings one element makes, run with Ops[Op]
	// set to the element (a straight line: no choice point, no Success). Run on the root, its BindAttr and type
	// holes bind the shared $holes; on a later user they compare with them. Max is its largest element count.
	Sub []Instr
	Max int
}

// Cmp is the comparison of a CheckUses instruction.
type Cmp uint8

// The comparisons.
const (
	CmpEq Cmp = iota
	CmpNe
	CmpLt
	CmpLe
	CmpGt
	CmpGe
)

var cmpNames = [...]string{"==", "!=", "<", "<=", ">", ">="}

func (c Cmp) String() string { return cmpNames[c] }

// Eval compares x with y.
func (c Cmp) Eval(x, y int64) bool {
	switch c {
	case CmpEq:
		return x == y
	case CmpNe:
		return x != y
	case CmpLt:
		return x < y
	case CmpLe:
		return x <= y
	case CmpGt:
		return x > y
	}
	return x >= y
}

// mirror returns the comparison with its operands swapped (1 < x is x > 1).
func (c Cmp) mirror() Cmp {
	switch c {
	case CmpLt:
		return CmpGt
	case CmpLe:
		return CmpGe
	case CmpGt:
		return CmpLt
	case CmpGe:
		return CmpLe
	}
	return c
}

func parseCmp(op string) (Cmp, bool) {
	for i, n := range cmpNames {
		if n == op {
			return Cmp(i), true
		}
	}
	return 0, false
}

// NewPlan returns the plan of r. It fails if r's pattern is malformed: indices out of range, holes of the wrong
// kind, inconsistent value definitions, or ops the plan cannot reach from the root.
func NewPlan(r *rule.Rule) (*Plan, error) {
	if err := validate(r); err != nil {
		return nil, err
	}
	return plan(r.Pattern, r.Pattern.Root, r)
}

// planner builds a plan: it follows the exploration order of doc.go, and is the only code that walks a pattern to
// match it. At a choice among alternatives it forks: each branch is planned from a copy of its state to the end of
// the plan.
type planner struct {
	p        *rule.Pattern
	boundOp  []bool
	boundVal []bool
	bound    []bool // attribute $holes bound so far (their first occurrence binds, later ones check)
	order    []int  // pattern ops in the order they were bound
	uses     [][]int
	r        *rule.Rule
	code     *[]Instr // shared by the forks of a planner: the branches are laid out one after the other
	// todo are the operands still to match, the newest first: operand next of op.
	todo []task
	// chosen[g][b] says the planner is in branch b of alternatives g.
	chosen [][]bool
	// early[i] says where constraint i, which reads nothing but the path (pathOnly), is checked already on the
	// planner's paths: after a join, as soon as every group of alternatives its paths reach is entered (decided).
	early []bool
}

// task is operand next of pattern op op, to be matched.
type task struct{ op, next int }

// plan builds the plan of pattern p from root; r, if not nil, gives the where constraints.
func plan(p *rule.Pattern, root int, r *rule.Rule) (*Plan, error) {
	var code []Instr
	pl := &planner{p: p, r: r, boundOp: make([]bool, len(p.Ops)), boundVal: make([]bool, len(p.Values)),
		bound: make([]bool, len(p.Holes)), uses: make([][]int, len(p.Values)), code: &code,
		chosen: make([][]bool, len(p.Alts))}
	if r != nil {
		pl.early = make([]bool, len(r.Where))
	}
	for g, a := range p.Alts {
		pl.chosen[g] = make([]bool, len(a.Branches))
	}
	if r != nil {
		for i, e := range r.Where {
			if h, _, _, ok := usesConstraint(p, e); ok {
				pl.uses[h] = append(pl.uses[h], i)
			}
		}
	}
	pl.emit(Instr{Code: BindRoot, Op: root})
	pl.bindOp(root)
	if p.Users != nil {
		pl.users()
		return &Plan{Rule: r, Instrs: code}, nil
	}
	pl.visit(root, false)
	if err := pl.rest(); err != nil {
		return nil, err
	}
	return &Plan{Rule: r, Instrs: code}, nil
}

// users emits the plan of a users group (rule.UsersGroup) after BindRoot: the group's value from the root's
// operand, the CollectUsers whose element code is the element op's visit (its checks, with its per-element values
// bound and checked as they are bound, then the per-element constraints), the constraints on the whole group, and
// Success. The element op has no producers in the pattern: its operands are the group's value and per-element
// inputs.
func (pl *planner) users() {
	p, g := pl.p, pl.p.Users
	var where []rule.Expr
	if pl.r != nil {
		where = pl.r.Where
	}
	// The root's operand count first (its element code checks it again): the group's value is one of its operands.
	pl.emit(Instr{Code: CheckOperands, Op: g.Op, N: len(p.Ops[g.Op].Operands)})
	pl.emit(Instr{Code: BindOperand, Op: g.Op, Index: g.Operand, Value: g.Value})
	pl.bindVal(g.Value)
	elemWhere := map[int]bool{}
	for _, i := range g.ElemWhere {
		elemWhere[i] = true
	}
	var sub []Instr
	el := pl.fork()
	el.code = &sub
	// A per-element value's `uses(%w) cmp n` is checked per element when it is a per-element constraint; otherwise
	// it reads the list, as a CheckWhere after the collection.
	el.uses = make([][]int, len(pl.uses))
	for h, is := range pl.uses {
		for _, i := range is {
			if h == g.Value || elemWhere[i] {
				el.uses[h] = append(el.uses[h], i)
			}
		}
	}
	el.visit(g.Op, false)
	for len(el.todo) > 0 {
		t := el.todo[len(el.todo)-1]
		el.todo = el.todo[:len(el.todo)-1]
		if t.next+1 < len(p.Ops[t.op].Operands) {
			el.todo = append(el.todo, task{t.op, t.next + 1})
		}
		el.operandAt(t.op, t.next) // the element's operands are values without producers: no fork, no error
	}
	for _, i := range g.ElemWhere {
		if i >= len(where) {
			continue // a plan without the rule's constraints (upwardSteps)
		}
		if _, _, _, ok := usesConstraint(p, where[i]); !ok {
			el.emit(Instr{Code: CheckWhere, Where: i, Expr: where[i]})
		}
	}
	pl.emit(Instr{Code: CollectUsers, Op: g.Op, Index: g.Operand, Value: g.Value, N: g.Min, Max: g.Max, Sub: sub})
	for i, e := range where {
		if h, _, _, ok := usesConstraint(p, e); !elemWhere[i] && !(ok && h == g.Value) {
			pl.emit(Instr{Code: CheckWhere, Where: i, Expr: e})
		}
	}
	pl.emit(Instr{Code: Success})
}

// fork returns a copy of pl's state that appends to the same code.
func (pl *planner) fork() *planner {
	c := *pl
	c.boundOp = slices.Clone(pl.boundOp)
	c.boundVal = slices.Clone(pl.boundVal)
	c.bound = slices.Clone(pl.bound)
	c.order = slices.Clone(pl.order)
	c.todo = slices.Clone(pl.todo)
	c.early = slices.Clone(pl.early)
	c.chosen = make([][]bool, len(pl.chosen))
	for g := range pl.chosen {
		c.chosen[g] = slices.Clone(pl.chosen[g])
	}
	return &c
}

// rest emits the rest of the plan: the pending operands (depth first), the ops reached through users, the closure
// checks, the where constraints and Success. At a choice among alternatives, each branch emits its own rest.
func (pl *planner) rest() error {
	p := pl.p
	for {
		if n := len(pl.todo); n > 0 {
			t := pl.todo[n-1]
			pl.todo = pl.todo[:n-1]
			if t.next+1 < len(p.Ops[t.op].Operands) {
				pl.todo = append(pl.todo, task{t.op, t.next + 1})
			}
			forked, err := pl.operandAt(t.op, t.next)
			if err != nil || forked {
				return err
			}
			continue
		}
		k, j, h := nextPivot(p, pl.boundOp, pl.boundVal, pl.eligible)
		if k < 0 {
			break
		}
		pl.emit(Instr{Code: ChooseUser, Op: k, Index: j, Value: h})
		pl.bindOp(k)
		pl.visit(k, true)
	}
	for k, b := range pl.boundOp {
		if !b && pl.eligible(k) {
			return fmt.Errorf("%s %s is not connected to the root %s", p.Ops[k].Pos, rule.OpName(p, k),
				rule.OpName(p, p.Root))
		}
	}
	for h, v := range p.Values {
		if isInternal(p, h) && pl.boundOp[v.Def] {
			pl.emit(Instr{Code: CheckClosure, Value: h})
		}
	}
	if r := pl.r; r != nil {
		var pb *rule.PathBinds
		for i, e := range r.Where {
			if _, _, _, ok := usesConstraint(p, e); ok {
				continue
			}
			if l, ok := e.(*rule.Lit); ok && l.Value == true || pl.early[i] {
				continue // a constraint rule.Paths decided for its path, or one checked when the path was known
			}
			in := Instr{Code: CheckWhere, Where: i, Expr: e}
			if rule.CallsBound(e) && !pl.ambiguous() {
				// A constraint per alternative: bound(…) is decided for this path (after branches that joined,
				// the match decides it).
				if pb == nil {
					pb = rule.BindsOnPath(p, pl.choice())
				}
				in.Expr, in.Path = pb.Fold(e), pb
				if l, ok := in.Expr.(*rule.Lit); ok && l.Value == true {
					continue
				}
			}
			pl.emit(in)
		}
	}
	pl.emit(Instr{Code: Success})
	return nil
}

// dead reports, at the start of a branch, whether the paths through it cannot match: once every group of
// alternatives they reach is chosen, a constraint that calls bound(…) folds to false for them. It then emits the
// branch's code — that CheckWhere, with Expr the literal false, and Success — so that the branch ends at once.
func (pl *planner) dead() bool {
	if pl.r == nil || pl.ambiguous() {
		return false
	}
	for g, a := range pl.p.Alts {
		if pl.eligible(a.Op) && !slices.Contains(pl.chosen[g], true) {
			return false // a group these paths reach is not chosen yet
		}
	}
	var pb *rule.PathBinds
	for i, e := range pl.r.Where {
		if !rule.CallsBound(e) {
			continue
		}
		if pb == nil {
			pb = rule.BindsOnPath(pl.p, pl.choice())
		}
		if l, ok := pb.Fold(e).(*rule.Lit); ok && l.Value == false {
			pl.emit(Instr{Code: CheckWhere, Where: i, Expr: l, Path: pb})
			pl.emit(Instr{Code: Success})
			return true
		}
	}
	return false
}

// choice returns the branch the planner's path takes at each group of alternatives, -1 where it takes none.
func (pl *planner) choice() []int {
	out := make([]int, len(pl.chosen))
	for g, bs := range pl.chosen {
		out[g] = slices.Index(bs, true)
	}
	return out
}

// eligible reports whether pattern op k may be bound on the planner's path: it is in no alternative, or in
// branches the path chose.
func (pl *planner) eligible(k int) bool {
	for g, a := range pl.p.Alts {
		for b, br := range a.Branches {
			if !pl.chosen[g][b] && slices.Contains(br.Ops, k) {
				return false
			}
		}
	}
	return true
}

func (pl *planner) emit(in Instr) { *pl.code = append(*pl.code, in) }

// bindOp records that pattern op k is bound (by BindRoot, BindDef or ChooseUser), with the results it defines.
func (pl *planner) bindOp(k int) {
	pl.boundOp[k] = true
	pl.order = append(pl.order, k)
}

// distinct emits the check that op k, just bound, is none of the ops bound before it that it could be: a pattern
// op of another kind cannot bind the same op (its CheckName tells them apart), and two constant-like op patterns
// match by value, so they may bind the same op.
func (pl *planner) distinct(k int) {
	var bound []int
	for _, b := range pl.order[:len(pl.order)-1] {
		if pl.p.Ops[b].Constant && pl.p.Ops[k].Constant {
			continue
		}
		if x, y := pl.p.Ops[b].Name, pl.p.Ops[k].Name; x == "" || y == "" || x == y {
			bound = append(bound, b)
		}
	}
	if len(bound) > 0 {
		pl.emit(Instr{Code: CheckDistinct, Op: k, Bound: bound})
	}
}

// visit emits the instructions for op k once it is bound: its own checks and its results; its operands are queued,
// to bind their producers depth first. An op reached through the users of a value checks its name before
// distinctness (the name tells most users apart); one reached through an operand was checked for distinctness by
// the caller.
func (pl *planner) visit(k int, user bool) {
	p := pl.p
	op := p.Ops[k]
	if op.Name != "" {
		pl.emit(Instr{Code: CheckName, Op: k, Name: op.Name})
	}
	if user {
		pl.distinct(k)
	}
	nopd := len(op.Operands)
	if nopd > 0 && op.Operands[nopd-1].Kind == rule.OperandList {
		pl.emit(Instr{Code: CheckOperands, Op: k, N: nopd - 1, AtLeast: true})
	} else {
		pl.emit(Instr{Code: CheckOperands, Op: k, N: nopd})
	}
	pl.emit(Instr{Code: CheckResults, Op: k, N: len(op.Results), AtLeast: op.MoreResults})
	for _, a := range op.Attrs {
		switch a.Kind {
		case rule.AttrBind:
			if !pl.bound[a.Hole] {
				pl.bound[a.Hole] = true
				pl.emit(Instr{Code: BindAttr, Op: k, Name: a.Name, Hole: a.Hole})
			} else {
				pl.emit(Instr{Code: CheckAttr, Op: k, Name: a.Name, Hole: a.Hole})
			}
		case rule.AttrEquals:
			pl.emit(Instr{Code: CheckAttrLit, Op: k, Name: a.Name, Literal: a.Literal})
		case rule.AttrPresent:
			pl.emit(Instr{Code: CheckAttrPresent, Op: k, Name: a.Name})
		}
	}
	if op.RestAttrs >= 0 {
		names := make([]string, len(op.Attrs))
		for i, a := range op.Attrs {
			names[i] = a.Name
		}
		pl.emit(Instr{Code: BindRestAttrs, Op: k, Hole: op.RestAttrs, Names: names})
	}
	for i, res := range op.Results {
		switch {
		case res.Value < 0:
			pl.emit(Instr{Code: CheckUnused, Op: k, Index: i})
		case !pl.boundVal[res.Value]:
			pl.emit(Instr{Code: BindResult, Op: k, Index: i, Value: res.Value})
			pl.bindVal(res.Value)
		}
		// A result hole bound already is the one op k was reached through: BindDef checked it.
	}
	if op.MoreResults {
		pl.emit(Instr{Code: CheckExtraUnused, Op: k, N: len(op.Results)})
	}
	if op.Commutative {
		pl.emit(Instr{Code: ChooseSwap, Op: k})
	}
	if nopd > 0 {
		pl.todo = append(pl.todo, task{k, 0})
	}
}

// operandAt emits the instructions for operand j of op k: its check or binding, and the producer it reaches. At
// alternatives it emits the choice point and each branch with the rest of the plan, and reports forked.
func (pl *planner) operandAt(k, j int) (forked bool, err error) {
	p := pl.p
	o := p.Ops[k].Operands[j]
	switch o.Kind {
	case rule.OperandValue:
		h := o.Value
		if !pl.operand(CheckOperand, BindOperand, k, j, h) {
			return false, nil
		}
		return false, pl.def(h)
	case rule.OperandNull:
		pl.emit(Instr{Code: CheckNull, Op: k, Index: j})
	case rule.OperandList:
		pl.operand(CheckList, BindList, k, j, o.Value)
	case rule.OperandAlt:
		return pl.alternatives(k, j, o)
	}
	return false, nil
}

// def binds the producer of value hole h, just bound, if the pattern defines it.
func (pl *planner) def(h int) error {
	p := pl.p
	d := p.Values[h].Def
	if d < 0 {
		return nil
	}
	if pl.boundOp[d] {
		return fmt.Errorf("%s %s is unbound while its op is bound", p.Values[h].Pos, rule.ValueName(p, h))
	}
	pl.emit(Instr{Code: BindDef, Op: d, Value: h, N: p.Values[h].Result})
	pl.bindOp(d)
	pl.distinct(d)
	pl.visit(d, false)
	return nil
}

// alternatives emits operand j of op k, which reads alternatives o.Alt: the binding (or check) of their value, the
// choice point, and for each branch, from a fork of the planner, the branch's value (an alias of the operand, or a
// check that it is the value the branch names) and its producer. Branches that join (join) each end with a Jump to
// the code after them, which the planner then plans once; otherwise each branch is planned with the rest of the
// plan, and alternatives reports forked.
func (pl *planner) alternatives(k, j int, o rule.OperandPattern) (forked bool, err error) {
	p := pl.p
	a := p.Alts[o.Alt]
	// The value of an optional statement's group is read by other operands too: one of them may have bound it.
	pl.operand(CheckOperand, BindOperand, k, j, o.Value)
	in := Instr{Code: ChooseAlt, Op: k, Index: j, Value: o.Value, Alt: o.Alt}
	for d, b := range pl.boundOp {
		if !b {
			in.Reset = append(in.Reset, d)
		}
	}
	for h, b := range pl.boundVal {
		if !b {
			in.ResetVals = append(in.ResetVals, h)
		}
	}
	for h, b := range pl.bound {
		if !b {
			in.ResetHoles = append(in.ResetHoles, h)
		}
	}
	at := len(*pl.code)
	pl.emit(in)
	if ok, err := pl.join(at, o.Alt); err != nil || ok {
		return false, err
	}
	*pl.code = (*pl.code)[:at+1] // what the attempt to join emitted
	targets := make([]int, len(a.Branches))
	for b := range a.Branches {
		targets[b] = len(*pl.code)
		c := pl.fork()
		c.chosen[o.Alt][b] = true
		if c.dead() {
			continue
		}
		if w := c.branchValue(at, b); w >= 0 {
			if err := c.def(w); err != nil {
				return true, err
			}
		}
		if err := c.rest(); err != nil {
			return true, err
		}
	}
	(*pl.code)[at].Targets = targets
	return true, nil
}

// branchValue emits the first instruction of branch b of the alternatives whose ChooseAlt is at instruction at:
// the check that the operand is the value the branch names, when it is bound, or its binding. It returns the value
// bound, whose producer is to be bound next, or -1.
func (pl *planner) branchValue(at, b int) int {
	ch := (*pl.code)[at]
	w := pl.p.Alts[ch.Alt].Branches[b].Value
	if pl.boundVal[w] {
		pl.emit(Instr{Code: CheckAlias, Op: ch.Op, Index: b, Value: ch.Value, Other: w, Alt: ch.Alt})
		return -1
	}
	pl.emit(Instr{Code: BindAlias, Op: ch.Op, Index: b, Value: w, Other: ch.Value, Alt: ch.Alt})
	pl.bindVal(w)
	return w
}

// join plans the branches of alternatives g, whose ChooseAlt is at instruction at, so that they join: each branch
// binds its value and the ops of its branch, depth first as the rest of the plan would, up to the producer of a
// value read from outside the alternatives, if any (branchOps), and ends with a Jump to the code after the
// alternatives, which binds that producer. That code is what each branch's path would run next, in the same order, so
// the planner plans it once, from the union of what the branches bound: the ops and values of a branch not taken
// are nil there (a CheckClosure of such a value passes, CheckDistinct never meets a nil op), and a constraint that
// calls bound(…) is evaluated on the match (no path is known when it is planned). join reports false — the code
// it emitted is then to be discarded — when the branches do not meet in one state: they stop at different
// producers, a branch is left with ops only users reach, they bind differently a value, $hole or op that code
// outside the alternatives reads, or what only some bind is a list or a non-attribute $hole (which a match cannot
// leave nil); or when fewer than two branches can match (one is a path of its own).
func (pl *planner) join(at, g int) (bool, error) {
	p := pl.p
	a := p.Alts[g]
	inGroup := make([]bool, len(p.Ops))
	for _, br := range a.Branches {
		for _, k := range br.Ops {
			inGroup[k] = true
		}
	}
	base := len(pl.todo)
	targets := make([]int, len(a.Branches))
	var live []*planner
	var jumps []int
	next := -2 // the value whose producer every branch binds next (-1: none)
	for b, br := range a.Branches {
		targets[b] = len(*pl.code)
		c := pl.fork()
		c.chosen[g][b] = true
		if c.dead() {
			continue
		}
		n := c.branchValue(at, b)
		if n >= 0 {
			if d := p.Values[n].Def; d < 0 {
				n = -1 // an input: nothing to bind
			} else if inGroup[d] {
				if err := c.def(n); err != nil {
					return false, err
				}
				n = -1
			}
		}
		if n < 0 {
			ok, h, err := c.branchOps(base, inGroup)
			if err != nil || !ok {
				return false, err
			}
			n = h
		}
		if next != -2 && next != n {
			return false, nil
		}
		next = n
		for _, k := range br.Ops {
			if !c.boundOp[k] && c.eligible(k) {
				return false, nil // an op of the branch that users reach: its path binds it later
			}
		}
		jumps = append(jumps, len(*pl.code))
		c.emit(Instr{Code: Jump})
		live = append(live, c)
	}
	if len(live) < 2 || !pl.meet(live, g, inGroup) { // one live branch is a path of its own: nothing to join
		return false, nil
	}
	join := len(*pl.code)
	(*pl.code)[at].Targets, (*pl.code)[at].Join = targets, join
	for _, i := range jumps {
		(*pl.code)[i].N = join
	}
	pl.decided()
	if next >= 0 {
		return true, pl.def(next)
	}
	return true, nil
}

// decided emits, once every group of alternatives the planner's paths reach has been entered, the constraints
// that read nothing but the path taken (pathOnly) and are not checked yet: after a join they are decided on the
// match, and checked as soon as the path is known, a path they rule out ends there (as a branch planned on its
// own ends at once, dead).
func (pl *planner) decided() {
	if pl.r == nil {
		return
	}
	for g, a := range pl.p.Alts {
		if pl.eligible(a.Op) && !slices.Contains(pl.chosen[g], true) {
			return
		}
	}
	for i, e := range pl.r.Where {
		if !pl.early[i] && rule.CallsBound(e) && pathOnly(e) {
			pl.early[i] = true
			pl.emit(Instr{Code: CheckWhere, Where: i, Expr: e})
		}
	}
}

// pathOnly reports whether constraint e reads nothing of a match but the path it took: bound(…) calls, literals
// and the operators on them.
func pathOnly(e rule.Expr) bool {
	switch x := e.(type) {
	case *rule.Lit:
		return true
	case *rule.Call:
		b := x.Builtin()
		return b != nil && b.PathQuery
	case *rule.Unary:
		return pathOnly(x.X)
	case *rule.Binary:
		return pathOnly(x.X) && pathOnly(x.Y)
	case *rule.Cond:
		return pathOnly(x.Cond) && pathOnly(x.Then) && pathOnly(x.Else)
	}
	return false
}

// branchOps plans the operands a branch's ops queued (those above base in the queue), depth first, binding the
// producers inside the alternatives (inGroup). A value read from outside them whose producer the pattern defines
// is the branch's last binding of an op: branchOps returns it (its producer is bound after the join) and binds
// only the operands still queued, inputs and values bound already (a check or binding each, no choice). It reports
// not ok when the branch would bind another op after that producer, or has nested alternatives that do not join:
// its path cannot join. The checks it moves before that producer's are pure, so every path finds the same
// matches in the same order.
func (pl *planner) branchOps(base int, inGroup []bool) (ok bool, next int, err error) {
	p := pl.p
	next = -1
	for len(pl.todo) > base {
		t := pl.todo[len(pl.todo)-1]
		pl.todo = pl.todo[:len(pl.todo)-1]
		if t.next+1 < len(p.Ops[t.op].Operands) {
			pl.todo = append(pl.todo, task{t.op, t.next + 1})
		}
		o := p.Ops[t.op].Operands[t.next]
		switch o.Kind {
		case rule.OperandValue:
			h := o.Value
			if !pl.operand(CheckOperand, BindOperand, t.op, t.next, h) {
				continue
			}
			d := p.Values[h].Def
			switch {
			case d < 0:
			case next >= 0:
				return false, -1, nil // a second op to bind after the producer of next
			case !inGroup[d]:
				next = h
			default:
				if err := pl.def(h); err != nil {
					return false, -1, err
				}
			}
			continue
		case rule.OperandAlt:
			if next >= 0 {
				return false, -1, nil
			}
		}
		forked, err := pl.operandAt(t.op, t.next)
		if err != nil || forked {
			return false, -1, err
		}
	}
	return true, next, nil
}

// meet reports whether the branches live of alternatives g (forks of pl, each at its Jump) meet in one state, and
// if so makes it pl's: the union of what they bound, and of the branches they chose. Outside the alternatives (ops
// not inGroup, and the values and $holes those ops, their values' types and other alternatives read) they must agree;
// what only some bind must be something a match can leave nil: a single value or an attribute $hole.
func (pl *planner) meet(live []*planner, g int, inGroup []bool) bool {
	p := pl.p
	outVal := make([]bool, len(p.Values))
	outHole := make([]bool, len(p.Holes))
	for k, op := range p.Ops {
		if inGroup[k] {
			continue
		}
		for _, o := range op.Operands {
			if o.Kind != rule.OperandNull {
				outVal[o.Value] = true
			}
		}
		for _, r := range op.Results {
			if r.Value >= 0 {
				outVal[r.Value] = true
			}
		}
		for _, a := range op.Attrs {
			if a.Kind == rule.AttrBind {
				outHole[a.Hole] = true
			}
		}
		if op.RestAttrs >= 0 {
			outHole[op.RestAttrs] = true
		}
	}
	for i, a := range p.Alts {
		if i != g && !inGroup[a.Op] {
			for _, br := range a.Branches {
				outVal[br.Value] = true
			}
		}
	}
	if u := p.Users; u != nil {
		outVal[u.Value] = true
	}
	for h, v := range p.Values {
		if outVal[h] && v.Type != nil {
			for _, x := range v.Type.Holes() {
				outHole[x] = true
			}
		}
	}
	first := live[0]
	for _, c := range live[1:] {
		for k := range p.Ops {
			if c.boundOp[k] != first.boundOp[k] && !inGroup[k] {
				return false
			}
		}
		for h := range p.Values {
			if c.boundVal[h] != first.boundVal[h] && (outVal[h] || p.Values[h].List) {
				return false
			}
		}
		for h := range p.Holes {
			if c.bound[h] != first.bound[h] && (outHole[h] || p.Holes[h].Kind != rule.HoleAttr) {
				return false
			}
		}
	}
	for _, c := range live {
		for k, b := range c.boundOp {
			if b && !pl.boundOp[k] {
				pl.bindOp(k)
			}
		}
		for h, b := range c.boundVal {
			pl.boundVal[h] = pl.boundVal[h] || b
		}
		for h, b := range c.bound {
			pl.bound[h] = pl.bound[h] || b
		}
		for g, bs := range c.chosen {
			for b, x := range bs {
				pl.chosen[g][b] = pl.chosen[g][b] || x
			}
		}
	}
	for i := range pl.early {
		all := true
		for _, c := range live {
			all = all && c.early[i]
		}
		pl.early[i] = all // one checked on some paths only is checked again after the join: it is pure
	}
	return true
}

// ambiguous reports whether the code being planned runs on more than one path through the alternatives: it
// follows branches that joined.
func (pl *planner) ambiguous() bool {
	for _, bs := range pl.chosen {
		n := 0
		for _, b := range bs {
			if b {
				n++
			}
		}
		if n > 1 {
			return true
		}
	}
	return false
}

// operand emits the instruction for operand j of op k, whose value (or list) hole is h: its check when h is bound
// already, else its binding; it reports whether it bound h. The result of a constant-like op pattern is checked
// by value (CheckConst).
func (pl *planner) operand(check, bind Opcode, k, j, h int) bool {
	if pl.boundVal[h] {
		if check == CheckOperand && constValue(pl.p, h) {
			check = CheckConst
		}
		pl.emit(Instr{Code: check, Op: k, Index: j, Value: h})
		return false
	}
	pl.emit(Instr{Code: bind, Op: k, Index: j, Value: h})
	pl.bindVal(h)
	return true
}

// bindVal records that value hole h is bound, and emits the checks that can be made at once: its type pattern, then
// the where constraints `uses(%h) cmp n` (a pure function of the match decided early prunes the alternatives
// explored, never changes the match found).
func (pl *planner) bindVal(h int) {
	pl.boundVal[h] = true
	v := pl.p.Values[h]
	if v.Type != nil && (v.Type.Exact != nil || v.Type.Tensor != nil || v.Type.Hole >= 0) {
		pl.emit(Instr{Code: CheckType, Value: h, Type: v.Type})
	}
	for _, i := range pl.uses[h] {
		e := pl.r.Where[i]
		_, cmp, n, _ := usesConstraint(pl.p, e)
		pl.emit(Instr{Code: CheckUses, Value: h, Cmp: cmp, N: n, Where: i, Expr: e})
	}
}

// nextPivot picks the next op to reach through the users of a bound value: the unbound op with the smallest index
// that has a single-value operand whose hole is bound, and the first such operand; a value a constant-like op
// pattern defines is a pivot only when there is no other; an op of an alternative not chosen is none (its users are those of one program constant, not of
// the equal ones a by-value match accepts, and a shared constant has many). It returns k = -1 when there is none.
func nextPivot(p *rule.Pattern, boundOp, boundVal []bool, eligible func(int) bool) (k, j, h int) {
	for _, consts := range [2]bool{false, true} {
		for k, op := range p.Ops {
			if boundOp[k] || !eligible(k) {
				continue
			}
			for j, o := range op.Operands {
				if o.Kind == rule.OperandValue && boundVal[o.Value] && constValue(p, o.Value) == consts {
					return k, j, o.Value
				}
			}
		}
	}
	return -1, -1, -1
}

// constValue reports whether value hole h is a result of a constant-like op pattern.
func constValue(p *rule.Pattern, h int) bool {
	d := p.Values[h].Def
	return d >= 0 && p.Ops[d].Constant
}

// isInternal reports whether value hole h is internal to the pattern: defined by a pattern op, used as an operand
// by another one, and neither marked Shared nor a constant's (constants match by value: their other readers
// cannot tell). Every use of an internal value must be by an op of the match. The value of a branch of alternatives is
// read by the alternatives' operand.
func isInternal(p *rule.Pattern, h int) bool {
	v := p.Values[h]
	if v.Def < 0 || v.Shared || v.List || p.Ops[v.Def].Constant {
		return false
	}
	for _, op := range p.Ops {
		for _, o := range op.Operands {
			if o.Kind == rule.OperandValue && o.Value == h {
				return true
			}
		}
	}
	for _, a := range p.Alts {
		for _, br := range a.Branches {
			if br.Value == h {
				return true // read by the operand of the alternatives, when its branch is chosen
			}
		}
	}
	return false
}

// usesConstraint recognizes a where constraint `uses(%v) cmp n` (or `n cmp uses(%v)`) on a single value hole with
// an integer literal that fits an int32, which plans check directly (CheckUses) and the decision tree hoists when
// %v has a fixed position.
func usesConstraint(p *rule.Pattern, e rule.Expr) (h int, cmp Cmp, n int, ok bool) {
	b, isBin := e.(*rule.Binary)
	if !isBin {
		return
	}
	cmp, ok = parseCmp(b.Op)
	if !ok {
		return
	}
	x, y := b.X, b.Y
	if _, lit := x.(*rule.Lit); lit {
		x, y = y, x
		cmp = cmp.mirror()
	}
	call, isCall := x.(*rule.Call)
	lit, isLit := y.(*rule.Lit)
	if !isCall || !isLit || call.Native || call.Builtin() == nil || !call.Builtin().CountsUses || len(call.Args) != 1 {
		return 0, 0, 0, false
	}
	ref, isRef := call.Args[0].(*rule.ValueRef)
	iv, isInt := lit.Value.(int64)
	if !isRef || !isInt || ref.Ref.New || ref.Ref.Index < 0 || ref.Ref.Index >= len(p.Values) ||
		p.Values[ref.Ref.Index].List || iv < -1<<31 || iv > 1<<31-1 {
		return 0, 0, 0, false
	}
	return ref.Ref.Index, cmp, int(iv), true
}

// Format renders the instruction in the rule's names: ops as op<k>, values %x, holes $h.
func (in *Instr) Format(p *rule.Pattern) string {
	op := func(k int) string { return "op" + strconv.Itoa(k) }
	v := func(h int) string { return rule.ValueName(p, h) }
	hole := func(h int) string { return rule.HoleName(p, h) }
	ops := func(ks []int) string {
		parts := make([]string, len(ks))
		for i, k := range ks {
			parts[i] = op(k)
		}
		return strings.Join(parts, ", ")
	}
	ge := func(b bool) string {
		if b {
			return " >= "
		}
		return " == "
	}
	switch in.Code {
	case BindRoot:
		return op(in.Op) + " = the op matched"
	case CheckName:
		return "name(" + op(in.Op) + ") == " + in.Name
	case CheckOperands:
		return "num_operands(" + op(in.Op) + ")" + ge(in.AtLeast) + strconv.Itoa(in.N)
	case CheckResults:
		return "num_results(" + op(in.Op) + ")" + ge(in.AtLeast) + strconv.Itoa(in.N)
	case BindAttr:
		return hole(in.Hole) + " = attr(" + op(in.Op) + ", " + in.Name + ")"
	case CheckAttr:
		return "attr(" + op(in.Op) + ", " + in.Name + ") == " + hole(in.Hole)
	case CheckAttrLit:
		return "attr(" + op(in.Op) + ", " + in.Name + ") == " + in.Literal.String()
	case CheckAttrPresent:
		return "has_attr(" + op(in.Op) + ", " + in.Name + ")"
	case BindRestAttrs:
		return hole(in.Hole) + " = rest_attrs(" + op(in.Op) + " - {" + strings.Join(in.Names, ", ") + "})"
	case CheckUnused:
		return "unused(" + op(in.Op) + ".result[" + strconv.Itoa(in.Index) + "])"
	case CheckExtraUnused:
		return "unused_results(" + op(in.Op) + ", from " + strconv.Itoa(in.N) + ")"
	case BindResult:
		return v(in.Value) + " = " + op(in.Op) + ".result[" + strconv.Itoa(in.Index) + "]"
	case ChooseSwap:
		return "choose operands of " + op(in.Op) + ": as written | swapped"
	case CheckOperand:
		return op(in.Op) + ".operand[" + strconv.Itoa(in.Index) + "] == " + v(in.Value)
	case CheckConst:
		return op(in.Op) + ".operand[" + strconv.Itoa(in.Index) + "] ≡ " + v(in.Value) + " (by value)"
	case BindOperand:
		return v(in.Value) + " = " + op(in.Op) + ".operand[" + strconv.Itoa(in.Index) + "]"
	case BindDef:
		return op(in.Op) + " = def(" + v(in.Value) + "), result " + strconv.Itoa(in.N)
	case CheckDistinct:
		return "distinct(" + op(in.Op) + "; " + ops(in.Bound) + ")"
	case CheckNull:
		return "is_null(" + op(in.Op) + ".operand[" + strconv.Itoa(in.Index) + "])"
	case BindList:
		return v(in.Value) + "... = " + op(in.Op) + ".operands[" + strconv.Itoa(in.Index) + ":]"
	case CheckList:
		return op(in.Op) + ".operands[" + strconv.Itoa(in.Index) + ":] == " + v(in.Value) + "..."
	case CheckType:
		return "type(" + v(in.Value) + ") ~ " + rule.FormatType(p, in.Type)
	case ChooseUser:
		return "choose " + op(in.Op) + " among users(" + v(in.Value) + ")"
	case CheckClosure:
		return "closure(" + v(in.Value) + ")"
	case CheckUses:
		return "uses(" + v(in.Value) + ") " + in.Cmp.String() + " " + strconv.Itoa(in.N)
	case CheckWhere:
		return "where " + rule.FormatExpr(&rule.Rule{Pattern: p}, in.Expr)
	case Success:
		return "success"
	case ChooseAlt:
		at := make([]string, len(in.Targets))
		for i, t := range in.Targets {
			at[i] = strconv.Itoa(t)
		}
		join := ""
		if in.Join != 0 {
			join = ", joining at " + strconv.Itoa(in.Join)
		}
		return "choose " + v(in.Value) + " = " + op(in.Op) + ".operand[" + strconv.Itoa(in.Index) + "] among " +
			strconv.Itoa(len(in.Targets)) + " alternatives (at " + strings.Join(at, ", ") + join + ")"
	case BindAlias:
		return "alternative " + strconv.Itoa(in.Index+1) + ": " + v(in.Value) + " = " + v(in.Other)
	case CheckAlias:
		return "alternative " + strconv.Itoa(in.Index+1) + ": " + v(in.Value) + " == " + v(in.Other)
	case Jump:
		return "go to " + strconv.Itoa(in.N)
	case CollectUsers:
		sub := make([]string, len(in.Sub))
		for i := range in.Sub {
			sub[i] = in.Sub[i].Format(p)
		}
		return "collect " + op(in.Op) + " and the later users(" + v(in.Value) + ") in its block, " + strconv.Itoa(in.N) +
			" to " + strconv.Itoa(in.Max) + ", each: " + strings.Join(sub, "; ")
	}
	return in.Code.String()
}
