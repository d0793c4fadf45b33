//go:build nocompiled

package drrcli

import "github.com/pirdrr/drr/rewriter"

// registerCompiled leaves the interpreted shipped rule sets (built with -tags nocompiled; see compiled.go).
func registerCompiled(*rewriter.Registry) error { return nil }
