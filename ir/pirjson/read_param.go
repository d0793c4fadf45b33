package pirjson

import (
	"github.com/pirdrr/drr/ir"
)

// The parameter op "p" is builtin.parameter compressed: "A" = [is_distributed, is_parameter, need_clip,
// parameter_name] and "OA" = [persistable, stop_gradient, trainable], the flags written as 0/1 and standing for
// one-element bool arrays; "DA" and "QA" hold its dist attributes (op_dist_attr, op_role) and quant attribute
// (struct_name) as attribute entries.

// Names of the parameter op's attributes, in the order they are read.
const (
	attrIsDistributed = "is_distributed"
	attrIsParameter   = "is_parameter"
	attrNeedClip      = "need_clip"
	attrParamName     = "parameter_name"
	attrTrainable     = "trainable"
)

var paramFlagNames = [3]string{attrIsDistributed, attrIsParameter, attrNeedClip}
var paramOAFlagNames = [3]string{attrPersistable, attrStopGradient, attrTrainable}

// Defaults Paddle's writer uses for absent flags (OPTIONAL_CHECK in ir_serialize.cc).
var paramFlagDefaults = [3]bool{false, true, false}
var paramOADefaults = [3]bool{true, true, true}

// paramA reads A = [is_distributed, is_parameter, need_clip, parameter_name].
func (r *reader) paramA(st *opState) error {
	s := &r.s
	s.ws()
	arrOff := s.pos
	n := 0
	err := s.array(func(i int) error {
		n++
		switch i {
		case 0, 1, 2:
			f, err := r.flag()
			st.flags[i] = f
			return err
		case 3:
			b, err := s.str()
			if err == nil {
				st.pname = r.ctx.StrBytes(b) // copied into the string table only if new
			}
			return err
		}
		return s.errAt(s.pos, "too many elements in a parameter op's A; want [is_distributed, is_parameter, need_clip, parameter_name]")
	})
	if err != nil {
		return err
	}
	if n != 4 {
		return s.errAt(arrOff, "a parameter op's A has 4 elements [is_distributed, is_parameter, need_clip, parameter_name], got %d", n)
	}
	return nil
}

// paramOA reads OA = [persistable, stop_gradient, trainable].
func (r *reader) paramOA(st *opState) error {
	s := &r.s
	s.ws()
	arrOff := s.pos
	n := 0
	err := s.array(func(i int) error {
		n++
		if i > 2 {
			return s.errAt(s.pos, "too many elements in a parameter op's OA; want [persistable, stop_gradient, trainable]")
		}
		f, err := r.flag()
		st.oaFlags[i] = f
		return err
	})
	if err != nil {
		return err
	}
	if n != 3 {
		return s.errAt(arrOff, "a parameter op's OA has 3 elements [persistable, stop_gradient, trainable], got %d", n)
	}
	return nil
}

// flag reads a parameter flag: an integer (nonzero is true) or a boolean.
func (r *reader) flag() (bool, error) {
	s := &r.s
	switch s.ws() {
	case 't', 'f':
		return s.boolean()
	}
	v, err := s.integer(-1<<63, 1<<63-1)
	return v != 0, err
}

// boolArray returns the one-element bool array [v].
func (r *reader) boolArray(v bool) ir.Attribute {
	if r.bools[0] == nil {
		r.bools[0] = r.ctx.Bools(false)
		r.bools[1] = r.ctx.Bools(true)
	}
	if v {
		return r.bools[1]
	}
	return r.bools[0]
}

// paramAttrs builds the attributes of a parameter op in r.all: the A flags and name, the DA and QA attributes,
// the OA flags (if the op has OA), and omitAttr listing DA/QA if the op had none.
func (r *reader) paramAttrs(st *opState) error {
	var fixed [8]attrRec
	n := 0
	for i, name := range paramFlagNames {
		fixed[n] = attrRec{ir.NamedAttr{Name: name, Value: r.boolArray(st.flags[i])}, st.off[kA]}
		n++
	}
	pname := st.pname
	if pname == nil {
		pname = r.ctx.Str("")
	}
	fixed[n] = attrRec{ir.NamedAttr{Name: attrParamName, Value: pname}, st.off[kA]}
	n++
	var tail [4]attrRec
	m := 0
	if st.has(kOA) {
		for i, name := range paramOAFlagNames {
			tail[m] = attrRec{ir.NamedAttr{Name: name, Value: r.boolArray(st.oaFlags[i])}, st.off[kOA]}
			m++
		}
	}
	var omitted []ir.Attribute
	if !st.has(kDA) {
		omitted = append(omitted, r.ctx.Str("DA"))
	}
	if !st.has(kQA) {
		omitted = append(omitted, r.ctx.Str("QA"))
	}
	if omitted != nil {
		tail[m] = attrRec{ir.NamedAttr{Name: omitAttr, Value: r.ctx.Array(omitted...)}, st.off[kName]}
		m++
	}
	return r.collectAttrs(fixed[:n], r.attrsDA, r.attrsQA, tail[:m])
}
