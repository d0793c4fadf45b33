// Package compiled holds the shipped rule sets (rules/*.drr) compiled to Go by drrc gen: a pass per set, with
// the set's name, that finds the same matches as the interpreted automaton and rewrites the programs to the same
// bytes with the same statistics, faster. The .drr files in rules/ stay the source of truth: go generate
// regenerates this package from them (one file per set, and passes.go listing them), and a test fails when a
// generated file is stale, missing or left over.
//
// Register replaces the shipped sets of a registry that rules.Register filled with their compiled passes, so
// that the pipelines naming them (inference, cleanup) run the compiled ones:
//
//	reg := rewriter.NewRegistry()
//	if err := rules.Register(reg); err != nil { … }
//	if err := compiled.Register(reg); err != nil { … }
//
// A compiled set checks its rules against the programs' Context when its pass is built, and refuses to run if
// they check differently from where the code was generated (a catalog added with drrc -dialect that gives a
// family more members, say): the interpreted set is the one to use then.
package compiled

//go:generate go run ../../cmd/drrc gen -rules .. -pkg compiled -o . -fs github.com/pirdrr/drr/rules.FS

import (
	"fmt"
	"sort"

	"github.com/pirdrr/drr/rewriter"
)

// Register replaces every shipped rule set registered in reg (by rules.Register) with its compiled pass.
func Register(reg *rewriter.Registry) error {
	names := make([]string, 0, len(Passes))
	for name := range Passes {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := reg.ReplacePass(name, Passes[name]); err != nil {
			return fmt.Errorf("compiled rule sets: %w (register the shipped sets first, with rules.Register)", err)
		}
	}
	return nil
}
