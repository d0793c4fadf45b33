package graphnet

import (
	"strings"

	"github.com/pirdrr/drr/ir"
)

// tensorMeta is one class of weight_meta.py or input_meta.py:
//
//	class Program_weight_tensor_parameter_2:
//	    name = "parameter_2"
//	    original_name = "linear_0.w_0"
//	    shape = [768, 768]
//	    dtype = "float32"
//	    min_val = float("-0.0950393")
//	    max_val = float("0.0949818")
//	    mean = float("2.1163e-05")
//	    std = float("0.0199833")
//	    data = None
type tensorMeta struct {
	name         string
	originalName string
	shape        []int64
	dtype        ir.DType
	stats        *ir.TensorStats // nil if no statistic was recorded
	data         []byte          // little-endian elements, nil if data = None
	pos          ir.Loc          // of the class
}

// metaFieldNames are the fields a meta class may set (GraphNet's loader reads these and "device").
var metaFieldNames = [...]string{"name", "original_name", "shape", "dtype", "min_val", "max_val", "mean", "std", "data",
	"device"}

func metaFieldIndex(name string) (int, bool) {
	for i, n := range metaFieldNames {
		if n == name {
			return i, true
		}
	}
	return 0, false
}

// metaValues are the fields set by a meta class.
type metaValues struct {
	v   [len(metaFieldNames)]literal
	set [len(metaFieldNames)]bool
}

func (m *metaValues) get(name string) (literal, bool) {
	i, _ := metaFieldIndex(name)
	return m.v[i], m.set[i]
}

// parseMeta reads a weight_meta.py or input_meta.py file: a sequence of classes, each describing one tensor.
func parseMeta(file string, src []byte) ([]tensorMeta, *Error) {
	return parseMetaFile(file, src, false)
}

// parseMetaClasses reads the classes of a meta file that may hold other statements besides (the input_meta =
// {...} dictionary of samples whose graph_net.json carries the program), which it skips.
func parseMetaClasses(file string, src []byte) ([]tensorMeta, *Error) {
	return parseMetaFile(file, src, true)
}

func parseMetaFile(file string, src []byte, classesOnly bool) ([]tensorMeta, *Error) {
	mem := getArena()
	defer mem.release()
	body, err := parseModule(file, src, mem)
	if err != nil {
		return nil, err
	}
	var out []tensorMeta
	seen := map[string]ir.Loc{}
	for _, s := range body {
		c, ok := s.(*classDef)
		if !ok {
			if _, isImport := s.(*importStmt); isImport || classesOnly {
				continue
			}
			return nil, errorAt(file, s.start(), "expected a class describing a tensor")
		}
		m, err := metaClass(file, c)
		if err != nil {
			return nil, err
		}
		if prev, dup := seen[m.name]; dup {
			return nil, errorAt(file, c.pos, "tensor %s is described twice (first at line %d)", m.name, prev.Line)
		}
		seen[m.name] = c.pos
		out = append(out, m)
	}
	return out, nil
}

func metaClass(file string, c *classDef) (tensorMeta, *Error) {
	m := tensorMeta{pos: c.pos}
	var fields metaValues
	for _, s := range c.body {
		if _, ok := s.(*passStmt); ok {
			continue
		}
		a, ok := s.(*assignStmt)
		if !ok {
			return m, errorAt(file, s.start(), "expected a field assignment (name = value) in class %s", c.name)
		}
		target, ok := a.target.(*nameExpr)
		if !ok {
			return m, errorAt(file, a.target.start(), "expected a field name")
		}
		f, known := metaFieldIndex(target.id)
		if !known {
			return m, errorAt(file, target.pos, "unknown field %s (fields: name, original_name, shape, dtype, min_val, max_val, mean, std, data)", target.id)
		}
		if fields.set[f] {
			return m, errorAt(file, target.pos, "field %s set twice", target.id)
		}
		v, err := evalLiteral(file, a.value)
		if err != nil {
			return m, err
		}
		v.pos = a.value.start()
		fields.v[f], fields.set[f] = v, true
	}
	str := func(name string, required bool) (string, *Error) {
		v, ok := fields.get(name)
		if !ok {
			if required {
				return "", errorAt(file, c.pos, "class %s has no %s", c.name, name)
			}
			return "", nil
		}
		if v.kind != litStr {
			return "", errorAt(file, v.pos, "%s must be a string, not %s", name, v.describe())
		}
		return strings.Clone(v.s), nil // v.s shares the source file's memory
	}
	var err *Error
	if m.name, err = str("name", true); err != nil {
		return m, err
	}
	if m.originalName, err = str("original_name", false); err != nil {
		return m, err
	}
	if _, err = str("device", false); err != nil {
		return m, err
	}
	dt, err := str("dtype", true)
	if err != nil {
		return m, err
	}
	d, ok := ir.DTypeFromDataType(dt)
	if !ok || d == ir.DTypeUndefined {
		v, _ := fields.get("dtype")
		return m, errorAt(file, v.pos, "unknown dtype %q", dt)
	}
	m.dtype = d
	shape, ok := fields.get("shape")
	if !ok {
		return m, errorAt(file, c.pos, "class %s has no shape", c.name)
	}
	if shape.kind != litList {
		return m, errorAt(file, shape.pos, "shape must be a list of ints, not %s", shape.describe())
	}
	m.shape = make([]int64, len(shape.elems))
	for i, e := range shape.elems {
		switch {
		case e.kind == litNone: // an unknown dimension (GraphNet's harness makes it 1)
			m.shape[i] = -1
		case e.kind == litInt && e.i >= -1:
			m.shape[i] = e.i
		default:
			return m, errorAt(file, e.pos, "shape must be a list of dimensions (ints >= -1, or None)")
		}
	}
	var stats ir.TensorStats
	recorded := false
	for _, f := range []struct {
		name string
		bit  ir.StatFields
		dst  *float64
	}{{"min_val", ir.StatMin, &stats.Min}, {"max_val", ir.StatMax, &stats.Max}, {"mean", ir.StatMean, &stats.Mean},
		{"std", ir.StatStd, &stats.Std}} {
		v, ok := fields.get(f.name)
		if !ok {
			stats.Missing |= f.bit
			continue
		}
		switch v.kind {
		case litInt:
			*f.dst = float64(v.i)
		case litFloat:
			*f.dst = v.f
		default:
			return m, errorAt(file, v.pos, "%s must be a number, not %s", f.name, v.describe())
		}
		recorded = true
	}
	if recorded {
		m.stats = &stats
	}
	if v, ok := fields.get("data"); ok && v.kind != litNone {
		if v.kind != litList {
			return m, errorAt(file, v.pos, "data must be None or a list, not %s", v.describe())
		}
		n := int64(1)
		for _, d := range m.shape {
			if d < 0 {
				return m, errorAt(file, v.pos, "data is given for a tensor of dynamic shape")
			}
			n *= d
		}
		if int64(len(v.elems)) != n {
			return m, errorAt(file, v.pos, "data has %d elements; shape %v holds %d", len(v.elems), m.shape, n)
		}
		data, err := encodeData(file, m.dtype, v.elems)
		if err != nil {
			return m, err
		}
		m.data = data
	}
	return m, nil
}
