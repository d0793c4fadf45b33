package rule

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPathBindsFold: bound(…) is decided for the path, and only what it decides is simplified — operands rule.Eval
// would evaluate stay — while an expression that calls no bound is returned as it is.
func TestPathBindsFold(t *testing.T) {
	p := &Pattern{Holes: []*Hole{{Name: "a"}, {Name: "b"}}, Values: []*ValueHole{{Name: "x", Def: -1}, {Name: "y", Def: -1}}}
	r := &Rule{Pattern: p}
	pb := &PathBinds{Values: []bool{true, false}, Holes: []bool{true, false}}
	bound := func(args ...Expr) Expr { return &Call{Func: "bound", Args: args} }
	a, b := &HoleRef{Hole: 0}, &HoleRef{Hole: 1}
	x, y := &ValueRef{Ref: Ref{Index: 0}}, &ValueRef{Ref: Ref{Index: 1}}
	gt := func(e Expr) Expr { return &Binary{Op: ">", X: e, Y: &Lit{Value: int64(0)}} }
	bin := func(op string, l, r Expr) Expr { return &Binary{Op: op, X: l, Y: r} }
	tests := []struct {
		name string
		e    Expr
		want string
	}{
		{"bound", bound(a, x), "true"},
		{"one unbound", bound(a, y), "false"},
		{"and true", bin("&&", bound(a), gt(a)), "$a > 0"},
		{"and false", bin("&&", bound(b), gt(b)), "false"},
		{"implies", bin("||", &Unary{Op: "!", X: bound(b)}, gt(b)), "true"},
		{"right operand kept", bin("&&", gt(a), bound(b)), "$a > 0 && false"},
		{"cond", &Cond{Cond: bound(y), Then: gt(b), Else: gt(a)}, "$a > 0"},
		{"equal", bin("==", bound(a), bound(b)), "false"},
		{"not equal", bin("!=", bound(a), bound(b)), "true"},
		{"in a list", &List{Elems: []Expr{bound(x), a}}, "[true, $a]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.True(t, CallsBound(tc.e))
			assert.Equal(t, tc.want, FormatExpr(r, pb.Fold(tc.e)))
		})
	}
	plain := bin("&&", gt(a), gt(b))
	assert.False(t, CallsBound(plain))
	assert.Same(t, plain, pb.Fold(plain), "nothing to decide: the same expression")
}
