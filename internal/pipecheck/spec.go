package pipecheck

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/internal/suggest"
	"github.com/pirdrr/drr/rewriter"
)

// A pipeline spec names the passes to run, in order, and may extend a pipeline at a named point:
//
//	gpu_inference[before horizontal_fuse: rules]
//	inference[after conv_bn_relu: rules, dce; before reinplace: my_set], fold_constants
//
// Grammar (blanks are ignored; a newline separates items as a comma does, outside brackets):
//
//	Spec  = Item { "," Item } .
//	Item  = name [ "[" Edit { ";" Edit } "]" ] .
//	Edit  = ( "before" | "after" ) Point ":" Spec .
//	Point = name [ "#" int ] .
//
// A Point is a pass or pipeline of the extended pipeline's expansion, at any depth (inference[after
// value_semantics.maximize: …] reaches into its sub-pipelines); a sub-pipeline as a point is its whole run of
// passes. A name that occurs more than once needs #n (the n-th occurrence, from 1). The passes an edit inserts
// may be any names, "rules" (the rule files) included, and may carry edits of their own.

// Item is one element of a spec: a pass or pipeline name and the edits that extend it.
type Item struct {
	Name  string
	Edits []Edit
}

// Edit inserts passes before or after a point of the pipeline it extends.
type Edit struct {
	After bool   // after the point, else before
	At    string // the point's name
	Nth   int    // 0: the only occurrence; n: the n-th
	Items []Item
}

// String renders the item as a spec.
func (it Item) String() string {
	if len(it.Edits) == 0 {
		return it.Name
	}
	var b strings.Builder
	b.WriteString(it.Name + "[")
	for i, e := range it.Edits {
		if i > 0 {
			b.WriteString("; ")
		}
		if e.After {
			b.WriteString("after ")
		} else {
			b.WriteString("before ")
		}
		b.WriteString(e.At)
		if e.Nth > 0 {
			b.WriteString("#" + strconv.Itoa(e.Nth))
		}
		b.WriteString(": " + SpecString(e.Items))
	}
	return b.String() + "]"
}

// SpecString renders items as a spec.
func SpecString(items []Item) string {
	s := make([]string, len(items))
	for i, it := range items {
		s[i] = it.String()
	}
	return strings.Join(s, ", ")
}

// ParseSpec parses a pipeline spec; flag starts the error ("-passes", "passes section"). An empty spec has no items.
func ParseSpec(spec, flag string) ([]Item, error) {
	p := &specParser{src: spec}
	items, err := p.list(false)
	if err == nil && p.pos < len(p.src) {
		err = p.errorf("unexpected %q", string(p.src[p.pos]))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	return items, nil
}

type specParser struct {
	src string
	pos int
}

func (p *specParser) errorf(format string, args ...any) error {
	return fmt.Errorf("%s at column %d of %q", fmt.Sprintf(format, args...), p.pos+1, p.src)
}

// skip skips blanks, and newlines when nl (inside brackets a newline is a blank).
func (p *specParser) skip(nl bool) {
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c == ' ' || c == '\t' || c == '\r' || nl && c == '\n' {
			p.pos++
			continue
		}
		return
	}
}

func (p *specParser) peek() byte {
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func isNameByte(c byte) bool {
	return c == '_' || c == '.' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (p *specParser) name(what string) (string, error) {
	start := p.pos
	for p.pos < len(p.src) && isNameByte(p.src[p.pos]) {
		p.pos++
	}
	if p.pos == start {
		if p.pos >= len(p.src) {
			return "", p.errorf("expected %s, found the end", what)
		}
		return "", p.errorf("expected %s, found %q", what, string(p.src[p.pos]))
	}
	return p.src[start:p.pos], nil
}

// list parses items separated by ',' (and, at the top level, newlines); inner lists end at ';' or ']'.
func (p *specParser) list(inner bool) ([]Item, error) {
	var items []Item
	for {
		p.skip(true)
		if p.pos >= len(p.src) || inner && (p.peek() == ';' || p.peek() == ']') {
			if inner && len(items) == 0 {
				return nil, p.errorf("expected the passes to insert")
			}
			return items, nil
		}
		it, err := p.item()
		if err != nil {
			return nil, err
		}
		items = append(items, it)
		p.skip(inner)
		switch c := p.peek(); {
		case c == ',' || c == '\n':
			p.pos++
		case c == 0 || inner && (c == ';' || c == ']'):
		default:
			return nil, p.errorf("expected ',' after %s", it.Name)
		}
	}
}

func (p *specParser) item() (Item, error) {
	name, err := p.name("a pass name")
	if err != nil {
		return Item{}, err
	}
	it := Item{Name: name}
	p.skip(false)
	if p.peek() != '[' {
		return it, nil
	}
	p.pos++
	for {
		p.skip(true)
		e, err := p.edit(name)
		if err != nil {
			return Item{}, err
		}
		it.Edits = append(it.Edits, e)
		p.skip(true)
		switch p.peek() {
		case ';':
			p.pos++
			continue
		case ']':
			p.pos++
			return it, nil
		}
		return Item{}, p.errorf("expected ';' or ']' in the edits of %s", name)
	}
}

func (p *specParser) edit(of string) (Edit, error) {
	word, err := p.name("before or after")
	if err != nil {
		return Edit{}, err
	}
	var e Edit
	switch word {
	case "before":
	case "after":
		e.After = true
	default:
		p.pos -= len(word)
		return Edit{}, p.errorf("expected before or after in the edits of %s, found %s", of, word)
	}
	p.skip(true)
	if e.At, err = p.name("the pass to insert " + word); err != nil {
		return Edit{}, err
	}
	if p.peek() == '#' {
		p.pos++
		start := p.pos
		for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.pos++
		}
		n, err := strconv.Atoi(p.src[start:p.pos])
		if err != nil || n < 1 {
			return Edit{}, p.errorf("expected an occurrence number (1, 2, …) after #")
		}
		e.Nth = n
	}
	p.skip(true)
	if p.peek() != ':' {
		return Edit{}, p.errorf("expected ':' after \"%s %s\"", word, e.At)
	}
	p.pos++
	if e.Items, err = p.list(true); err != nil {
		return Edit{}, err
	}
	return e, nil
}

// Names lists every pass or pipeline name the items use, inserted ones included, in order.
func Names(items []Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Name)
		for _, e := range it.Edits {
			out = append(out, Names(e.Items)...)
		}
	}
	return out
}

// node is a pass of an expanded spec, or a pipeline with its passes.
type node struct {
	name     string
	pass     rewriter.Pass // a leaf
	children []*node       // a pipeline
}

// Build builds the passes of a spec: registered passes and pipelines, and the local passes (the rule files as
// "rules"), with every edit applied. The names must have been checked (Passes).
func Build(reg *rewriter.Registry, build func(name string) (rewriter.Pipeline, error), local map[string]rewriter.Pass, items []Item) (rewriter.Pipeline, error) {
	b := &builder{reg: reg, build: build, local: local}
	var out rewriter.Pipeline
	for _, it := range items {
		n, err := b.item(it)
		if err != nil {
			return nil, err
		}
		out = n.flatten(out)
	}
	return out, nil
}

type builder struct {
	reg   *rewriter.Registry
	build func(name string) (rewriter.Pipeline, error)
	local map[string]rewriter.Pass
}

// tree expands a name into its tree of passes, following the registry's pipelines.
func (b *builder) tree(name string, depth int) (*node, error) {
	if p, ok := b.local[name]; ok {
		return &node{name: name, pass: p}, nil
	}
	if depth > 16 {
		return nil, fmt.Errorf("pipeline %s nests too deeply (a cycle?)", name)
	}
	for _, info := range b.reg.Passes() {
		if info.Name != name || len(info.Pipeline) == 0 {
			continue
		}
		n := &node{name: name}
		for _, c := range info.Pipeline {
			cn, err := b.tree(c, depth+1)
			if err != nil {
				return nil, err
			}
			n.children = append(n.children, cn)
		}
		return n, nil
	}
	pl, err := b.build(name)
	if err != nil {
		return nil, err
	}
	if len(pl) == 1 {
		return &node{name: name, pass: pl[0]}, nil
	}
	n := &node{name: name}
	for _, p := range pl {
		n.children = append(n.children, &node{name: p.Name(), pass: p})
	}
	return n, nil
}

func (b *builder) item(it Item) (*node, error) {
	n, err := b.tree(it.Name, 0)
	if err != nil {
		return nil, err
	}
	// The points are found in the pipeline as registered, before any edit inserts passes.
	type found struct {
		parent *node
		child  *node
	}
	var points []found
	for _, e := range it.Edits {
		var all []found
		var walk func(parent *node)
		walk = func(parent *node) {
			for _, c := range parent.children {
				if c.name == e.At {
					all = append(all, found{parent, c})
				}
				walk(c)
			}
		}
		walk(n)
		switch {
		case len(all) == 0:
			return nil, fmt.Errorf("%s has no pass %s%s", it.Name, e.At, suggestPoint(n, e.At))
		case e.Nth > len(all):
			return nil, fmt.Errorf("%s runs %s %s, not %d", it.Name, e.At, times(len(all)), e.Nth)
		case e.Nth == 0 && len(all) > 1:
			return nil, fmt.Errorf("%s runs %s %s: say which, %s#1 to %s#%d", it.Name, e.At, times(len(all)), e.At, e.At, len(all))
		}
		k := max(e.Nth, 1) - 1
		points = append(points, all[k])
	}
	for i, e := range it.Edits {
		var ins []*node
		for _, sub := range e.Items {
			sn, err := b.item(sub)
			if err != nil {
				return nil, err
			}
			ins = append(ins, sn)
		}
		pt := points[i]
		at := -1
		for j, c := range pt.parent.children {
			if c == pt.child {
				at = j
			}
		}
		if e.After {
			at++
		}
		pt.parent.children = append(pt.parent.children[:at], append(ins, pt.parent.children[at:]...)...)
	}
	return n, nil
}

func (n *node) flatten(out rewriter.Pipeline) rewriter.Pipeline {
	if n.pass != nil {
		return append(out, n.pass)
	}
	for _, c := range n.children {
		out = c.flatten(out)
	}
	return out
}

func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return strconv.Itoa(n) + " times"
}

// suggestPoint names the pass of the pipeline nearest to a point that is not in it, or lists its passes.
func suggestPoint(n *node, at string) string {
	var names []string
	seen := map[string]bool{}
	var walk func(n *node)
	walk = func(n *node) {
		for _, c := range n.children {
			if !seen[c.name] {
				seen[c.name] = true
				names = append(names, c.name)
			}
			walk(c)
		}
	}
	walk(n)
	if s, ok := suggest.Closest(at, names); ok {
		return " (did you mean " + s + "?)"
	}
	if len(names) == 0 {
		return " (it is a single pass, not a pipeline)"
	}
	return " (its passes: " + strings.Join(names, ", ") + ")"
}
