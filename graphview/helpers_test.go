package graphview

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/golden"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

func init() { golden.Register() }

// parse reads PIR text into a program of unregistered ops.
func parse(t testing.TB, src string) *ir.Program {
	t.Helper()
	p, _, err := pirtext.Parse(ir.NewContext(), "test.pir", []byte(src), pirtext.ReadOptions{})
	require.NoError(t, err)
	return p
}

// chain returns a program: an input, then blocks residual blocks (a, b, c(b, block input)), then an output op.
// variant, if >= 0, wires that block's c to a instead of b.
func chain(blocks, variant int) string {
	var b strings.Builder
	b.WriteString("{\n    (%0) = \"t.in\" () {} : () -> f32\n")
	in, n := 0, 1
	for k := 0; k < blocks; k++ {
		second := n + 1
		if k == variant {
			second = n
		}
		fmt.Fprintf(&b, "    (%%%d) = \"t.a\" (%%%d) {k:(Int32)%d} : (f32) -> f32\n", n, in, k)
		fmt.Fprintf(&b, "    (%%%d) = \"t.b\" (%%%d) {} : (f32) -> f32\n", n+1, n)
		fmt.Fprintf(&b, "    (%%%d) = \"t.c\" (%%%d, %%%d) {} : (f32, f32) -> f32\n", n+2, second, in)
		in, n = n+2, n+3
	}
	fmt.Fprintf(&b, "    () = \"t.out\" (%%%d) {} : (f32) -> \n}\n", in)
	return b.String()
}

func labels(g *Graph) []string {
	var out []string
	for _, n := range g.Nodes {
		out = append(out, n.Label)
	}
	return out
}

func edges(g *Graph) []string {
	var out []string
	for _, e := range g.Edges {
		out = append(out, g.Nodes[e.From].ID+"->"+g.Nodes[e.To].ID)
	}
	return out
}
