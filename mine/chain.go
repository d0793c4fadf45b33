package mine

import (
	"sort"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// Chain is a subgraph in canonical form: equal chains anywhere have equal keys.
type Chain struct {
	// Ops lists the chain's ops, producers before readers; the root is last.
	Ops []ChainOp
	// Inputs are the element types of the values the chain reads from outside, numbered by first use.
	Inputs []ir.DType
	// Constants holds, per input, the constant op that defines it (pd_op.full and the other ConstantLike ops, with
	// their attributes: a scale's factor is such an input), or "" for an input that is not a constant.
	Constants []string
}

// ChainOp is one op of a chain.
type ChainOp struct {
	// Name is the op's name.
	Name string
	// Attrs are the attributes that matter (all but Ignored), sorted by name.
	Attrs []ir.NamedAttr
	// Operands says where each operand comes from.
	Operands []Ref
	// Results are the element types of the op's results; Used says which are read (inside the chain, or for the
	// root, by anything).
	Results []ir.DType
	Used    []bool
}

// Ref is an operand of a chain op: result Result of Ops[Op] when Op >= 0, else Inputs[Input]; Null for an absent
// optional operand.
type Ref struct {
	Op, Result, Input int
	Null              bool
}

// Root returns the chain's root: the op whose result the fused op replaces.
func (c *Chain) Root() *ChainOp { return &c.Ops[len(c.Ops)-1] }

// Ignored lists the attributes that do not change what an op computes, left out of chains and skeletons.
var Ignored = map[string]bool{
	"stop_gradient": true, "persistable": true, "op_callstack": true, "struct_name": true, "op_role": true,
	"op_namescope": true, "op_device": true, "is_persistable": true, "with_quant_attr": true,
}

// Key returns the chain's canonical text: one clause per op, "name{attrs}(operands) -> result types", operands
// as vN.R (an earlier op's result) or iN:dtype (an input).
func (c *Chain) Key() string {
	var b strings.Builder
	for i, op := range c.Ops {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(op.Name)
		writeAttrs(&b, op.Attrs)
		b.WriteByte('(')
		for j, r := range op.Operands {
			if j > 0 {
				b.WriteString(", ")
			}
			c.writeRef(&b, r)
		}
		b.WriteString(") -> ")
		for j, dt := range op.Results {
			if j > 0 {
				b.WriteByte(',')
			}
			if !op.Used[j] {
				b.WriteByte('_')
			}
			b.WriteString(dtypeName(dt))
		}
	}
	return b.String()
}

// Short returns the chain's op names without dialect, producers first: "sigmoid → multiply".
func (c *Chain) Short() string {
	names := make([]string, len(c.Ops))
	for i, op := range c.Ops {
		names[i] = shortName(op.Name)
	}
	return strings.Join(names, " → ")
}

func shortName(name string) string {
	if i := strings.IndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

func (c *Chain) writeRef(b *strings.Builder, r Ref) {
	switch {
	case r.Null:
		b.WriteString("null")
	case r.Op >= 0:
		b.WriteString("v" + strconv.Itoa(r.Op) + "." + strconv.Itoa(r.Result))
	default:
		b.WriteString("i" + strconv.Itoa(r.Input) + ":" + dtypeName(c.Inputs[r.Input]))
		if k := c.Constants[r.Input]; k != "" {
			b.WriteString("=" + k)
		}
	}
}

func writeAttrs(b *strings.Builder, attrs []ir.NamedAttr) {
	if len(attrs) == 0 {
		return
	}
	b.WriteByte('{')
	for i, a := range attrs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(a.Name)
		b.WriteString(": ")
		b.WriteString(a.Value.String())
	}
	b.WriteByte('}')
}

func dtypeName(dt ir.DType) string {
	if dt == ir.DTypeUndefined {
		return "?"
	}
	return dt.String()
}

// valueDType returns v's element type (undefined for a value that is not a tensor).
func valueDType(v *ir.Value) ir.DType {
	if v == nil {
		return ir.DTypeUndefined
	}
	return ir.ElemDType(v.Type())
}

// canonicalizer builds chains; it keeps its buffers between subgraphs.
type canonicalizer struct {
	in    map[*ir.Op]int // op -> position in the subgraph being canonicalized
	attrs map[*ir.Op][]ir.NamedAttr
	skeys map[*ir.Op]string
	index map[*ir.Op]int
	input map[*ir.Value]int
	order []*ir.Op
	chain Chain
}

func newCanonicalizer() *canonicalizer {
	return &canonicalizer{in: map[*ir.Op]int{}, attrs: map[*ir.Op][]ir.NamedAttr{}, skeys: map[*ir.Op]string{},
		index: map[*ir.Op]int{}, input: map[*ir.Value]int{}}
}

// opAttrs returns the attributes of op that matter, sorted by name (cached per op).
func (k *canonicalizer) opAttrs(op *ir.Op) []ir.NamedAttr {
	if a, ok := k.attrs[op]; ok {
		return a
	}
	var out []ir.NamedAttr
	for _, a := range op.SortedAttrs() {
		if !Ignored[a.Name] {
			out = append(out, a)
		}
	}
	k.attrs[op] = out
	return out
}

// canonicalize returns the chain of the subgraph ops (root last in ops is not required: root names it) and the
// subgraph's ops in the chain's order.
func (k *canonicalizer) canonicalize(ops []*ir.Op, root *ir.Op) (Chain, []*ir.Op) {
	clear(k.in)
	clear(k.skeys)
	clear(k.index)
	clear(k.input)
	for i, op := range ops {
		k.in[op] = i
	}
	k.order = k.order[:0]
	k.chain = Chain{}
	k.visit(root)
	order := append([]*ir.Op(nil), k.order...)
	return k.chain, order
}

// operandOrder returns the order op's operands are visited in: as they are, but for a commutative op the two
// operands sorted by their structure.
func (k *canonicalizer) operandOrder(op *ir.Op) []int {
	n := op.NumOperands()
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	if n == 2 && op.Has(ir.Commutative) {
		a, b := k.skey(op.Operand(0)), k.skey(op.Operand(1))
		if b < a {
			idx[0], idx[1] = 1, 0
		}
	}
	return idx
}

// skey is the structure of a value within the subgraph, names and attributes but no numbering: the order of a
// commutative op's operands.
func (k *canonicalizer) skey(v *ir.Value) string {
	if v == nil {
		return "null"
	}
	def := v.DefiningOp()
	if _, ok := k.in[def]; def == nil || !ok {
		return "in:" + dtypeName(valueDType(v))
	}
	if s, ok := k.skeys[def]; ok {
		return s + "." + strconv.Itoa(v.Index())
	}
	var b strings.Builder
	b.WriteString(def.Name())
	writeAttrs(&b, k.opAttrs(def))
	b.WriteByte('(')
	subs := make([]string, def.NumOperands())
	for i := range subs {
		subs[i] = k.skey(def.Operand(i))
	}
	if len(subs) == 2 && def.Has(ir.Commutative) {
		sort.Strings(subs)
	}
	b.WriteString(strings.Join(subs, ","))
	b.WriteByte(')')
	s := b.String()
	k.skeys[def] = s
	return s + "." + strconv.Itoa(v.Index())
}

// visit appends op after the ops of the subgraph it reads (post-order), numbering inputs by first use.
func (k *canonicalizer) visit(op *ir.Op) int {
	if i, ok := k.index[op]; ok {
		return i
	}
	co := ChainOp{Name: op.Name(), Attrs: k.opAttrs(op)}
	order := k.operandOrder(op)
	co.Operands = make([]Ref, len(order))
	for j, i := range order {
		v := op.Operand(i)
		var r Ref
		var def *ir.Op
		if v != nil {
			def = v.DefiningOp()
		}
		switch {
		case v == nil:
			r = Ref{Op: -1, Null: true}
		case def != nil && k.has(def):
			r = Ref{Op: k.visit(def), Result: v.Index()}
		default:
			in, ok := k.input[v]
			if !ok {
				in = len(k.chain.Inputs)
				k.input[v] = in
				k.chain.Inputs = append(k.chain.Inputs, valueDType(v))
				k.chain.Constants = append(k.chain.Constants, k.constant(def))
			}
			r = Ref{Op: -1, Input: in}
		}
		co.Operands[j] = r
	}
	co.Results = make([]ir.DType, op.NumResults())
	co.Used = make([]bool, op.NumResults())
	for i, res := range op.Results() {
		co.Results[i] = valueDType(res)
		co.Used[i] = res.HasUses()
	}
	at := len(k.chain.Ops)
	k.chain.Ops = append(k.chain.Ops, co)
	k.order = append(k.order, op)
	k.index[op] = at
	return at
}

// constant renders a ConstantLike op (name and attributes that matter), or "" for any other op.
func (k *canonicalizer) constant(op *ir.Op) string {
	if op == nil || !op.Has(ir.ConstantLike) {
		return ""
	}
	var b strings.Builder
	b.WriteString(op.Name())
	writeAttrs(&b, k.opAttrs(op))
	return b.String()
}

func (k *canonicalizer) has(op *ir.Op) bool {
	_, ok := k.in[op]
	return ok
}
