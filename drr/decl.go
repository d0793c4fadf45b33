package drr

import (
	"strings"
)

// This file parses top-level declarations and rules.

// declSafe parses one declaration; after an error it skips the rest of it.
func (p *parser) declSafe() (d Decl) {
	defer func() {
		if r := recover(); r != nil {
			switch r.(type) {
			case bailout, bailDecl:
			default:
				panic(r)
			}
			d = nil
			p.syncTop()
		}
	}()
	d = p.decl()
	// A tSep at top level only follows an earlier bracket error; accept it.
	if t := p.tok(); t.kind != tTopSep && t.kind != tEOF && t.kind != tSep {
		p.fail(t, "expected end of line after %s, found %s", declNoun(d), describe(t))
	}
	return d
}

func declNoun(d Decl) string {
	switch d := d.(type) {
	case *Import:
		return "import"
	case *Family:
		return "family " + d.Name.Name
	case *Native:
		return "native " + d.Name.Name
	case *Rule:
		return "rule " + d.Name.Name
	}
	return "declaration"
}

func (p *parser) decl() Decl {
	t := p.tok()
	if t.kind == tIdent {
		switch t.text {
		case "import":
			return p.importDecl()
		case "family":
			return p.familyDecl()
		case "native":
			return p.nativeDecl()
		case "rule":
			return p.rule()
		}
	}
	if t.kind == tPunct && t.text == "}" {
		p.fail(t, "unexpected '}' at top level (no open '{')")
	}
	p.failFound("'rule', 'family', 'native' or 'import'")
	return nil
}

func (p *parser) ident(what string, args ...any) *Ident {
	t := p.tok()
	if t.kind != tIdent || t.text == "_" {
		p.failFound(what, args...)
	}
	p.next()
	id := p.a.idents.new()
	id.Span, id.Name = p.span(t), t.text
	return id
}

func (p *parser) importDecl() *Import {
	kw := p.next()
	t := p.tok()
	if t.kind != tString {
		p.failFound("file name string after 'import'")
	}
	p.next()
	return &Import{Span: p.span(kw), Path: p.stringLit(t)}
}

func (p *parser) familyDecl() *Family {
	kw := p.next()
	name := p.ident("family name after 'family'")
	p.expect("=", "after family name %s", name.Name)
	set := p.familyExpr(name.Name)
	return &Family{Span: p.span(kw), Name: name, Set: set}
}

func (p *parser) familyExpr(fam string) FamilyExpr {
	x := p.familyTerm(fam)
	for p.isP("-") {
		op := p.next()
		y := p.familyTerm(fam)
		x = &FamilyDiff{Span: x.span().to(y.span()), X: x, OpSpan: p.tokSpan(op), Y: y}
	}
	return x
}

func (p *parser) familyTerm(fam string) FamilyExpr {
	t := p.tok()
	switch {
	case isPunct(t, "["):
		p.next()
		l := &FamilyList{}
		for !p.isP("]") {
			n := p.tok()
			if n.kind != tIdent && n.kind != tString {
				p.failFound("op name in the op list of family %s", fam)
			}
			l.Ops = append(l.Ops, p.opName())
			if p.isP(",") {
				p.next()
				continue
			}
			if !p.isP("]") {
				p.failFound("',' or ']' after op name in the op list of family %s", fam)
			}
		}
		p.next()
		l.Span = p.span(t)
		return l
	case t.kind == tIdent && t.text == "trait" && isPunct(p.peek(1), "("):
		p.next()
		p.next()
		tr := p.ident("trait name in trait(…)")
		p.expect(")", "after trait name %s", tr.Name)
		return &FamilyTrait{Span: p.span(t), Trait: tr}
	case t.kind == tIdent && t.text != "_":
		p.next()
		return &FamilyRef{Span: p.span(t), Name: &Ident{Span: p.span(t), Name: t.text}}
	}
	p.failFound("op list '[…]', trait(…) or family name in family %s", fam)
	return nil
}

func (p *parser) nativeDecl() *Native {
	kw := p.next()
	n := &Native{}
	switch {
	case p.isKw("constraint"):
		n.Kind = NativeConstraint
	case p.isKw("rewrite"):
		n.Kind = NativeRewrite
	default:
		p.failFound("'constraint' or 'rewrite' after 'native'")
	}
	p.next()
	n.Name = p.ident("function name after 'native %s'", n.Kind)
	p.expect("(", "after native function name %s", n.Name.Name)
	for !p.isP(")") {
		t := p.tok()
		par := &Param{}
		switch t.kind {
		case tValue:
			par.Kind = ValueParam
		case tHole:
			par.Kind = HoleParam
		default:
			p.failFound("parameter (%%value or $hole) of native %s", n.Name.Name)
		}
		p.next()
		par.Name = t.text[1:]
		p.expect(":", "after parameter %s of native %s", t.text, n.Name.Name)
		par.Type = p.ident("type of parameter %s", t.text)
		par.Span = p.span(t)
		n.Params = append(n.Params, par)
		if p.isP(",") {
			p.next()
			continue
		}
		if !p.isP(")") {
			p.failFound("',' or ')' after parameter %s of native %s", t.text, n.Name.Name)
		}
	}
	p.next()
	if p.isP("->") {
		p.next()
		n.Result = p.ident("result type after '->' in native %s", n.Name.Name)
	}
	n.Span = p.span(kw)
	return n
}

// ---------------------------------------------------------------------------
// Rules

func (p *parser) rule() *Rule {
	kw := p.next()
	r := &Rule{}
	r.Name = p.ident("rule name after 'rule'")
	owner := "rule " + r.Name.Name
	lb := p.expect("{", "after rule name %s", r.Name.Name)
	seen := map[string]*token{}
	errs := len(p.diags)
	p.block(lb, owner, false, func() string {
		t := p.tok()
		// dup reports (once) a repeated clause; the repeat is parsed and dropped.
		dup := func() bool {
			if prev := seen[t.text]; prev != nil {
				p.errAt(t, "duplicate '%s' in %s (first at %d:%d)", t.text, owner, prev.line, prev.col)
				return true
			}
			seen[t.text] = t
			return false
		}
		switch {
		case t.kind == tIdent && t.text == "benefit":
			d := dup()
			p.next()
			v := p.tok()
			if v.kind != tInt || strings.HasPrefix(v.text, "-") {
				p.failFound("non-negative integer after 'benefit'")
			}
			p.next()
			if b := (&Benefit{Span: p.span(t), Value: p.basicLit(v, IntLit)}); !d {
				r.Benefit = b
			}
		case t.kind == tIdent && t.text == "labels":
			d := dup()
			p.next()
			l := &Labels{}
			for {
				l.Names = append(l.Names, p.ident("label name after 'labels'"))
				if !p.isP(",") {
					break
				}
				p.next()
			}
			l.Span = p.span(t)
			if !d {
				r.Labels = l
			}
		case t.kind == tIdent && t.text == "for":
			p.next()
			f := &For{}
			f.Names = append(f.Names, p.ident("name after 'for'"))
			if p.isP(",") {
				p.next()
				f.Names = append(f.Names, p.ident("second name after ','"))
			}
			p.expectKw("in", "after the names of 'for'")
			f.Family = p.ident("family name after 'in'")
			f.Span = p.span(t)
			r.Fors = append(r.Fors, f)
		case t.kind == tIdent && t.text == "match" && isPunct(p.peek(1), "{"):
			d := dup()
			if m := p.matchBlock(owner); !d {
				r.Match = m
			}
		case t.kind == tIdent && t.text == "where" && isPunct(p.peek(1), "{"):
			d := dup()
			if w := p.whereBlock(owner); !d {
				r.Where = w
			}
		case t.kind == tIdent && t.text == "rewrite" && isPunct(p.peek(1), "{"):
			d := dup()
			if rw := p.rewriteBlock(owner); !d {
				r.Rewrite = rw
			}
		case t.kind == tIdent && isBlockKeyword(t.text):
			p.next()
			p.failFound("'{' after '%s'", t.text)
		default:
			p.failFound("'benefit', 'labels', 'for', 'match', 'where' or 'rewrite' in %s", owner)
		}
		return "clause"
	})
	r.Span = p.span(kw)
	if len(p.diags) > errs {
		return r // a missing block is likely a consequence of the error
	}
	switch {
	case seen["match"] == nil && seen["rewrite"] == nil:
		p.errAt(kw, "%s has no match and no rewrite block", owner)
	case seen["match"] == nil:
		p.errAt(kw, "%s has no match block", owner)
	case seen["rewrite"] == nil:
		p.errAt(kw, "%s has no rewrite block", owner)
	}
	return r
}

// isBlockKeyword reports whether s starts a block clause of a rule; seeing
// one followed by '{' inside a block means the block's '}' is missing.
func isBlockKeyword(s string) bool {
	return s == "match" || s == "where" || s == "rewrite"
}

// block parses the items of a { } block whose '{' (lb) has been consumed,
// up to and including the closing '}'. item parses one item and returns its
// noun for messages. Items are separated by newlines or ';'. An error inside
// an item is recovered at the end of the item. nested is set for the
// match/where/rewrite blocks inside a rule: there, a line starting a
// further block ("where {") means the '}' is missing, and the block ends
// early so the rule's next clause parses normally.
func (p *parser) block(lb *token, owner string, nested bool, item func() string) *token {
	for {
		t := p.tok()
		switch {
		case isPunct(t, "}"):
			return p.next()
		case t.kind == tEOF || t.kind == tTopSep:
			p.errAt(lb, "unclosed '{' of %s (missing '}')", owner)
			panic(bailDecl{})
		case t.kind == tSep:
			p.next()
			continue
		case nested && t.kind == tIdent && isBlockKeyword(t.text) && isPunct(p.peek(1), "{"):
			// "where {" inside a match block: the match block was not closed.
			p.errAt(t, "missing '}' to close %s before '%s'", owner, t.text)
			p.resumed = true
			return nil
		}
		start := p.i
		if !p.protect(func() {
			noun := item()
			t := p.tok()
			if p.resumed {
				p.resumed = false
				return
			}
			if t.kind == tSep || t.kind == tEOF || t.kind == tTopSep || isPunct(t, "}") {
				return
			}
			if !nested && isPunct(&p.toks[p.i-1], "}") {
				return // `match { … } rewrite { … }` on one line
			}
			if t.line > p.toks[p.i-1].line {
				// The newline was swallowed by a bracket left open by an
				// earlier (already reported) error: treat it as a separator.
				return
			}
			hint := ""
			if noun == "constraint" && isPunct(t, "=") {
				hint = " (constraints are boolean expressions; use '==' to compare)"
			}
			p.fail(t, "expected end of line or ';' after %s, found %s%s", noun, describe(t), hint)
		}) {
			p.syncStmt(start)
		}
		if p.tok().kind == tSep {
			p.next()
		}
	}
}

func (p *parser) matchBlock(owner string) *MatchBlock {
	kw := p.next()
	lb := p.next()
	m := &MatchBlock{}
	mark := p.s.pstmts.mark()
	p.block(lb, "match block of "+owner, true, func() string {
		p.s.pstmts.push(p.patternStmt())
		return "pattern statement"
	})
	m.Stmts = p.s.pstmts.take(mark)
	m.Span = p.span(kw)
	return m
}

func (p *parser) whereBlock(owner string) *WhereBlock {
	kw := p.next()
	lb := p.next()
	w := &WhereBlock{}
	mark := p.s.exprs.mark()
	p.block(lb, "where block of "+owner, true, func() string {
		if !p.exprStart() {
			p.failFound("constraint expression in where block")
		}
		p.s.exprs.push(p.expr())
		return "constraint"
	})
	w.Constraints = p.s.exprs.take(mark)
	w.Span = p.span(kw)
	return w
}

func (p *parser) rewriteBlock(owner string) *RewriteBlock {
	kw := p.next()
	lb := p.next()
	rw := &RewriteBlock{}
	mark := p.s.rstmts.mark()
	p.block(lb, "rewrite block of "+owner, true, func() string {
		p.s.rstmts.push(p.rewriteStmt())
		return "rewrite statement"
	})
	rw.Stmts = p.s.rstmts.take(mark)
	rw.Span = p.span(kw)
	return rw
}
