package stats_test

import "github.com/pirdrr/drr/internal/golden"

// This package has no golden files; it accepts -update so that go test ./... -update runs here too.
func init() { golden.Register() }
