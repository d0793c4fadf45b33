package ir

import "unsafe"

// Attribute constructors. Each returns the Context's canonical instance, so equal attributes are the same pointer.

// Bool returns the bool attribute v.
func (c *Context) Bool(v bool) *BoolAttr {
	if v {
		return c.boolT
	}
	return c.boolF
}

// Int32 returns the Int32 attribute v.
func (c *Context) Int32(v int32) *Int32Attr { return c.internAttr(&Int32Attr{Value: v}).(*Int32Attr) }

// Int64 returns the Int64 attribute v.
func (c *Context) Int64(v int64) *Int64Attr { return c.internAttr(&Int64Attr{Value: v}).(*Int64Attr) }

// Index returns the Index attribute v.
func (c *Context) Index(v int64) *IndexAttr { return c.internAttr(&IndexAttr{Value: v}).(*IndexAttr) }

// Float returns the Float (f32) attribute v.
func (c *Context) Float(v float32) *FloatAttr { return c.internAttr(&FloatAttr{Value: v}).(*FloatAttr) }

// Double returns the Double (f64) attribute v.
func (c *Context) Double(v float64) *DoubleAttr {
	return c.internAttr(&DoubleAttr{Value: v}).(*DoubleAttr)
}

// Str returns the string attribute v.
//
// String attributes are interned by value in a table of their own (strTable): programs have one per parameter
// name, so the general table's quoted keys would cost a copy of every name, and a quoting per lookup.
func (c *Context) Str(v string) *StrAttr {
	c.strMu.Lock()
	defer c.strMu.Unlock()
	return c.strs.intern(v, nil)
}

// StrBytes returns the string attribute of the bytes b, as Str(string(b)) does, copying b only if the string is
// new: for readers, whose source holds the string.
func (c *Context) StrBytes(b []byte) *StrAttr {
	c.strMu.Lock()
	a := c.strs.intern(unsafe.String(unsafe.SliceData(b), len(b)), b)
	c.strMu.Unlock()
	return a
}

// AttrName returns the Context's copy of the attribute name name: the one string that the readers, the schemas and
// the compiled matchers of the Context store for it, so that Op.Attr finds it by its data pointer (see Op.Attr).
// Names are few (hundreds), so the table stays small; it is never emptied.
func (c *Context) AttrName(name string) string {
	c.strMu.Lock()
	defer c.strMu.Unlock()
	return c.names.intern(name, unsafe.Slice(unsafe.StringData(name), len(name))).Value
}

// AttrNameBytes returns AttrName(string(b)), copying b only if the name is new: for readers, whose source holds the
// name.
func (c *Context) AttrNameBytes(b []byte) string {
	c.strMu.Lock()
	defer c.strMu.Unlock()
	return c.names.intern(unsafe.String(unsafe.SliceData(b), len(b)), b).Value
}

// Array returns the array attribute of the given elements.
func (c *Context) Array(elems ...Attribute) *ArrayAttr {
	return c.internAttr(&ArrayAttr{Elems: elems}).(*ArrayAttr)
}

// TypeAttr returns the attribute holding type t.
func (c *Context) TypeAttr(t Type) *TypeAttr { return c.internAttr(&TypeAttr{Type: t}).(*TypeAttr) }

// Pointer returns the pointer attribute with the given text (0x7f…).
func (c *Context) Pointer(text string) *PointerAttr {
	return c.internAttr(&PointerAttr{Text: text}).(*PointerAttr)
}

// Complex returns the complex attribute of 64 or 128 bits.
func (c *Context) Complex(bits int, re, im float64) *ComplexAttr {
	if bits == 64 {
		re, im = float64(float32(re)), float64(float32(im))
	}
	return c.internAttr(&ComplexAttr{Bits: bits, Real: re, Im: im}).(*ComplexAttr)
}

// IntArray returns the pd_op.IntArray attribute v.
func (c *Context) IntArray(v []int64) *IntArrayAttr {
	return c.internAttr(&IntArrayAttr{Values: v}).(*IntArrayAttr)
}

// DataType returns the pd_op.DataType attribute d.
func (c *Context) DataType(d DType) *DataTypeAttr {
	return c.internAttr(&DataTypeAttr{DType: d}).(*DataTypeAttr)
}

// Place returns the pd_op.Place attribute p.
func (c *Context) Place(p Place) *PlaceAttr { return c.internAttr(&PlaceAttr{Place: p}).(*PlaceAttr) }

// DataLayout returns the pd_op.DataLayout attribute l.
func (c *Context) DataLayout(l string) *DataLayoutAttr {
	return c.internAttr(&DataLayoutAttr{Layout: l}).(*DataLayoutAttr)
}

// ScalarAttr returns the pd_op.Scalar attribute holding v with data type d.
func (c *Context) ScalarAttr(d DType, v Attribute) *ScalarAttr {
	return c.internAttr(&ScalarAttr{DType: d, Value: v}).(*ScalarAttr)
}

// TensorName returns the TensorName attribute n.
func (c *Context) TensorName(n string) *TensorNameAttr {
	return c.internAttr(&TensorNameAttr{Name: n}).(*TensorNameAttr)
}

// OpaqueAttr returns the opaque attribute with the given text.
func (c *Context) OpaqueAttr(text string) *OpaqueAttr {
	return c.internAttr(&OpaqueAttr{Text: text}).(*OpaqueAttr)
}

// NullAttr returns the absent attribute.
func (c *Context) NullAttr() *NullAttr { return c.nullA }

// Int32s returns an array of Int32 attributes (the i32[] kind).
func (c *Context) Int32s(v ...int64) *ArrayAttr {
	elems := make([]Attribute, len(v))
	for i, x := range v {
		elems[i] = c.Int32(int32(x))
	}
	return c.Array(elems...)
}

// Int64s returns an array of Int64 attributes (the i64[] kind).
func (c *Context) Int64s(v ...int64) *ArrayAttr {
	elems := make([]Attribute, len(v))
	for i, x := range v {
		elems[i] = c.Int64(x)
	}
	return c.Array(elems...)
}

// Bools returns an array of Bool attributes (the shape of stop_gradient and persistable).
func (c *Context) Bools(v ...bool) *ArrayAttr {
	elems := make([]Attribute, len(v))
	for i, x := range v {
		elems[i] = c.Bool(x)
	}
	return c.Array(elems...)
}

func (c *Context) internAttr(a Attribute) Attribute {
	k := a.key()
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.attrs[k]; ok {
		return old
	}
	switch a := a.(type) {
	case *ArrayAttr:
		a.Elems = append([]Attribute{}, a.Elems...)
	case *IntArrayAttr:
		a.Values = append([]int64{}, a.Values...)
	}
	c.attrs[k] = a
	return a
}
