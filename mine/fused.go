package mine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/drr/rule"
)

// fusedSkeleton writes, for a candidate whose chain a catalog rule computes, a skeleton whose rewrite is that
// rule's: the match is the chain with the rule's value and attribute names, the where clause the inputs' element
// types and the rule's constraints, the rewrite the rule's, both copied from the rule's source. It returns nil when
// the rule's text cannot be carried over (it reads type, dim or rest-attribute holes, or labels ops; its source is
// unknown) or the result does not check.
func fusedSkeleton(rank int, c *Candidate, f *Fused, info SkeletonInfo) []byte {
	if f.src == nil || f.rule == nil {
		return nil
	}
	r, p := f.rule, f.rule.Pattern
	for _, h := range p.Holes {
		if h.Kind != rule.HoleAttr || h.Name == "" {
			return nil
		}
	}
	for _, v := range p.Values {
		if v.Type != nil {
			return nil
		}
	}
	n := newNamer(&c.Chain)
	holes := map[int]map[string]string{}
	extra := map[int][]string{} // chain op -> attributes the rule binds that the chain's op does not hold
	for k, po := range p.Ops {
		if po.Label != "" || po.RestAttrs >= 0 {
			return nil
		}
		ci := f.match.ops[k]
		if ci < 0 {
			return nil // a constant op of the pattern is an input of the chain: its holes have no place in the match
		}
		for j, rp := range po.Results {
			if rp.Value >= 0 && p.Values[rp.Value].Name != "" {
				n.value[[2]int{ci, j}] = "%" + p.Values[rp.Value].Name
			}
		}
		for _, a := range po.Attrs {
			if a.Kind != rule.AttrBind {
				continue
			}
			if holes[ci] == nil {
				holes[ci] = map[string]string{}
			}
			holes[ci][a.Name] = "$" + p.Holes[a.Hole].Name
			if !hasAttr(&c.Chain.Ops[ci], a.Name) {
				extra[ci] = append(extra[ci], a.Name)
			}
		}
	}
	for v, ref := range f.match.vals {
		name := p.Values[v].Name
		if name == "" || ref.Null {
			continue
		}
		if ref.Op < 0 {
			n.input[ref.Input] = "%" + name
		} else {
			n.value[[2]int{ref.Op, ref.Result}] = "%" + name
		}
	}
	if n.collides() {
		return nil
	}
	src, err := f.src(r.Pos.Filename)
	if err != nil {
		return nil
	}
	blocks, ok := ruleBlocks(src, r.Pos)
	if !ok || blocks["rewrite"] == "" {
		return nil
	}
	var b strings.Builder
	writeHeader(&b, rank, c, info)
	fmt.Fprintf(&b, "/// %s, mined: %s. Its rewrite is rule %s's (%s): %s.\n", c.Chain.Short(), support(c), f.Rule, f.Pos, f.Op)
	fmt.Fprintf(&b, "rule %s {\n", RuleName(rank, c))
	if r.Benefit != 0 {
		fmt.Fprintf(&b, "  benefit %d\n", r.Benefit)
	}
	b.WriteString("  labels fusion, mined\n  match {\n")
	for i, op := range c.Chain.Ops {
		for _, a := range extra[i] {
			op.Attrs = append(op.Attrs[:len(op.Attrs):len(op.Attrs)], namedHole(a))
		}
		fmt.Fprintf(&b, "    %s = %s\n", n.results(i, ""), opCallHoles(&c.Chain, n, i, op, "", holes[i]))
	}
	b.WriteString("  }\n")
	var where []string
	if w := strings.TrimSpace(blocks["where"]); w != "" {
		where = append(where, dedent(w))
	}
	writeWhere(&b, &c.Chain, n, where)
	fmt.Fprintf(&b, "  rewrite {\n    %s\n  }\n}\n", dedent(strings.TrimSpace(blocks["rewrite"])))
	out := []byte(b.String())
	if _, diags := drr.LoadSource(f.set.Ctx, drr.LoadOptions{}, RuleName(rank, c)+".drr", out); diags.HasErrors() {
		return nil
	}
	return out
}

func hasAttr(op *ChainOp, name string) bool {
	for _, a := range op.Attrs {
		if a.Name == name {
			return true
		}
	}
	return false
}

// collides reports whether a name taken from a rule equals the name the namer makes up for another value.
func (n *namer) collides() bool {
	taken := map[string]bool{}
	for _, s := range n.input {
		taken[s] = true
	}
	for _, s := range n.value {
		taken[s] = true
	}
	for i := range n.c.Inputs {
		if _, ok := n.input[i]; !ok && taken["%x"+strconv.Itoa(i)] {
			return true
		}
	}
	for i, op := range n.c.Ops {
		for r := range op.Results {
			if _, ok := n.value[[2]int{i, r}]; !ok && taken[n.result(i, r, "")] {
				return true
			}
		}
	}
	return false
}

// dedent re-indents a block's lines (as written in the rule, trimmed) to the skeleton's four spaces.
func dedent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
		if i > 0 {
			lines[i] = "    " + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}

// ruleBlocks returns the text inside the where and rewrite blocks of the rule whose name is at pos in src.
func ruleBlocks(src []byte, pos diag.Position) (map[string]string, bool) {
	off, ok := offsetOf(src, pos.Line, pos.Column)
	if !ok {
		return nil, false
	}
	s := string(src[off:])
	out := map[string]string{}
	depth, word := 0, ""
	var wordStart, blockStart int
	blockName := ""
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			word = ""
			continue
		case ch == '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
			word = ""
			continue
		case ch == '{':
			depth++
			if depth == 2 && (word == "where" || word == "rewrite") {
				blockName, blockStart = word, i+1
			}
			word = ""
		case ch == '}':
			if depth == 2 && blockName != "" {
				out[blockName] = s[blockStart:i]
				blockName = ""
			}
			depth--
			if depth == 0 {
				return out, true
			}
			word = ""
		case ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9':
			if i == 0 || !isWordByte(s[i-1]) {
				wordStart = i
			}
			word = s[wordStart : i+1]
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r':
		default:
			word = ""
		}
	}
	return nil, false
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// offsetOf returns the byte offset of line:col (1-based; col in bytes) in src.
func offsetOf(src []byte, line, col int) (int, bool) {
	if line < 1 || col < 1 {
		return 0, false
	}
	l, off := 1, 0
	for off < len(src) && l < line {
		if src[off] == '\n' {
			l++
		}
		off++
	}
	if l != line || off+col-1 > len(src) {
		return 0, false
	}
	return off + col - 1, true
}
