package drr

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const walkSrc = `family conv = [pd_op.conv2d, pd_op.depthwise_conv2d]

rule fold {
  for C in conv
  match {
    %y = C(%x, %w: tensor<$o x ? x f32>) {groups: $g}
  }
  where {
    $g >= 1 && dim(%w, 0) == $o
  }
  rewrite {
    replace %y with pd_op.relu(%x)
  }
  benefit 2
}
`

// nodeName names a node for the tests: its type and, for leaves, its text.
func nodeName(n Node) string {
	name := strings.TrimPrefix(reflect.TypeOf(n).String(), "*drr.")
	switch n := n.(type) {
	case *Ident:
		return name + ":" + n.Name
	case *OpName:
		return name + ":" + n.Name
	case *ValueExpr:
		return name + ":%" + n.Name
	case *ValueOperand:
		return name + ":%" + n.Name
	case *HoleExpr:
		return name + ":$" + n.Name
	case *Result:
		return name + ":%" + n.Name
	case *BasicLit:
		return name + ":" + n.Text
	case *Dim:
		return name + ":" + n.Text
	}
	return name
}

func TestPathAt(t *testing.T) {
	f, err := Parse("w.drr", []byte(walkSrc))
	require.NoError(t, err)
	at := func(marker string, delta int) int {
		i := strings.Index(walkSrc, marker)
		require.GreaterOrEqual(t, i, 0, marker)
		return i + delta
	}
	tests := []struct {
		name string
		off  int
		want string
	}{
		{"family member", at("depthwise", 3), "File Family FamilyList OpName:pd_op.depthwise_conv2d"},
		{"family name", at("conv =", 0), "File Family Ident:conv"},
		{"for family", at("in conv", 4), "File Rule For Ident:conv"},
		{"result", at("%y =", 1), "File Rule MatchBlock PatternStmt Result:%y"},
		{"family variable op", at("C(%x", 0), "File Rule MatchBlock PatternStmt OpPattern OpName:C"},
		{"operand", at("%x,", 1), "File Rule MatchBlock PatternStmt OpPattern ValueOperand:%x"},
		{"dim hole", at("$o x", 1), "File Rule MatchBlock PatternStmt OpPattern ValueOperand:%w TensorType Dim:o"},
		{"attr key", at("groups", 2), "File Rule MatchBlock PatternStmt OpPattern AttrMap AttrEntry Ident:groups"},
		{"attr hole", at("$g}", 1), "File Rule MatchBlock PatternStmt OpPattern AttrMap AttrEntry HoleExpr:$g"},
		{"builtin arg", at("dim(%w", 5), "File Rule WhereBlock BinaryExpr BinaryExpr CallExpr ValueExpr:%w"},
		{"builtin name", at("dim(", 1), "File Rule WhereBlock BinaryExpr BinaryExpr CallExpr OpName:dim"},
		{"end of a name", at("dim(", 3), "File Rule WhereBlock BinaryExpr BinaryExpr CallExpr OpName:dim"},
		{"replace", at("replace", 0), "File Rule RewriteBlock ReplaceStmt"},
		{"rewrite op", at("relu", 0), "File Rule RewriteBlock ReplaceStmt CallExpr OpName:pd_op.relu"},
		{"benefit after rewrite", at("benefit 2", 9), "File Rule Benefit BasicLit:2"},
		{"between declarations", at("\n\nrule", 1), "File"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var names []string
			for _, n := range PathAt(f, tt.off) {
				names = append(names, nodeName(n))
			}
			require.Equal(t, tt.want, strings.Join(names, " "))
		})
	}
	require.Empty(t, PathAt(f, len(walkSrc)+1))
	require.Empty(t, PathAt(nil, 0))
}

// TestInspectSourceOrder: Inspect visits every node once, parents before children, in source order, and every
// child lies inside its parent.
func TestInspectSourceOrder(t *testing.T) {
	f, err := Parse("w.drr", shippedRules(t))
	require.NoError(t, err)
	var stack []Node
	seen := map[Node]bool{}
	last := -1
	count := 0
	Inspect(f, func(n Node) bool {
		require.False(t, seen[n], "visited twice: %s", nodeName(n))
		seen[n] = true
		count++
		for len(stack) > 0 && stack[len(stack)-1].End().Offset <= n.Pos().Offset && stack[len(stack)-1] != Node(f) {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			p := stack[len(stack)-1]
			require.LessOrEqual(t, p.Pos().Offset, n.Pos().Offset, "%s inside %s", nodeName(n), nodeName(p))
			require.LessOrEqual(t, n.End().Offset, p.End().Offset, "%s inside %s", nodeName(n), nodeName(p))
		}
		require.GreaterOrEqual(t, n.Pos().Offset, last, "%s at %s comes before the node visited before it", nodeName(n), n.Pos())
		last = n.Pos().Offset
		stack = append(stack, n)
		return true
	})
	require.Greater(t, count, 1000)

	// Returning false skips the children.
	var top []string
	Inspect(f, func(n Node) bool {
		if _, ok := n.(*File); ok {
			return true
		}
		top = append(top, fmt.Sprintf("%T", n))
		return false
	})
	require.Len(t, top, len(f.Decls))
}
