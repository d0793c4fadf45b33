package rt_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/rulegen/rt"
)

// TestBoolForms checks the bool forms of a constraint's connectives against True of the rule.Val operators they
// stand for, on every kind of operand (true, false, a failed evaluation, a value that is not a bool), and that they
// run a skipped operand exactly when the operator does.
func TestBoolForms(t *testing.T) {
	vals := []rule.Val{true, false, rt.Fail, int64(1)}
	for _, x := range vals {
		assert.Equal(t, rt.True(rt.Not(x)), rt.False(x), "!%v", x)
		for _, y := range vals {
			name := fmt.Sprintf("%v, %v", x, y)
			var ranVal, ranBool bool
			want := rt.True(rt.Or(x, func() rule.Val { ranVal = true; return y }))
			got := rt.TrueOr(x, func() bool { ranBool = true; return rt.True(y) })
			assert.Equal(t, want, got, "%s || %s", x, y)
			assert.Equal(t, ranVal, ranBool, "%s: || runs its second operand", name)
			for _, z := range vals {
				var ranThen, ranElse, ranThenBool, ranElseBool bool
				want := rt.True(rt.Cond(x, func() rule.Val { ranThen = true; return y }, func() rule.Val { ranElse = true; return z }))
				got := rt.TrueCond(x, func() bool { ranThenBool = true; return rt.True(y) },
					func() bool { ranElseBool = true; return rt.True(z) })
				assert.Equal(t, want, got, "%v ? %v : %v", x, y, z)
				assert.Equal(t, []bool{ranThen, ranElse}, []bool{ranThenBool, ranElseBool}, "%s, %v: ?: runs its branches", name, z)
			}
		}
	}
}
