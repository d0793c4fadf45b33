package paddle

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAlternatives: a rule with alternatives becomes one pattern class per path through them (Paddle's DRR has no
// choice among sub-patterns), in the order drrc tries them, each with the operand orders of its commutative ops;
// nested alternatives and optional ops are paths too. A class is named Alt and the branch taken at each group, the
// groups numbered inner first (0: a group the path does not reach).
func TestAlternatives(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"value or op", `
rule r {
  match {
    %d = pd_op.subtract(%x, %m)
    %p = pd_op.divide(%d | pd_op.subtract(%x, %m), %s)
  }
  rewrite {
    replace %p with pd_op.divide(%d, %s)
  }
}`, []string{"RAlt1Pattern", "RAlt2Pattern"}},
		{"nested and optional", `
rule r {
  match {
    %y = pd_op.sqrt(pd_op.square(pd_op.abs(pd_op.cast(%x) {dtype: float32}?) | %x))
  }
  rewrite {
    replace %y with pd_op.abs(%x)
  }
}`, []string{"RAlt1_1Pattern", "RAlt2_1Pattern", "RAlt0_2Pattern"}},
		{"with either order", `
rule r {
  match {
    %y = pd_op.add(pd_op.relu(%x) | %x, %b)
  }
  rewrite {
    replace %y with pd_op.subtract(%x, %b)
  }
}`, []string{"RAlt1Pattern", "RAlt1SwappedPattern", "RAlt2Pattern", "RAlt2SwappedPattern"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, res, diags := generateSource(t, tc.src, Config{})
			require.Empty(t, diags)
			assert.Equal(t, tc.want, res.Classes)
			assert.Equal(t, 1, res.Exported)
			assert.NotEmpty(t, code)
		})
	}
}
