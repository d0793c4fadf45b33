package rewriter

import "github.com/pirdrr/drr/ir"

// seed pushes the program's ops so that pops return them in program order (pre-order) top-down, or in post-order
// bottom-up, and returns the number of ops in the program. The worklist is a LIFO, so top-down pushes the reverse
// of the pre-order: each block from its last op to its first, an op after the ops of its regions.
//
// An op of a kind no rule is rooted at is not pushed (see push): popping it would do nothing, since it can match
// nothing and is erased only if it lost its uses during the run, and an op that does is pushed then. (A rule set
// with rules rooted at any op, and a shuffled run, whose random order is drawn over every op, push them all.)
func (d *Driver) seed() int {
	d.walked, d.pushed = 0, 0
	d.seedAll = d.seedEvery || d.Options.Shuffle || len(d.anyRoot) > 0
	if d.Options.BottomUp {
		// MLIR's bottom-up seeding: the post-order is pushed as is, so the last op is processed first.
		d.seedPost(d.Program.Body())
	} else {
		d.seedPreReversed(d.Program.Body())
	}
	d.lastCount = d.pushed
	return d.walked
}

func (d *Driver) seedOp(op *ir.Op) {
	d.walked++
	if d.seedAll || d.hasRules(op) {
		d.wl.push(op)
		d.pushed++
	}
}

// hasRules reports whether some rule is rooted at op's kind.
func (d *Driver) hasRules(op *ir.Op) bool {
	id := op.Info().ID
	return id < len(d.rootStats) && len(d.rootStats[id]) > 0
}

// push puts op on the worklist if popping it can do something: it may match (its kind has rules, or every op is
// pushed), or it lost its uses (it is marked orphaned first) and may be dead. Leaving the others out keeps the
// order of the rest, so the driver does what it would with every op pushed.
func (d *Driver) push(op *ir.Op) {
	if d.seedAll || op.Mark()&orphanedBit != 0 || d.hasRules(op) {
		d.wl.push(op)
	}
}

func (d *Driver) seedPost(b *ir.Block) {
	for op := b.First(); op != nil; op = op.Next() {
		for _, r := range op.Regions() {
			for _, nb := range r.Blocks() {
				d.seedPost(nb)
			}
		}
		d.seedOp(op)
	}
}

func (d *Driver) seedPreReversed(b *ir.Block) {
	for op := b.Last(); op != nil; op = op.Prev() {
		regions := op.Regions()
		for ri := len(regions) - 1; ri >= 0; ri-- {
			blocks := regions[ri].Blocks()
			for bi := len(blocks) - 1; bi >= 0; bi-- {
				d.seedPreReversed(blocks[bi])
			}
		}
		d.seedOp(op)
	}
}
