package pirjson

import (
	"fmt"

	"github.com/pirdrr/drr/ir"
)

// Versions of the PIR JSON format ("version" in "base_code", Paddle's pir_version). A file of version v was
// written by a Paddle whose ops had the attribute kinds of that version; Paddle upgrades older files on load with
// the patches of paddle/fluid/pir/serialize_deserialize/patch/<n>.yaml. This package reads every version from
// MinVersion to MaxVersion as written (it never changes kinds on read) and applies the patches when asked to
// write a newer version than the program's (WriteOptions.Version).
const (
	MinVersion = 1
	MaxVersion = 4
)

// patchKind is what one patch action does.
type patchKind uint8

const (
	// modifyAttr changes the kind of an attribute (or of every element of an array attribute), keeping its value.
	modifyAttr patchKind = iota
	// addAttr adds an attribute with a default value when the op does not have it.
	addAttr
	// addOutput adds a result of a given type at a given index when the op has exactly that many results.
	addOutput
)

// patchAction is one action of a version patch, as data.
type patchAction struct {
	kind  patchKind
	attr  string      // modifyAttr, addAttr: the attribute name
	to    ir.AttrKind // modifyAttr: the new kind (of the elements, for arrays)
	array bool        // modifyAttr: the attribute is an array whose elements change kind
	// def builds the default value of addAttr.
	def func(*ir.Context) ir.Attribute
	// index and typ describe the result of addOutput.
	index int
	typ   func(*ir.Context) ir.Type
}

// opPatch is the list of actions one version applies to one op.
type opPatch struct {
	op      string
	actions []patchAction
}

func modify(attr string, to ir.AttrKind) patchAction {
	return patchAction{kind: modifyAttr, attr: attr, to: to}
}

func modifyElems(attr string, to ir.AttrKind) patchAction {
	return patchAction{kind: modifyAttr, attr: attr, to: to, array: true}
}

func add(attr string, def func(*ir.Context) ir.Attribute) patchAction {
	return patchAction{kind: addAttr, attr: attr, def: def}
}

func i64(v int64) func(*ir.Context) ir.Attribute {
	return func(c *ir.Context) ir.Attribute { return c.Int64(v) }
}

func i32(v int32) func(*ir.Context) ir.Attribute {
	return func(c *ir.Context) ir.Attribute { return c.Int32(v) }
}

func boolean(v bool) func(*ir.Context) ir.Attribute {
	return func(c *ir.Context) ir.Attribute { return c.Bool(v) }
}

// patches holds, per version, what upgrading a program of the previous version to it changes: Paddle's
// patch/2.yaml, 3.yaml and 4.yaml (the op_patches; they have no type, attr or op-pair patches), the union of the
// stored versions read (paddle/fluid/pir/serialize_deserialize/patch/ at d43b7730 and 04fac4f2 for 2 and 3,
// 0370ca91 and 786354ea for 4, which adds p_norm_grad; 0.yaml, the develop patch, at b34bd599 and 1f92a46c holds
// what 2.yaml and 4.yaml released; patch.yaml is the test patch of Paddle's own serialization tests, not shipped).
var patches = map[int][]opPatch{
	2: {
		{"pd_op.lp_pool2d", []patchAction{modifyElems("strides", ir.KindInt64), modifyElems("paddings", ir.KindInt64)}},
		{"pd_op.pool2d", []patchAction{modifyElems("strides", ir.KindInt64), modifyElems("paddings", ir.KindInt64)}},
		{"pd_op.pool3d", []patchAction{modifyElems("kernel_size", ir.KindInt64), modifyElems("strides", ir.KindInt64),
			modifyElems("paddings", ir.KindInt64)}},
		{"pd_op.expand_as", []patchAction{modifyElems("target_shape", ir.KindInt64)}},
		{"pd_op.slogdet", []patchAction{{kind: addOutput, index: 1, typ: func(c *ir.Context) ir.Type {
			return c.Tensor(ir.DenseTensor, []int64{-1}, c.Scalar(ir.DTypeFloat32))
		}}}},
	},
	3: {
		{"pd_op.kthvalue", []patchAction{modify("k", ir.KindInt64)}},
		{"pd_op.repeat_interleave", []patchAction{add("output_size", i64(-1))}},
		{"pd_op.repeat_interleave_with_tensor_index", []patchAction{add("output_size", i64(-1))}},
	},
	4: {
		{"pd_op.leaky_relu", []patchAction{modify("negative_slope", ir.KindDouble)}},
		{"pd_op.softplus", []patchAction{modify("beta", ir.KindDouble), modify("threshold", ir.KindDouble)}},
		{"onednn_op.fused_softplus", []patchAction{modify("beta", ir.KindDouble), modify("threshold", ir.KindDouble),
			modify("fuse_alpha", ir.KindDouble), modify("fuse_beta", ir.KindDouble)}},
		{"pd_op.logit", []patchAction{modify("eps", ir.KindDouble)}},
		{"pd_op.pad3d", []patchAction{modify("pad_value", ir.KindDouble)}},
		{"pd_op.group_norm", []patchAction{modify("epsilon", ir.KindDouble)}},
		{"pd_op.add_group_norm_silu", []patchAction{modify("epsilon", ir.KindDouble)}},
		{"pd_op.group_norm_silu_xpu", []patchAction{modify("epsilon", ir.KindDouble)}},
		{"pd_op.top_p_sampling", []patchAction{modify("seed", ir.KindInt64)}},
		{"pd_op.bicubic_interp", []patchAction{modifyElems("scale", ir.KindDouble)}},
		{"pd_op.nearest_interp", []patchAction{modifyElems("scale", ir.KindDouble)}},
		{"pd_op.linear_interp", []patchAction{modifyElems("scale", ir.KindDouble)}},
		{"pd_op.bilinear_interp", []patchAction{modifyElems("scale", ir.KindDouble)}},
		{"pd_op.trilinear_interp", []patchAction{modifyElems("scale", ir.KindDouble)}},
		{"pd_op.moe_permute", []patchAction{add("using_ue8m0_scale", boolean(false)),
			add("return_expert_indices", boolean(false)), add("override_buffer_size", i32(-1))}},
		{"pd_op.moe_unpermute", []patchAction{add("using_ue8m0_scale", boolean(false)),
			add("using_weighted_combine", boolean(false))}},
		{"pd_op.p_norm", []patchAction{modify("porder", ir.KindDouble)}},
		{"pd_op.p_norm_grad", []patchAction{modify("porder", ir.KindDouble)}},
	},
}

// PatchedKind returns the kind the attribute attr of the op named op has in PIR JSON version v, when its kind in
// version 1 — the catalog's — is k: the kind the last patch up to v gives it (of its elements, for an array), else k.
// A program written as version v (Marshal) has these kinds. A patch of an op applies to its inplace form too (see
// patchedOp).
func PatchedKind(op, attr string, k ir.AttrKind, v int) ir.AttrKind {
	for ver := MinVersion + 1; ver <= v && ver <= MaxVersion; ver++ {
		for _, p := range patches[ver] {
			if !patchedOp(p.op, op) {
				continue
			}
			for _, a := range p.actions {
				if a.kind == modifyAttr && a.attr == attr {
					k = a.to
				}
			}
		}
	}
	return k
}

// upgrade is the merged list of patch actions per op name for upgrading from one version to a later one.
type upgrade map[string][]patchAction

// newUpgrade merges the patches of versions from+1 … to, in version order; it returns nil when there is nothing
// to do.
func newUpgrade(from, to int) upgrade {
	if to <= from {
		return nil
	}
	u := upgrade{}
	for v := from + 1; v <= to; v++ {
		for _, p := range patches[v] {
			u[p.op] = append(u[p.op], p.actions...)
			u[p.op+"_"] = append(u[p.op+"_"], p.actions...) // its inplace form, if it has one (patchedOp)
		}
	}
	return u
}

// patchedOp reports whether a patch of the op named patched applies to the op named op: op itself, or its inplace
// form (a trailing _). Paddle generates an op and its inplace form from one entry of its op yaml, with one attribute
// list: when a patch changes leaky_relu.negative_slope to a double, leaky_relu_ has a double too in that version.
func patchedOp(patched, op string) bool { return op == patched || op == patched+"_" }

// versionError is the error for a version this build does not know.
func versionError(v int64) string {
	return fmt.Sprintf("unsupported PIR JSON version %d (this build reads %d…%d)", v, MinVersion, MaxVersion)
}

// convertKind converts a to kind `to` keeping its value, when a is a number of another kind; other attributes are
// returned unchanged.
func convertKind(c *ir.Context, a ir.Attribute, to ir.AttrKind) ir.Attribute {
	if a == nil || a.Kind() == to {
		return a
	}
	switch to {
	case ir.KindDouble:
		if f, ok := a.(*ir.FloatAttr); ok {
			return c.Double(float64(f.Value))
		}
		if v, ok := ir.AsInt(a); ok {
			return c.Double(float64(v))
		}
	case ir.KindFloat:
		if v, ok := ir.AsFloat(a); ok {
			return c.Float(float32(v))
		}
	case ir.KindInt64:
		if v, ok := ir.AsInt(a); ok {
			return c.Int64(v)
		}
	case ir.KindInt32:
		if v, ok := ir.AsInt(a); ok && v == int64(int32(v)) {
			return c.Int32(int32(v))
		}
	}
	return a
}

// applyAttrPatches returns attrs (in write order) with the attribute actions of acts applied: kinds converted,
// and missing attributes added before the trailing op_dist_attr/op_role/struct_name group. attrs is not modified.
func applyAttrPatches(c *ir.Context, attrs []ir.NamedAttr, acts []patchAction) []ir.NamedAttr {
	out := append([]ir.NamedAttr(nil), attrs...)
	for _, act := range acts {
		switch act.kind {
		case modifyAttr:
			for i := range out {
				if out[i].Name != act.attr {
					continue
				}
				if act.array {
					if arr, ok := out[i].Value.(*ir.ArrayAttr); ok {
						var elems []ir.Attribute // made when an element changes: an array of the new kind stays as it is
						for j, e := range arr.Elems {
							if ce := convertKind(c, e, act.to); ce != e || elems != nil {
								if elems == nil {
									elems = append(make([]ir.Attribute, 0, len(arr.Elems)), arr.Elems[:j]...)
								}
								elems = append(elems, ce)
							}
						}
						if elems != nil {
							out[i].Value = c.Array(elems...)
						}
					}
				} else {
					out[i].Value = convertKind(c, out[i].Value, act.to)
				}
			}
		case addAttr:
			present := false
			for i := range out {
				if out[i].Name == act.attr {
					present = true
					break
				}
			}
			if present {
				continue
			}
			at := len(out)
			for i := range out {
				if trailingAttrRank(out[i].Name) >= 0 {
					at = i
					break
				}
			}
			out = append(out, ir.NamedAttr{})
			copy(out[at+1:], out[at:])
			out[at] = ir.NamedAttr{Name: act.attr, Value: act.def(c)}
		}
	}
	return out
}
