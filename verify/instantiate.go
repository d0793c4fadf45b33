package verify

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/matcher"
	"github.com/pirdrr/drr/rewriter"
)

// InstantiateOptions configures Instantiate.
type InstantiateOptions struct {
	// Registry provides the native constraints a rule's where clause calls (nil: none are available).
	Registry *rewriter.Registry
	// Automaton is the rule set compiled by matcher.Compile; nil compiles it (pass it when instantiating many rules
	// of one set).
	Automaton *matcher.Automaton
	// MaxInstances bounds the number of programs returned (default 4).
	MaxInstances int
	// MaxPrograms bounds the number of candidate programs built (default 2048).
	MaxPrograms int
	// Params fixes rule-set parameters (drrc verify -param); the others take the values paramAssignments tries.
	Params rule.Params
	// GroupSize is the number of elements built for a rule with a users group (language.md §4.10): its MIN when 0,
	// and at most its MAX.
	GroupSize int
}

// groupSize is the number of elements of users group g to build.
func (o InstantiateOptions) groupSize(g *rule.UsersGroup) int {
	if o.GroupSize <= 0 {
		return g.Min
	}
	return min(max(o.GroupSize, g.Min), g.Max)
}

func (o InstantiateOptions) maxInstances() int {
	if o.MaxInstances > 0 {
		return o.MaxInstances
	}
	return 4
}

func (o InstantiateOptions) maxPrograms() int {
	if o.MaxPrograms > 0 {
		return o.MaxPrograms
	}
	return 2048
}

// Instance is a small program on which a rule matches.
type Instance struct {
	Rule *rule.Rule
	// Program has one op per pattern op, the inputs they need, and a pd_op.fetch per pattern output. Its
	// parameters have no data (feeds.FillRandomWeights gives them some).
	Program *ir.Program
	// Root is the op built for the pattern's root; Match is the rule's match there.
	Root  *ir.Op
	Match *rule.Match
	// Holes describes the values chosen for the attribute holes ($fmt = "NHWC"), in hole order.
	Holes []string
	// Params are the rule-set parameters the instance matches with (the rewrite must run with them too).
	Params rule.Params
	// Inputs describes how the pattern's inputs are made (%x: builtin.tensor<2x3x6x7xf32> input).
	Inputs []string
}

// String describes the instance on one line: its hole values and inputs.
func (in *Instance) String() string {
	parts := append(append([]string(nil), in.Holes...), in.Inputs...)
	return strings.Join(parts, ", ")
}

// ErrUnsatisfiable is wrapped by the error of Instantiate when no candidate program satisfies the rule.
var ErrUnsatisfiable = errors.New("could not satisfy the rule's pattern and constraints")

// UnsatisfiableError says why no candidate program satisfied a rule: the check that failed furthest into the rule on
// the candidates (matcher.Explain), or why no candidate could be built.
type UnsatisfiableError struct {
	Rule *rule.Rule
	// Programs is the number of candidate programs built.
	Programs int
	Reason   string
}

func (e *UnsatisfiableError) Error() string {
	return fmt.Sprintf("%v (%d candidate programs): %s", ErrUnsatisfiable, e.Programs, e.Reason)
}

func (e *UnsatisfiableError) Unwrap() error { return ErrUnsatisfiable }

// Instantiate builds up to opts.MaxInstances small programs on which rule r of set matches, so that the rewrite
// can be checked with real numbers (RuleVerifier.Verify). It fails with an *UnsatisfiableError, saying which check
// failed, when no candidate program satisfies the pattern and the where clause.
//
// A candidate program has one op per pattern op, built in dependency order. Every input of the pattern (a value
// hole no pattern op defines) is made by a producer: a program input (pd_op.data), an immutable parameter
// (builtin.parameter, without data), or a copy of an input (pd_op.assign of a pd_op.data: a value that is neither
// an input nor a parameter), which is also fetched again after the pattern when that read stays well-typed, so that
// a rewrite forgetting later readers of a value an inplace op wrote is caught. Inputs of value-tensor operands
// (pd_op.to_tensor's) go through pd_op.to_vtensor. Mutable-attribute operands (reshape's shape, scale's scale, …)
// are pd_op.full_int_array / pd_op.full constants. Every pattern output (a value a pattern op defines and no
// pattern op reads) is fetched under its pattern name (%out).
//
// The search has two levels:
//
//  1. Attribute holes: each $hole bound by an attribute gets candidates — the attribute's schema default (for a
//     required attribute, the value Paddle's programs usually carry: is_test true, epsilon 1e-5, …), the literals
//     the where clause compares the hole with ($pa in ["EXPLICIT", "SAME"], $g >= 1, …), both booleans, and a few
//     small values for convolution attributes (strides, paddings, dilations, groups). Assignments are enumerated
//     (sampled when there are too many), and the constraints that read holes only are evaluated at once to discard
//     the assignments they reject.
//  2. For one assignment, shapes and producers: per pattern op a recipe proposes operand shapes (convolutions:
//     [N, C, H, W] inputs and [Cout, C/groups, 3, 3] filters in the layout data_format says; batch norms: [C]
//     statistics on the channel axis; element-wise ops: the known operand's shape, or a per-channel broadcast of
//     it; …, with N=2, C=3, H=6, W=7, so that a rewrite confusing two axes fails), and per input the producers are
//     tried in the order the where clause suggests (immutable/constant/is_param → parameter; !is_param &&
//     !is_input → a copy). Each candidate program is built (result types inferred by the schemas' type rules) and
//     kept when the set's matcher — the automaton, with the program oracle of the rewrite driver — matches rule r
//     at the op built for the pattern's root.
//
// An input's proposed plan is then adjusted to what the where clause wants of it (instantiate_wants.go,
// instantiate_solve.go): its dtype and rank, a shape or dims computed from the values built before it, and a
// dimension solved from a constraint tying it to attribute holes.
//
// Several satisfying assignments are kept, chosen greedily so that every candidate value of every hole is covered
// by some instance when possible: NCHW and NHWC; EXPLICIT, SAME and VALID; inference and global statistics; … each
// get a program. One more instance is added when the rule matches it: the first assignment with every pattern
// output written in place after the pattern and the pattern's inputs read again, which catches rewrites that make
// an output share an input's buffer.
//
// Operands some ops need in a particular form (valid index tensors, matching matrix sizes, per-channel vectors)
// come from recipes (instantiate_recipes.go), with alternatives that keep an operand's type for rules that want
// same_type; result types of ops without a type rule are what their kernel computes on the candidate.
//
// A rule with a users group (language.md §4.10) gets opts.GroupSize elements (MIN by default): the element op is
// built once more per further element, after the first, reading the same group value, with per-element inputs of
// its own made as the first's (the same shape and producer choices: parameters for defined_by(%w,
// "builtin.parameter")), and the results of every element fetched.
//
// A rule that reads rule-set parameters is instantiated once per parameter assignment (instantiate_params.go: the
// values opts.Params fixes, else the default and the literals the where clause compares a parameter with), the
// budgets shared among the assignments; each Instance records its assignment.
func Instantiate(set *rule.Set, r *rule.Rule, opts InstantiateOptions) ([]*Instance, error) {
	auto := opts.Automaton
	if auto == nil {
		var err error
		if auto, err = matcher.Compile(set, matcher.Options{}); err != nil {
			return nil, err
		}
	}
	reg := opts.Registry
	if reg == nil {
		reg = rewriter.NewRegistry()
	}
	assigns := paramAssignments(r, opts.Params)
	if len(assigns) == 0 {
		return nil, &UnsatisfiableError{Rule: r, Reason: "no value of the rule-set parameters satisfies the constraints on them"}
	}
	var out []*Instance
	var firstErr error
	// A rule with alternatives is instantiated once per path through them (rule.Paths), each built from the path's
	// pattern and matched as the rule.
	paths := rule.Paths(r)
	n := len(assigns) * len(paths)
	covered := make([]bool, len(paths))
	for _, p := range assigns {
		for i, pr := range paths {
			in, err := newInstantiator(set, pr, auto, reg)
			if err != nil {
				return nil, err
			}
			in.of = r
			in.params = p
			if g := pr.Pattern.Users; g != nil {
				in.groupSize = opts.groupSize(g)
			}
			insts, err := in.run(max(opts.maxInstances()/n, 1), opts.maxPrograms()/n)
			if err != nil && firstErr == nil {
				firstErr = err
			}
			covered[i] = covered[i] || len(insts) > 0
			out = append(out, insts...)
		}
	}
	if len(out) == 0 {
		return nil, firstErr
	}
	if pe := missingPaths(r, paths, covered, firstErr); pe != nil {
		return out, pe
	}
	return out, nil
}

// PathsError is Instantiate's report, with the instances it did build, that some paths through a rule's
// alternatives have none: no candidate program satisfied them, so the instances verify the other paths only.
type PathsError struct {
	Rule *rule.Rule
	// Missing names the paths without an instance (rule.PathName: the branch taken at each group, from 1), of
	// Paths in all.
	Missing []string
	Paths   int
	// Err is why the first path without an instance had none.
	Err error
}

func (e *PathsError) Error() string {
	return fmt.Sprintf("%d of %d paths through the alternatives not instantiated (%s): %v", len(e.Missing), e.Paths,
		strings.Join(e.Missing, ", "), e.Err)
}

func (e *PathsError) Unwrap() error { return e.Err }

// missingPaths returns the PathsError of the paths not covered, or nil when every path is.
func missingPaths(r *rule.Rule, paths []*rule.Rule, covered []bool, err error) *PathsError {
	var missing []string
	for i, c := range covered {
		if !c {
			missing = append(missing, rule.PathName(paths[i]))
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return &PathsError{Rule: r, Missing: missing, Paths: len(paths), Err: err}
}

// producer says how an input of the pattern is made.
type producer uint8

const (
	prodInput    producer = iota // pd_op.data
	prodParam                    // builtin.parameter (immutable, data filled by the caller)
	prodCopy                     // pd_op.assign(pd_op.data): neither an input nor a parameter
	prodObserved                 // as prodCopy, and fetched again after the pattern
)

func (p producer) String() string {
	switch p {
	case prodParam:
		return "parameter"
	case prodCopy:
		return "copy of an input"
	case prodObserved:
		return "copy of an input, read again after the pattern"
	}
	return "input"
}

type instantiator struct {
	ctx *ir.Context
	set *rule.Set
	r   *rule.Rule
	// of is the rule of the set the instances are of: r, or for a rule with alternatives the rule r is a path of.
	of   *rule.Rule
	pat  *rule.Pattern
	auto *matcher.Automaton
	reg  *rewriter.Registry

	order    []int  // pattern ops in build order
	internal []bool // per value hole: read by a pattern op
	// holeCands are the candidate attributes of each attribute hole (nil for other holes).
	holeCands [][]ir.Attribute
	holeSpec  []*ir.AttrSpec
	// pure are the where constraints that read attribute holes only.
	pure []rule.Expr
	// prefs orders the producers of each input value hole.
	prefs [][]producer
	// wants are what the where clause wants of each value hole (instantiate_wants.go).
	wants []valueWant
	// solves are the conjuncts tying a dimension of each value hole to attribute holes (instantiate_solve.go).
	solves [][]dimSolve
	// late are the holes solved while a candidate is built (instantiate_late.go), nil for the others; deferred
	// marks the pattern ops binding them that their first reader builds.
	late     []*lateHole
	deferred []bool

	programs int
	failed   []*candidate // the first candidates that did not match, for explaining a failure
	buildErr error        // the first build error, when no candidate could be built
	// writeOutputs makes candidates write every pattern output after the pattern and read the pattern's inputs
	// again (see run).
	writeOutputs bool
	// params are the rule-set parameters the candidates are matched with.
	params rule.Params
	// groupSize is the number of elements of the pattern's users group a candidate has (0: no group).
	groupSize int
}

// maxExplained bounds the failed candidates kept for explaining why a rule could not be satisfied.
const maxExplained = 32

func newInstantiator(set *rule.Set, r *rule.Rule, auto *matcher.Automaton, reg *rewriter.Registry) (*instantiator, error) {
	p := r.Pattern
	if p == nil || len(p.Ops) == 0 {
		return nil, fmt.Errorf("rule %s has no pattern", r.ID())
	}
	in := &instantiator{ctx: set.Ctx, set: set, r: r, of: r, pat: p, auto: auto, reg: reg,
		internal: make([]bool, len(p.Values)), holeCands: make([][]ir.Attribute, len(p.Holes)),
		holeSpec: make([]*ir.AttrSpec, len(p.Holes)), prefs: make([][]producer, len(p.Values))}
	for i, op := range p.Ops {
		if op.Name == "" {
			return nil, &UnsatisfiableError{Rule: r, Reason: fmt.Sprintf("pattern op %d matches any op: there is no op to build", i)}
		}
		if in.ctx.Schema(op.Name) == nil {
			return nil, &UnsatisfiableError{Rule: r, Reason: fmt.Sprintf("%s is not a registered op: its operands and types are unknown", op.Name)}
		}
		for _, o := range op.Operands {
			if (o.Kind == rule.OperandValue || o.Kind == rule.OperandList) && o.Value >= 0 {
				in.internal[o.Value] = true
			}
		}
	}
	order, err := buildOrder(p)
	if err != nil {
		return nil, err
	}
	in.order = order
	in.collectWants()
	in.collectSolves()
	in.collectHoles()
	in.markDeferred()
	in.classifyWhere()
	return in, nil
}

// buildOrder returns the pattern ops in an order where every op comes after the ops defining its operands.
func buildOrder(p *rule.Pattern) ([]int, error) {
	state := make([]int, len(p.Ops)) // 0 unvisited, 1 visiting, 2 done
	var order []int
	var visit func(k int) error
	visit = func(k int) error {
		switch state[k] {
		case 1:
			return fmt.Errorf("pattern op %d (%s) depends on itself", k, p.Ops[k].Name)
		case 2:
			return nil
		}
		state[k] = 1
		for _, o := range p.Ops[k].Operands {
			if (o.Kind == rule.OperandValue || o.Kind == rule.OperandList) && o.Value >= 0 {
				if d := p.Values[o.Value].Def; d >= 0 {
					if err := visit(d); err != nil {
						return err
					}
				}
			}
		}
		state[k] = 2
		order = append(order, k)
		return nil
	}
	for k := range p.Ops {
		if err := visit(k); err != nil {
			return nil, err
		}
	}
	return order, nil
}

// run searches for instances: hole assignments chosen to cover every candidate value, then shapes and producers.
func (in *instantiator) run(maxInst, maxProgs int) ([]*Instance, error) {
	assigns := in.assignments()
	if len(assigns) == 0 {
		return nil, &UnsatisfiableError{Rule: in.r, Reason: "no choice of the attribute holes satisfies the constraints on them"}
	}
	covered := map[[2]int]bool{}
	tried := make([]bool, len(assigns))
	var out []*Instance
	budget := maxProgs
	for attempts := 0; len(out) < maxInst && attempts < 4*maxInst+8 && budget > 0; attempts++ {
		best, bestScore := -1, -1
		for i, a := range assigns {
			if tried[i] {
				continue
			}
			// Uncovered candidate values first; among as many, holes of one attribute kind with distinct values
			// (two transposes with the same permutation commute, and would hide a composition in the wrong order).
			score := 0
			for h, c := range a {
				if len(in.holeCands[h]) > 0 && !covered[[2]int{h, c}] {
					score += 2
				}
			}
			if in.distinctKinds(a) {
				score++
			}
			if score > bestScore {
				best, bestScore = i, score
			}
		}
		if best < 0 || bestScore < 2 && len(out) > 0 { // nothing left to cover
			break
		}
		tried[best] = true
		per := budget
		if len(out) > 0 {
			per = min(budget, 256) // later instances are variations: do not spend the whole budget on one
		} else if untried(tried) > 0 {
			// Until an instance is found, an assignment gets half of what is left: the next one may be what
			// the rule wants ($bna == rank(%s) - 1 rejects every program of the first).
			per = max(budget/2, 1)
		}
		inst, used := in.search(in.assignment(assigns[best]), per)
		budget -= used
		if inst == nil {
			continue
		}
		for h, c := range assigns[best] {
			if len(in.holeCands[h]) > 0 {
				covered[[2]int{h, c}] = true
			}
		}
		out = append(out, inst)
	}
	if len(out) == 0 {
		return nil, &UnsatisfiableError{Rule: in.r, Programs: in.programs, Reason: in.failureReason()}
	}
	// One more instance, when the rule matches it: the first assignment again, with every pattern output written
	// after the pattern (scale_) and the pattern's inputs read again afterwards. A rewrite that makes an output
	// share an input's buffer (a copy dropped without checking that nothing writes it) changes what those reads
	// see. Rules whose where clause forbids the write (!mutated(%y)) do not match it, and lose nothing.
	in.writeOutputs = true
	failed := len(in.failed)
	if inst, _ := in.search(in.assignment(assigns[firstTried(tried)]), min(budget+256, 256)); inst != nil {
		out = append(out, inst)
	}
	in.failed = in.failed[:failed]
	in.writeOutputs = false
	return out, nil
}

// distinctKinds reports whether the holes of an assignment that bind attributes of one name (two transposes'
// perm) have pairwise different candidate values; true when there are no such holes.
func (in *instantiator) distinctKinds(a []int) bool {
	seen := map[string]map[ir.Attribute]bool{}
	for h, c := range a {
		spec := in.holeSpec[h]
		if spec == nil || len(in.holeCands[h]) == 0 {
			continue
		}
		v := in.holeCands[h][c]
		if seen[spec.Name] == nil {
			seen[spec.Name] = map[ir.Attribute]bool{}
		}
		if seen[spec.Name][v] {
			return false
		}
		seen[spec.Name][v] = true
	}
	return true
}

// untried counts the assignments not tried yet.
func untried(tried []bool) int {
	n := 0
	for _, t := range tried {
		if !t {
			n++
		}
	}
	return n
}

// firstTried returns the index of the first assignment tried.
func firstTried(tried []bool) int {
	for i, t := range tried {
		if t {
			return i
		}
	}
	return 0
}

// failureReason explains why the candidates did not match: the check that failed furthest into the rule (the
// pattern comes before the where clause, and constraints are checked in order), on the first candidate that got
// that far.
func (in *instantiator) failureReason() string {
	if len(in.failed) == 0 {
		if in.buildErr != nil {
			return "no candidate program could be built: " + in.buildErr.Error()
		}
		return "no candidate program could be built"
	}
	var best *matcher.Failure
	var bestC *candidate
	for _, c := range in.failed {
		oracle := rule.WithParams(rewriter.NewOracle(c.prog, in.reg), in.params)
		for _, ex := range matcher.Explain(in.set, in.of.ID(), c.ops[in.pat.Root], oracle, nil) {
			if ex.Rule != in.of || ex.Failure == nil {
				continue
			}
			f := ex.Failure
			if best == nil || f.Pos.Line > best.Pos.Line || f.Pos.Line == best.Pos.Line && f.Pos.Column > best.Pos.Column {
				best, bestC = f, c
			}
		}
	}
	if best == nil {
		return "the rule does not match the candidate programs"
	}
	return fmt.Sprintf("%s (on %s)", best, bestC.describe())
}

// search tries shapes and producers for one hole assignment, depth first, and returns the first instance found
// and the number of programs built.
func (in *instantiator) search(assign []ir.Attribute, budget int) (*Instance, int) {
	ch := &chooser{}
	used := 0
	for used < budget {
		used++
		in.programs++
		c, err := in.build(assign, ch)
		if err != nil {
			if in.buildErr == nil {
				in.buildErr = err
			}
		} else {
			if inst := in.match(c); inst != nil {
				return inst, used
			}
			if len(in.failed) < maxExplained {
				in.failed = append(in.failed, c)
			}
		}
		if !ch.next() {
			break
		}
	}
	return nil, used
}

// match runs the set's automaton at the root op of a candidate and returns an instance if rule r matches there.
func (in *instantiator) match(c *candidate) *Instance {
	root := c.ops[in.pat.Root]
	oracle := rule.WithParams(rewriter.NewOracle(c.prog, in.reg), in.params)
	for _, m := range in.auto.Match(root, oracle) {
		if m.Rule == in.of && in.onPath(m) {
			inst := &Instance{Rule: in.of, Program: c.prog, Root: root, Match: m, Inputs: c.inputs, Params: in.params}
			for _, n := range in.params.Names() {
				inst.Holes = append(inst.Holes, fmt.Sprintf("$%s = %s", n, rule.FormatVal(in.params[n])))
			}
			for h, a := range c.assign {
				if a != nil && (len(in.holeCands[h]) > 0 || in.late != nil && in.late[h] != nil) {
					inst.Holes = append(inst.Holes, fmt.Sprintf("$%s = %s", in.pat.Holes[h].Name, attrText(a)))
				}
			}
			return inst
		}
	}
	return nil
}

// onPath reports whether match m of a rule with alternatives took the path the instantiator builds (in.r.Path):
// every op of the path is bound. A program built for one path that another matches (a cast's result is a value the
// path without the cast accepts) does not verify the path it was built for.
func (in *instantiator) onPath(m *rule.Match) bool {
	if in.r.Path == nil {
		return true
	}
	p := in.of.Pattern
	for k := range p.Ops {
		if p.OnPath(in.r.Path, k) && (k >= len(m.Ops) || m.Ops[k] == nil) {
			return false
		}
	}
	return true
}

// chooser replays and advances a sequence of choices, depth first: the last choice varies fastest.
type chooser struct {
	choices, counts []int
	pos             int
}

// choose returns the choice among n alternatives at the next choice point.
func (c *chooser) choose(n int) int {
	if n <= 0 {
		n = 1
	}
	if c.pos < len(c.choices) {
		k := min(c.choices[c.pos], n-1)
		c.counts[c.pos] = n
		c.pos++
		return k
	}
	c.choices = append(c.choices, 0)
	c.counts = append(c.counts, n)
	c.pos++
	return 0
}

// next advances to the next sequence among the choice points the last build reached; false when all are done.
func (c *chooser) next() bool {
	for i := min(c.pos, len(c.choices)) - 1; i >= 0; i-- {
		if c.choices[i]+1 < c.counts[i] {
			c.choices[i]++
			c.choices, c.counts = c.choices[:i+1], c.counts[:i+1]
			c.pos = 0
			return true
		}
	}
	return false
}

// candidate is one built program.
type candidate struct {
	prog   *ir.Program
	ops    []*ir.Op    // per pattern op
	vals   []*ir.Value // per value hole
	assign []ir.Attribute
	// holeNames are the pattern's hole names (for descriptions).
	holeNames []string
	inputs    []string
}

func (c *candidate) describe() string {
	var parts []string
	for h, a := range c.assign {
		if a != nil {
			parts = append(parts, fmt.Sprintf("$%s = %s", c.holeNames[h], attrText(a)))
		}
	}
	return strings.Join(append(parts, c.inputs...), ", ")
}
