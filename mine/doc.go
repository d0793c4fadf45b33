// Package mine finds the fusions a corpus of programs asks for: after a pipeline has run, it enumerates the small
// connected subgraphs of runtime ops that a fused kernel could replace, gives equal chains anywhere one key, counts
// their support and ranks them by what fusing them would save by the cost model (package cost), not by frequency.
//
//	m := mine.New(mine.Options{Model: model})
//	for _, p := range programs { // Scan may run in parallel; Add in a fixed order
//		m.Add(m.Scan(mine.Source{Program: path, Family: mine.Family(mine.SampleName(path))}, p))
//	}
//	cands := m.Candidates()  // the costliest unfused chains first
//	catalog.Annotate(cands)  // the shipped rules that compute each (NewCatalog)
//	sk := mine.NewSkeleton(1, cands[0], mine.SkeletonInfo{Device: "a100", Passes: "gpu_inference", Ctx: ctx})
//
// # Subgraphs
//
// A subgraph is 2 to 6 (Options.MinOps, MaxOps) compute ops of one block that run on every inference (cost's role
// and runtime dataflow), connected through their values, with one root: every value an op other than the root
// computes is read only inside the subgraph, so that one fused op replacing the root leaves nothing dangling. Ops
// with regions are never part of one, nor are two ops whose work runs on the matrix units (cost.Matrix: matrix
// products, convolutions, attention): a fused kernel is built around one of them, with element-wise work around it. The enumeration grows each root by producers whose every reader is already
// inside, and visits at most Options.MaxPerRoot subgraphs per root, so that its cost is linear in the program.
//
// # Keys
//
// A subgraph is canonicalized into a Chain: its ops in a fixed order (producers before readers, operands in order;
// the two operands of a commutative op in the order of their structure), each with its name, the attributes that
// matter (all but bookkeeping such as stop_gradient: Ignored) and its results' element types; operands are earlier
// ops' results or the chain's inputs, numbered by first use, each with its element type. Shapes are holes: the same
// chain on other shapes has the same key (Chain.Key).
//
// # Support and saving
//
// Per key, a Candidate counts its occurrences (overlapping occurrences of one key in a program count once),
// graphs and model families, keeps up to Options.MaxSites sites, and sums its Saving over every occurrence: the
// kernels the fusion removes (all the chain's kernels but one), the bytes it stops moving (the chain's reads and
// writes less those of the fused op, which reads the inputs once and writes the root's results), and the estimated
// time (the chain's kernels' upper ends less the fused op's, timed as cost times a kernel: launch plus the longer
// of compute and memory). Candidates rank by time saved, then kernels, then bytes.
//
// # The catalog
//
// Fused ops are recognized by comparing a chain with the match sides of rule sets (Catalog, built from checked
// rule.Set values: the shipped sets of drrc): a rule whose rewrite creates an op its match does not hold, and whose
// pattern is the same chain (names, structure, the literal attributes it requires), computes the same thing as that
// fused op; the candidate names the rule and the op. A rule's constant op (pd_op.full) matches a constant input.
//
// # Skeletons
//
// NewSkeleton writes a .drr rule for a candidate: its match is the chain, its where clause the inputs' element
// types; its rewrite is the catalog rule's, copied from the rule's source with the chain's values named as the rule
// names them, or, when no rule computes the chain (or its text does not carry over), a rebuild of the chain under a
// comment naming the kernel that would be needed.
package mine
