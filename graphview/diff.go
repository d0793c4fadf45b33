package graphview

import (
	"strings"

	"github.com/pirdrr/drr/ir"
)

// DiffOps matches the ops of two programs by content — name, attributes, and operand and result types, not value
// numbers, which a rewrite shifts — and returns the ops of after that have no counterpart in before (to mark
// "added") and the ops of before that have none in after (to draw beside the result with AddDetached, as
// "removed"; parameters are left out). Equal ops pair up in program order.
func DiffOps(before, after *ir.Program) (added map[*ir.Op]bool, removed []*ir.Op) {
	pool := map[string][]*ir.Op{}
	for op := range before.Walk() {
		k := OpKey(op)
		pool[k] = append(pool[k], op)
	}
	added = map[*ir.Op]bool{}
	for op := range after.Walk() {
		k := OpKey(op)
		if l := pool[k]; len(l) > 0 {
			pool[k] = l[1:]
			continue
		}
		added[op] = true
	}
	for op := range before.Walk() {
		k := OpKey(op)
		if l := pool[k]; len(l) > 0 && l[0] == op {
			pool[k] = l[1:]
			if op.Name() != ir.ParameterOpName {
				removed = append(removed, op)
			}
		}
	}
	return added, removed
}

// OpKey is what DiffOps compares ops by: the name, the attributes, the operand types and the result types.
func OpKey(op *ir.Op) string {
	var b strings.Builder
	b.WriteString(op.Name())
	for _, a := range op.SortedAttrs() {
		b.WriteString("|" + a.Name + "=" + a.Value.String())
	}
	for _, v := range op.Operands() {
		if v != nil {
			b.WriteString("|" + v.Type().String())
		}
	}
	for _, r := range op.Results() {
		b.WriteString(">" + r.Type().String())
	}
	return b.String()
}
