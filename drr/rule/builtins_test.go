package rule

import (
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBuiltinsSorted(t *testing.T) {
	assert.True(t, sort.SliceIsSorted(Builtins, func(i, j int) bool { return Builtins[i].Name < Builtins[j].Name }))
	for _, b := range Builtins {
		got, ok := LookupBuiltin(b.Name)
		assert.True(t, ok)
		assert.Equal(t, b.Name, got.Name)
		_, pure := builtins[b.Name]
		assert.Equal(t, !b.Program, pure, "%s: pure builtins are evaluated here, program builtins through an oracle", b.Name)
		assert.Equal(t, b.Program, b.EvalProgram != nil, b.Name)
		assert.NotEmpty(t, b.Doc, b.Name)
		assert.NotEmpty(t, b.Result, b.Name)
	}
	_, ok := LookupBuiltin("nosuch")
	assert.False(t, ok)
}

func TestRegisterRejects(t *testing.T) {
	saved, savedIndex, savedPure := Builtins, builtinIndex, builtins
	defer func() { Builtins, builtinIndex, builtins = saved, savedIndex, savedPure }()
	Builtins, builtinIndex, builtins = nil, map[string]int{}, map[string]func([]Val) (Val, error){}
	pure := func([]Val) (Val, error) { return true, nil }
	register(Builtin{Name: "b", Eval: pure})
	register(Builtin{Name: "a", EvalProgram: func(Facts, []Val) (Val, error) { return true, nil }})
	assert.Equal(t, []string{"a", "b"}, []string{Builtins[0].Name, Builtins[1].Name})
	a, _ := LookupBuiltin("a")
	assert.True(t, a.Program)
	assert.PanicsWithValue(t, "rule: builtin b registered twice", func() { register(Builtin{Name: "b", Eval: pure}) })
	assert.PanicsWithValue(t, "rule: builtin c needs exactly one of Eval and EvalProgram", func() { register(Builtin{Name: "c"}) })
}
