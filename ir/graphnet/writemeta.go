package graphnet

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// metaFile writes weight_meta.py or input_meta.py: one class per tensor, as GraphNet writes them.
func (w *writer) metaFile(tensors []*inputTensor) []byte {
	var b strings.Builder
	for i, in := range tensors {
		if i > 0 {
			b.WriteString("\n\n")
		}
		w.metaClass(&b, in)
	}
	return []byte(b.String())
}

func (w *writer) metaClass(b *strings.Builder, in *inputTensor) {
	v := in.v
	t, _ := in.op.Result(0).Type().(*ir.TensorType)
	if v != nil {
		if vt, ok := v.Type.(*ir.TensorType); ok {
			t = vt // the sample's concrete shape, for inputs
		}
	}
	b.WriteString("class Program_weight_tensor_" + in.name + ":\n")
	field := func(name, value string) {
		b.WriteString("    " + name + " = " + value + "\n")
	}
	field("name", pyString(in.name))
	if v != nil && v.OriginalName != "" {
		field("original_name", pyString(v.OriginalName))
	}
	var dt ir.DType
	if t != nil {
		dims := make([]pyItem, len(t.Dims))
		for i, d := range t.Dims {
			if d < 0 {
				dims[i] = atom("None") // GraphNet's harness gives unknown dims size 1
			} else {
				dims[i] = atom(strconv.FormatInt(d, 10))
			}
		}
		b.WriteString("    shape = ")
		list(dims...).layout(b, 4, "    shape = ", "\n")
		dt = t.DType()
	} else {
		field("shape", "[]")
	}
	field("dtype", pyString(pythonDTypes[dt]))
	isInt := dt.IsInteger() || dt == ir.DTypeBool
	if v != nil && v.Stats != nil {
		s := v.Stats
		for _, f := range []struct {
			name string
			bit  ir.StatFields
			val  float64
		}{{"min_val", ir.StatMin, s.Min}, {"max_val", ir.StatMax, s.Max}, {"mean", ir.StatMean, s.Mean},
			{"std", ir.StatStd, s.Std}} {
			if !s.Has(f.bit) {
				continue
			}
			if isInt && f.val == math.Trunc(f.val) && math.Abs(f.val) < 1<<53 {
				field(f.name, strconv.FormatInt(int64(f.val), 10))
			} else {
				// GraphNet rounds statistics to six digits and writes Python's repr of the result.
				text := floatText(f.val, 64)
				if !math.IsNaN(f.val) && !math.IsInf(f.val, 0) {
					text = pyRepr(f.val, 64)
				}
				field(f.name, `float("`+text+`")`)
			}
		}
	}
	if v == nil || v.Data == nil {
		field("data", "None")
		return
	}
	items := dataItems(dt, v.Data)
	if items == nil {
		field("data", "None")
		return
	}
	b.WriteString("    data = ")
	list(items...).layout(b, 4, "    data = ", "\n")
}

// dataItems decodes little-endian data of dtype d into Python literals, or returns nil if d has no encoding.
func dataItems(d ir.DType, data []byte) []pyItem {
	size := dtypeSize(d)
	if size == 0 || len(data)%size != 0 {
		return nil
	}
	n := len(data) / size
	items := make([]pyItem, n)
	for i := range items {
		e := data[i*size:]
		var s string
		switch d {
		case ir.DTypeFloat32:
			s = pyFloat(float64(math.Float32frombits(binary.LittleEndian.Uint32(e))), 32)
		case ir.DTypeFloat64:
			s = pyFloat(math.Float64frombits(binary.LittleEndian.Uint64(e)), 64)
		case ir.DTypeFloat16:
			s = pyFloat(float64(float16Value(binary.LittleEndian.Uint16(e))), 32)
		case ir.DTypeBFloat16:
			s = pyFloat(float64(bfloat16Value(binary.LittleEndian.Uint16(e))), 32)
		case ir.DTypeBool:
			s = "False"
			if e[0] != 0 {
				s = "True"
			}
		case ir.DTypeUint8:
			s = strconv.FormatUint(uint64(e[0]), 10)
		case ir.DTypeInt8:
			s = strconv.FormatInt(int64(int8(e[0])), 10)
		case ir.DTypeUint16:
			s = strconv.FormatUint(uint64(binary.LittleEndian.Uint16(e)), 10)
		case ir.DTypeInt16:
			s = strconv.FormatInt(int64(int16(binary.LittleEndian.Uint16(e))), 10)
		case ir.DTypeUint32:
			s = strconv.FormatUint(uint64(binary.LittleEndian.Uint32(e)), 10)
		case ir.DTypeInt32:
			s = strconv.FormatInt(int64(int32(binary.LittleEndian.Uint32(e))), 10)
		case ir.DTypeUint64:
			s = strconv.FormatUint(binary.LittleEndian.Uint64(e), 10)
		case ir.DTypeInt64:
			s = strconv.FormatInt(int64(binary.LittleEndian.Uint64(e)), 10)
		default:
			return nil
		}
		items[i] = atom(s)
	}
	return items
}
