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
		assert.Equal(t, !b.Program, pure, "%s: pure builtins are implemented here, program builtins by the oracle", b.Name)
	}
}
