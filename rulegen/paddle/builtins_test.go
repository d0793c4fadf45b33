package paddle

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr/rule"
)

// TestEveryBuiltinForm calls every builtin that has a Paddle form (rule.PaddleForm) in one rule's where clause,
// with arguments of the kinds the form asks for, and checks the generated C++ with g++: a form that names a helper
// the generator does not write, forgets a header or spells the API wrongly fails here, whether or not a shipped
// rule calls the builtin. It also lists the builtins without a form, which the export refuses.
func TestEveryBuiltinForm(t *testing.T) {
	arg := map[string]string{"value": "%x", "int": "1", "number": "2", "sized": "shape(%x)"}
	var conds, without []string
	for _, b := range rule.Builtins {
		f := b.Paddle
		if f == nil {
			without = append(without, b.Name)
			continue
		}
		kinds := f.Args
		if f.Each {
			kinds = []string{f.Args[0], f.Args[0]}
		}
		args := make([]string, len(kinds))
		for i, k := range kinds {
			require.Contains(t, arg, k, "%s: argument kind %q", b.Name, k)
			args[i] = arg[k]
		}
		call := fmt.Sprintf("%s(%s)", b.Name, strings.Join(args, ", "))
		switch f.Result {
		case "bool":
			conds = append(conds, call)
		case "int", "arg":
			conds = append(conds, call+" >= 0")
		case "dtype":
			conds = append(conds, call+" == dtype(%y)")
		case "list":
			conds = append(conds, "len("+call+") >= 0")
		default:
			t.Fatalf("%s: result kind %q", b.Name, f.Result)
		}
	}
	t.Logf("builtins without a Paddle form (refused): %s", strings.Join(without, ", "))
	src := "rule every_builtin {\n  match {\n    %y = pd_op.relu(%x)\n  }\n  where {\n    " +
		strings.Join(conds, "\n    ") + "\n  }\n  rewrite {\n    replace %y with pd_op.sigmoid(%x)\n  }\n}\n"
	code, res, diags := generateSource(t, src, Config{})
	require.False(t, diags.HasErrors(), "%v\n%s", diags, src)
	require.Equal(t, 1, res.Exported)
	for _, b := range rule.Builtins {
		if b.Paddle != nil && !strings.Contains(b.Paddle.Code, "{T}") {
			head, _, _ := strings.Cut(b.Paddle.Code, "{")
			assert.Contains(t, string(code), head, "%s's form is not in the code", b.Name)
		}
	}
	include, gxx := headers(t)
	out, err := syntaxCheck(t, gxx, include, code)
	assert.NoError(t, err, "g++ rejects the generated C++:\n%s\n%s", out, code)
}
