package graphnet

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pirdrr/drr/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tokens lists the tokens of src as "kind:text@line:col".
func tokens(src string) ([]string, *Error) {
	l := newLexer("t.py", src, nil)
	var out []string
	for {
		t := l.next()
		if l.err != nil {
			return out, l.err
		}
		s := tokNames[t.kind]
		if t.kind == tName || t.kind == tInt || t.kind == tFloat || t.kind == tOp || t.kind == tString {
			s += ":" + t.text
		}
		out = append(out, fmt.Sprintf("%s@%d:%d", s, t.pos.Line, t.pos.Col))
		if t.kind == tEOF {
			return out, nil
		}
	}
}

func TestLexer(t *testing.T) {
	got, err := tokens("class A:\n    # c\n    x = f(1,\n          2.5e-3)  # tail\n\n    del x\ny = 'a\\n' \"b\"\n")
	require.Nil(t, err)
	assert.Equal(t, []string{
		"name:class@1:1", "name:A@1:7", "operator::@1:8", "end of line@1:9",
		"indentation@3:5", "name:x@3:5", "operator:=@3:7", "name:f@3:9", "operator:(@3:10", "integer:1@3:11",
		"operator:,@3:12", "number:2.5e-3@4:11", "operator:)@4:17", "end of line@4:26",
		"name:del@6:5", "name:x@6:9", "end of line@6:10",
		"dedent@7:1", "name:y@7:1", "operator:=@7:3", "string:a\n@7:5", "string:b@7:11", "end of line@7:14",
		"end of file@8:1",
	}, got)
}

func TestLexerOperators(t *testing.T) {
	got, err := tokens("a ** b // c << d >> e -> f != g == h <= i >= j ... k % l")
	require.Nil(t, err)
	var ops []string
	for _, s := range got {
		if strings.HasPrefix(s, "operator:") {
			ops = append(ops, strings.Split(strings.TrimPrefix(s, "operator:"), "@")[0])
		}
	}
	assert.Equal(t, []string{"**", "//", "<<", ">>", "->", "!=", "==", "<=", ">=", "...", "%"}, ops)
}

func TestLexerErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"x = 'abc\n", "t.py:1:5: error: unterminated string"},
		{"x = (1,\n", "t.py:2:1: error: unexpected end of file inside brackets"},
		{"x = )\n", "t.py:1:5: error: unmatched ')'"},
		{"if x:\n        a\n    b\n", "t.py:3:5: error: unindent does not match any outer indentation level"},
		{"x = f'{a}'\n", "t.py:1:5: error: string prefix \"f\" is not supported"},
		{"x = 012\n", "t.py:1:5: error: leading zeros in the integer 012 are not allowed"},
		{"x = 1abc\n", "t.py:1:5: error: malformed number \"1a\""},
		{"x = $\n", "t.py:1:5: error: unexpected character \"$\""},
		{"x = '\\x4'\n", "t.py:1:5: error: bad \\x escape"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			_, err := tokens(tt.src)
			require.NotNil(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

func parse(t *testing.T, src string) []stmt {
	t.Helper()
	mem := getArena()
	t.Cleanup(mem.release)
	body, err := parseModule("t.py", []byte(src), mem)
	require.Nil(t, err)
	return body
}

func TestParseForward(t *testing.T) {
	src := `import paddle


class GraphModule(paddle.nn.Layer):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        # pd_op.op: (1xf32) <- (1xf32)
        x = paddle._C_ops.op(a, [1, -2], float("nan"), k=None)

        # second line
        # pd_op.multi: (1xf32, 1xf32) <- (1xf32)
        y, z = (lambda x, f: f(x))(
            paddle._C_ops.multi(x),  # inside: not a statement comment
            lambda out: out if isinstance(out, (list, tuple)) else (out, None),
        )
        del (
            a,
            b,
        )
        (
            s0,
            s1,
        ) = y
        return x, y
`
	body := parse(t, src)
	require.Len(t, body, 2)
	cls := body[1].(*classDef)
	assert.Equal(t, "GraphModule", cls.name)
	require.Len(t, cls.body, 2)
	fwd := cls.body[1].(*funcDef)
	assert.Equal(t, "forward", fwd.name)
	assert.Equal(t, []string{"self", "a", "b"}, []string{fwd.params[0].name, fwd.params[1].name, fwd.params[2].name})
	require.Len(t, fwd.body, 5)

	x := fwd.body[0].(*assignStmt)
	require.Len(t, x.comments, 1)
	assert.Equal(t, " pd_op.op: (1xf32) <- (1xf32)", x.comments[0].text)
	assert.Equal(t, ir.Loc{Line: 9, Col: 9}, x.comments[0].pos)
	call := x.value.(*callExpr)
	assert.True(t, isDotted(call.fn, "paddle", "_C_ops", "op"))
	require.Len(t, call.args, 3)
	assert.Equal(t, "[1, -2]", call.args[1].(*listExpr).src)
	require.Len(t, call.keywords, 1)
	assert.Equal(t, "k", call.keywords[0].name)

	y := fwd.body[1].(*assignStmt)
	require.Len(t, y.comments, 2, "both comment lines before the statement, none from inside it")
	assert.Equal(t, " pd_op.multi: (1xf32, 1xf32) <- (1xf32)", y.comments[1].text)
	assert.Len(t, y.target.(*tupleExpr).elems, 2)
	inner, ok := lambdaIdiom(y.value.(*callExpr))
	require.True(t, ok)
	assert.True(t, isDotted(inner.fn, "paddle", "_C_ops", "multi"))

	del := fwd.body[2].(*delStmt)
	assert.Empty(t, del.comments, "the comment inside the previous statement belongs to no statement")
	require.Len(t, del.targets, 1)
	assert.Len(t, del.targets[0].(*tupleExpr).elems, 2)
	assert.Len(t, fwd.body[3].(*assignStmt).target.(*tupleExpr).elems, 2)
	assert.Len(t, fwd.body[4].(*returnStmt).value.(*tupleExpr).elems, 2)
}

func TestParseExpressions(t *testing.T) {
	body := parse(t, "x = a % paddle.cast(b, a.dtype) + -c * d ** 2\ny = not a in b or c is not None and d[1]\n")
	x := body[0].(*assignStmt).value.(*binExpr)
	assert.Equal(t, "+", x.op)
	g, ok := oneHotGuard(x.x.(*binExpr))
	require.True(t, ok)
	assert.Equal(t, "a", g.(*nameExpr).id)
	mul := x.y.(*binExpr)
	assert.Equal(t, "*", mul.op)
	assert.Equal(t, "-", mul.x.(*unaryExpr).op)
	assert.Equal(t, "**", mul.y.(*binExpr).op)
	y := body[1].(*assignStmt).value.(*binExpr)
	assert.Equal(t, "or", y.op)
	assert.Equal(t, "not", y.x.(*unaryExpr).op)
	assert.Equal(t, "in", y.x.(*unaryExpr).x.(*binExpr).op)
	and := y.y.(*binExpr)
	assert.Equal(t, "and", and.op)
	assert.Equal(t, "is not", and.x.(*binExpr).op)
	_, isSub := and.y.(*subscriptExpr)
	assert.True(t, isSub)
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"if x:\n    y = 1\n", "t.py:1:1: error: unsupported statement 'if' (a GraphNet graph's forward is straight-line code)"},
		{"def f(*args):\n    pass\n", "t.py:1:7: error: '*' parameters are not supported (a GraphNet forward names each of its inputs)"},
		{"def f(a=1):\n    pass\n", "t.py:1:8: error: parameter defaults and annotations are not supported"},
		{"x = f(a=1, 2)\n", "t.py:1:12: error: positional argument after a keyword argument"},
		{"x = y = 1\n", "t.py:1:7: error: chained assignment is not supported"},
		{"x += 1\n", "t.py:1:3: error: augmented assignment '+=' is not supported"},
		{"f() = 1\n", "t.py:1:1: error: cannot assign to this expression"},
		{"del f()\n", "t.py:1:5: error: cannot delete this expression"},
		{"x = (1, 2\n", "t.py:2:1: error: unexpected end of file inside brackets"},
		{"x = [1 2]\n", "t.py:1:8: error: expected ']', found '2'"},
		{"x = 1 if y\n", "t.py:1:11: error: expected 'else', found end of line"},
		{"class A: pass\n", "t.py:1:10: error: expected a new line after ':' (one-line bodies are not supported)"},
		{"def f():\nx = 1\n", "t.py:2:1: error: expected an indented block"},
		{"    x = 1\n", "t.py:1:5: error: unexpected indentation"},
		{"@dec\ndef f():\n    pass\n", "t.py:1:1: error: decorators are not supported"},
		{"import a as b\n", "t.py:1:10: error: import … as is not supported"},
		{"x = 1 2\n", "t.py:1:7: error: expected the end of the statement, found '2'"},
		{"x = lambda: \n", "t.py:1:13: error: expected an expression, found end of line"},
		{"x = f(*a)\n", "t.py:1:7: error: * arguments are not supported"},
		{"x = " + strings.Repeat("(", 300) + "\n", "t.py:1:105: error: expressions nested more than 200 deep"},
		{"x = " + strings.Repeat("-", 300) + "1\n", "t.py:1:204: error: expressions nested more than 200 deep"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			mem := getArena()
			defer mem.release()
			_, err := parseModule("t.py", []byte(tt.src), mem)
			require.NotNil(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

func TestLiterals(t *testing.T) {
	body := parse(t, `x = [1, -2, 3.5, -1e-05, float("nan"), float("-inf"), float(" 2 "), "s", True, None, (1,)]`+"\n")
	l, err := evalLiteral("t.py", body[0].(*assignStmt).value)
	require.Nil(t, err)
	require.Len(t, l.elems, 11)
	assert.Equal(t, int64(-2), l.elems[1].i)
	assert.Equal(t, 3.5, l.elems[2].f)
	assert.Equal(t, -1e-05, l.elems[3].f)
	assert.Equal(t, "-1e-05", l.elems[3].s)
	assert.True(t, l.elems[4].f != l.elems[4].f, "nan")
	assert.Equal(t, "-inf", l.elems[5].s)
	assert.Equal(t, 2.0, l.elems[6].f)
	assert.Equal(t, litStr, l.elems[7].kind)
	assert.Equal(t, litBool, l.elems[8].kind)
	assert.Equal(t, litNone, l.elems[9].kind)
	assert.Equal(t, litList, l.elems[10].kind)

	for src, want := range map[string]string{
		`x = float("abc")`:           "t.py:1:11: error: float(\"abc\"): not a number",
		`x = float([1])`:             "t.py:1:11: error: float() of a list",
		`x = y`:                      "t.py:1:5: error: expected a literal value",
		`x = 99999999999999999999`:   "t.py:1:5: error: integer 99999999999999999999 does not fit in 64 bits",
		`x = float("0x10")`:          "t.py:1:11: error: float(\"0x10\"): not a number",
		`x = [float("1"), f(2)]`:     "t.py:1:18: error: expected a literal value",
		`x = float("1_000")`:         "t.py:1:11: error: float(\"1_000\"): not a number",
		`x = float("--inf")`:         "t.py:1:11: error: float(\"--inf\"): not a number",
		`x = float("+infinity") + 1`: "t.py:1:5: error: expected a literal value",
	} {
		body := parse(t, src+"\n")
		_, err := evalLiteral("t.py", body[0].(*assignStmt).value)
		require.NotNil(t, err, src)
		assert.Equal(t, want, err.Error(), src)
	}
}
