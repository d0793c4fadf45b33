package interp

import (
	"fmt"
	"math"
	"slices"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// kernel evaluates one op: it receives the run-time values of the operands (nil for absent optional operands) and
// returns one value per result it computes (trailing results it leaves out, and nil entries, stay uncomputed; using
// them later is an error). A result must be a fresh buffer unless the op is a view of its operand, in which case it
// may share the operand's buffer; inplace write-back and view sharing are applied by the machine from the schema.
type kernel[T tensor.Float] func(c *call[T]) ([]*value[T], error)

// registry maps op names to kernels.
type registry[T tensor.Float] map[string]kernel[T]

var (
	registry64 = buildRegistry[float64]()
	registry32 = buildRegistry[float32]()
)

// families are the register functions of the kernel files, one per op family (k_FAMILY.go). No op is in two
// (TestEveryOpHasOneKernel), so their order does not matter.
func families[T tensor.Float]() []func(registry[T]) {
	return []func(registry[T]){registerIO[T], registerConst[T], registerElementwise[T], registerCompare[T],
		registerShape[T], registerNN[T], registerReduce[T], registerInterp[T], registerMath[T], registerBinary[T],
		registerIndex[T], registerLayout[T], registerNorm[T], registerFFT[T], registerRandom[T], registerDetect[T],
		registerFused[T], registerQuant[T], registerProducts[T], registerLoss[T], registerScan[T], registerRearrange[T],
		registerFill[T], registerCollective[T]}
}

func buildRegistry[T tensor.Float]() registry[T] {
	r := registry[T]{}
	for _, register := range families[T]() {
		register(r)
	}
	return r
}

// call is the context a kernel runs in: the op and its operand values.
type call[T tensor.Float] struct {
	m    *machine[T]
	op   *ir.Op
	args []*value[T]
}

// arg returns operand i, which must be present and a tensor.
func (c *call[T]) arg(i int) (*value[T], error) {
	if i >= len(c.args) || c.args[i] == nil {
		return nil, fmt.Errorf("operand %d is missing", i)
	}
	if c.args[i].vec {
		return nil, fmt.Errorf("operand %d is a vector, not a tensor", i)
	}
	return c.args[i], nil
}

// in returns operand i as a kernel tensor.
func (c *call[T]) in(i int) (*tensor.Tensor[T], error) {
	v, err := c.arg(i)
	if err != nil {
		return nil, err
	}
	return v.tensor(), nil
}

// optIn returns operand i as a kernel tensor, or nil if the optional operand is absent.
func (c *call[T]) optIn(i int) (*tensor.Tensor[T], error) {
	if i >= len(c.args) || c.args[i] == nil {
		return nil, nil
	}
	return c.in(i)
}

// vector returns operand i, which must be a vector (builtin.combine result).
func (c *call[T]) vector(i int) ([]*value[T], error) {
	if i >= len(c.args) || c.args[i] == nil {
		return nil, fmt.Errorf("operand %d is missing", i)
	}
	if !c.args[i].vec {
		return nil, fmt.Errorf("operand %d is a tensor, not a vector", i)
	}
	return c.args[i].elems, nil
}

// ints returns the integers held by operand i (an IntArray operand such as reshape's shape, computed at run time):
// a 0-D or 1-D tensor, or a vector of one-element tensors (builtin.combine of scalars). Magnitudes beyond 2^53
// saturate (clampInt).
func (c *call[T]) ints(i int) ([]int, error) {
	if i >= len(c.args) || c.args[i] == nil {
		return nil, fmt.Errorf("operand %d is missing", i)
	}
	parts := []*value[T]{c.args[i]}
	if c.args[i].vec {
		parts = c.args[i].elems
	}
	var out []int
	for _, v := range parts {
		if v.vec || len(v.shape) > 1 || c.args[i].vec && len(v.buf.data) != 1 {
			return nil, fmt.Errorf("operand %d must be a 0-D or 1-D integer tensor or a vector of scalars", i)
		}
		for _, x := range v.buf.data {
			f := float64(x)
			if f != math.Trunc(f) {
				return nil, fmt.Errorf("operand %d holds %v, not an integer", i, f)
			}
			out = append(out, clampInt(f))
		}
	}
	if out == nil {
		out = []int{}
	}
	return out, nil
}

// scalar returns the single element of operand i (a Scalar operand such as scale's scale or concat's axis).
func (c *call[T]) scalar(i int) (float64, error) {
	v, err := c.arg(i)
	if err != nil {
		return 0, err
	}
	if len(v.buf.data) != 1 {
		return 0, fmt.Errorf("operand %d must hold one element, has shape %v", i, v.shape)
	}
	return float64(v.buf.data[0]), nil
}

// intScalar returns the single element of operand i as an integer.
func (c *call[T]) intScalar(i int) (int, error) {
	f, err := c.scalar(i)
	if err != nil {
		return 0, err
	}
	if f != math.Trunc(f) {
		return 0, fmt.Errorf("operand %d holds %v, not an integer", i, f)
	}
	return clampInt(f), nil
}

// attr returns the named attribute or its schema default.
func (c *call[T]) attr(name string) ir.Attribute { return c.op.AttrOrDefault(name) }

// attrInts returns an integer-list attribute; ok is false when it is absent or not a list of integers.
func (c *call[T]) attrInts(name string) ([]int, bool) {
	v, ok := ir.AsInts(c.attr(name))
	if !ok {
		return nil, false
	}
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x)
	}
	return out, true
}

// attrInt returns an integer attribute or def.
func (c *call[T]) attrInt(name string, def int) int {
	if v, ok := ir.AsInt(c.attr(name)); ok {
		return int(v)
	}
	return def
}

// attrFloat returns a numeric attribute or def.
func (c *call[T]) attrFloat(name string, def float64) float64 {
	if v, ok := ir.AsFloat(c.attr(name)); ok {
		return v
	}
	return def
}

// attrBool returns a boolean attribute or def.
func (c *call[T]) attrBool(name string, def bool) bool {
	if v, ok := ir.AsBool(c.attr(name)); ok {
		return v
	}
	return def
}

// attrString returns a string attribute or def.
func (c *call[T]) attrString(name, def string) string {
	if v, ok := ir.AsString(c.attr(name)); ok {
		return v
	}
	return def
}

// requireBool returns a boolean attribute that has no default and must be present.
func (c *call[T]) requireBool(name string) (bool, error) {
	v, ok := ir.AsBool(c.attr(name))
	if !ok {
		return false, fmt.Errorf("attribute %s is missing or not a bool", name)
	}
	return v, nil
}

// outDType returns the element type result j declares, or the dtype of operand 0 when the type does not say.
func (c *call[T]) outDType(j int) ir.DType {
	if j < c.op.NumResults() {
		t := c.op.Result(j).Type()
		if vt, ok := t.(*ir.VectorType); ok && len(vt.Elems) > 0 {
			t = vt.Elems[0]
		}
		if dt := ir.ElemDType(t); dt != ir.DTypeUndefined {
			return dt
		}
	}
	for _, a := range c.args {
		if a != nil && !a.vec {
			return a.dtype
		}
	}
	return ir.DTypeFloat32
}

// out wraps a fresh kernel result as result j.
func (c *call[T]) out(t *tensor.Tensor[T], j int) *value[T] { return newValue(t, c.outDType(j)) }

// one returns a single fresh result.
func (c *call[T]) one(t *tensor.Tensor[T], err error) ([]*value[T], error) {
	if err != nil {
		return nil, err
	}
	return []*value[T]{c.out(t, 0)}, nil
}

// vecOut wraps fresh tensors as a vector result j.
func (c *call[T]) vecOut(ts []*tensor.Tensor[T], j int) *value[T] {
	dt := c.outDType(j)
	v := &value[T]{vec: true, elems: make([]*value[T], len(ts))}
	for i, t := range ts {
		v.elems[i] = newValue(t, dt)
	}
	return v
}

// SupportedOps returns the names of the ops the interpreter has kernels for, sorted. Inplace forms (relu_, add_,
// …) of these ops are evaluated too (with the kernel of the non-inplace op and an inplace write), as are pd_op.if
// and pd_op.while; pd_op.nearest_interp and pd_op.fused_conv2d_add_act refuse some attribute combinations.
func SupportedOps() []string {
	names := make([]string, 0, len(registry64))
	for n := range registry64 {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// CanEvaluate reports whether the interpreter has a kernel for the op named name (inplace forms use their twin's
// kernel).
func CanEvaluate(ctx *ir.Context, name string) bool {
	if registry64[name] != nil {
		return true
	}
	switch name {
	case "pd_op.if", "pd_op.while", "cf.yield":
		return true
	}
	if s := ctx.Schema(name); s != nil && len(s.Inplace) > 0 {
		return registry64[ir.NonInplaceName(name)] != nil
	}
	return false
}
