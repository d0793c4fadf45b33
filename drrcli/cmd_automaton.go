package drrcli

import (
	"flag"
	"fmt"

	"github.com/pirdrr/drr/matcher"
)

func init() {
	register(&command{
		name:    "automaton",
		usage:   "automaton [-dot] [-rules F.drr ... | -set S ...]",
		summary: "print the matcher automaton a rule set compiles into",
		help: `
Automaton compiles rule sets into the matcher's decision automaton and prints it: each rule's matching plan (the
numbered instructions that bind its pattern's ops, values and holes and check them, the one form of matching that
the automaton, drrc explain and drrc gen share), then per root op name the tests the matcher makes in order (op
names of producers, operand counts, attributes, types, value equalities), shared between rules so that a test
common to many rules runs once, down to the rules that match and what remains of their plans. -dot prints the
trees as Graphviz instead (render with dot -Tsvg). Without -rules or -set it prints the automaton of every registered rule set (the shipped
ones and those of plugins). A rule file may also be given as an argument.

Examples:
  drrc automaton rules/conv_bn_relu.drr
  drrc automaton -set inplace
  drrc automaton -dot -rules my.drr | dot -Tsvg > automaton.svg`,
		setup: func(fs *flag.FlagSet) func(*CLI, []string) int {
			var cf contextFlags
			cf.register(fs)
			var ruleFiles, sets listFlag
			fs.Var(&ruleFiles, "rules", "the rules of `file.drr` (repeatable)")
			fs.Var(&sets, "set", "the rules of the registered rule set `name` (repeatable)")
			dot := fs.Bool("dot", false, "print Graphviz DOT")
			return func(c *CLI, args []string) int {
				for _, a := range args {
					if !isRuleFile(a) {
						return c.usageErrorf("automaton", "%s is not a rule file (.drr)", a)
					}
					ruleFiles = append(ruleFiles, a)
				}
				ctx, err := cf.context(c)
				if err != nil {
					return c.errorf("automaton", "%v", err)
				}
				set, ok := c.ruleSets("automaton", ctx, ruleFiles, sets, cf.unregistered)
				if !ok {
					return exitFailure
				}
				a, err := matcher.Compile(set, matcher.Options{})
				if err != nil {
					return c.errorf("automaton", "%v", err)
				}
				if *dot {
					err = a.Dot(c.Stdout)
				} else {
					err = a.Dump(c.Stdout)
				}
				if err != nil {
					return c.errorf("automaton", "%v", err)
				}
				if !*dot {
					fmt.Fprintf(c.Stderr, "%d rules, %d nodes, %d distinct tests\n", len(set.Rules), a.NumNodes(), a.NumQuestions())
				}
				return exitOK
			}
		},
	})
}
