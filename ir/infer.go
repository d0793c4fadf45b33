package ir

import (
	"fmt"
	"sort"
)

// InferFunc is a result-type rule: given an op's schema, operands and attributes it returns the result types.
// Rules are registered by name (Context.RegisterInfer) and named by catalogs (infer(conv2d)).
type InferFunc func(c *Context, in *InferInput) ([]Type, error)

// InferInput is what a result-type rule sees of the op being built.
type InferInput struct {
	Schema   *OpSchema
	Operands []*Value
	Attrs    []NamedAttr
}

// Attr returns the named attribute, or the schema default, or nil.
func (in *InferInput) Attr(name string) Attribute {
	for _, a := range in.Attrs {
		if a.Name == name {
			return a.Value
		}
	}
	if in.Schema != nil {
		if s := in.Schema.Attr(name); s != nil {
			return s.Default
		}
	}
	return nil
}

// Operand returns operand i, or nil if absent or out of range.
func (in *InferInput) Operand(i int) *Value {
	if i < len(in.Operands) {
		return in.Operands[i]
	}
	return nil
}

// tensor returns operand i's tensor type or an error naming the operand.
func (in *InferInput) tensor(i int) (*TensorType, error) {
	v := in.Operand(i)
	if v == nil {
		return nil, fmt.Errorf("operand %d is missing", i)
	}
	t := TensorOf(v.Type())
	if t == nil {
		return nil, fmt.Errorf("operand %d has type %s, not a tensor", i, v.Type())
	}
	return t, nil
}

// constInts returns the integers a value holds when it is produced by full_int_array (value) or full with an
// IntArray-like shape, as rules for mutable attributes need (reshape's shape, pool2d's kernel_size, …).
func constInts(v *Value) ([]int64, bool) {
	if v == nil || v.def() == nil {
		return nil, false
	}
	switch v.def().Name() {
	case "pd_op.full_int_array":
		return AsInts(v.def().Attr("value"))
	case "pd_op.full":
		if f, ok := AsFloat(v.def().AttrOrDefault("value")); ok {
			return []int64{int64(f)}, true
		}
	}
	return nil, false
}

// ConstInts returns the integers held by a value produced by pd_op.full_int_array or pd_op.full.
func ConstInts(v *Value) ([]int64, bool) { return constInts(v) }

// RegisterInfer registers a result-type rule under a name, replacing any rule of that name.
func (c *Context) RegisterInfer(name string, f InferFunc) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.infer[name] = f
}

// InferRules returns the names of the registered result-type rules, sorted.
func (c *Context) InferRules() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	names := make([]string, 0, len(c.infer))
	for n := range c.infer {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// InferResultTypes computes the result types of an op of the given schema from its operands and attributes. It
// fails if the schema has no rule or the rule cannot decide.
func (c *Context) InferResultTypes(s *OpSchema, operands []*Value, attrs []NamedAttr) ([]Type, error) {
	if s == nil {
		return nil, fmt.Errorf("unregistered op: no result-type rule")
	}
	if s.Infer == "" {
		if len(s.Results) == 0 {
			return nil, nil // nothing to infer
		}
		return nil, fmt.Errorf("%s has no result-type rule", s.Name)
	}
	c.mu.Lock()
	f := c.infer[s.Infer]
	c.mu.Unlock()
	if f == nil {
		return nil, fmt.Errorf("%s: unknown result-type rule %q", s.Name, s.Infer)
	}
	types, err := f(c, &InferInput{Schema: s, Operands: operands, Attrs: attrs})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	return types, nil
}

// fillResults pads the types of a rule that computed the leading results only: remaining results get the null
// type (optional results) so that the count matches the schema.
func fillResults(c *Context, s *OpSchema, ts []Type) []Type {
	for len(ts) < len(s.Results) {
		ts = append(ts, c.NullType())
	}
	return ts
}

func registerBuiltinInfer(c *Context) {
	rules := map[string]InferFunc{
		"same":                 inferSame,
		"scale":                inferSame,
		"broadcast":            inferBroadcast(false),
		"compare":              inferBroadcast(true),
		"conv2d":               inferConv2D,
		"conv2d_transpose":     inferConv2DTranspose,
		"fused_conv2d_add_act": inferFusedConv,
		"pool2d":               inferPool2D,
		"matmul":               inferMatmul,
		"reshape":              inferReshape,
		"flatten":              inferFlatten,
		"transpose":            inferTranspose,
		"squeeze":              inferSqueeze,
		"unsqueeze":            inferUnsqueeze,
		"concat":               inferConcat,
		"split":                inferSplit,
		"full":                 inferFull,
		"full_int_array":       inferFullIntArray,
		"cast":                 inferCast,
		"batch_norm":           inferBatchNorm,
		"combine":              inferCombine,
		"builtin_split":        inferBuiltinSplit,
		"slice":                inferSlice,
		"reduce":               inferReduce,
		"data":                 inferData,
		"to_vtensor":           inferSpelling(ValueTensor),
		"to_tensor":            inferSpelling(DenseTensor),
		"shape":                inferShape,
	}
	for n, f := range rules {
		c.infer[n] = f
	}
	registerFusedInfer(c)
	registerQuantInfer(c)
}
