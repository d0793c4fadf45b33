package ir

import (
	"fmt"
	"slices"
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
	// Regions are the op's regions, for the ops whose results are what their regions yield (pd_op.if); nil while an
	// op is being built.
	Regions []*Region
	// Program is the program the op belongs to, for the ops whose type is the program's (a builtin.parameter has the
	// type of its weight, a pd_op.feed that of the program's input); nil when not known.
	Program *Program
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
	if i >= 0 && i < len(in.Operands) {
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

// tensorsAt returns the tensor types of the operands at the indices given, in that order, or the error of the
// first that is missing or not a tensor.
func (in *InferInput) tensorsAt(idx ...int) ([]*TensorType, error) {
	out := make([]*TensorType, len(idx))
	for k, i := range idx {
		t, err := in.tensor(i)
		if err != nil {
			return nil, err
		}
		out[k] = t
	}
	return out, nil
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
	return c.Infer(&InferInput{Schema: s, Operands: operands, Attrs: attrs})
}

// InferOp computes the result types of an existing op from its operands, attributes and regions, as if it were
// built again; p, if not nil, is the program the op belongs to (parameters and feeds take their types from it).
// Comparing the answer with the op's result types checks a program's types against the catalog's rules.
func (c *Context) InferOp(op *Op, p *Program) ([]Type, error) {
	return c.Infer(&InferInput{Schema: op.Schema(), Operands: op.Operands(), Attrs: op.Attrs(), Regions: op.Regions(),
		Program: p})
}

// Infer runs the result-type rule of in.Schema. An op without results needs no rule; any other op needs one, and
// the rule's error names the op.
func (c *Context) Infer(in *InferInput) ([]Type, error) {
	s := in.Schema
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
	types, err := f(c, in)
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

// CheckResultTypes re-infers the result types of an existing op (InferOp) and reports the first that differs from
// the type the op has, naming the result, both types and the operand types. Equality is exact in dtype, every dim
// (an unknown -1 only matches an unknown -1), layout, LoD and offset; the spellings of one dense tensor type in
// different eras of Paddle's printer (builtin.tensor, pd_op.tensor, tensor) count as one, since a rule that creates
// a tensor from attributes cannot know which its program uses. A value tensor (pd_op.v_tensor) is another type.
func (c *Context) CheckResultTypes(op *Op, p *Program) error {
	got, err := c.InferOp(op, p)
	if err != nil {
		return err
	}
	if len(got) != op.NumResults() {
		return fmt.Errorf("%s: the rule gives %d result types for %d results", op.Name(), len(got), op.NumResults())
	}
	for i, t := range got {
		if want := op.Result(i).Type(); !sameType(t, want) {
			return fmt.Errorf("%s: result %d is %s, the rule infers %s from %s", op.Name(), i, want, t, operandTypes(op))
		}
	}
	return nil
}

// operandTypes lists an op's operand types, "null" for absent ones, for messages.
func operandTypes(op *Op) string {
	var b []byte
	b = append(b, '(')
	for i, v := range op.Operands() {
		if i > 0 {
			b = append(b, ", "...)
		}
		if v == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, v.Type().String()...)
		}
	}
	return string(append(b, ')'))
}

// denseSpellings are the spellings of the one mutable dense tensor type.
var denseSpellings = map[string]bool{DenseTensor: true, LegacyTensor: true, BareTensor: true}

// sameType compares types as CheckResultTypes does: identical, or equal but for the spelling of a dense tensor.
func sameType(a, b Type) bool {
	if a == b {
		return true
	}
	switch a := a.(type) {
	case *TensorType:
		b, ok := b.(*TensorType)
		return ok && denseSpellings[a.Spelling] && denseSpellings[b.Spelling] && a.Elem == b.Elem &&
			slices.Equal(a.Dims, b.Dims) && a.Layout == b.Layout && a.Offset == b.Offset &&
			slices.EqualFunc(a.LoD, b.LoD, slices.Equal)
	case *VectorType:
		b, ok := b.(*VectorType)
		return ok && slices.EqualFunc(a.Elems, b.Elems, sameType)
	}
	return false
}
