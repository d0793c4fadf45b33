package interp

import "github.com/pirdrr/drr/interp/tensor"

// Kernels names the kernel path the interpreter's matrix products and convolutions run on: "avx512" or "avx2"
// (Go assembly, amd64) or "go" (portable), the fastest the CPU supports unless the environment variable
// PIRDRR_KERNELS names another. The error says why the path is not the one PIRDRR_KERNELS asked for (an unknown
// name, or one this CPU cannot run). Results are bit-identical across GOMAXPROCS on each path and agree across
// paths within rounding (package tensor).
func Kernels() (string, error) { return tensor.Kernels() }
