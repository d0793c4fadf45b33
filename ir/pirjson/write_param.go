package pirjson

import (
	"fmt"
	"strconv"

	"github.com/pirdrr/drr/ir"
)

// paramFits reports whether a builtin.parameter op can be written as "p": no operands or regions, one result, and
// only the attributes "p" carries, in their shapes (one-element bool arrays for the flags, a string name). Other
// parameter ops are written as ordinary ops named "0.parameter", which loses nothing. Without Program.Trainable
// the "OA" flags are not written in either form, so their shapes do not matter.
func (w *writer) paramFits(op *ir.Op) bool {
	if op.NumOperands() != 0 || op.NumResults() != 1 || op.NumRegions() != 0 {
		return false
	}
	hasName := false
	for _, a := range op.Attrs() {
		switch a.Name {
		case attrIsDistributed, attrIsParameter, attrNeedClip, attrTrainable:
			if _, ok := oneBool(a.Value); !ok {
				return false
			}
		case attrPersistable, attrStopGradient:
			if _, ok := oneBool(a.Value); !ok && w.trainable {
				return false
			}
		case attrParamName:
			if _, ok := a.Value.(*ir.StrAttr); !ok {
				return false
			}
			hasName = true
		case omitAttr:
			if _, ok := omitted(a.Value); !ok {
				return false
			}
		case attrOpCallstack, attrOpDistAttr, attrOpRole, attrStructName:
		default:
			return false
		}
	}
	return hasName
}

// oneBool returns the value of a one-element bool array.
func oneBool(a ir.Attribute) (bool, bool) {
	arr, ok := a.(*ir.ArrayAttr)
	if !ok || len(arr.Elems) != 1 {
		return false, false
	}
	return ir.AsBool(arr.Elems[0])
}

// omitted decodes an omitAttr value: which of "DA" and "QA" the parameter op's file did not have.
func omitted(a ir.Attribute) (da, qa bool) {
	arr, ok := a.(*ir.ArrayAttr)
	if !ok || len(arr.Elems) == 0 || len(arr.Elems) > 2 {
		return false, false
	}
	for _, e := range arr.Elems {
		s, ok := e.(*ir.StrAttr)
		switch {
		case !ok:
			return false, false
		case s.Value == "DA" && !da:
			da = true
		case s.Value == "QA" && !qa:
			qa = true
		default:
			return false, false
		}
	}
	if arr.Elems[0].(*ir.StrAttr).Value == "QA" && da { // canonical order is DA, QA
		return false, false
	}
	return da, qa
}

// param writes a builtin.parameter op as "p".
func (w *writer) param(op *ir.Op) error {
	flag := func(name string, def bool) {
		v := def
		if a := op.Attr(name); a != nil {
			v, _ = oneBool(a)
		}
		if v {
			w.buf = append(w.buf, '1')
		} else {
			w.buf = append(w.buf, '0')
		}
	}
	w.buf = append(w.buf, `{"#":"p","A":[`...)
	for i, name := range paramFlagNames {
		flag(name, paramFlagDefaults[i])
		w.buf = append(w.buf, ',')
	}
	w.buf = appendString(w.buf, op.Attr(attrParamName).(*ir.StrAttr).Value)
	w.buf = append(w.buf, ']')
	omitDA, omitQA := false, false
	if a := op.Attr(omitAttr); a != nil {
		omitDA, omitQA = omitted(a)
	}
	if err := w.paramGroup(op, "DA", omitDA, attrOpDistAttr, attrOpRole); err != nil {
		return err
	}
	w.buf = append(w.buf, `,"O":`...)
	w.setOpID(op, w.nextID)
	if err := w.result(op.Result(0).Type()); err != nil {
		return fmt.Errorf("pirjson: %s: result 0: %w", op.Name(), err)
	}
	if w.trainable {
		w.buf = append(w.buf, `,"OA":[`...)
		for i, name := range paramOAFlagNames {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			flag(name, paramOADefaults[i])
		}
		w.buf = append(w.buf, ']')
	}
	if err := w.paramGroup(op, "QA", omitQA, attrStructName); err != nil {
		return err
	}
	w.buf = append(w.buf, '}')
	return nil
}

// paramGroup writes the "DA" or "QA" of a parameter op: its attributes of the given names, in that order; the key
// is left out when the op's file had none and the group is empty.
func (w *writer) paramGroup(op *ir.Op, key string, omit bool, names ...string) error {
	n := 0
	for _, name := range names {
		if op.Attr(name) != nil {
			n++
		}
	}
	if n == 0 && omit {
		return nil
	}
	w.buf = append(w.buf, ',')
	w.buf = strconv.AppendQuote(w.buf, key)
	w.buf = append(w.buf, ":["...)
	n = 0
	for _, name := range names {
		if a := op.Attr(name); a != nil {
			if n > 0 {
				w.buf = append(w.buf, ',')
			}
			n++
			if err := w.attrEntry(name, a); err != nil {
				return fmt.Errorf("pirjson: %s: %w", op.Name(), err)
			}
		}
	}
	w.buf = append(w.buf, ']')
	return nil
}
