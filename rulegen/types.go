package rulegen

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/drr/rule"
)

// typeCheck emits the check of value hole h's type pattern, right after h is bound, as the matcher makes it: for a
// list, on every element (each of which must be present).
func (g *ruleGen) typeCheck(h int) {
	v := g.p.Values[h]
	tp := v.Type
	if tp == nil {
		return
	}
	path := fmt.Sprintf("set.Rules[%d].Pattern.Values[%d].Type", g.r.Index, h)
	if !v.List {
		g.typeOf(tp, g.valVar[h]+".Type()", path)
		return
	}
	// Holes first met inside the loop are bound by the first element, if there is one.
	for _, hole := range typeHoles(tp) {
		if g.hole[hole] == holeUnbound {
			g.hole[hole] = holeMaybe
			g.holeFlag[hole] = g.local.fresh(g.holeVar[hole] + "_set")
			g.line("var %s %s", g.holeVar[hole], holeGoType(g.p.Holes[hole].Kind))
			g.line("%s := false", g.holeFlag[hole])
		}
	}
	e := g.temp("e")
	g.line("for _, %s := range %s {", e, g.valVar[h])
	g.plain++
	g.check(e + " == nil")
	g.typeOf(tp, e+".Type()", path)
	g.plain--
	g.line("}")
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

// typeOf emits the check of the type t (a Go expression) against tp, whose Go path in the set is path. The forms
// are tried as the matcher tries them: Exact, then Tensor, then Hole.
func (g *ruleGen) typeOf(tp *rule.TypePattern, t, path string) {
	switch {
	case tp.Exact != nil:
		fld := g.f.field(fmt.Sprintf("r%d_type", g.r.Index), "ir.Type", "rule "+g.r.ID()+": "+tp.Exact.String(), path+".Exact")
		g.check(fmt.Sprintf("%s != m.%s", t, fld))
	case tp.Tensor != nil:
		g.tensor(tp.Tensor, t, path+".Tensor")
	case tp.Hole >= 0:
		g.bind(tp.Hole, t)
	}
}

// tensor emits the check of a tensor pattern: spelling, rank, exact dimensions and dtype, then the holes of its
// dimensions and dtype.
func (g *ruleGen) tensor(tp *rule.TensorPattern, t, path string) {
	tt, ok := g.temp("tt"), g.temp("ok")
	g.line("%s, %s := %s.(*ir.TensorType)", tt, ok, t)
	conds := []string{"!" + ok}
	if len(tp.Spellings) > 0 {
		var sp []string
		for _, s := range tp.Spellings {
			sp = append(sp, fmt.Sprintf("%s.Spelling != %q", tt, s))
		}
		conds = append(conds, strings.Join(sp, " && "))
	}
	rest := -1
	for i, d := range tp.Dims {
		if d.Kind == rule.DimRest {
			rest = i
		}
	}
	n := len(tp.Dims)
	if rest < 0 {
		conds = append(conds, fmt.Sprintf("len(%s.Dims) != %d", tt, n))
	} else {
		conds = append(conds, fmt.Sprintf("len(%s.Dims) < %d", tt, n-1))
	}
	dim := func(i int) string {
		if rest < 0 || i < rest {
			return fmt.Sprintf("%s.Dims[%d]", tt, i)
		}
		return fmt.Sprintf("%s.Dims[len(%s.Dims)-%d]", tt, tt, n-i)
	}
	for i, d := range tp.Dims {
		if d.Kind == rule.DimExact {
			conds = append(conds, fmt.Sprintf("%s != %s", dim(i), strconv.FormatInt(d.Value, 10)))
		}
	}
	if !tp.AnyDType && tp.DTypeHole < 0 {
		fld := g.f.field(fmt.Sprintf("r%d_dtype", g.r.Index), "ir.DType", "rule "+g.r.ID()+": "+tp.DType.String(), path+".DType")
		conds = append(conds, fmt.Sprintf("%s.DType() != m.%s", tt, fld))
	}
	g.check(strings.Join(conds, " || "))
	for i, d := range tp.Dims {
		if d.Kind == rule.DimHole {
			g.bind(d.Hole, dim(i))
		}
	}
	if !tp.AnyDType && tp.DTypeHole >= 0 {
		g.bind(tp.DTypeHole, tt+".DType()")
	}
}

// bind binds $hole h to the Go expression x, or checks that x equals what h is bound to.
func (g *ruleGen) bind(h int, x string) {
	hv := g.holeVar[h]
	switch g.hole[h] {
	case holeUnbound:
		g.hole[h] = holeBound
		g.line("%s := %s", hv, x)
	case holeBound:
		g.check(fmt.Sprintf("%s != %s", hv, x))
	case holeMaybe:
		t := g.temp("x")
		flag := g.holeFlag[h]
		g.line("if %s := %s; !%s {\n%s, %s = %s, true\n} else if %s != %s {\n%s\n}", t, x, flag, hv, flag, t, hv, t, g.fail())
	}
}
