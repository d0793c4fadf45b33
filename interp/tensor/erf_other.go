//go:build !amd64 || purego || amd64.v3

package tensor

// archErfVec returns nil: on this architecture, with the purego build tag, or for GOAMD64=v3 and above (where
// the compiler fuses math.Erf's multiply-adds and the assembly's unfused steps would differ) ErfInPlace calls
// math.Erf.
func archErfVec() func(x []float64) int { return nil }

// archGeluVec returns nil, as archErfVec does: gelu takes the portable loop.
func archGeluVec() func(dst, src []float32) int { return nil }
