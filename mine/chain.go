package mine

import (
	"slices"
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

// canonicalizer builds the keys and chains of a program's subgraphs. It caches what it renders of each op, and
// reuses its buffers between subgraphs: a key is built without building its chain, which only a new key needs.
type canonicalizer struct {
	attrs  map[*ir.Op][]ir.NamedAttr
	text   map[*ir.Op]string // name{attrs}
	consts map[*ir.Op]string // the constant an input's op is ("" for none)
	skeys  map[*ir.Op]string // per subgraph: structures, for the order of commutative operands

	ops    []*ir.Op    // the subgraph
	order  []*ir.Op    // its ops in the chain's order
	refs   []Ref       // the operands of order[i] are refs[start[i]:start[i+1]]
	start  []int       //
	inputs []*ir.Value // the chain's inputs, by first use
	buf    []byte      // the key being built
}

func newCanonicalizer() *canonicalizer {
	return &canonicalizer{attrs: map[*ir.Op][]ir.NamedAttr{}, text: map[*ir.Op]string{}, consts: map[*ir.Op]string{},
		skeys: map[*ir.Op]string{}}
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

// opText returns op's name and the attributes that matter, as keys write them (cached per op).
func (k *canonicalizer) opText(op *ir.Op) string {
	if s, ok := k.text[op]; ok {
		return s
	}
	var b strings.Builder
	b.WriteString(op.Name())
	writeAttrs(&b, k.opAttrs(op))
	s := b.String()
	k.text[op] = s
	return s
}

// constant renders a ConstantLike op (name and attributes that matter), or "" for any other op (cached per op).
func (k *canonicalizer) constant(op *ir.Op) string {
	if op == nil || !op.Has(ir.ConstantLike) {
		return ""
	}
	if s, ok := k.consts[op]; ok {
		return s
	}
	s := k.opText(op)
	k.consts[op] = s
	return s
}

// key orders the subgraph ops rooted at root (see visit) and returns its key, equal to Chain.Key of its chain.
func (k *canonicalizer) key(ops []*ir.Op, root *ir.Op) string {
	k.ops = ops
	clear(k.skeys)
	k.order, k.refs, k.start, k.inputs = k.order[:0], k.refs[:0], k.start[:0], k.inputs[:0]
	k.visit(root)
	k.start = append(k.start, len(k.refs))
	b := k.buf[:0]
	for i, op := range k.order {
		if i > 0 {
			b = append(b, "; "...)
		}
		b = append(b, k.opText(op)...)
		b = append(b, '(')
		for j, r := range k.refs[k.start[i]:k.start[i+1]] {
			if j > 0 {
				b = append(b, ", "...)
			}
			switch {
			case r.Null:
				b = append(b, "null"...)
			case r.Op >= 0:
				b = append(b, 'v')
				b = strconv.AppendInt(b, int64(r.Op), 10)
				b = append(b, '.')
				b = strconv.AppendInt(b, int64(r.Result), 10)
			default:
				in := k.inputs[r.Input]
				b = append(b, 'i')
				b = strconv.AppendInt(b, int64(r.Input), 10)
				b = append(b, ':')
				b = append(b, dtypeName(valueDType(in))...)
				if c := k.constant(in.DefiningOp()); c != "" {
					b = append(b, '=')
					b = append(b, c...)
				}
			}
		}
		b = append(b, ") -> "...)
		for j, res := range op.Results() {
			if j > 0 {
				b = append(b, ',')
			}
			if !res.HasUses() {
				b = append(b, '_')
			}
			b = append(b, dtypeName(valueDType(res))...)
		}
	}
	k.buf = b
	return string(b)
}

// chain builds the chain of the subgraph key last ordered, and returns it with the subgraph's ops in its order.
func (k *canonicalizer) chain() (Chain, []*ir.Op) {
	var c Chain
	for i, op := range k.order {
		co := ChainOp{Name: op.Name(), Attrs: k.opAttrs(op), Operands: slices.Clone(k.refs[k.start[i]:k.start[i+1]]),
			Results: make([]ir.DType, op.NumResults()), Used: make([]bool, op.NumResults())}
		for j, res := range op.Results() {
			co.Results[j] = valueDType(res)
			co.Used[j] = res.HasUses()
		}
		c.Ops = append(c.Ops, co)
	}
	for _, in := range k.inputs {
		c.Inputs = append(c.Inputs, valueDType(in))
		c.Constants = append(c.Constants, k.constant(in.DefiningOp()))
	}
	return c, slices.Clone(k.order)
}

// operandOrder returns the order op's operands are visited in: as they are, but for a commutative op the two
// operands sorted by their structure.
func (k *canonicalizer) operandOrder(op *ir.Op) (int, int) {
	if op.NumOperands() == 2 && op.Has(ir.Commutative) {
		if k.skey(op.Operand(1)) < k.skey(op.Operand(0)) {
			return 1, 0
		}
	}
	return 0, 1
}

// skey is the structure of a value within the subgraph, names and attributes but no numbering: the order of a
// commutative op's operands.
func (k *canonicalizer) skey(v *ir.Value) string {
	if v == nil {
		return "null"
	}
	def := v.DefiningOp()
	if def == nil || !slices.Contains(k.ops, def) {
		return "in:" + dtypeName(valueDType(v))
	}
	if s, ok := k.skeys[def]; ok {
		return s + "." + strconv.Itoa(v.Index())
	}
	var b strings.Builder
	b.WriteString(k.opText(def))
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

// visit places op after the ops of the subgraph it reads (post-order), numbering inputs by first use, and returns
// its position.
func (k *canonicalizer) visit(op *ir.Op) int {
	if i := slices.Index(k.order, op); i >= 0 {
		return i
	}
	n := op.NumOperands()
	var mine [8]Ref
	refs := mine[:0]
	if n > len(mine) {
		refs = make([]Ref, 0, n)
	}
	first, second := k.operandOrder(op)
	for j := 0; j < n; j++ {
		i := j
		if n == 2 {
			i = [2]int{first, second}[j]
		}
		v := op.Operand(i)
		var def *ir.Op
		if v != nil {
			def = v.DefiningOp()
		}
		switch {
		case v == nil:
			refs = append(refs, Ref{Op: -1, Null: true})
		case def != nil && slices.Contains(k.ops, def):
			refs = append(refs, Ref{Op: k.visit(def), Result: v.Index()})
		default:
			in := slices.Index(k.inputs, v)
			if in < 0 {
				in = len(k.inputs)
				k.inputs = append(k.inputs, v)
			}
			refs = append(refs, Ref{Op: -1, Input: in})
		}
	}
	k.start = append(k.start, len(k.refs))
	k.refs = append(k.refs, refs...)
	k.order = append(k.order, op)
	return len(k.order) - 1
}
