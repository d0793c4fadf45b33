//go:build !amd64 || purego

package feeds

// roundHalvesAsm is nil: on this architecture (or with the purego build tag) roundHalves rounds in Go.
var roundHalvesAsm func(xs []float32)
