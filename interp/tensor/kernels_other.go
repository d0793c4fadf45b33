//go:build !amd64 || purego

package tensor

// archKernelPaths returns no assembly kernels: on this architecture (or with the purego build tag) every product
// runs the portable Go kernels.
func archKernelPaths() []*kernelPath { return nil }
