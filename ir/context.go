package ir

import (
	"fmt"
	"sort"
	"sync"
)

// Context owns what programs share: the interned types and attributes, the registered dialects with their op
// schemas, the per-name OpInfo records and the result-type rules. Programs built in one Context can be compared
// (types and attributes by pointer) and rewritten by rules compiled against it.
//
// A Context is safe for concurrent use: interning and registration take a lock. It holds no global state;
// NewContext gives a fresh one.
type Context struct {
	mu    sync.RWMutex
	types map[string]Type
	attrs map[string]Attribute
	// strs are the string attributes by value, under their own lock (strMu): readers intern a string per
	// parameter, and a plain mutex costs less than the shared one's write lock.
	strMu sync.Mutex
	strs  strTable
	// names are the attribute names (AttrName), in a table of their own under strMu.
	names    strTable
	dialects map[string]*Dialect
	schemas  map[string]*OpSchema
	infos    map[string]*OpInfo
	infoList []*OpInfo
	infer    map[string]InferFunc

	scalars [numDTypes]*ScalarType
	null    *NullType
	nullA   *NullAttr
	boolT   *BoolAttr
	boolF   *BoolAttr
}

// OpInfo is the per-name record of an op kind in a Context: every Op with that name points to the same OpInfo, so
// matchers dispatch on it by pointer or by ID. Schema is nil for unregistered ops.
type OpInfo struct {
	// Name is the full op name (pd_op.conv2d, or add(phi_kernel)).
	Name string
	// Dialect is the part of Name before the first dot ("" for kernel ops without one).
	Dialect string
	// Schema is the op's schema, or nil if no registered dialect declares the op.
	Schema *OpSchema
	// ID numbers OpInfos densely from 0 in order of creation within the Context.
	ID int
}

// Registered reports whether the op kind has a schema.
func (i *OpInfo) Registered() bool { return i.Schema != nil }

// Has reports whether the op kind has every trait in t. Unregistered ops have no traits.
func (i *OpInfo) Has(t Trait) bool { return i.Schema != nil && i.Schema.Traits&t == t }

// NewContext returns an empty Context: no dialects (every op unregistered) and the builtin result-type rules.
// Use LoadDefaultDialects to register the catalogs that ship with the engine.
func NewContext() *Context {
	c := &Context{
		types:    make(map[string]Type),
		attrs:    make(map[string]Attribute),
		dialects: make(map[string]*Dialect),
		schemas:  make(map[string]*OpSchema),
		infos:    make(map[string]*OpInfo),
		infer:    make(map[string]InferFunc),
		null:     &NullType{},
		nullA:    &NullAttr{},
		boolT:    &BoolAttr{Value: true},
		boolF:    &BoolAttr{Value: false},
	}
	c.null.h.self = c.null
	for d := DType(0); d < numDTypes; d++ {
		c.scalars[d] = &ScalarType{DType: d}
		c.scalars[d].h.self = c.scalars[d]
	}
	registerBuiltinInfer(c)
	return c
}

// OpInfo returns the OpInfo for the op name, creating it (unregistered, unless a dialect declares it) on first use.
func (c *Context) OpInfo(name string) *OpInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.opInfoLocked(name)
}

func (c *Context) opInfoLocked(name string) *OpInfo {
	if info, ok := c.infos[name]; ok {
		return info
	}
	d, _ := SplitOpName(name)
	info := &OpInfo{Name: name, Dialect: d, Schema: c.schemas[name], ID: len(c.infoList)}
	c.infos[name] = info
	c.infoList = append(c.infoList, info)
	return info
}

// hasOpInfo reports whether an OpInfo was created for one of the names: whether an op of one of those kinds can
// exist in the Context.
func (c *Context) hasOpInfo(names ...string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, name := range names {
		if _, ok := c.infos[name]; ok {
			return true
		}
	}
	return false
}

// NumOpInfos returns the number of OpInfos created so far; IDs are below it.
func (c *Context) NumOpInfos() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.infoList)
}

// Schema returns the schema of the named op, or nil if it is unregistered.
func (c *Context) Schema(name string) *OpSchema {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.schemas[name]
}

// Dialect returns the registered dialect with the given name, or nil.
func (c *Context) Dialect(name string) *Dialect {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.dialects[name]
}

// Dialects returns the registered dialects sorted by name.
func (c *Context) Dialects() []*Dialect {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*Dialect, 0, len(c.dialects))
	for _, d := range c.dialects {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Schemas returns every registered op schema, sorted by name.
func (c *Context) Schemas() []*OpSchema {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*OpSchema, 0, len(c.schemas))
	for _, s := range c.schemas {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// RegisterDialect adds a dialect and its op schemas. It links inplace counterparts (X_ ↔ X) within the whole
// Context, checks that every schema names a known result-type rule, and fails if the dialect or one of its ops is
// already registered.
func (c *Context) RegisterDialect(d *Dialect) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, dup := c.dialects[d.Name]; dup {
		return fmt.Errorf("dialect %s is already registered", d.Name)
	}
	for _, s := range d.Ops {
		if _, dup := c.schemas[s.Name]; dup {
			return fmt.Errorf("op %s is already registered", s.Name)
		}
		if s.Infer != "" {
			if _, ok := c.infer[s.Infer]; !ok {
				return fmt.Errorf("op %s: unknown result-type rule %q", s.Name, s.Infer)
			}
		}
	}
	c.dialects[d.Name] = d
	for _, s := range d.Ops {
		s.Dialect = d
		for i := range s.Attrs {
			s.Attrs[i].Name = c.AttrName(s.Attrs[i].Name)
		}
		s.buildIndex()
		c.schemas[s.Name] = s
		if info, ok := c.infos[s.Name]; ok {
			info.Schema = s
		}
	}
	// Link counterparts by name across all registered schemas, when their signatures agree (full_ takes an extra
	// buffer operand that full does not, so they are not twins).
	for _, s := range c.schemas {
		if s.Has(Inplace) && s.Counterpart == nil {
			if twin, ok := c.schemas[NonInplaceName(s.Name)]; ok && twin != s && sameSignature(s, twin) {
				s.Counterpart = twin
				twin.Counterpart = s
			}
		}
	}
	return nil
}

// sameSignature reports whether two schemas have the same operands, results and attributes (names, arity,
// optionality and attribute types), as an inplace op and its non-inplace twin must.
func sameSignature(a, b *OpSchema) bool {
	if len(a.Operands) != len(b.Operands) || len(a.Results) != len(b.Results) || len(a.Attrs) != len(b.Attrs) {
		return false
	}
	for i := range a.Operands {
		if a.Operands[i] != b.Operands[i] {
			return false
		}
	}
	for i := range a.Results {
		if a.Results[i] != b.Results[i] {
			return false
		}
	}
	for i := range a.Attrs {
		if a.Attrs[i].Name != b.Attrs[i].Name || a.Attrs[i].Type != b.Attrs[i].Type {
			return false
		}
	}
	return true
}

func (s *OpSchema) buildIndex() {
	s.attrIndex = make(map[string]int, len(s.Attrs))
	for i, a := range s.Attrs {
		s.attrIndex[a.Name] = i
	}
}

// Scalar returns the scalar type of d.
func (c *Context) Scalar(d DType) *ScalarType {
	if d < numDTypes {
		return c.scalars[d]
	}
	return c.scalars[DTypeUndefined]
}

// NullType returns the absent type.
func (c *Context) NullType() *NullType { return c.null }

// Tensor returns the tensor type with the given spelling, dims and element type, and the default layout, no LoD
// and offset 0.
func (c *Context) Tensor(spelling string, dims []int64, elem Type) *TensorType {
	return c.TensorFull(spelling, dims, elem, DefaultLayout, nil, 0)
}

// TensorFull returns the tensor type with every parameter given.
func (c *Context) TensorFull(spelling string, dims []int64, elem Type, layout string, lod [][]uint64, offset uint64) *TensorType {
	t := &TensorType{Spelling: spelling, Dims: dims, Elem: elem, Layout: layout, LoD: lod, Offset: offset}
	return c.internType(t).(*TensorType)
}

// WithSpelling returns t under another tensor spelling (for example its value-tensor twin), keeping every
// other parameter.
func (c *Context) WithSpelling(t *TensorType, spelling string) *TensorType {
	if t.Spelling == spelling {
		return t
	}
	return c.TensorFull(spelling, t.Dims, t.Elem, t.Layout, t.LoD, t.Offset)
}

// WithDims returns t with other dims.
func (c *Context) WithDims(t *TensorType, dims []int64) *TensorType {
	return c.TensorFull(t.Spelling, dims, t.Elem, t.Layout, t.LoD, t.Offset)
}

// WithElem returns t with another element type.
func (c *Context) WithElem(t *TensorType, elem Type) *TensorType {
	return c.TensorFull(t.Spelling, t.Dims, elem, t.Layout, t.LoD, t.Offset)
}

// Vector returns the vector type of the given element types.
func (c *Context) Vector(elems ...Type) *VectorType {
	return c.internType(&VectorType{Elems: elems}).(*VectorType)
}

// SelectedRows returns the selected-rows type with the given parameters.
func (c *Context) SelectedRows(dims []int64, elem Type, layout string, lod [][]uint64, offset uint64) *SelectedRowsType {
	t := &SelectedRowsType{Dims: dims, Elem: elem, Layout: layout, LoD: lod, Offset: offset}
	return c.internType(t).(*SelectedRowsType)
}

// TensorArray returns the tensor-array type with the given parameters.
func (c *Context) TensorArray(elem Type, dims []int64, layout string) *TensorArrayType {
	return c.internType(&TensorArrayType{Elem: elem, Dims: dims, Layout: layout}).(*TensorArrayType)
}

// Opaque returns the opaque type with the given text.
func (c *Context) Opaque(text string) *OpaqueType {
	return c.internType(&OpaqueType{Text: text}).(*OpaqueType)
}

// internType returns the canonical instance of t, copying its slices when t is new so callers may reuse theirs.
func (c *Context) internType(t Type) Type {
	k := t.key()
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.types[k]; ok {
		return old
	}
	switch t := t.(type) {
	case *TensorType:
		t.Dims = cloneInts(t.Dims)
		t.LoD = cloneLoD(t.LoD)
	case *VectorType:
		t.Elems = append([]Type(nil), t.Elems...)
	case *SelectedRowsType:
		t.Dims = cloneInts(t.Dims)
		t.LoD = cloneLoD(t.LoD)
	case *TensorArrayType:
		t.Dims = cloneInts(t.Dims)
	}
	t.head().self = t
	c.types[k] = t
	return t
}

func cloneInts(v []int64) []int64 {
	if v == nil {
		return []int64{}
	}
	return append([]int64(nil), v...)
}

func cloneLoD(l [][]uint64) [][]uint64 {
	if len(l) == 0 {
		return nil
	}
	out := make([][]uint64, len(l))
	for i, x := range l {
		out[i] = append([]uint64(nil), x...)
	}
	return out
}
