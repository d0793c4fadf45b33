package pirjson

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// opsJSON returns a program of ops of kind 1.foo with the given "A" and "OA" lists, each op without operands and
// with one f32 result.
func opsJSON(lists ...[2]string) string {
	var b strings.Builder
	b.WriteString(`{"base_code":{"magic":"pir","trainable":true,"version":1},"program":{"regions":[{"#":"region_0","blocks":[{"#":"block_0","args":[],"ops":[`)
	for i, l := range lists {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"#":"1.foo","A":` + l[0] + `,"I":[],"O":[{"%":` + string(rune('1'+i)) + `,"TT":` + f32 + `}],"OA":` + l[1] + `}`)
	}
	b.WriteString(`]}]}]}}`)
	return b.String()
}

const (
	attrX = `{"AT":{"#":"0.a_bool","D":true},"N":"x"}`
	attrY = `{"AT":{"#":"0.a_i32","D":7},"N":"y"}`
	attrS = `{"AT":{"#":"0.a_array","D":[{"#":"0.a_bool","D":false}]},"N":"stop_gradient"}`
)

// TestRepeatedListsTakenWhole reads ops whose attribute lists repeat the last op's byte for byte (taken whole,
// without reading them again) or do not: each op has its own attributes, and ops with equal ones share them.
func TestRepeatedListsTakenWhole(t *testing.T) {
	src := opsJSON(
		[2]string{"[" + attrX + "]", "[]"},
		[2]string{"[" + attrX + "]", "[]"},               // the same lists
		[2]string{"[" + attrX + "," + attrY + "]", "[]"}, // another A
		[2]string{"[" + attrX + "," + attrY + "]", "[]"}, // the same as the one before
		[2]string{"[" + attrY + "]", "[" + attrS + "]"},  // another A and OA
		[2]string{"[" + attrX + "]", "[]"},               // the first again
	)
	p, err := Read(ir.NewContext(), "m.json", []byte(src), ReadOptions{})
	require.NoError(t, err)
	var names [][]string
	var ops []*ir.Op
	for op := range p.Body().Ops() {
		var n []string
		for _, a := range op.Attrs() {
			n = append(n, a.Name)
		}
		names = append(names, n)
		ops = append(ops, op)
	}
	assert.Equal(t, [][]string{{"x"}, {"x"}, {"x", "y"}, {"x", "y"}, {"y", "stop_gradient"}, {"x"}}, names)
	assert.Same(t, &ops[0].Attrs()[0], &ops[1].Attrs()[0], "equal lists are shared")
	out, err := Marshal(p, WriteOptions{})
	require.NoError(t, err)
	assert.Equal(t, src, string(out))
}

// TestRepeatedListErrorPosition: an error on an entry of a list taken whole is reported where that entry is in
// this op, not in the op it was taken from.
func TestRepeatedListErrorPosition(t *testing.T) {
	src := opsJSON(
		[2]string{"[" + attrY + "]", "[" + attrX + "]"},
		[2]string{"[" + attrX + "]", "[" + attrX + "]"}, // OA is the last op's, and repeats A's x
	)
	_, err := Read(ir.NewContext(), "m.json", []byte(src), ReadOptions{})
	require.Error(t, err)
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Contains(t, e.Msg, `attribute "x" is given twice`)
	second := strings.LastIndex(src, attrX)
	assert.Equal(t, second, e.Pos.Offset, "the offset of the second op's OA entry")
}
