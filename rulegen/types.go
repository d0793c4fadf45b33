package rulegen

import (
	"fmt"
	"strings"

	"github.com/pirdrr/drr/drr/rule"
)

// typeCheck returns the term of CheckType: value hole h's type matches tp, as the matcher checks it (Exact, then
// Tensor, then Hole), binding the pattern's holes; for a list, on every element, each of which must be present.
func (g *fnGen) typeCheck(h int, tp *rule.TypePattern) string {
	v := g.p.Values[h]
	if !v.List {
		return g.typeOf(h, tp, g.valVar[h]+".Type()")
	}
	// Holes first met here are bound by the first element, if there is one.
	for _, hole := range typeHoles(tp) {
		if g.hole[hole] == holeUnbound {
			g.hole[hole] = holeMaybe
			g.holeFlag[hole] = g.local.fresh(g.holeVar[hole] + "Set")
		}
	}
	return fmt.Sprintf("rt.Each(%s, func(e *ir.Value) bool { return %s })", g.valVar[h], g.typeOf(h, tp, "e.Type()"))
}

// typeHoles lists the $holes a type pattern binds.
func typeHoles(tp *rule.TypePattern) []int {
	switch {
	case tp.Exact != nil:
		return nil
	case tp.Tensor != nil:
		var out []int
		for _, d := range tp.Tensor.Dims {
			if d.Kind == rule.DimHole {
				out = append(out, d.Hole)
			}
		}
		if !tp.Tensor.AnyDType && tp.Tensor.DTypeHole >= 0 {
			out = append(out, tp.Tensor.DTypeHole)
		}
		return out
	case tp.Hole >= 0:
		return []int{tp.Hole}
	}
	return nil
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
	hv := g.holeVar[h]
	switch g.hole[h] {
	case holeUnbound:
		g.hole[h] = holeBound
		return fmt.Sprintf("rt.Set(&%s, %s)", hv, x)
	case holeBound:
		return fmt.Sprintf("%s == %s", x, hv)
	}
	return fmt.Sprintf("rt.Unify(&%s, &%s, %s)", hv, g.holeFlag[h], x)
}
