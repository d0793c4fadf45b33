package drr

import (
	"reflect"
	"sort"
)

// Walking the syntax tree, for tools that look at a file by position (the
// language server's hover, completion and references) rather than by
// construct.

// Inspect traverses the tree rooted at n in source order: it calls f(n) and,
// if f returns true, inspects each child of n. Comments are not part of the
// tree (they are in File.Comments); nil children are skipped.
func Inspect(n Node, f func(Node) bool) {
	if n == nil || !f(n) {
		return
	}
	for _, c := range children(n) {
		Inspect(c, f)
	}
}

// PathAt returns the nodes of f that enclose the byte offset off, outermost
// first: the file, a declaration, and so on down to the innermost node, a
// leaf such as a ValueExpr or an OpName. A node encloses the offsets from its
// first character to just after its last, so a cursor right after a name is
// on that name; where two siblings touch, the one that starts at off wins.
// The path is empty when off is outside the file.
func PathAt(f *File, off int) []Node {
	if f == nil || off < 0 || off > int(f.end) {
		return nil
	}
	path := []Node{f}
	for n := Node(f); ; {
		var next Node
		for _, c := range children(n) {
			sp := c.span()
			if int(sp.off) > off || off > int(sp.end) {
				continue
			}
			next = c
			if off < int(sp.end) {
				break // strictly inside: no later sibling can start here
			}
		}
		if next == nil {
			return path
		}
		path = append(path, next)
		n = next
	}
}

// children returns the child nodes of n in source order.
func children(n Node) []Node {
	var out []Node
	add := func(c Node) {
		// A typed nil (an absent optional child stored in an interface) is skipped too.
		if c != nil && !reflect.ValueOf(c).IsNil() {
			out = append(out, c)
		}
	}
	switch n := n.(type) {
	case *File:
		for _, d := range n.Decls {
			add(d)
		}
	case *Import:
		if n.Path != nil {
			add(n.Path)
		}
	case *Family:
		if n.Name != nil {
			add(n.Name)
		}
		add(n.Set)
	case *FamilyList:
		for _, o := range n.Ops {
			add(o)
		}
	case *FamilyTrait:
		if n.Trait != nil {
			add(n.Trait)
		}
	case *FamilyRef:
		if n.Name != nil {
			add(n.Name)
		}
	case *FamilyDiff:
		add(n.X)
		add(n.Y)
	case *Native:
		if n.Name != nil {
			add(n.Name)
		}
		for _, p := range n.Params {
			add(p)
		}
		if n.Result != nil {
			add(n.Result)
		}
	case *Param:
		if n.Type != nil {
			add(n.Type)
		}
	case *ParamDecl:
		if n.Name != nil {
			add(n.Name)
		}
		if n.Type != nil {
			add(n.Type)
		}
		add(n.Default)
	case *Rule:
		out = ruleChildren(n)
	case *Benefit:
		if n.Value != nil {
			add(n.Value)
		}
	case *Labels:
		for _, l := range n.Names {
			add(l)
		}
	case *For:
		for _, id := range n.Names {
			add(id)
		}
		if n.Family != nil {
			add(n.Family)
		}
	case *MatchBlock:
		for _, s := range n.Stmts {
			add(s)
		}
	case *WhereBlock:
		for _, e := range n.Constraints {
			add(e)
		}
	case *RewriteBlock:
		for _, s := range n.Stmts {
			add(s)
		}
	case *PatternStmt:
		if n.Label != nil {
			add(n.Label)
		}
		for _, r := range n.Results {
			add(r)
		}
		if n.Op != nil {
			add(n.Op)
		}
	case *OpPattern:
		if n.Name != nil {
			add(n.Name)
		}
		for _, o := range n.Operands {
			add(o)
		}
		if n.Attrs != nil {
			add(n.Attrs)
		}
		if n.Sig != nil {
			add(n.Sig)
		}
	case *ValueOperand:
		add(n.Type)
	case *CombineOperand:
		for _, e := range n.Elems {
			add(e)
		}
	case *EitherOperand:
		for _, o := range n.Operands {
			add(o)
		}
	case *EachOperand:
		add(n.Elem)
	case *AltOperand:
		for i, o := range n.Alts {
			if i == 1 && n.Optional {
				break // the optional op's first operand, visited in the op
			}
			add(o)
		}
	case *AttrMap:
		for _, e := range n.Entries {
			add(e)
		}
		if n.Rest != nil {
			add(n.Rest)
		}
	case *AttrEntry:
		if n.Key != nil {
			add(n.Key)
		}
		add(n.Value)
	case *Signature:
		for _, t := range n.Inputs {
			add(t)
		}
		for _, t := range n.Outputs {
			add(t)
		}
	case *TensorType:
		for _, d := range n.Dims {
			add(d)
		}
		if n.Dtype != nil {
			add(n.Dtype)
		}
	case *Dim:
		if n.Expr != nil {
			add(n.Expr)
		}
	case *VecType:
		for _, t := range n.Elems {
			add(t)
		}
	case *TaggedLit:
		add(n.Value)
	case *ListExpr:
		for _, e := range n.Elems {
			add(e)
		}
	case *TypeExpr:
		add(n.Type)
	case *SpreadExpr:
		add(n.X)
	case *UnaryExpr:
		add(n.X)
	case *BinaryExpr:
		add(n.X)
		add(n.Y)
	case *CondExpr:
		add(n.Cond)
		add(n.Then)
		add(n.Else)
	case *CallExpr:
		if n.Func != nil {
			add(n.Func)
		}
		for _, a := range n.Args {
			add(a)
		}
		if n.Attrs != nil {
			add(n.Attrs)
		}
	case *IndexExpr:
		add(n.X)
		add(n.Index)
	case *ParenExpr:
		add(n.X)
	case *AssignStmt:
		for _, r := range n.Results {
			add(r)
		}
		add(n.Value)
		for _, t := range n.Types {
			add(t)
		}
	case *ReplaceStmt:
		if n.Old != nil {
			add(n.Old)
		}
		add(n.New)
	case *EraseStmt:
		add(n.Target)
	case *ExprStmt:
		add(n.X)
	}
	return out
}

// ruleChildren returns the name and the clauses of a rule, in source order
// (clauses may be written in any order).
func ruleChildren(r *Rule) []Node {
	var out []Node
	if r.Name != nil {
		out = append(out, r.Name)
	}
	if r.Benefit != nil {
		out = append(out, r.Benefit)
	}
	if r.Labels != nil {
		out = append(out, r.Labels)
	}
	for _, f := range r.Fors {
		out = append(out, f)
	}
	if r.Match != nil {
		out = append(out, r.Match)
	}
	if r.Where != nil {
		out = append(out, r.Where)
	}
	if r.Rewrite != nil {
		out = append(out, r.Rewrite)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].span().off < out[j].span().off })
	return out
}
