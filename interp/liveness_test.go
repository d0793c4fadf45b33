package interp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/ir"
)

// freedAt returns, per top-level op (by index), the names of what dies after it: %N for values (print numbering),
// the parameter name for parameters.
func freedAt(p *ir.Program, keepUnused, deferParams bool) map[int][]string {
	lt := computeLifetimes(p.Body(), keepUnused, deferParams)
	num := ir.NumberValues(p.Body())
	out := map[int][]string{}
	i := 0
	for op := range p.Body().Ops() {
		for _, v := range lt.values[op] {
			out[i] = append(out[i], num.Name(v))
		}
		out[i] = append(out[i], lt.params[op]...)
		i++
	}
	return out
}

func TestLifetimes(t *testing.T) {
	b := whileProgram(t, 3)
	// 0 x, 1 zero, 2 one, 3 n, 4 two, 5 cond, 6 while, 7 fetch i, 8 fetch s.
	got := freedAt(b.P, false, false)
	want := map[int][]string{
		6: {"%0", "%1", "%2", "%3", "%4", "%5"}, // the loop's operands and what its body reads die after it
		7: {"%6", "%11"},                        // a while result, and the fetch's unused result
		8: {"%7", "%12"},                        // (%8–%10 live in the loop body)
	}
	for i, names := range want {
		assert.ElementsMatch(t, names, got[i], "after op %d", i)
	}

	c := progtest.New(t)
	w := c.Param("w", 3)
	c.V("pd_op.relu", w)
	w2 := c.Param("w", 3)
	c.V("pd_op.exp", w2)
	c.V("pd_op.sin", w)
	got = freedAt(c.P, true, false)
	assert.ElementsMatch(t, []string{"%0"}, got[4], "a value dies at its last reader")
	assert.ElementsMatch(t, []string{"w"}, got[2], "the parameter table lets go of w after its last read")
	assert.ElementsMatch(t, []string{"%2"}, got[3], "the value read keeps the buffer until its last reader")
	assert.Empty(t, got[1], "unused results are kept when they are the program's sinks")
}

// Parameters read at the top of a program (as GraphNet's captures read them) are loaded by their first reader and
// dropped after their last one, so a model holds only the weights of the ops in flight.
func TestDeferredParameters(t *testing.T) {
	c := progtest.New(t)
	w1, w2 := c.Param("w1", 3), c.Param("w2", 3) // ops 0, 1
	x := c.Data("x", 3)                          // op 2
	y := c.V("pd_op.add", x, w1)                 // op 3
	c.Fetch(c.V("pd_op.multiply", y, w2), "out", 0)
	got := freedAt(c.P, false, true)
	assert.Contains(t, got[3], "w1", "w1 dies at its reader")
	assert.Contains(t, got[4], "w2")
	assert.Empty(t, got[0])
	assert.Empty(t, got[1])
	eager := freedAt(c.P, false, false)
	assert.Contains(t, eager[0], "w1", "without deferral the parameter op is the name's last reader")
	out := eval(t, c.P, &Feed{Inputs: map[string]*Tensor{"x": host([]int{3}, 1, 2, 3)},
		Params: map[string]*Tensor{"w1": host([]int{3}, 1, 1, 1), "w2": host([]int{3}, 2, 3, 4)}})
	assert.Equal(t, []float64{4, 9, 16}, out["out"].Data)

	// A program that replaces a parameter reads it where the read stands.
	d := progtest.New(t)
	w := d.Param("w", 3)
	d.OpT(ir.SetParameterOpName, []*ir.Value{d.Data("x", 3)}, nil, a(t, "parameter_name", "w"))
	d.Fetch(d.V("pd_op.relu", w), "out", 0)
	assert.True(t, replacesParams(d.P))
	out = eval(t, d.P, &Feed{Inputs: map[string]*Tensor{"x": host([]int{3}, 5, 5, 5)}, Params: map[string]*Tensor{"w": host([]int{3}, 1, 2, 3)}})
	assert.Equal(t, []float64{1, 2, 3}, out["out"].Data, "the read before set_parameter sees the old value")
}

// Dropping values at their last use must not change what a program computes, including through views and inplace
// writes whose buffers outlive the value that created them.
func TestFreeingKeepsSharedBuffers(t *testing.T) {
	b := progtest.New(t)
	x := b.V("pd_op.assign", b.Data("x", 2, 3))
	v := b.VA("pd_op.reshape", []*ir.Value{x, b.Ints(6)}) // a view of x
	b.V("pd_op.relu_", x)                                 // x's last reader writes the shared buffer
	b.Fetch(b.V("pd_op.exp", v), "out", 0)
	out := eval(t, b.P, &Feed{Inputs: map[string]*Tensor{"x": host([]int{2, 3}, -1, 0, 1, -2, 2, 3)}})
	require.Len(t, out["out"].Data, 6)
	assert.Equal(t, []float64{1, 1}, out["out"].Data[:2], "the view reads the inplace write after x was dropped")
}
