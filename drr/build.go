package drr

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
)

// This file and build_*.go turn the structs participle fills (grammar*.go)
// into the AST of ast.go: positions become Spans, binary operators are
// grouped by precedence, literals are decoded, and the few rules the
// grammar leaves to a check are checked ('...' only as the last result,
// '$rest...' as the last attribute, the items of tensor types). A construct
// that breaks such a rule is reported and left out of the tree, as a syntax
// error would be.

// builder builds the AST of one file (or region of a file).
type builder struct {
	file  *string // the file name shared by the spans
	diags diag.Diagnostics
	a     nodeSlabs
	// depth bounds the height of the expression being built: the operators and brackets above the current term
	// (rule.MaxExprDepth; a flat chain of operators builds a tree as deep as it is long).
	depth int
}

// deeper adds n levels to the expression being built, reporting at sp() an expression deeper than
// rule.MaxExprDepth.
func (b *builder) deeper(n int, sp func() Span) {
	b.depth += n
	if b.depth > rule.MaxExprDepth {
		b.fail(sp(), "expression too deep: more than %d levels of operators and brackets (each operator of a chain is a level)", rule.MaxExprDepth)
	}
}

// invalid is panicked by the builder after reporting an error, to drop the
// statement (or declaration) being built; see protect.
type invalid struct{}

// fail reports an error at sp and drops the construct being built.
func (b *builder) fail(sp Span, format string, args ...any) {
	b.diags = append(b.diags, diag.Errorf(sp.Pos(), format, args...))
	panic(invalid{})
}

// protect runs f and reports whether it completed without dropping its
// construct.
func (b *builder) protect(f func()) (ok bool) {
	depth := b.depth
	defer func() {
		b.depth = depth
		if r := recover(); r != nil {
			if _, drop := r.(invalid); !drop {
				panic(r)
			}
			ok = false
		}
	}()
	f()
	return true
}

// tokSpan returns the span of one token.
func (b *builder) tokSpan(t lexer.Token) Span {
	cols := len(t.Value)
	return Span{file: b.file, off: int32(t.Pos.Offset), end: int32(t.Pos.Offset + len(t.Value)),
		line: int32(t.Pos.Line), col: int32(t.Pos.Column), endLine: int32(t.Pos.Line), endCol: int32(t.Pos.Column + cols)}
}

// span returns the span of a production's tokens.
func (b *builder) span(toks []lexer.Token) Span {
	if len(toks) == 0 {
		return Span{file: b.file}
	}
	return b.tokSpan(toks[0]).to(b.tokSpan(toks[len(toks)-1]))
}

// set reports whether a token field was filled by the parser (the token
// types of the grammar are all negative).
func set(t lexer.Token) bool { return t.Type != 0 }

// ident builds an Ident from a token.
func (b *builder) ident(t lexer.Token) *Ident {
	id := b.a.idents.new()
	id.Span, id.Name = b.tokSpan(t), t.Value
	return id
}

// opName builds an OpName from an identifier or string token.
func (b *builder) opName(t lexer.Token) *OpName {
	n := b.a.opNames.new()
	n.Span = b.tokSpan(t)
	if isKind(&t, tString) {
		n.Name, n.Quoted = unquote(t.Value), true
		if n.Name == "" {
			b.fail(n.Span, "empty op name")
		}
		return n
	}
	n.Name = t.Value
	return n
}

// basicLit builds a literal of the given kind from a token.
func (b *builder) basicLit(t lexer.Token, kind LitKind) *BasicLit {
	l := b.a.basicLits.new()
	*l = BasicLit{Span: b.tokSpan(t), Kind: kind, Text: t.Value, Value: t.Value}
	if kind == StringLit {
		l.Value = unquote(t.Value)
	}
	return l
}

// ---------------------------------------------------------------------------
// Declarations

// decl builds a declaration; it returns nil (after reporting why) for one
// that breaks a rule of the language.
func (b *builder) decl(g *gDecl) (d Decl) {
	if !b.protect(func() {
		switch {
		case g.Import != nil:
			d = &Import{Span: b.span(g.Import.Tokens), Path: b.basicLit(*g.Import.Path.t, StringLit)}
		case g.Family != nil:
			d = b.family(g.Family)
		case g.Native != nil:
			d = b.native(g.Native)
		case g.Param != nil:
			d = b.setParam(g.Param)
		case g.Rule != nil:
			d = b.rule(g.Rule)
		}
	}) {
		return nil
	}
	return d
}

func (b *builder) family(g *gFamily) *Family {
	set := b.famTerm(g.First)
	for _, diff := range g.Diffs {
		y := b.famTerm(diff.Term)
		set = &FamilyDiff{Span: set.span().to(y.span()), X: set, OpSpan: b.tokSpan(diff.Minus), Y: y}
	}
	return &Family{Span: b.span(g.Tokens), Name: b.ident(*g.Name.t), Set: set}
}

func (b *builder) famTerm(g *gFamTerm) FamilyExpr {
	switch {
	case g.List != nil:
		l := &FamilyList{Span: b.span(g.List.Tokens)}
		if len(g.List.Ops) > 0 {
			l.Ops = make([]*OpName, len(g.List.Ops))
			for i, op := range g.List.Ops {
				l.Ops[i] = b.opName(*op.Name.t)
			}
		}
		return l
	case g.Trait != nil:
		return &FamilyTrait{Span: b.span(g.Trait.Tokens), Trait: b.ident(*g.Trait.Name.t)}
	}
	return &FamilyRef{Span: b.tokSpan(g.Ref), Name: b.ident(g.Ref)}
}

func (b *builder) native(g *gNative) *Native {
	n := &Native{Span: b.span(g.Tokens), Name: b.ident(*g.Name.t)}
	if g.Kind.t.Value == "rewrite" {
		n.Kind = NativeRewrite
	}
	for _, p := range g.Params {
		par := &Param{Span: b.span(p.Tokens), Name: p.Name.Value[1:], Type: b.kind(*p.Type.t, p.Array)}
		if isKind(&p.Name, tHole) {
			par.Kind = HoleParam
		}
		n.Params = append(n.Params, par)
	}
	if g.Result != nil {
		n.Result = b.ident(*g.Result.t)
	}
	return n
}

func (b *builder) setParam(g *gSetParam) *ParamDecl {
	return &ParamDecl{Span: b.span(g.Tokens), Name: b.ident(*g.Name.t), Type: b.kind(*g.Type.t, g.Array), Default: b.expr(g.Default)}
}

// kind builds the Ident of a kind, with its array suffix: i64[].
func (b *builder) kind(t lexer.Token, arr *gArrayKind) *Ident {
	id := b.ident(t)
	if arr != nil {
		id.Name += "[]"
		id.Span = id.Span.to(b.tokSpan(*arr.Close.t))
	}
	return id
}

// ---------------------------------------------------------------------------
// Rules

// ruleBuilder assembles a rule from its clauses, in any order, reporting
// repeated clauses (the first one is kept).
type ruleBuilder struct {
	b      *builder
	r      *Rule
	kw     lexer.Token // the 'rule' keyword
	first  map[string]Span
	errors int // len(b.diags) when the rule started
}

func (b *builder) newRule(kw, name lexer.Token) *ruleBuilder {
	return &ruleBuilder{b: b, r: &Rule{Name: b.ident(name)}, kw: kw, first: map[string]Span{}, errors: len(b.diags)}
}

// once reports whether the clause introduced by kw is the first of its kind.
func (rb *ruleBuilder) once(kw lexer.Token) bool {
	sp := rb.b.tokSpan(kw)
	if prev, dup := rb.first[kw.Value]; dup {
		rb.b.diags = append(rb.b.diags, diag.Errorf(sp.Pos(), "duplicate '%s' in rule %s (first at %d:%d)",
			kw.Value, rb.r.Name.Name, prev.line, prev.col))
		return false
	}
	rb.first[kw.Value] = sp
	return true
}

// clause adds a parsed clause to the rule.
func (rb *ruleBuilder) clause(c *gClause) {
	b := rb.b
	switch {
	case c.Benefit != nil:
		if rb.once(c.Benefit.Tokens[0]) {
			rb.r.Benefit = &Benefit{Span: b.span(c.Benefit.Tokens), Value: b.basicLit(*c.Benefit.Value.t, IntLit)}
		}
	case c.Labels != nil:
		if rb.once(c.Labels.Tokens[0]) {
			l := &Labels{Span: b.span(c.Labels.Tokens), Names: []*Ident{b.ident(*c.Labels.First.t)}}
			for _, n := range c.Labels.Rest {
				l.Names = append(l.Names, b.ident(*n.t))
			}
			rb.r.Labels = l
		}
	case c.For != nil:
		f := &For{Span: b.span(c.For.Tokens), Names: []*Ident{b.ident(*c.For.Name.t)}, Family: b.ident(*c.For.Family.t)}
		if c.For.Second != nil {
			f.Names = append(f.Names, b.ident(*c.For.Second.t))
		}
		rb.r.Fors = append(rb.r.Fors, f)
	case c.Match != nil:
		stmts := make([]*gPatternStmt, len(c.Match.Stmts))
		for i, it := range c.Match.Stmts {
			stmts[i] = it.Stmt
		}
		m := &MatchBlock{Span: b.span(c.Match.Tokens), Stmts: b.patternStmts(stmts)}
		if rb.once(c.Match.Tokens[0]) {
			rb.r.Match = m
		}
	case c.Where != nil:
		exprs := make([]*gExpr, len(c.Where.Exprs))
		for i, it := range c.Where.Exprs {
			exprs[i] = it.X
		}
		w := &WhereBlock{Span: b.span(c.Where.Tokens), Constraints: b.constraints(exprs)}
		if rb.once(c.Where.Tokens[0]) {
			rb.r.Where = w
		}
	case c.Rewrite != nil:
		stmts := make([]*gRewriteStmt, len(c.Rewrite.Stmts))
		for i, it := range c.Rewrite.Stmts {
			stmts[i] = it.Stmt
		}
		rw := &RewriteBlock{Span: b.span(c.Rewrite.Tokens), Stmts: b.rewriteStmts(stmts)}
		if rb.once(c.Rewrite.Tokens[0]) {
			rb.r.Rewrite = rw
		}
	}
}

// finish completes the rule: its span, and the check that it has a match
// and a rewrite block (unless an error in the rule may have hidden them).
func (rb *ruleBuilder) finish(sp Span) *Rule {
	rb.r.Span = sp
	if len(rb.b.diags) > rb.errors {
		return rb.r
	}
	pos := rb.b.tokSpan(rb.kw).Pos()
	owner := "rule " + rb.r.Name.Name
	switch {
	case rb.r.Match == nil && rb.r.Rewrite == nil:
		rb.b.diags = append(rb.b.diags, diag.Errorf(pos, "%s has no match and no rewrite block", owner))
	case rb.r.Match == nil:
		rb.b.diags = append(rb.b.diags, diag.Errorf(pos, "%s has no match block", owner))
	case rb.r.Rewrite == nil:
		rb.b.diags = append(rb.b.diags, diag.Errorf(pos, "%s has no rewrite block", owner))
	}
	return rb.r
}

func (b *builder) rule(g *gRule) *Rule {
	rb := b.newRule(g.Tokens[0], *g.Name.t)
	if g.First != nil {
		rb.clause(g.First)
	}
	for _, c := range g.More {
		rb.clause(c.Clause)
	}
	return rb.finish(b.span(g.Tokens))
}

// patternStmts builds the statements of a match block, leaving out those
// that break a rule of the language.
func (b *builder) patternStmts(gs []*gPatternStmt) []*PatternStmt {
	out := make([]*PatternStmt, 0, len(gs))
	for _, g := range gs {
		if st := b.patternStmtSafe(g); st != nil {
			out = append(out, st)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func (b *builder) patternStmtSafe(g *gPatternStmt) (st *PatternStmt) {
	if !b.protect(func() { st = b.patternStmt(g) }) {
		return nil
	}
	return st
}

func (b *builder) constraints(gs []*gExpr) []Expr {
	out := make([]Expr, 0, len(gs))
	for _, g := range gs {
		var x Expr
		if b.protect(func() { x = b.expr(g) }) {
			out = append(out, x)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func (b *builder) rewriteStmts(gs []*gRewriteStmt) []RewriteStmt {
	out := make([]RewriteStmt, 0, len(gs))
	for _, g := range gs {
		if st := b.rewriteStmtSafe(g); st != nil {
			out = append(out, st)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func (b *builder) rewriteStmtSafe(g *gRewriteStmt) (st RewriteStmt) {
	if !b.protect(func() { st = b.rewriteStmt(g) }) {
		return nil
	}
	return st
}

// tagName returns a tag token's name without its parentheses.
func tagName(t lexer.Token) string { return strings.TrimSuffix(strings.TrimPrefix(t.Value, "("), ")") }
