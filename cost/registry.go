package cost

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// formula computes the work of one op from its types and attributes.
type formula func(v *opView) (Work, error)

// family is a group of ops whose costs are worked out the same way, declared in one file (family_NAME.go): the
// one place where the FLOP and byte formulas of its ops live, fused ops included.
type family struct {
	name string
	// doc says, for the package documentation and drrc cost -ops, what the family's formulas count.
	doc string
	ops map[string]formula
}

// families lists every family; an op is in at most one.
var families = []*family{
	&viewFamily, &elementwiseFamily, &movementFamily, &reduceFamily, &matmulFamily, &convFamily, &attentionFamily,
	&normFamily, &imageFamily, &sequenceFamily, &collectiveFamily, &compilerFamily,
}

// formulas maps an op name to its formula and family, built from families.
var formulas = func() map[string]struct {
	f   formula
	fam *family
} {
	out := map[string]struct {
		f   formula
		fam *family
	}{}
	for _, fam := range families {
		for name, f := range fam.ops {
			if prev, dup := out[name]; dup {
				panic(fmt.Sprintf("cost: %s is in families %s and %s", name, prev.fam.name, fam.name))
			}
			out[name] = struct {
				f   formula
				fam *family
			}{f, fam}
		}
	}
	return out
}()

// lookup finds the formula for op: its own name, else the kernel dialect's op_name (add(phi_kernel) runs
// pd_op.add), else the non-inplace twin of an inplace op (relu_ costs what relu does: an inplace kernel reads and
// writes the same bytes).
func lookup(op *ir.Op) (formula, *family, string) {
	name := kernelOpName(op)
	if e, ok := formulas[name]; ok {
		return e.f, e.fam, name
	}
	if strings.HasSuffix(name, "_") && !strings.HasSuffix(name, "__") {
		twin := ir.NonInplaceName(name)
		if e, ok := formulas[twin]; ok {
			return e.f, e.fam, twin
		}
	}
	return nil, nil, name
}

// kernelOpName returns the op a kernel-dialect op runs (its op_name attribute: "add(phi_kernel)" runs pd_op.add),
// or the op's own name.
func kernelOpName(op *ir.Op) string {
	name := op.Name()
	if strings.Contains(name, "(") || strings.HasPrefix(name, "pd_kernel.") {
		if s, ok := ir.AsString(op.Attr("op_name")); ok && s != "" {
			return s
		}
	}
	return name
}

// Costed reports whether the model has a formula for ops named name (directly, or through the non-inplace twin).
func Costed(name string) bool {
	if _, ok := formulas[name]; ok {
		return true
	}
	if strings.HasSuffix(name, "_") {
		_, ok := formulas[ir.NonInplaceName(name)]
		return ok
	}
	return false
}

// FamilyDoc is a family's name, what its formulas count and its ops, for drrc cost -ops and the docs.
type FamilyDoc struct {
	Name, Doc string
	Ops       []string
}

// Families documents the op families the model knows, in the order of the package documentation.
func Families() []FamilyDoc {
	var out []FamilyDoc
	for _, f := range families {
		fd := FamilyDoc{Name: f.name, Doc: f.doc}
		for n := range f.ops {
			fd.Ops = append(fd.Ops, n)
		}
		sort.Strings(fd.Ops)
		out = append(out, fd)
	}
	return out
}
