package kernels

import (
	"fmt"

	"github.com/pirdrr/drr/ir"
)

// Load parses the kernel table of ir/catalog that target reads (ir.Target.KernelTable: kernels_gpu.kernels for a
// GPU target) against the op schemas of ctx.
func Load(ctx *ir.Context, target ir.Target) (*Table, error) {
	name := target.KernelTable()
	if name == "" {
		return nil, fmt.Errorf("no target: give one (-target gpu:sm80) to check kernels against")
	}
	path, src, err := ir.KernelTableSource(name)
	if err != nil {
		return nil, err
	}
	return Parse(ctx, path, src)
}
