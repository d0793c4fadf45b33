//go:build !nocompiled

package drrcli

import (
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rules/compiled"
)

// registerCompiled replaces the shipped rule sets of reg with their compiled passes (package rules/compiled), which
// fall back on the interpreted sets where the catalog makes them stale. Building with -tags nocompiled leaves the
// interpreted sets: the way to run drrc gen when rules/compiled does not build (go generate ./rules/compiled).
func registerCompiled(reg *rewriter.Registry) error { return compiled.Register(reg) }
