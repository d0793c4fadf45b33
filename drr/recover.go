package drr

import (
	"errors"
	"slices"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/pirdrr/drr/diag"
)

// Error recovery. participle stops at the first error of a declaration;
// to report all independent errors of a rule, recoverRule walks the rule's
// tokens clause by clause and block by block (the structure of a rule is
// fixed: `rule NAME {`, clauses, `}`) and has participle parse each clause
// and statement on its own, as a unit that ends where the statement ends.
// The statements that parse are kept in the rule, so the rest of the file
// is still checked and formatted.

// diagnostic turns a parse error into a diagnostic.
func diagnostic(err error) diag.Diagnostic {
	var se *syntaxError
	if errors.As(err, &se) {
		return diag.Errorf(se.pos, "%s", se.msg)
	}
	// participle's own errors mean a place of the grammar has no terminal
	// with a message: a bug, which FuzzParse looks for ("grammar:").
	var ut *participle.UnexpectedTokenError
	if errors.As(err, &ut) {
		return diag.Errorf(diag.Position(ut.Unexpected.Pos), "unexpected %s (grammar: %s)", describeTok(&ut.Unexpected), ut.Message())
	}
	var pe participle.Error
	if errors.As(err, &pe) {
		return diag.Errorf(diag.Position(pe.Position()), "syntax error (grammar: %s)", pe.Message())
	}
	return diag.Errorf(diag.Position{Line: 1, Column: 1}, "syntax error (grammar: %v)", err)
}

// clauseKeyword reports whether t starts a clause of a rule.
func clauseKeyword(t *lexer.Token) bool {
	return isKind(t, tIdent) && slices.Contains(clauseKeywords, t.Value)
}

// recoverRule re-parses a rule declaration that did not parse as a whole
// (toks: its tokens, ending with an EOF token); whole is participle's error
// for the whole declaration. It reports every error it finds and returns
// the rule built from the parts that parse, or nil when the rule cannot be
// delimited (its header is broken, or its '}' is missing).
func (p *grammarParser) recoverRule(toks []lexer.Token, whole error) Decl {
	if !isKind(&toks[1], tIdent) || !isPunctTok(&toks[2], "{") {
		p.b.diags = append(p.b.diags, diagnostic(whole))
		return nil
	}
	errs := len(p.b.diags)
	r := &ruleRecovery{p: p, toks: toks, rb: p.b.newRule(toks[0], toks[1])}
	d := r.run()
	if len(p.b.diags) == errs {
		// The parts parse on their own: the error is in how they fit together.
		p.b.diags = append(p.b.diags, diagnostic(whole))
	}
	return d
}

// ruleRecovery is the state of recoverRule.
type ruleRecovery struct {
	p    *grammarParser
	toks []lexer.Token
	rb   *ruleBuilder
}

func (r *ruleRecovery) errorf(t *lexer.Token, format string, args ...any) {
	r.p.b.diags = append(r.p.b.diags, diag.Errorf(diag.Position(t.Pos), format, args...))
}

func (r *ruleRecovery) run() Decl {
	toks, name := r.toks, r.toks[1].Value
	for i := 3; ; {
		t := &toks[i]
		switch {
		case len(r.p.b.diags) > maxDiagnostics:
			return nil // Parse reports "too many errors"
		case isKind(t, tSep):
			i++
		case isPunctTok(t, "}"):
			rule := r.rb.finish(r.p.b.tokSpan(toks[0]).to(r.p.b.tokSpan(*t)))
			if n := &toks[i+1]; !n.EOF() && !isKind(n, tTopSep) {
				r.errorf(n, "expected end of line after rule %s, found %s", name, describeTok(n))
			}
			return rule
		case t.EOF() || isKind(t, tTopSep):
			r.errorf(&toks[2], "unclosed '{' of rule %s (missing '}')", name)
			return nil
		case isKind(t, tIdent) && isBlockKeyword(t.Value) && isPunctTok(&toks[i+1], "{"):
			next, ok := r.block(i)
			if !ok {
				return nil
			}
			i = next
		case !clauseKeyword(t):
			r.errorf(t, "expected 'benefit', 'labels', 'for', 'match', 'where' or 'rewrite' in rule %s, found %s%s",
				name, describeTok(t), didYouMean(t, clauseKeywords...))
			i = r.stmtEnd(i, true)
		default:
			i = r.unit(i, func(u []lexer.Token) error {
				g, err := parseTokens(recoveryParsers().clause, u)
				if err == nil {
					r.rb.clause(g.Clause)
				}
				return err
			})
		}
	}
}

// block re-parses the block whose keyword is at index kw; it returns the
// index after the block, and false when the block is not closed before the
// end of the declaration (the rule is then dropped, as the parser cannot
// tell where it ends).
func (r *ruleRecovery) block(kw int) (int, bool) {
	toks, b := r.toks, &r.p.b
	owner := toks[kw].Value + " block of rule " + toks[1].Value
	var patterns []*PatternStmt
	var exprs []Expr
	var stmts []RewriteStmt
	i := kw + 2
	for {
		t := &toks[i]
		switch {
		case len(r.p.b.diags) > maxDiagnostics:
			return i, false // Parse reports "too many errors"
		case isKind(t, tSep):
			i++
			continue
		case t.EOF() || isKind(t, tTopSep):
			r.errorf(&toks[kw+1], "unclosed '{' of %s (missing '}')", owner)
			return i, false
		case isPunctTok(t, "}") || isKind(t, tIdent) && isBlockKeyword(t.Value) && isPunctTok(&toks[i+1], "{"):
			end := i
			if isPunctTok(t, "}") {
				i++
			} else {
				r.errorf(t, "missing '}' to close %s before '%s'", owner, t.Value)
			}
			sp := b.tokSpan(toks[kw]).to(b.tokSpan(toks[end-1]))
			r.addBlock(toks[kw], sp, patterns, exprs, stmts)
			return i, true
		}
		i = r.unit(i, func(u []lexer.Token) error {
			switch toks[kw].Value {
			case "match":
				g, err := parseTokens(recoveryParsers().pattern, u)
				if err == nil {
					if st := b.patternStmtSafe(g.Stmt); st != nil {
						patterns = append(patterns, st)
					}
				}
				return err
			case "where":
				g, err := parseTokens(recoveryParsers().constraint, u)
				if err == nil {
					if x := b.constraints([]*gExpr{g.X}); x != nil {
						exprs = append(exprs, x...)
					}
				}
				return err
			}
			g, err := parseTokens(recoveryParsers().rewrite, u)
			if err == nil {
				if st := b.rewriteStmtSafe(g.Stmt); st != nil {
					stmts = append(stmts, st)
				}
			}
			return err
		})
	}
}

// addBlock adds a recovered block to the rule.
func (r *ruleRecovery) addBlock(kw lexer.Token, sp Span, patterns []*PatternStmt, exprs []Expr, stmts []RewriteStmt) {
	if !r.rb.once(kw) {
		return
	}
	switch kw.Value {
	case "match":
		r.rb.r.Match = &MatchBlock{Span: sp, Stmts: patterns}
	case "where":
		r.rb.r.Where = &WhereBlock{Span: sp, Constraints: exprs}
	default:
		r.rb.r.Rewrite = &RewriteBlock{Span: sp, Stmts: stmts}
	}
}

// unit parses the clause or statement starting at index start with parse,
// which gets the statement's tokens followed by an EOF token standing for
// what ends it, and returns the index after the statement.
//
// A statement ends at a separator or at the '}' of its block. When it does
// not parse, a bracket left open by the error may have made the newlines
// after it insignificant; the statement then ends at the first line that
// is indented no more than it, and that shorter statement is parsed
// instead (if it parses, it was the statement; if not, its error is the
// one reported).
func (r *ruleRecovery) unit(start int, parse func([]lexer.Token) error) int {
	end := r.stmtEnd(start, false)
	err := parse(r.unitTokens(start, end))
	if err != nil {
		if short := r.stmtEnd(start, true); short < end {
			end = short
			err = parse(r.unitTokens(start, end))
		}
	}
	if err != nil {
		r.p.b.diags = append(r.p.b.diags, diagnostic(err))
	}
	return end
}

// unitTokens returns toks[start:end] followed by an EOF token at the
// position of toks[end] whose value is the text that ends the statement
// (see describeTok).
func (r *ruleRecovery) unitTokens(start, end int) []lexer.Token {
	u := make([]lexer.Token, end-start+1)
	copy(u, r.toks[start:end])
	t := r.toks[end]
	eof := lexer.Token{Type: lexer.EOF, Pos: t.Pos}
	switch {
	case isKind(&t, tSep), isKind(&t, tTopSep), isPunctTok(&t, "}"):
		eof.Value = t.Value
	case !t.EOF():
		eof.Value = "\n" // a later line (see unit)
	}
	u[end-start] = eof
	return u
}

// stmtEnd returns the index of the token that ends the statement starting
// at start: the next separator outside brackets, the '}' that closes the
// enclosing block, or the end of the declaration; with byLine, also the
// first token of a later line that is indented no more than the statement.
func (r *ruleRecovery) stmtEnd(start int, byLine bool) int {
	toks := r.toks
	first := &toks[start]
	var open []string // brackets opened within the statement
	for i := start; ; i++ {
		t := &toks[i]
		if byLine && i > start && t.Pos.Line > toks[i-1].Pos.Line && t.Pos.Column <= first.Pos.Column {
			return i
		}
		switch {
		case t.EOF() || isKind(t, tTopSep):
			return i
		case isKind(t, tSep):
			if len(open) == 0 {
				return i
			}
		case isPunctTok(t, "(") || isPunctTok(t, "[") || isPunctTok(t, "{"):
			open = append(open, t.Value)
		case isPunctTok(t, ")") || isPunctTok(t, "]"):
			want := "("
			if t.Value == "]" {
				want = "["
			}
			for k := len(open) - 1; k >= 0 && open[k] != "{"; k-- {
				if open[k] == want {
					open = open[:k]
					break
				}
			}
		case isPunctTok(t, "}"):
			k := len(open) - 1
			for k >= 0 && open[k] != "{" {
				k--
			}
			if k < 0 {
				return i // closes the enclosing block
			}
			open = open[:k]
		}
	}
}
