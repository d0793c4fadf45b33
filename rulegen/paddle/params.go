package paddle

import (
	"strconv"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// A rule set's parameters (param NAME: TYPE = DEFAULT) become attributes of the pass, read when it builds its
// patterns (Has(NAME) ? Get<T>(NAME) : DEFAULT), and members of the pattern classes that read them.

// paramCType is the C++ type of a parameter.
type paramCType struct {
	t    ctype
	elem string
	name string
}

func (p paramCType) cpp() string { return p.name }

func paramType(d *rule.ParamDecl) paramCType {
	ct := TypeOf(d.Type)
	cpp := ct.Read
	if cpp == "" {
		cpp = "int64_t"
	}
	switch d.Type.Kind {
	case ir.KindInt32, ir.KindInt64, ir.KindIndex:
		if !d.Type.Array {
			cpp = "int64_t"
		}
	case ir.KindFloat, ir.KindDouble:
		if !d.Type.Array {
			cpp = "double"
		}
	}
	c := typed("", cpp)
	return paramCType{t: c.t, elem: c.elem, name: cpp}
}

// paramDefault is the C++ of a parameter's default.
func paramDefault(d *rule.ParamDecl) string {
	e := &exprGen{mc: "match_ctx"}
	c, err := e.lit(d.Default, d.Pos)
	if err != nil {
		return paramType(d).cpp() + "()"
	}
	s, err := e.as(c, paramType(d).cpp(), d.Pos)
	if err != nil {
		if c.t == tStr {
			return "std::string(" + strconv.Quote(d.Default.(string)) + ")"
		}
		return paramType(d).cpp() + "()"
	}
	return s
}

func (g *gen) paramDecl(name string) *rule.ParamDecl {
	for _, d := range g.set.Params {
		if d.Name == name {
			return d
		}
	}
	return nil
}
