package rewriter

import (
	"hash/maphash"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// cycleDetector notices a rewrite recreating what an earlier rewrite created at the same place: it fingerprints
// each rewrite by rule, the created ops (names, attributes, operands) and the ops that consume their results, which
// outlive a back-and-forth rewriting. A fingerprint seen three times is a cycle.
//
// Fingerprinting starts only after more rewrites than the program had ops (plus 1,000): rule sets that terminate
// rarely get there, so they pay nothing, and a cycle is still caught long before MaxRewrites.
type cycleDetector struct {
	after int
	count int
	seed  maphash.Seed
	seen  map[uint64][]int
	rules []*rule.Rule
	ptrs  map[any]uint64
}

func newCycleDetector(after int) *cycleDetector {
	return &cycleDetector{after: after, seed: maphash.MakeSeed(), seen: map[uint64][]int{}, ptrs: map[any]uint64{}}
}

// ptrID numbers objects by identity (the map keeps them alive, so numbers are never reused).
func (c *cycleDetector) ptrID(p any) uint64 {
	if x, ok := c.ptrs[p]; ok {
		return x
	}
	x := uint64(len(c.ptrs) + 1)
	c.ptrs[p] = x
	return x
}

// fingerprinting reports whether the next record fingerprints the rewrite.
func (c *cycleDetector) fingerprinting() bool { return c.count >= c.after }

func (c *cycleDetector) record(r *rule.Rule, created []*ir.Op) []string {
	c.count++
	if c.count <= c.after {
		return nil
	}
	var h maphash.Hash
	h.SetSeed(c.seed)
	writeInt := func(x uint64) {
		var b [8]byte
		for i := range b {
			b[i] = byte(x >> (8 * i))
		}
		h.Write(b[:])
	}
	writeInt(uint64(r.Index))
	ids := map[*ir.Value]uint64{}
	nextID := uint64(1 << 40)
	id := func(v *ir.Value) uint64 {
		if v == nil {
			return 0
		}
		if x, ok := ids[v]; ok {
			return x
		}
		x := c.ptrID(v)
		ids[v] = x
		return x
	}
	for _, op := range created {
		h.WriteString(op.Name())
		for _, a := range op.Attrs() {
			h.WriteString(a.Name)
			h.WriteString(a.Value.String())
		}
		for i := 0; i < op.NumOperands(); i++ {
			writeInt(id(op.Operand(i)))
		}
		for _, res := range op.Results() {
			ids[res] = nextID
			nextID++
			for u := range res.Uses() {
				writeInt(c.ptrID(u.Owner()))
				writeInt(uint64(u.Index()))
			}
		}
	}
	fp := h.Sum64()
	c.rules = append(c.rules, r)
	seq := len(c.rules) - 1
	prev := c.seen[fp]
	c.seen[fp] = append(prev, seq)
	if len(prev) < 2 {
		return nil
	}
	// The rules applied since the previous occurrence form the cycle.
	var names []string
	seenName := map[string]bool{}
	for _, x := range c.rules[prev[len(prev)-1]+1 : seq+1] {
		if !seenName[x.ID()] {
			seenName[x.ID()] = true
			names = append(names, x.ID())
		}
	}
	return names
}
