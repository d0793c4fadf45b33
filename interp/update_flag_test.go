package interp

import "github.com/pirdrr/drr/internal/golden"

// -update (internal/golden) rewrites testdata/models/*.pir from their builders (models_test.go).
func init() { golden.Register() }
