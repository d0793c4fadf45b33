// Package compiled holds the shipped rule sets (rules/*.drr) compiled to Go by drrc gen: a pass per set, with
// the set's name, that finds the same matches as the interpreted automaton and rewrites the programs to the same
// bytes with the same statistics, faster. The .drr files in rules/ stay the source of truth: the passes read them
// from rules.FS, go generate regenerates this package from them (one file per set, and passes.go listing them),
// and a test fails when a generated file is stale, missing or left over.
//
// Register replaces the shipped sets of a registry that rules.Register filled with their compiled passes, so
// that the pipelines naming them (inference, cleanup) run the compiled ones; drrc does so:
//
//	reg := rewriter.NewRegistry()
//	if err := rules.Register(reg); err != nil { … }
//	if err := compiled.Register(reg); err != nil { … }
//
// A compiled set checks its rules against the programs' Context when its pass is built, and refuses to run if
// they check differently from where the code was generated (a catalog added with drrc -dialect that gives a
// family more members, say): the registered pass then builds the interpreted set instead.
package compiled

//go:generate go run -tags nocompiled ../../cmd/drrc gen -rules .. -pkg compiled -o . -fs github.com/pirdrr/drr/rules.FS

import (
	"errors"
	"fmt"
	"sort"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rulegen/rt"
)

// Register replaces every shipped rule set registered in reg (by rules.Register) with its compiled pass, which
// falls back on the set's interpreted pass for a Context where the compiled one is stale (rt.ErrStale).
func Register(reg *rewriter.Registry) error {
	names := make([]string, 0, len(Passes))
	for name := range Passes {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		compiled := Passes[name]
		var interpreted rewriter.PassFactory
		fallback := func(ctx *ir.Context, reg *rewriter.Registry) (rewriter.Pass, error) {
			pass, err := compiled(ctx, reg)
			if errors.Is(err, rt.ErrStale) {
				return interpreted(ctx, reg)
			}
			return pass, err
		}
		old, err := reg.ReplacePass(name, fallback)
		if err != nil {
			return fmt.Errorf("compiled rule sets: %w (register the shipped sets first, with rules.Register)", err)
		}
		interpreted = old
	}
	return nil
}
