package drr

import (
	"fmt"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/stretchr/testify/require"
)

// This file measures the one-tree form issue 28 asked about (doc.go, "Two trees"): participle filling the
// syntax tree's own types, with positions in fields named Pos and EndPos and a participle.Union for the kinds
// of primary expression, as participle's documentation and examples write a grammar. Operators are the token
// classes of today's grammar (binaryOp, unaryOp) rather than participle's alternatives of literals, which try
// each operator in turn, so that what is compared is the tree, not the terminals. BenchmarkTrees times it
// against the grammar as it is (participle's structs, then build*.go) on the expressions of BenchmarkParse2000's
// rule. The one-tree sketch covers only what that input needs and leaves out what would cost it more: no
// terminal carries a message, and operators stay ungrouped (an operand, then operator and operand pairs). It is a
// lower bound on the one-tree form's work.

// treeExprs are the expressions of BenchmarkParse2000's rule (its where clauses and the values of its rewrite
// statements), one a line.
const treeExprs = `immutable(%w, %mean, %var, %scale, %bias)
unused(%m, %v, %sm, %sv)
$fmt in ["NCHW", "NHWC"]
pd_op.sqrt(pd_op.add(%var, pd_op.full() {shape: [1], value: $eps, dtype: dtype(%var)}))
pd_op.divide(%scale, %std)
pd_op.multiply(%w, pd_op.reshape(%alpha, pd_op.full_int_array() {value: [-1, 1, 1, 1]}))
pd_op.conv2d(%x, %w2) {strides: $s, paddings: $p, padding_algorithm: $pa, dilations: $d, groups: $g, data_format: $fmt}
pd_op.subtract(%bias, pd_op.multiply(%mean, %alpha))
pd_op.full_int_array() {value: $fmt == "NCHW" ? [1, -1, 1, 1] : [1, 1, 1, -1]}
pd_op.add(%c, pd_op.reshape(%b2, %bshape))
`

// whereTokens returns the participle tokens of n copies of treeExprs as the lines of one where block: the
// expressions with a separator between each two, then EOF.
func whereTokens(t testing.TB, n int) []lexer.Token {
	src := "rule r {\n  where {\n" + strings.Repeat(treeExprs, n) + "  }\n}\n"
	toks, _, diags := scan("p.drr", src)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	// Keep the tokens after "where {" and its separator, up to the separator before the block's '}'.
	start := 0
	for i := range toks {
		if toks[i].text == "where" {
			start = i + 2
			break
		}
	}
	for start < len(toks) && toks[start].kind == tSep {
		start++
	}
	end := start
	depth := 0
	for ; end < len(toks); end++ {
		if toks[end].text == "{" {
			depth++
		}
		if toks[end].text == "}" {
			if depth == 0 {
				break
			}
			depth--
		}
	}
	for end > start && toks[end-1].kind == tSep {
		end--
	}
	out := appendTokens(nil, toks[start:end], "p.drr")
	eof := toks[end-1]
	eof.kind, eof.text = tEOF, ""
	return append(out, participleToken(&eof, "p.drr"))
}

// gExprLines is lines of expressions in the grammar as it is.
type gExprLines struct {
	First *gExpr           `parser:"@@"`
	More  []*gExprLineNext `parser:"@@*"`
}

// gExprLineNext is an expression after the first, with the separator before it.
type gExprLineNext struct {
	Sep constraintSep `parser:"@@"`
	X   *gExpr        `parser:"@@"`
}

// The one-tree sketch: ot* types are the tree.

// otSpan is where participle puts a node's position: the start of its first token and of the token after it.
type otSpan struct {
	Pos    lexer.Position
	EndPos lexer.Position
}

// otExpr is an expression: an operand, then operator and operand pairs, and a conditional tail.
type otExpr struct {
	otSpan
	X    *otTerm    `parser:"@@"`
	Ops  []*otBinOp `parser:"@@*"`
	Cond *otCond    `parser:"@@?"`
}

// otBinOp is an operator and its right operand.
type otBinOp struct {
	Pos lexer.Position
	Op  binaryOp `parser:"@@"`
	Y   *otTerm  `parser:"@@"`
}

// otCond is the `? then : else` of a conditional.
type otCond struct {
	Then *otExpr `parser:"'?' @@"`
	Else *otExpr `parser:"':' @@"`
}

// otTerm is an operand: unary operators, a primary expression, indexes and a spread.
type otTerm struct {
	otSpan
	Unary  []unaryOp `parser:"@@*"`
	X      otPrimary `parser:"@@"`
	Index  []*otExpr `parser:"( '[' @@ ']' )*"`
	Spread bool      `parser:"@'...'?"`
}

// otPrimary is a primary expression: one of the types below, a participle.Union.
type otPrimary interface{ primary() }

// otValue is %name.
type otValue struct {
	otSpan
	Name string `parser:"@Value"`
}

// otHole is $name.
type otHole struct {
	otSpan
	Name string `parser:"@Hole"`
}

// otNumber is a number.
type otNumber struct {
	otSpan
	Text string `parser:"@(Int | Float)"`
}

// otString is a string.
type otString struct {
	otSpan
	Text string `parser:"@String"`
}

// otName is a name.
type otName struct {
	otSpan
	Name string `parser:"@Ident"`
}

// otCall is `name(args) {attrs}`.
type otCall struct {
	otSpan
	Func  string     `parser:"(?= (Ident | String) '(') @(Ident | String) '('"`
	Args  []*otExpr  `parser:"( @@ ( ',' @@ )* )? ')'"`
	Attrs *otAttrMap `parser:"@@?"`
}

// otList is `[elems]`.
type otList struct {
	otSpan
	Elems []*otExpr `parser:"'[' ( @@ ( ',' @@ )* )? ']'"`
}

// otParen is `(x)`.
type otParen struct {
	otSpan
	X *otExpr `parser:"'(' @@ ')'"`
}

// otAttrMap is `{key: value, …}`.
type otAttrMap struct {
	otSpan
	Entries []*otAttrEntry `parser:"'{' ( @@ ( ',' @@ )* )? '}'"`
}

// otAttrEntry is `key: value`.
type otAttrEntry struct {
	otSpan
	Key   string  `parser:"@Ident ':'"`
	Value *otExpr `parser:"@@"`
}

func (*otValue) primary()  {}
func (*otHole) primary()   {}
func (*otNumber) primary() {}
func (*otString) primary() {}
func (*otName) primary()   {}
func (*otCall) primary()   {}
func (*otList) primary()   {}
func (*otParen) primary()  {}

// otLines is lines of expressions in the sketch.
type otLines struct {
	Exprs []*otExpr `parser:"@@ ( Sep @@ )*"`
}

var (
	exprLinesParser = participle.MustBuild[gExprLines](grammarOptions()...)
	otLinesParser   = participle.MustBuild[otLines](append(grammarOptions(), participle.Union[otPrimary](
		&otValue{}, &otHole{}, &otCall{}, &otNumber{}, &otString{}, &otName{}, &otList{}, &otParen{}))...)
)

// parseToday parses toks with the grammar as it is and builds the AST of each expression.
func parseToday(t testing.TB, toks []lexer.Token) []Expr {
	g, err := parseTokens(exprLinesParser, toks)
	if err != nil {
		t.Fatal(err)
	}
	name := "p.drr"
	b := &builder{file: &name}
	xs := []Expr{b.expr(g.First)}
	for _, m := range g.More {
		xs = append(xs, b.expr(m.X))
	}
	return xs
}

// parseOneTree parses toks with the one-tree sketch.
func parseOneTree(t testing.TB, toks []lexer.Token) []*otExpr {
	o, err := parseTokens(otLinesParser, toks)
	if err != nil {
		t.Fatal(err)
	}
	return o.Exprs
}

// calls returns the names of the calls in the sketch's expression x, in source order, each with its number of
// arguments.
func (x *otExpr) calls(out []string) []string {
	terms := []*otTerm{x.X}
	for _, op := range x.Ops {
		terms = append(terms, op.Y)
	}
	for _, tm := range terms {
		switch p := tm.X.(type) {
		case *otCall:
			out = append(out, fmt.Sprintf("%s/%d", p.Func, len(p.Args)))
			for _, a := range p.Args {
				out = a.calls(out)
			}
			if p.Attrs != nil {
				for _, e := range p.Attrs.Entries {
					out = e.Value.calls(out)
				}
			}
		case *otList:
			for _, e := range p.Elems {
				out = e.calls(out)
			}
		case *otParen:
			out = p.X.calls(out)
		}
	}
	if x.Cond != nil {
		out = x.Cond.Else.calls(x.Cond.Then.calls(out))
	}
	return out
}

// TestOneTreeSketchParses keeps BenchmarkTrees honest: both parsers read every expression of its input, and the
// sketch finds the calls the AST has, with as many arguments.
func TestOneTreeSketchParses(t *testing.T) {
	toks := whereTokens(t, 3)
	today, sketch := parseToday(t, toks), parseOneTree(t, toks)
	require.Len(t, today, 30)
	require.Len(t, sketch, 30)
	for i, x := range today {
		var want []string
		Inspect(x, func(n Node) bool {
			if c, ok := n.(*CallExpr); ok {
				want = append(want, fmt.Sprintf("%s/%d", c.Func.Name, len(c.Args)))
			}
			return true
		})
		require.Equal(t, want, sketch[i].calls(nil), "expression %d", i)
	}
}

// BenchmarkTrees times the grammar as it is (tree=today: participle's structs, then the AST) against the
// one-tree sketch (tree=onetree) on 200 copies of treeExprs (2,000 expressions):
//
//	go test ./drr -run XXX -bench Trees -count 6 | tee trees.txt
//	go run golang.org/x/perf/cmd/benchstat@latest -col /tree trees.txt
func BenchmarkTrees(b *testing.B) {
	toks := whereTokens(b, 200)
	for _, p := range []struct {
		name string
		f    func(testing.TB, []lexer.Token) int
	}{
		{"today", func(t testing.TB, toks []lexer.Token) int { return len(parseToday(t, toks)) }},
		{"onetree", func(t testing.TB, toks []lexer.Token) int { return len(parseOneTree(t, toks)) }},
	} {
		b.Run("tree="+p.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if n := p.f(b, toks); n != 2000 {
					b.Fatal(n)
				}
			}
		})
	}
}
