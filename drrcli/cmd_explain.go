package drrcli

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/internal/pipecheck"
	"github.com/pirdrr/drr/internal/suggest"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/matcher"
	"github.com/pirdrr/drr/rewriter"
)

func init() {
	register(&command{
		name:    "explain",
		usage:   "explain [-rules F.drr | -set S] [-rule R] [-passes SPEC] -op OP PROGRAM",
		summary: "say why a rule does or does not match an op",
		help: `
Explain reports, for an op of a program and every rule whose root could be that op, either the bindings of the
match or the first test that failed, in the program's and the rule's terms:

  (%7, %8, %9, %10, %11, %12) = pd_op.batch_norm_ at model.pir:9:5
  rule conv2d_bn_fold[pd_op.conv2d,pd_op.batch_norm_] (conv2d_bn_fuse.drr:33:6): no match
    conv2d_bn_fuse.drr:39:5: %y (%6) has 1 use outside the match (pd_op.fetch %14)

OP is the printed id of one of the op's results (%12, as drrc convert or Paddle prints the program) or @LINE, the
line the op starts on in the program file (model.py for a GraphNet graph). A folder of programs (a GraphNet
sample) explains the op in each of its programs in turn, under a header naming the program (== subgraph_3). The rules are the -rules files, the -set rule sets, or by default every
registered rule set (the shipped ones and those of plugins). -rule selects one rule (by name; every instance of a
family rule). An unknown set or rule name is an error that suggests the nearest one.

-passes explains the op mid-pipeline, as the rules see it there: the passes of SPEC (apply's -passes syntax) run
first, up to "rules" where SPEC names it (-passes 'gpu_inference[before reinplace: rules]' runs gpu_inference up to
reinplace), else all of them; then the op is found in the program they leave. @LINE is still the op's line in the
file (for an op the passes kept); %N is an id of that program as drrc apply -passes SPEC -print-ir-before rules
prints it.

Examples:
  drrc explain -op %9 model.pir
  drrc explain -set conv_bn_relu -rule conv2d_bn_fold -op %14 model.pir
  drrc explain -rules my.drr -op @27 model.pir
  drrc explain -set conv_bn_relu -op @126 GraphNet/paddle_samples/PaddleX/ResNet18
  drrc explain -rules my.drr -passes 'gpu_inference[before reinplace: rules]' -op @27 model.pir`,
		setup: func(fs *flag.FlagSet) func(*CLI, []string) int {
			var cf contextFlags
			cf.register(fs)
			var ruleFiles, sets listFlag
			fs.Var(&ruleFiles, "rules", "explain the rules of `file.drr` (repeatable)")
			fs.Var(&sets, "set", "explain the rules of the registered rule set `name` (repeatable)")
			ruleName := fs.String("rule", "", "explain only the rule `name`")
			opRef := fs.String("op", "", "the op: `%N` (a printed result id) or @LINE")
			passes := fs.String("passes", "", "run the passes of `spec` first, up to \"rules\" (apply's -passes syntax), and explain the op in the program they leave")
			var params paramFlag
			params.register(fs)
			return func(c *CLI, args []string) int {
				if len(args) != 1 || *opRef == "" {
					return c.usageErrorf("explain", "need -op and one program")
				}
				ctx, err := cf.context(c)
				if err != nil {
					return c.errorf("explain", "%v", err)
				}
				set, ok := c.ruleSets("explain", ctx, ruleFiles, sets, cf.unregistered)
				if !ok {
					return exitFailure
				}
				if *ruleName != "" {
					if err := checkRuleName(set, *ruleName); err != nil {
						return c.errorf("explain", "%v", err)
					}
				}
				reg, err := c.registry()
				if err != nil {
					return c.errorf("explain", "%v", err)
				}
				prefix, ok := c.explainPrefix(ctx, reg, *passes)
				if !ok {
					return exitFailure
				}
				vals, ok := params.resolveDecls(c, "explain", ctx, append(append([]*rule.ParamDecl(nil), set.Params...), prefix.Params()...))
				if !ok {
					return exitFailure
				}
				load := func(path string) (*ir.Program, bool) {
					p, ok := c.loadProgram("explain", ctx, path)
					if !ok || len(prefix) == 0 {
						return p, ok
					}
					if _, err := prefix.Run(p, &rewriter.Env{Registry: reg, Options: rewriter.Options{Params: vals, Target: params.target.t}}); err != nil {
						c.errorf("explain", "%s: -passes: %v", path, err)
						return nil, false
					}
					fmt.Fprintf(c.Stdout, "after %d %s of -passes (%s … %s)\n", len(prefix), pluralWord(len(prefix), "pass", "passes"),
						prefix[0].Name(), prefix[len(prefix)-1].Name())
					return p, true
				}
				progs, err := c.programsOf(args[0])
				if err != nil {
					return c.errorf("explain", "%v", err)
				}
				if len(progs) == 1 && progs[0] == args[0] {
					p, ok := load(args[0])
					if !ok {
						return exitFailure
					}
					num := ir.NumberValues(p.Body())
					op, err := findOp(p, num, *opRef)
					if err != nil {
						return c.errorf("explain", "%s: %v%s", args[0], err, afterPasses(prefix))
					}
					c.explainOp(set, *ruleName, p, num, op, reg, vals)
					return exitOK
				}
				// A folder of programs (a GraphNet sample): the op in each program that has it.
				found := 0
				for _, path := range progs {
					p, ok := load(path)
					if !ok {
						return exitFailure
					}
					fmt.Fprintf(c.Stdout, "== %s\n", programName(args[0], path))
					num := ir.NumberValues(p.Body())
					op, err := findOp(p, num, *opRef)
					if err != nil {
						fmt.Fprintf(c.Stdout, "%v%s\n", err, afterPasses(prefix))
						continue
					}
					found++
					c.explainOp(set, *ruleName, p, num, op, reg, vals)
				}
				if found == 0 {
					return c.errorf("explain", "%s: none of its %s has the op %s", args[0], nouns(len(progs), "program"), *opRef)
				}
				return exitOK
			}
		},
	})
}

// explainOp prints, for op, what every rule of set whose root could be op (or only the rule named) makes of it.
func (c *CLI) explainOp(set *rule.Set, ruleName string, p *ir.Program, num *ir.Numbering, op *ir.Op, reg *rewriter.Registry, params rule.Params) {
	exps := matcher.Explain(set, ruleName, op, rule.WithParams(rewriter.NewOracle(p, reg), params), num)
	fmt.Fprintf(c.Stdout, "%s", describeOp(p, num, op))
	if len(exps) == 0 {
		fmt.Fprintf(c.Stdout, "no rule has a root that can be %s\n", op.Name())
		return
	}
	for i := range exps {
		fmt.Fprintln(c.Stdout, exps[i].String())
	}
}

// describeOp is the header of an explanation: the op and where it is.
func describeOp(p *ir.Program, num *ir.Numbering, op *ir.Op) string {
	pos := ""
	if op.Loc.IsKnown() {
		pos = fmt.Sprintf(" at %s:%d:%d", p.File, op.Loc.Line, op.Loc.Col)
	}
	return fmt.Sprintf("%s%s\n", num.Describe(op), pos)
}

// findOp finds the op a user names by a result id (%12) or a source line (@27).
// afterPasses is what an op reference that finds nothing is told when -passes ran first.
func afterPasses(prefix rewriter.Pipeline) string {
	if len(prefix) == 0 {
		return ""
	}
	return " in the program -passes leaves (its passes may have replaced the op; drrc apply -passes SPEC " +
		"-print-ir-before rules prints that program)"
}

// explainPrefix builds the passes explain -passes runs before explaining: those of the spec up to the point where
// it names "rules" (the rules explained), or all of them.
func (c *CLI) explainPrefix(ctx *ir.Context, reg *rewriter.Registry, spec string) (rewriter.Pipeline, bool) {
	items, err := pipecheck.ParseSpec(spec, "-passes")
	if err != nil {
		c.errorf("explain", "%v", err)
		return nil, false
	}
	if len(items) == 0 {
		return nil, true
	}
	if err := pipecheck.Passes(reg, pipecheck.Names(items), true, "-passes"); err != nil {
		c.errorf("explain", "%v", err)
		return nil, false
	}
	mark := rewriter.NewRulePass(pipecheck.Rules, &rule.Set{Ctx: ctx})
	pl, err := pipecheck.Build(reg, func(n string) (rewriter.Pipeline, error) { return reg.Pipeline(ctx, n) },
		map[string]rewriter.Pass{pipecheck.Rules: mark}, items)
	if err != nil {
		c.errorf("explain", "-passes: %v", err)
		return nil, false
	}
	if i := slices.Index(pl, rewriter.Pass(mark)); i >= 0 {
		pl = pl[:i]
	}
	return pl, true
}

func findOp(p *ir.Program, num *ir.Numbering, ref string) (*ir.Op, error) {
	if line, ok := strings.CutPrefix(ref, "@"); ok {
		n, err := strconv.Atoi(line)
		if err != nil {
			return nil, fmt.Errorf("bad line %q", ref)
		}
		for op := range p.Walk() {
			if int(op.Loc.Line) == n {
				return op, nil
			}
		}
		return nil, fmt.Errorf("no op starts on line %d", n)
	}
	if !strings.HasPrefix(ref, "%") {
		ref = "%" + ref
	}
	for op := range p.Walk() {
		for _, r := range op.Results() {
			if num.Name(r) == ref {
				return op, nil
			}
		}
	}
	return nil, fmt.Errorf("no op has a result %s (ids are those of the printed program: drrc convert PROGRAM -o -)", ref)
}

// ruleSets loads the rules named by -rules and -set, or those of every registered rule set when neither is given.
// Rule sets are found in the registry of this drrc (the shipped sets and the plugins'); a name that is not a rule
// set is an error that suggests the nearest one.
func (c *CLI) ruleSets(cmd string, ctx *ir.Context, files, sets []string, unregistered bool) (*rule.Set, bool) {
	reg, err := c.registry()
	if err != nil {
		c.errorf(cmd, "%v", err)
		return nil, false
	}
	out := &rule.Set{Ctx: ctx, Natives: map[string]*rule.NativeDecl{}}
	if len(files) > 0 {
		set, diags := drr.Load(ctx, c.loadOptions(drr.CheckOptions{Unregistered: unregistered, Natives: reg.HasNative}), files...)
		c.printRuleDiags(diags, true)
		if diags.HasErrors() {
			return nil, false
		}
		out.Rules = append(out.Rules, set.Rules...)
		out.Params = append(out.Params, set.Params...)
		for k, v := range set.Natives {
			out.Natives[k] = v
		}
	}
	registered, err := registeredRuleSets(ctx, reg)
	if err != nil {
		c.errorf(cmd, "%v", err)
		return nil, false
	}
	var names []string
	for _, rs := range registered {
		names = append(names, rs.name)
	}
	if len(files) == 0 && len(sets) == 0 {
		sets = names
	}
	for _, name := range sets {
		i := slices.IndexFunc(registered, func(rs namedSet) bool { return rs.name == name })
		if i < 0 {
			msg := suggest.Unknown("rule set", name, names)
			if _, statErr := os.Stat(name); statErr == nil {
				msg += "; a rule file goes with -rules"
			}
			c.errorf(cmd, "-set: %s", msg)
			return nil, false
		}
		out.Rules = append(out.Rules, registered[i].set.Rules...)
		out.Params = append(out.Params, registered[i].set.Params...)
		for k, v := range registered[i].set.Natives {
			out.Natives[k] = v
		}
	}
	for i, r := range out.Rules {
		r.Index = i
	}
	return out, true
}

// registeredRuleSets returns the rule sets of a registry: its passes that are rule passes, by name.
func registeredRuleSets(ctx *ir.Context, reg *rewriter.Registry) ([]namedSet, error) {
	var out []namedSet
	for _, info := range reg.Passes() {
		if len(info.Pipeline) > 0 {
			continue
		}
		pl, err := reg.Pipeline(ctx, info.Name)
		if err != nil {
			return nil, err
		}
		if len(pl) == 1 {
			if rp, ok := pl[0].(*rewriter.RulePass); ok {
				out = append(out, namedSet{info.Name, rp.Set})
			}
		}
	}
	return out, nil
}

// checkRuleName checks that a rule of the set has the name (-rule).
func checkRuleName(set *rule.Set, name string) error {
	var names []string
	for _, r := range set.Rules {
		if r.Name == name {
			return nil
		}
		if !slices.Contains(names, r.Name) {
			names = append(names, r.Name)
		}
	}
	return fmt.Errorf("-rule: %s", suggest.Unknown("rule", name, names))
}
