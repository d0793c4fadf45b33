package rulegen

import (
	"fmt"
	"strings"

	"github.com/pirdrr/drr/drr/rule"
)

// typeCheck returns the term of CheckType: value hole h's type matches tp, as the matcher checks it (Exact, then
// Tensor, then Hole), binding the pattern's holes. The language gives no value list a type pattern, so neither
// does a plan of a rule file; the generator refuses one rather than print it untested.
func (g *fnGen) typeCheck(h int, tp *rule.TypePattern) string {
	if g.p.Values[h].List {
		g.f.errorf(g.p.Values[h].Pos, "drrc gen: a type pattern on a value list is not supported")
		return "false"
	}
	return g.typeOf(h, tp, g.valVar[h]+".Type()")
}

func holeGoType(k rule.HoleKind) string {
	switch k {
	case rule.HoleAttr:
		return "ir.Attribute"
	case rule.HoleAttrs:
		return "[]ir.NamedAttr"
	case rule.HoleDim:
		return "int64"
	case rule.HoleDType:
		return "ir.DType"
	}
	return "ir.Type"
}

// typeOf returns the check of the type t (a Go expression) of value hole h against tp.
func (g *fnGen) typeOf(h int, tp *rule.TypePattern, t string) string {
	switch {
	case tp.Exact != nil:
		return fmt.Sprintf("%s == in.Types[%d]", t, h)
	case tp.Tensor != nil:
		return g.tensor(h, tp.Tensor, t)
	}
	return g.bind(tp.Hole, t)
}

// tensor returns the check of a tensor pattern: spelling, rank, exact dimensions and element type, then the holes
// of its dimensions and element type.
func (g *fnGen) tensor(h int, tp *rule.TensorPattern, t string) string {
	g.usesTT = true
	conds := []string{"rt.Tensor(&tt, " + t + ")"}
	if len(tp.Spellings) > 0 {
		var sp []string
		for _, s := range tp.Spellings {
			sp = append(sp, fmt.Sprintf("tt.Spelling == %q", s))
		}
		conds = append(conds, paren(strings.Join(sp, " || ")))
	}
	rest := -1
	for i, d := range tp.Dims {
		if d.Kind == rule.DimRest {
			rest = i
		}
	}
	n := len(tp.Dims)
	if rest < 0 {
		conds = append(conds, fmt.Sprintf("len(tt.Dims) == %d", n))
	} else {
		conds = append(conds, fmt.Sprintf("len(tt.Dims) >= %d", n-1))
	}
	dim := func(i int) string {
		if rest < 0 || i < rest {
			return fmt.Sprintf("tt.Dims[%d]", i)
		}
		return fmt.Sprintf("tt.Dims[len(tt.Dims)-%d]", n-i)
	}
	for i, d := range tp.Dims {
		if d.Kind == rule.DimExact {
			conds = append(conds, fmt.Sprintf("%s == %d", dim(i), d.Value))
		}
	}
	if !tp.AnyDType && tp.DTypeHole < 0 {
		conds = append(conds, fmt.Sprintf("tt.DType() == in.DTypes[%d]", h))
	}
	for i, d := range tp.Dims {
		if d.Kind == rule.DimHole {
			conds = append(conds, g.bind(d.Hole, dim(i)))
		}
	}
	if !tp.AnyDType && tp.DTypeHole >= 0 {
		conds = append(conds, g.bind(tp.DTypeHole, "tt.DType()"))
	}
	return strings.Join(conds, " && ")
}

// bind returns the term that binds $hole h to the Go expression x, or checks that x is what h is bound to.
func (g *fnGen) bind(h int, x string) string {
	if !g.bound[h] {
		g.bound[h] = true
		if g.first != "" {
			return fmt.Sprintf("rt.Agree(%s, &%s, %s)", g.first, g.holeVar[h], x)
		}
		return fmt.Sprintf("rt.Set(&%s, %s)", g.holeVar[h], x)
	}
	return fmt.Sprintf("%s == %s", x, g.holeVar[h])
}
