package mine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/stats"
)

// SkeletonHeader starts every skeleton file drrc mine writes: a file that does not start with it is not drrc's
// to replace.
const SkeletonHeader = "// Written by drrc mine"

// RuleName returns the name of the skeleton rule of the candidate ranked rank (from 1): mined_RANK_OPS.
func RuleName(rank int, c *Candidate) string {
	var parts []string
	for _, op := range c.Chain.Ops {
		parts = append(parts, shortName(op.Name))
	}
	name := "mined_" + strconv.Itoa(rank) + "_" + strings.Join(parts, "_")
	return strings.Map(func(r rune) rune {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, name)
}

// SkeletonInfo is what a skeleton's comment says besides the chain: the device the saving is estimated on and
// the pipeline the chain was left by.
type SkeletonInfo struct {
	Device, Passes string
	// Ctx, when set, is the context the skeleton is checked against (its op schemas): a skeleton that does not
	// check gets an Err.
	Ctx *ir.Context
}

// Skeleton is a candidate's .drr file.
type Skeleton struct {
	// Rule is the rule's name (RuleName), Source the file.
	Rule   string
	Source []byte
	// Fuses is set when the rewrite makes the fused op: it is the rewrite of the catalog's rule that computes the
	// chain (Candidate.Fused). Otherwise the rewrite rebuilds the chain as it is, under a comment naming the fused
	// op or the kernel that would be needed, so that the file checks and the rule is ready for a rewrite; drrc
	// check's lint calls such a rule a loop, which it is until its rewrite is written.
	Fuses bool
	// Fused is the catalog rule whose rewrite the skeleton's is (nil when Fuses is false).
	Fused *Fused
	// Err says why the skeleton does not check against SkeletonInfo.Ctx: the chain's ops do not fit their schemas
	// (a program read with operands or attributes its op's schema does not declare), which no rule can match.
	Err error
}

// NewSkeleton returns the skeleton of the candidate ranked rank (from 1). Its match is the chain (attribute values
// as mined, the inputs' element types as constraints). For a chain a catalog rule computes, the match names the
// values and attributes as the rule does, and the rule's where clause and rewrite follow, copied from its source
// (when the rule's text carries over: it reads no type or dim holes, and the result checks).
func NewSkeleton(rank int, c *Candidate, info SkeletonInfo) *Skeleton {
	for _, f := range c.Fused {
		if src := fusedSkeleton(rank, c, f, info); src != nil {
			return &Skeleton{Rule: RuleName(rank, c), Source: src, Fuses: true, Fused: f}
		}
	}
	sk := &Skeleton{Rule: RuleName(rank, c), Source: rebuildSkeleton(rank, c, info)}
	if info.Ctx != nil {
		if _, diags := drr.LoadSource(info.Ctx, drr.LoadOptions{}, sk.Rule+".drr", sk.Source); diags.HasErrors() {
			sk.Err = fmt.Errorf("the chain does not fit its ops' schemas: %s", firstError(diags))
		}
	}
	return sk
}

// firstError returns the message of the first error of diags, without its position (which is in the skeleton).
func firstError(diags diag.Diagnostics) string {
	for _, d := range diags {
		if d.Severity == diag.Error {
			return d.Message
		}
	}
	return diags.Error()
}

// rebuildSkeleton is the skeleton whose rewrite rebuilds the chain.
func rebuildSkeleton(rank int, c *Candidate, info SkeletonInfo) []byte {
	var b strings.Builder
	name := RuleName(rank, c)
	writeHeader(&b, rank, c, info)
	n := newNamer(&c.Chain)
	fmt.Fprintf(&b, "/// %s, mined: %s.\n", c.Chain.Short(), support(c))
	fmt.Fprintf(&b, "rule %s {\n  labels fusion, mined\n", name)
	writeMatch(&b, &c.Chain, n, nil)
	writeWhere(&b, &c.Chain, n, nil)
	b.WriteString("  rewrite {\n")
	if len(c.Fused) > 0 {
		for _, f := range c.Fused {
			fmt.Fprintf(&b, "    // %s (rule %s of the set %s, %s) computes this chain; its rewrite did not carry over: write it here.\n",
				f.Op, f.Rule, f.Set, f.Pos)
		}
	} else {
		fmt.Fprintf(&b, "    // No fused op of the catalog computes this chain: a kernel computing %s (%s) is needed.\n",
			c.Chain.Short(), inputTypes(&c.Chain))
	}
	b.WriteString("    // Until then this rewrite rebuilds the chain as it is, so that the rule checks: replace it.\n")
	root := len(c.Chain.Ops) - 1
	for i, op := range c.Chain.Ops {
		fmt.Fprintf(&b, "    %s = %s\n", n.results(i, "r"), opCall(&c.Chain, n, i, op, "r"))
	}
	for r, used := range c.Chain.Ops[root].Used {
		if used {
			fmt.Fprintf(&b, "    replace %s with %s\n", n.result(root, r, ""), n.result(root, r, "r"))
		}
	}
	b.WriteString("  }\n}\n")
	return []byte(b.String())
}

func writeHeader(b *strings.Builder, rank int, c *Candidate, info SkeletonInfo) {
	fmt.Fprintf(b, "%s: candidate %d, %s.\n", SkeletonHeader, rank, c.Chain.Short())
	fmt.Fprintf(b, "// Left unfused after %s: %s.\n", info.Passes, support(c))
	fmt.Fprintf(b, "// Fusing every occurrence saves %d %s and %s moved; est. time on %s: %s per inference.\n",
		c.Saving.Kernels, plural(int(c.Saving.Kernels), "kernel"), stats.Bytes(c.Saving.Bytes), info.Device, stats.Time(c.Saving.Time))
	for _, s := range c.Sites[:min(len(c.Sites), 3)] {
		fmt.Fprintf(b, "// Site: %s %s (%s)\n", s.Program, s.Value, s.Op)
	}
	fmt.Fprintf(b, "// Chain: %s\n\n", c.Key)
}

// support says how often a candidate occurs.
func support(c *Candidate) string {
	return fmt.Sprintf("%d %s in %d %s of %d %s", c.Occurrences, plural(c.Occurrences, "occurrence"), c.Graphs,
		plural(c.Graphs, "program"), len(c.Families), plural(len(c.Families), "family"))
}

func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	if strings.HasSuffix(noun, "y") {
		return noun[:len(noun)-1] + "ies"
	}
	return noun + "s"
}

func inputTypes(c *Chain) string {
	var ts []string
	for _, dt := range c.Inputs {
		ts = append(ts, dtypeName(dt))
	}
	if len(ts) == 0 {
		return "no inputs"
	}
	return "inputs " + strings.Join(ts, ", ")
}

// namer names a chain's values in a skeleton: inputs %x0…, op results %v<op> (or %v<op>_<result>), the root's %y.
type namer struct {
	c     *Chain
	input map[int]string
	value map[[2]int]string
}

func newNamer(c *Chain) *namer {
	return &namer{c: c, input: map[int]string{}, value: map[[2]int]string{}}
}

func (n *namer) inputName(i int) string {
	if s, ok := n.input[i]; ok {
		return s
	}
	return "%x" + strconv.Itoa(i)
}

// result names result r of op i; prefix "r" names the rewrite's rebuilt values.
func (n *namer) result(i, r int, prefix string) string {
	if s, ok := n.value[[2]int{i, r}]; ok && prefix == "" {
		return s
	}
	op := &n.c.Ops[i]
	base := "%" + prefix + "v" + strconv.Itoa(i)
	if i == len(n.c.Ops)-1 {
		base = "%" + prefix + "y"
	}
	if used := countTrue(op.Used); used > 1 || len(op.Results) > 1 && used == 1 && !op.Used[0] {
		base += "_" + strconv.Itoa(r)
	}
	return base
}

// results is the left side of op i's statement: its results' names, _ for those nothing reads.
func (n *namer) results(i int, prefix string) string {
	op := &n.c.Ops[i]
	var parts []string
	for r, used := range op.Used {
		if used {
			parts = append(parts, n.result(i, r, prefix))
		} else {
			parts = append(parts, "_")
		}
	}
	return strings.Join(parts, ", ")
}

func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// ref renders an operand; prefix names the rebuilt values of a rewrite.
func (n *namer) ref(r Ref, prefix string) string {
	switch {
	case r.Null:
		return "null"
	case r.Op >= 0:
		return n.result(r.Op, r.Result, prefix)
	}
	return n.inputName(r.Input)
}

// opCall renders op i as a call: name(operands) {attrs}; holes (attribute name -> $hole) replace literal values.
func opCall(c *Chain, n *namer, i int, op ChainOp, prefix string) string {
	return opCallHoles(c, n, i, op, prefix, nil)
}

func opCallHoles(c *Chain, n *namer, i int, op ChainOp, prefix string, holes map[string]string) string {
	var b strings.Builder
	b.WriteString(op.Name)
	b.WriteByte('(')
	for j, r := range op.Operands {
		if j > 0 {
			b.WriteString(", ")
		}
		b.WriteString(n.ref(r, prefix))
	}
	b.WriteByte(')')
	if len(op.Attrs) > 0 {
		b.WriteString(" {")
		for j, a := range op.Attrs {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(a.Name)
			b.WriteString(": ")
			if h, ok := holes[a.Name]; ok {
				b.WriteString(h)
			} else {
				b.WriteString(attrLiteral(a.Value))
			}
		}
		b.WriteByte('}')
	}
	return b.String()
}

// attrLiteral renders an attribute as a rule literal: PIR's printed form, which the rule language reads.
func attrLiteral(a ir.Attribute) string { return a.String() }

// writeMatch writes the match block; holes maps op index -> attribute name -> $hole (nil: literals).
func writeMatch(b *strings.Builder, c *Chain, n *namer, holes map[int]map[string]string) {
	b.WriteString("  match {\n")
	for i, op := range c.Ops {
		fmt.Fprintf(b, "    %s = %s\n", n.results(i, ""), opCallHoles(c, n, i, op, "", holes[i]))
	}
	b.WriteString("  }\n")
}

// writeWhere writes the constraints on the inputs' element types, and extra lines.
func writeWhere(b *strings.Builder, c *Chain, n *namer, extra []string) {
	var lines []string
	for i, dt := range c.Inputs {
		if dt != ir.DTypeUndefined {
			lines = append(lines, fmt.Sprintf("dtype(%s) == %s", n.inputName(i), dt.DataTypeName()))
		}
		if k := c.Constants[i]; k != "" {
			name := k
			if j := strings.IndexByte(k, '{'); j >= 0 {
				name = k[:j]
			}
			lines = append(lines, fmt.Sprintf("// %s is %s: its value is not compared here; check it before shipping the rule", n.inputName(i), k),
				fmt.Sprintf("defined_by(%s, %q)", n.inputName(i), name))
		}
	}
	lines = append(lines, extra...)
	if len(lines) == 0 {
		return
	}
	b.WriteString("  where {\n")
	for _, l := range lines {
		fmt.Fprintf(b, "    %s\n", l)
	}
	b.WriteString("  }\n")
}

// namedHole is an attribute a match binds by a hole only (the chain's op does not hold it).
func namedHole(name string) ir.NamedAttr { return ir.NamedAttr{Name: name} }
