package matcher

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// Positions name the things the decision tree asks about, relative to the op being matched (MLIR's Position): the
// root op, the op defining a value, an operand or result value of an op, an attribute of an op. They are
// hash-consed, so two rules asking about "the op defining operand 0 of the root" share one position, and its value
// is computed once per matched op.

type posKind uint8

const (
	posRoot    posKind = iota // the op being matched
	posDef                    // the op defining value parent (nil for block arguments)
	posOperand                // operand index of op parent (nil when absent or out of range)
	posResult                 // result index of op parent
	posAttr                   // attribute name of op parent, or its schema default
)

type position struct {
	id     int
	kind   posKind
	parent *position
	index  int
	name   string
	depth  int // number of posDef steps from the root
}

// String renders the position as a path: root.operand[0].def.attr[groups].
func (p *position) String() string {
	switch p.kind {
	case posRoot:
		return "root"
	case posDef:
		return p.parent.String() + ".def"
	case posOperand:
		return p.parent.String() + ".operand[" + strconv.Itoa(p.index) + "]"
	case posResult:
		return p.parent.String() + ".result[" + strconv.Itoa(p.index) + "]"
	}
	return p.parent.String() + ".attr[" + p.name + "]"
}

// Questions are asked at a position; the answer selects a child of a tree node (MLIR's Qualifier/Question).

type qKind uint8

const (
	qName          qKind = iota // op name: answer *ir.OpInfo
	qResultIndex                // the value is result n of some op: answer n (-1: absent or a block argument)
	qNumOperands                // number of operands: answer n
	qNumOperandsGE              // number of operands >= n: answer true
	qNumResults                 // number of results: answer n
	qNumResultsGE               // number of results >= n: answer true
	qAttr                       // the attribute (or default): answer the attribute
	qAttrPresent                // the op carries attribute name: answer true
	qAttrEq                     // the attribute equals the attribute at position other (both non-nil): true
	qIsNull                     // operand n of the op is absent (and in range): true
	qValueEq                    // the value is the value at position other (both non-nil): true
	qNoUses                     // the value has no uses: true
	qExtraUnused                // results n.. of the op have no uses: true
	qType                       // the value's type: answer the type
	qTensor                     // the value's type matches the hole-free part of a tensor pattern: true
	qUses                       // number of uses of the value: answer n
	qUsesCmp                    // number of uses compared with n (cmp): true
)

var qNames = [...]string{
	qName: "name", qResultIndex: "result_index", qNumOperands: "num_operands", qNumOperandsGE: "num_operands",
	qNumResults: "num_results", qNumResultsGE: "num_results", qAttr: "attr",
	qAttrPresent: "has_attr", qAttrEq: "same_attr", qIsNull: "is_null",
	qValueEq: "same_value", qNoUses: "unused", qExtraUnused: "unused_results", qType: "type", qTensor: "type",
	qUses: "uses", qUsesCmp: "uses",
}

type question struct {
	id     int
	kind   qKind
	pos    *position
	n      int
	name   string
	other  *position
	tensor *rule.TensorPattern // qTensor (its hole-free part)
	cmp    Cmp                 // qUsesCmp
	key    string
}

// String renders the question: name(root.operand[0].def), num_operands(root) >= 2, …
func (q *question) String() string {
	s := qNames[q.kind] + "(" + q.pos.String()
	switch q.kind {
	case qIsNull:
		s += ", " + strconv.Itoa(q.n)
	case qAttrPresent:
		s += ", " + q.name
	case qAttrEq, qValueEq:
		s += ", " + q.other.String()
	case qExtraUnused:
		s += ", from " + strconv.Itoa(q.n)
	}
	s += ")"
	switch q.kind {
	case qNumOperandsGE, qNumResultsGE:
		s += " >= " + strconv.Itoa(q.n)
	case qTensor:
		s += " ~ " + tensorStaticKey(q.tensor)
	case qUsesCmp:
		s += " " + q.cmp.String() + " " + strconv.Itoa(q.n)
	}
	return s
}

// isBool reports whether the question's only interesting answer is true.
func (q *question) isBool() bool {
	switch q.kind {
	case qName, qResultIndex, qNumOperands, qNumResults, qAttr, qType, qUses:
		return false
	}
	return true
}

// answer is the answer to a question: ref for ops infos, attributes and types, n for numbers and booleans.
type answer struct {
	ref any
	n   int64
}

var answerTrue = answer{n: 1}

func (a answer) String() string {
	switch r := a.ref.(type) {
	case *ir.OpInfo:
		return r.Name
	case ir.Attribute:
		return r.String()
	case ir.Type:
		return r.String()
	}
	return strconv.FormatInt(a.n, 10)
}

// tables hash-conses positions and questions for one automaton.
type tables struct {
	pos       []*position
	posIndex  map[string]*position
	ques      []*question
	quesIndex map[string]*question
}

func newTables() *tables {
	t := &tables{posIndex: map[string]*position{}, quesIndex: map[string]*question{}}
	t.root()
	return t
}

func (t *tables) intern(kind posKind, parent *position, index int, name string) *position {
	pid := -1
	depth := 0
	if parent != nil {
		pid = parent.id
		depth = parent.depth
	}
	if kind == posDef {
		depth++
	}
	key := fmt.Sprintf("%d|%d|%d|%s", kind, pid, index, name)
	if p, ok := t.posIndex[key]; ok {
		return p
	}
	p := &position{id: len(t.pos), kind: kind, parent: parent, index: index, name: name, depth: depth}
	t.pos = append(t.pos, p)
	t.posIndex[key] = p
	return p
}

func (t *tables) root() *position                          { return t.intern(posRoot, nil, 0, "") }
func (t *tables) def(v *position) *position                { return t.intern(posDef, v, 0, "") }
func (t *tables) operand(op *position, j int) *position    { return t.intern(posOperand, op, j, "") }
func (t *tables) result(op *position, i int) *position     { return t.intern(posResult, op, i, "") }
func (t *tables) attr(op *position, name string) *position { return t.intern(posAttr, op, 0, name) }

func (t *tables) question(q question) *question {
	other := -1
	if q.other != nil {
		other = q.other.id
	}
	tk := ""
	if q.tensor != nil {
		tk = tensorStaticKey(q.tensor)
	}
	key := fmt.Sprintf("%d|%d|%d|%s|%d|%s|%d", q.kind, q.pos.id, q.n, q.name, other, tk, q.cmp)
	if old, ok := t.quesIndex[key]; ok {
		return old
	}
	nq := q
	nq.id = len(t.ques)
	nq.key = key
	t.ques = append(t.ques, &nq)
	t.quesIndex[key] = &nq
	return &nq
}

// tensorStaticKey renders the hole-free part of a tensor pattern: spellings, exact dimensions (? for any one
// dimension or a hole), * and the exact dtype (? for any or a hole).
func tensorStaticKey(t *rule.TensorPattern) string {
	var b strings.Builder
	b.WriteString(strings.Join(t.Spellings, "|"))
	b.WriteByte('<')
	for _, d := range t.Dims {
		switch d.Kind {
		case rule.DimExact:
			b.WriteString(strconv.FormatInt(d.Value, 10))
		case rule.DimRest:
			b.WriteByte('*')
		default:
			b.WriteByte('?')
		}
		b.WriteByte('x')
	}
	if t.AnyDType || t.DTypeHole >= 0 {
		b.WriteByte('?')
	} else {
		b.WriteString(t.DType.String())
	}
	b.WriteByte('>')
	return b.String()
}

// tensorHasHoles reports whether a tensor pattern binds holes (so a part of it must be checked at match time).
func tensorHasHoles(t *rule.TensorPattern) bool {
	if !t.AnyDType && t.DTypeHole >= 0 {
		return true
	}
	for _, d := range t.Dims {
		if d.Kind == rule.DimHole {
			return true
		}
	}
	return false
}
