package paddle

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// The rewrite becomes the ResultPattern: each created op a res.Op with every attribute of its schema (Paddle's
// builders take them all: those the rule sets, then the schema's defaults), a value the rule replaces a pattern
// value with named as that value (Paddle replaces the uses of a source tensor by the result tensor of its name), a
// replacement by a pattern value res.Tensor(…).Assign. Erasing needs no code: Paddle deletes the source ops that
// are left without uses.

// writeResult prints the result pattern.
func (pt *pattern) writeResult(b *strings.Builder) {
	r := pt.r
	newName := make([]string, len(r.NewValues))
	for _, a := range r.Actions {
		if rp, ok := a.(*rule.Replace); ok && !rp.Value.New && rp.With.New && newName[rp.With.Index] == "" {
			newName[rp.With.Index] = pt.tensor(rp.Value.Index)
		}
	}
	for i, v := range r.NewValues {
		if newName[i] != "" {
			continue
		}
		base := strings.TrimPrefix(v.Name, "%")
		if c := pt.creator(i); anonymous.MatchString(v.Name) && c != nil {
			base = opShort(c.Op) + "_out"
		}
		newName[i] = pt.fresh(base)
	}
	pt.folded = pt.foldedShapes()
	ref := func(x rule.Ref) string {
		if x.New {
			return newName[x.Index]
		}
		return pt.tensor(x.Index)
	}
	for _, a := range r.Actions {
		switch a := a.(type) {
		case *rule.Create:
			if _, ok := pt.folded[a]; ok {
				continue // a reshape's shape, which the reshape takes as its attribute
			}
			pt.writeCreate(b, a, ref)
		case *rule.Replace:
			if a.Later {
				pt.fail(a.Pos, "replace ... later (only the uses after the root: Paddle replaces every use)")
				return
			}
			if a.Value.New {
				pt.fail(a.Pos, "replacing a value the rewrite created")
				return
			}
			if a.With.New && newName[a.With.Index] == pt.tensor(a.Value.Index) {
				continue // the created op's result carries the name
			}
			fmt.Fprintf(b, "    res.Tensor(%q).Assign(res.Tensor(%q));\n", pt.tensor(a.Value.Index), ref(a.With))
		case *rule.Erase:
			// Paddle erases the source ops left without uses.
		case *rule.NativeRewrite:
			pt.fail(a.Pos, "the native rewrite %s (Paddle's result pattern is ops and attributes only)", a.Name)
			return
		default:
			pt.fail(a.At(), "this rewrite action has no Paddle form")
			return
		}
		if !pt.ok {
			return
		}
	}
}

// writeCreate prints one created op.
func (pt *pattern) writeCreate(b *strings.Builder, c *rule.Create, ref func(rule.Ref) string) {
	s := pt.g.ctx.Schema(c.Op)
	if s == nil {
		pt.fail(c.Pos, "%s is not in the op catalog, so its attributes' C++ types are unknown", c.Op)
		return
	}
	if c.RestAttrs >= 0 {
		pt.fail(c.Pos, "$%s... copies the attributes of an op (Paddle's result attributes are named one by one)",
			holeName(pt.p, c.RestAttrs))
		return
	}
	if c.ResultTypes != nil {
		pt.fail(c.Pos, "explicit result types (Paddle's result ops infer theirs)")
		return
	}
	set := map[string]rule.Expr{}
	var folded []string // the attributes that stand for a folded operand, in operand order
	operands := c.Operands
	for j, o := range c.Operands {
		if !o.Ref.New || o.Null || o.List {
			continue
		}
		if f, ok := pt.folded[pt.creator(o.Ref.Index)]; ok && f.reads(c, j) {
			code, err := pt.foldedValue(c, s.Operands[j], f.value)
			if err != nil {
				pt.failExpr(err)
				return
			}
			folded = append(folded, fmt.Sprintf("{%q, %s}", s.Operands[j].Name, code))
			operands = append(operands[:j:j], operands[j+1:]...)
		}
	}
	for _, a := range c.Attrs {
		if s.Attr(a.Name) == nil {
			pt.fail(c.Pos, "%s has no attribute %s in the op catalog", c.Op, a.Name)
			return
		}
		set[a.Name] = a.Value
	}
	var attrs []string
	for _, spec := range s.Attrs {
		v, ok := set[spec.Name]
		var code string
		var err error
		switch {
		case ok:
			code, err = pt.attrValue(c.Op, spec, v)
		case spec.Default != nil:
			code, err = pt.attrConst(c.Op, spec, spec.Default, c.Pos)
		case spec.Optional:
			continue
		default:
			err = errAt(c.Pos, "%s's attribute %s has no value and no default", c.Op, spec.Name)
		}
		if err != nil {
			pt.failExpr(err)
			return
		}
		attrs = append(attrs, fmt.Sprintf("{%q, %s}", spec.Name, code))
	}
	attrs = append(folded, attrs...)
	v := pt.vars.fresh(opShort(c.Op))
	writeOpDecl(b, v, "res", c.Op, attrs)
	ins := make([]string, len(operands))
	for i, o := range operands {
		switch {
		case o.List:
			pt.fail(c.Pos, "a spliced list of values as operands of %s", c.Op)
			return
		case o.Null:
			ins[i] = "res.InputNoneTensor()"
		default:
			ins[i] = tensorRef("res", ref(o.Ref), true)
		}
	}
	n := len(s.Results)
	if len(c.Results) > n {
		n = len(c.Results)
	}
	outs := make([]string, n)
	for i := range outs {
		outs[i] = "res.OutputNoneTensor()"
		if i < len(c.Results) && c.Results[i] >= 0 {
			outs[i] = tensorRef("res", ref(rule.Ref{New: true, Index: c.Results[i]}), false)
		}
	}
	writeCall(b, v, "res", ins, outs)
}

func opShort(op string) string {
	if i := strings.LastIndex(op, "."); i >= 0 {
		return op[i+1:]
	}
	return op
}

// attrValue is the C++ of a result attribute set to x: the bound attribute copied, a constant through its
// builder, anything else a ComputeAttr returning the attribute's C++ type; each checked against the table.
func (pt *pattern) attrValue(op string, spec ir.AttrSpec, x rule.Expr) (string, error) {
	if h, ok := x.(*rule.HoleRef); ok && pt.p.Holes[h.Hole].Kind == rule.HoleAttr && pt.holeAttr[h.Hole] != "" &&
		pt.holeCut[h.Hole] == "" {
		from := pt.holeFrom[h.Hole]
		if t, err := AttrType(pt.g.ctx, from[0], from[1]); err == nil && t == spec.Type {
			return fmt.Sprintf("pat.Attr(%q)", pt.holeAttr[h.Hole]), nil
		}
	}
	if l, ok := x.(*rule.Lit); ok {
		if a, ok := l.Value.(ir.Attribute); ok {
			return pt.attrConst(op, spec, a, l.Pos)
		}
		if TypeOf(spec.Type).Builder != "" {
			if code, err := pt.builder(op, spec, l.Value, l.Pos); err == nil {
				return code, nil
			}
		}
	}
	if TypeOf(spec.Type).Builder != "" && !strings.HasSuffix(TypeOf(spec.Type).Builder, "TypeAttr") {
		// A constant expression ([1], -$nothing) goes to the builder too.
		e := newExprGen(pt, "match_ctx")
		if c, err := e.expr(x); err == nil && !e.this && !e.match &&
			(c.t != tList || c.elems != nil) {
			if code, err := pt.builderOf(op, spec, c, x.At()); err == nil {
				return code, nil
			}
		}
	}
	return pt.computeAttr(op, spec, x)
}

// computeAttr is res.ComputeAttr of a lambda returning the attribute's C++ type.
func (pt *pattern) computeAttr(op string, spec ir.AttrSpec, x rule.Expr) (string, error) {
	cpp := TypeOf(spec.Type).Compute
	if cpp == "" {
		return "", errAt(x.At(), "Paddle's DRR cannot create %s's attribute %s (%s): no C++ type maps to it",
			op, spec.Name, spec.Type)
	}
	if err := CheckWrite(pt.g.ctx, op, spec.Name, cpp, false); err != nil {
		return "", errAt(x.At(), "%v", err)
	}
	e := newExprGen(pt, "match_ctx")
	code, err := e.compute(x, cpp)
	if err != nil {
		return "", err
	}
	return pt.lambda(e, code, cpp), nil
}

// lambda is res.ComputeAttr of a lambda returning code, of C++ type cpp.
func (pt *pattern) lambda(e *exprGen, code, cpp string) string {
	capture := "[]"
	if e.this {
		capture = "[this]"
	}
	param := "const paddle::drr::MatchContext &"
	if strings.Contains(code, "match_ctx") {
		param += "match_ctx"
	}
	return fmt.Sprintf("res.ComputeAttr(\n    %s(%s) -> %s {\n      return %s;\n    })", capture, param, cpp,
		wrapExpr(code, "          ", 84))
}

// attrConst is the C++ of a constant attribute (a schema default, a literal).
func (pt *pattern) attrConst(op string, spec ir.AttrSpec, a ir.Attribute, pos diag.Position) (string, error) {
	switch a := a.(type) {
	case *ir.DataLayoutAttr:
		return pt.builder(op, spec, a.Layout, pos)
	case *ir.DataTypeAttr:
		return pt.builder(op, spec, a.DType, pos)
	case *ir.PlaceAttr:
		return pt.builder(op, spec, a.Place, pos)
	}
	if TypeOf(spec.Type).Builder != "" {
		e := &exprGen{pt: pt, mc: "match_ctx"}
		c, err := e.attrLit(a, pos)
		if err != nil {
			return "", err
		}
		return pt.builderOf(op, spec, c, pos)
	}
	return pt.computeAttr(op, spec, &rule.Lit{Value: a, Pos: pos})
}

// builder is the builder call of a constant v of the attribute's type.
func (pt *pattern) builder(op string, spec ir.AttrSpec, v rule.Val, pos diag.Position) (string, error) {
	ct := TypeOf(spec.Type)
	switch ct.Builder {
	case "DataTypeAttr":
		if d, ok := v.(ir.DType); ok {
			return pt.checked(op, spec, ct.Builder, strconv.Quote(d.DataTypeName()), pos)
		}
	case "PlaceAttr":
		if p, ok := v.(ir.Place); ok {
			name := map[ir.PlaceType]string{ir.PlaceCPU: "cpu", ir.PlaceGPU: "gpu", ir.PlaceGPUPinned: "gpu_pinned",
				ir.PlaceXPU: "xpu", ir.PlaceUndefined: "undefined"}[p.Type]
			if name == "" || p.Device != 0 {
				return "", errAt(pos, "the place %v has no name in Paddle's PlaceAttr", p)
			}
			return pt.checked(op, spec, ct.Builder, strconv.Quote(name), pos)
		}
	case "DataLayoutAttr":
		if s, ok := v.(string); ok {
			return pt.checked(op, spec, ct.Builder, strconv.Quote(s), pos)
		}
	}
	e := &exprGen{pt: pt, mc: "match_ctx"}
	c, err := e.lit(v, pos)
	if err != nil {
		return "", err
	}
	return pt.builderOf(op, spec, c, pos)
}

// builderOf is the builder call of the translated constant c.
func (pt *pattern) builderOf(op string, spec ir.AttrSpec, c cx, pos diag.Position) (string, error) {
	ct := TypeOf(spec.Type)
	e := &exprGen{pt: pt, mc: "match_ctx"}
	arg, err := e.as(c, ct.Read, pos)
	if err != nil {
		return "", err
	}
	if strings.HasPrefix(arg, "std::vector<") { // the builder's parameter gives the type
		arg = arg[strings.Index(arg, "{"):]
	}
	if strings.HasPrefix(arg, "std::string(") {
		arg = strings.TrimSuffix(strings.TrimPrefix(arg, "std::string("), ")")
	}
	return pt.checked(op, spec, ct.Builder, arg, pos)
}

// checked is res.Builder(arg), the builder checked against the table.
func (pt *pattern) checked(op string, spec ir.AttrSpec, builder, arg string, pos diag.Position) (string, error) {
	if err := CheckWrite(pt.g.ctx, op, spec.Name, builder, true); err != nil {
		return "", errAt(pos, "%v", err)
	}
	return "res." + builder + "(" + arg + ")", nil
}

// attrLiteral is the C++ literal of attribute a read as cpp (a CheckAttrLit's comparison).
func attrLiteral(a ir.Attribute, cpp string) (string, error) {
	e := &exprGen{mc: "match_ctx"}
	c, err := e.attrLit(a, diag.Position{})
	if err != nil {
		return "", err
	}
	if c.t == tStr && cpp == "std::string" {
		return c.code, nil
	}
	return e.as(c, cpp, diag.Position{})
}

// A pd_op.full_int_array the rewrite creates for the shape of a pd_op.reshape it creates (and for nothing else)
// becomes the reshape's shape attribute: Paddle's DRR builds a reshape from its input and a shape attribute (its
// OperationFactory's reshape creator), and cannot create the full_int_array itself (its value is an i64[], an
// ArrayAttribute, and a ComputeAttr returning std::vector<int64_t> creates an IntArrayAttribute).

// foldedShape is a full_int_array folded into the shape operands of the reshapes that read it.
type foldedShape struct {
	users []shapeUse
	value rule.Expr
}

// shapeUse is operand j of created op c.
type shapeUse struct {
	c *rule.Create
	j int
}

func (f foldedShape) reads(c *rule.Create, j int) bool {
	for _, u := range f.users {
		if u.c == c && u.j == j {
			return true
		}
	}
	return false
}

// foldedShapes finds the full_int_arrays to fold: every use of their result is the shape of a created reshape.
func (pt *pattern) foldedShapes() map[*rule.Create]foldedShape {
	out := map[*rule.Create]foldedShape{}
	uses := map[int][]shapeUse{} // per new value, its uses as operands of created ops
	other := map[int]bool{}      // new values used otherwise (replacing a matched value)
	for _, a := range pt.r.Actions {
		switch a := a.(type) {
		case *rule.Create:
			for j, o := range a.Operands {
				if o.Ref.New && !o.Null && !o.List {
					uses[o.Ref.Index] = append(uses[o.Ref.Index], shapeUse{a, j})
				}
			}
		case *rule.Replace:
			if a.With.New {
				other[a.With.Index] = true
			}
		}
	}
	for v, us := range uses {
		def := pt.creator(v)
		if def == nil || def.Op != "pd_op.full_int_array" || other[v] {
			continue
		}
		reshapes := true
		for _, u := range us {
			if u.c.Op != "pd_op.reshape" || u.j != 1 {
				reshapes = false
			}
		}
		var value rule.Expr
		int64s := true
		for _, a := range def.Attrs {
			switch a.Name {
			case "value":
				value = a.Value
			case "dtype":
				if l, ok := a.Value.(*rule.Lit); !ok || !isInt64DType(l.Value) {
					int64s = false
				}
			}
		}
		if reshapes && value != nil && int64s {
			out[def] = foldedShape{users: us, value: value}
		}
	}
	return out
}

func isInt64DType(v rule.Val) bool {
	switch v := v.(type) {
	case ir.DType:
		return v == ir.DTypeInt64
	case *ir.DataTypeAttr:
		return v.DType == ir.DTypeInt64
	}
	return false
}

// creator is the Create action that defines new value i (nil if none does).
func (pt *pattern) creator(i int) *rule.Create {
	for _, a := range pt.r.Actions {
		if c, ok := a.(*rule.Create); ok {
			for _, res := range c.Results {
				if res == i {
					return c
				}
			}
		}
	}
	return nil
}

// foldedValue is the attribute that stands for operand spec of c: a ComputeAttr of the operand's mutable kind
// (IntArray: std::vector<int64_t>), checked against the table.
func (pt *pattern) foldedValue(c *rule.Create, spec ir.OperandSpec, x rule.Expr) (string, error) {
	t := ir.AttrType{Kind: spec.Mutable}
	cpp := TypeOf(t).Compute
	if spec.Mutable != ir.KindIntArray || cpp == "" {
		return "", errAt(c.Pos, "%s's operand %s cannot be given as an attribute", c.Op, spec.Name)
	}
	e := newExprGen(pt, "match_ctx")
	code, err := e.compute(x, cpp)
	if err != nil {
		return "", err
	}
	return pt.lambda(e, code, cpp), nil
}
