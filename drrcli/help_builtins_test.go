package drrcli

import (
	"strings"
	"testing"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/stretchr/testify/assert"
)

func TestHelpBuiltins(t *testing.T) {
	code, out, _ := run(t, "", "help", "builtins")
	assert.Equal(t, exitOK, code)
	for _, b := range rule.Builtins {
		sig := b.Name + "(" + strings.Join(b.Params, ", ") + ") -> " + b.Result
		assert.Contains(t, out, "  "+sig+"\n    \t"+b.Doc, b.Name)
	}
	assert.Contains(t, out, "is_param(value) -> bool\n    \tthe value is read from a parameter (asks the whole program)\n")

	code, _, errOut := run(t, "", "help", "builtinz")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, `unknown command "builtinz" (did you mean builtins?)`)
}
