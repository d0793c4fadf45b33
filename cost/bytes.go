package cost

import "github.com/pirdrr/drr/ir"

// ValueBytes returns the bytes of v as the model counts them in an op's reads and writes: its tensor's elements
// (a vector's tensors summed) times the element size, dynamic dims as DynamicDim. Tools that reason about fusions
// (package mine) count the traffic of the values a fusion keeps on chip with it.
func (m *Model) ValueBytes(v *ir.Value) int64 {
	if v == nil {
		return 0
	}
	dyn := m.DynamicDim
	if dyn <= 0 {
		dyn = 1
	}
	view := &opView{dyn: dyn}
	return view.typeBytes(v.Type())
}
