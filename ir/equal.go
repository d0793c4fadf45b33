package ir

import (
	"fmt"
	"sort"
)

// EqualOptions relaxes what Equal compares.
type EqualOptions struct {
	// AttrOrder makes the order of each op's attributes significant (PIR text sorts them, PIR JSON keeps schema
	// order, so by default only names and values are compared).
	AttrOrder bool
	// IgnoreAttrs lists attribute names to leave out of the comparison.
	IgnoreAttrs []string
	// IgnoreLocs is implied: source positions are never compared.
}

// Equal reports whether two programs are structurally the same: the same ops in the same order with the same
// names, attributes, result types and regions, and operands that correspond (value i of one program is used
// exactly where its counterpart is used in the other). Value names are not compared; the IR has none. It returns
// nil, or an error describing the first difference with the printed value ids of a.
func Equal(a, b *Program, opts EqualOptions) error {
	e := &equaler{opts: opts, m: map[*Value]*Value{}, names: NumberValues(a.Body())}
	for _, n := range opts.IgnoreAttrs {
		if e.ignore == nil {
			e.ignore = map[string]bool{}
		}
		e.ignore[n] = true
	}
	if a.Ctx != b.Ctx {
		return fmt.Errorf("programs belong to different contexts")
	}
	return e.block(a.Body(), b.Body(), "program")
}

type equaler struct {
	opts   EqualOptions
	ignore map[string]bool
	m      map[*Value]*Value
	names  *Numbering
}

func (e *equaler) block(x, y *Block, where string) error {
	if len(x.args) != len(y.args) {
		return fmt.Errorf("%s: %d block arguments vs %d", where, len(x.args), len(y.args))
	}
	for i, a := range x.args {
		if a.Type() != y.args[i].Type() {
			return fmt.Errorf("%s: block argument %d has type %s vs %s", where, i, a.Type(), y.args[i].Type())
		}
		e.m[a] = y.args[i]
	}
	if x.len != y.len {
		return fmt.Errorf("%s: %d ops vs %d", where, x.len, y.len)
	}
	for p, q := x.first, y.first; p != nil; p, q = p.next, q.next {
		if err := e.op(p, q); err != nil {
			return err
		}
	}
	return nil
}

func (e *equaler) op(p, q *Op) error {
	desc := e.names.Describe(p)
	if p.info.Name != q.info.Name {
		return fmt.Errorf("%s: op name differs: %s vs %s", desc, p.info.Name, q.info.Name)
	}
	if len(p.operandSlice()) != len(q.operandSlice()) {
		return fmt.Errorf("%s: %d operands vs %d", desc, len(p.operandSlice()), len(q.operandSlice()))
	}
	for i := range p.operandSlice() {
		pv, qv := p.operandSlice()[i].value, q.operandSlice()[i].value
		if pv == nil || qv == nil {
			if pv != qv {
				return fmt.Errorf("%s: operand %d is absent in only one program", desc, i)
			}
			continue
		}
		if mv, ok := e.m[pv]; !ok || mv != qv {
			return fmt.Errorf("%s: operand %d (%s) does not correspond", desc, i, e.names.Name(pv))
		}
	}
	if p.NumResults() != q.NumResults() {
		return fmt.Errorf("%s: %d results vs %d", desc, p.NumResults(), q.NumResults())
	}
	for i := range p.NumResults() {
		pr, qr := p.result(i), q.result(i)
		if pr.Type() != qr.Type() {
			return fmt.Errorf("%s: result %d has type %s vs %s", desc, i, pr.Type(), qr.Type())
		}
		e.m[pr] = qr
	}
	if err := e.attrs(p, q, desc); err != nil {
		return err
	}
	if len(p.regionSlice()) != len(q.regionSlice()) {
		return fmt.Errorf("%s: %d regions vs %d", desc, len(p.regionSlice()), len(q.regionSlice()))
	}
	for ri, r := range p.regionSlice() {
		s := q.regionSlice()[ri]
		if len(r.blocks) != len(s.blocks) {
			return fmt.Errorf("%s: region %d has %d blocks vs %d", desc, ri, len(r.blocks), len(s.blocks))
		}
		for bi, b := range r.blocks {
			if err := e.block(b, s.blocks[bi], fmt.Sprintf("%s region %d block %d", desc, ri, bi)); err != nil {
				return err
			}
		}
	}
	return nil
}

func (e *equaler) attrs(p, q *Op, desc string) error {
	pa, qa := e.filter(p.attrSlice()), e.filter(q.attrSlice())
	if !e.opts.AttrOrder {
		sort.SliceStable(pa, func(i, j int) bool { return pa[i].Name < pa[j].Name })
		sort.SliceStable(qa, func(i, j int) bool { return qa[i].Name < qa[j].Name })
	}
	for i := 0; i < len(pa) || i < len(qa); i++ {
		switch {
		case i >= len(pa):
			return fmt.Errorf("%s: attribute %s is only in the second program", desc, qa[i].Name)
		case i >= len(qa):
			return fmt.Errorf("%s: attribute %s is only in the first program", desc, pa[i].Name)
		case pa[i].Name != qa[i].Name:
			return fmt.Errorf("%s: attribute %s vs %s", desc, pa[i].Name, qa[i].Name)
		case pa[i].Value != qa[i].Value:
			return fmt.Errorf("%s: attribute %s is %s vs %s", desc, pa[i].Name, pa[i].Value, qa[i].Value)
		}
	}
	return nil
}

func (e *equaler) filter(attrs []NamedAttr) []NamedAttr {
	out := make([]NamedAttr, 0, len(attrs))
	for _, a := range attrs {
		if !e.ignore[a.Name] {
			out = append(out, a)
		}
	}
	return out
}
