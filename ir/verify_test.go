package ir

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// verifyCase builds a small program with the helpers of vb and lists Verify's messages.
type vb struct {
	*fixture
	b *Builder
}

func (v *vb) at(blk *Block) *vb {
	b := NewBuilder(v.c)
	b.SetInsertionPointToEnd(blk)
	return &vb{fixture: v.fixture, b: b}
}

func (v *vb) mk(name string, results int, operands ...*Value) *Op {
	ts := make([]Type, results)
	for i := range ts {
		ts[i] = v.f32t
	}
	return v.b.Create(OpSpec{Name: name, Operands: operands, Results: ts})
}

func (v *vb) region(op *Op, i int) *vb {
	return v.at(op.Region(i).AddBlock())
}

func TestVerify(t *testing.T) {
	tests := []struct {
		name  string
		build func(v *vb)
		want  []string
	}{
		{"ok", func(v *vb) {
			x := v.mk("x.src", 1)
			v.mk("t.relu", 1, x.Result(0))
		}, nil},
		{"use before definition", func(v *vb) {
			x := v.mk("x.src", 1)
			v.b.SetInsertionPointBefore(x)
			v.mk("t.relu", 1, x.Result(0))
		}, []string{"error: %0 = t.relu: operand 0 (%1) is used before its definition"}},
		{"value escapes its region", func(v *vb) {
			c := v.mk("x.src", 1)
			ifOp := v.b.Create(OpSpec{Name: "pd_op.if", Operands: []*Value{c.Result(0)}, Results: []Type{v.f32t}, Regions: 2})
			then := v.region(ifOp, 0)
			inner := then.mk("x.src", 1)
			then.mk("cf.yield", 0, inner.Result(0))
			els := v.region(ifOp, 1)
			els.mk("cf.yield", 0, c.Result(0))
			v.mk("t.relu", 1, inner.Result(0))
		}, []string{"error: %3 = t.relu: operand 0 (%2) is defined in a region that does not enclose this op"}},
		{"use inside the defining op", func(v *vb) {
			c := v.mk("x.src", 1)
			ifOp := v.b.Create(OpSpec{Name: "pd_op.if", Operands: []*Value{c.Result(0)}, Results: []Type{v.f32t}, Regions: 2})
			v.region(ifOp, 0).mk("cf.yield", 0, ifOp.Result(0))
			v.region(ifOp, 1).mk("cf.yield", 0, c.Result(0))
		}, []string{"error: cf.yield: operand 0 (%1) is used inside the region of the op that defines it"}},
		{"block argument outside its block", func(v *vb) {
			c := v.mk("x.src", 1)
			init := v.mk("x.src", 1)
			w := v.b.Create(OpSpec{Name: "pd_op.while", Operands: []*Value{c.Result(0), init.Result(0)}, Results: []Type{v.f32t}, Regions: 1})
			body := w.Region(0).AddBlock()
			arg := body.AddArg(v.f32t)
			bb := v.at(body)
			nc := bb.mk("x.src", 1, arg)
			bb.mk("cf.yield", 0, nc.Result(0), arg)
			v.mk("t.relu", 1, arg)
		}, []string{"error: %4 = t.relu: operand 0 (%arg_0) is an argument of a block that does not enclose this op"}},
		{"if branch without yield", func(v *vb) {
			c := v.mk("x.src", 1)
			ifOp := v.b.Create(OpSpec{Name: "pd_op.if", Operands: []*Value{c.Result(0)}, Results: []Type{v.f32t}, Regions: 2})
			v.region(ifOp, 0).mk("x.src", 1)
			v.region(ifOp, 1).mk("cf.yield", 0)
		}, []string{
			"error: %1 = pd_op.if: branch 0 does not end with cf.yield",
			"error: cf.yield: yields 0 values; branch 1 of pd_op.if must yield 1",
		}},
		{"while arity", func(v *vb) {
			c := v.mk("x.src", 1)
			w := v.b.Create(OpSpec{Name: "pd_op.while", Operands: []*Value{c.Result(0), c.Result(0)}, Results: []Type{v.f32t, v.f32t}, Regions: 1})
			body := w.Region(0).AddBlock()
			v.at(body).mk("cf.yield", 0, c.Result(0))
		}, []string{
			"error: (%1, %2) = pd_op.while: body has 0 arguments for 1 loop-carried values",
			"error: (%1, %2) = pd_op.while: has 2 results for 1 loop-carried values",
			"error: cf.yield: yields 1 values; body of pd_op.while must yield 2",
		}},
		{"terminator misplaced", func(v *vb) {
			v.mk("cf.yield", 0)
			v.mk("x.src", 1)
		}, []string{
			"error: cf.yield: terminator is not the last op of its block",
			"error: cf.yield: terminator outside a region",
		}},
		{"schema counts", func(v *vb) {
			x := v.mk("x.src", 1)
			v.mk("t.add", 1, x.Result(0))
			v.mk("t.relu", 2, x.Result(0))
			v.b.Create(OpSpec{Name: "t.relu", Operands: []*Value{x.Result(0)}, Results: []Type{v.f32t}, Regions: 1})
			v.mk("t.add", 1, x.Result(0), nil)
		}, []string{
			"error: %1 = t.add: has 1 operands; t.add takes 2 operands",
			"error: (%2, %3) = t.relu: has 2 results; t.relu has 1 result",
			"error: %4 = t.relu: has 1 regions; t.relu has 0",
			"error: %5 = t.add: operand 1 (y) is absent but not optional",
		}},
		{"attributes", func(v *vb) {
			x := v.mk("x.src", 1)
			v.b.Create(OpSpec{Name: "t.bn", Operands: []*Value{x.Result(0), x.Result(0), x.Result(0), nil, nil}, Results: []Type{v.f32t, v.f32t, v.f32t, v.f32t, v.f32t},
				Attrs: []NamedAttr{{"momentum", v.c.Double(0.9)}, {"shape", v.c.Int64s(1)}, {"extra", v.c.Int32(1)}}})
			v.b.Create(OpSpec{Name: "t.conv2d", Operands: []*Value{x.Result(0), x.Result(0)}, Results: []Type{v.f32t},
				Attrs: []NamedAttr{{"strides", v.c.Array(v.c.Int32(1), v.c.Str("1"))}, {"paddings", v.c.Int32s(0, 0)}, {"dilations", v.c.Int64s(1, 1)}}})
			// An optional attribute may be absent (above), and is checked when present.
			v.b.Create(OpSpec{Name: "t.conv2d", Operands: []*Value{x.Result(0), x.Result(0)}, Results: []Type{v.f32t},
				Attrs: []NamedAttr{{"backend", v.c.Str("gpu")}}})
			v.b.Create(OpSpec{Name: "t.conv2d", Operands: []*Value{x.Result(0), x.Result(0)}, Results: []Type{v.f32t},
				Attrs: []NamedAttr{{"backend", v.c.Int32(1)}}})
		}, []string{
			"error: (%1, %2, %3, %4, %5) = t.bn: missing required attribute epsilon (f32)",
			"warning: (%1, %2, %3, %4, %5) = t.bn: attribute momentum is f64; t.bn wants f32 (an older program's width)",
			"error: (%1, %2, %3, %4, %5) = t.bn: attribute shape is i64[]; t.bn wants IntArray",
			"error: %6 = t.conv2d: attribute strides is a mixed array; t.conv2d wants i32[]",
			"warning: %6 = t.conv2d: attribute dilations is i64[]; t.conv2d wants i32[] (an older program's width)",
			"error: %8 = t.conv2d: attribute backend is i32; t.conv2d wants str",
		}},
		{"duplicate parameter types", func(v *vb) {
			s := v.c.Str("w")
			v.b.Create(OpSpec{Name: ParameterOpName, Results: []Type{v.f32t}, Attrs: []NamedAttr{{"parameter_name", s}}})
			v.b.Create(OpSpec{Name: ParameterOpName, Results: []Type{v.c.Scalar(DTypeInt8)}, Attrs: []NamedAttr{{"parameter_name", s}}})
			v.b.Create(OpSpec{Name: ParameterOpName, Results: []Type{v.f32t}})
		}, []string{
			"warning: %1 = builtin.parameter: parameter w is read as i8 here and as builtin.tensor<2x3xf32> before",
			"error: %2 = builtin.parameter: parameter op without a parameter_name",
		}},
		{"duplicate parameter types, parameter table up to date", func(v *vb) {
			// The table gives w the type of its first reading: only the second op disagrees with it.
			w, u := v.c.Str("w"), v.c.Str("u")
			v.b.Create(OpSpec{Name: ParameterOpName, Results: []Type{v.f32t}, Attrs: []NamedAttr{{"parameter_name", w}}})
			v.b.Create(OpSpec{Name: ParameterOpName, Results: []Type{v.f32t}, Attrs: []NamedAttr{{"parameter_name", u}}})
			v.b.Create(OpSpec{Name: ParameterOpName, Results: []Type{v.c.Scalar(DTypeInt8)}, Attrs: []NamedAttr{{"parameter_name", w}}})
			v.b.Create(OpSpec{Name: ParameterOpName, Results: []Type{v.f32t}, Attrs: []NamedAttr{{"parameter_name", u}}})
			v.fixture.p.CollectParams()
		}, []string{
			"warning: %2 = builtin.parameter: parameter w is read as i8 here and as builtin.tensor<2x3xf32> before",
		}},
		{"duplicate parameter types across checkParams' batches", func(v *vb) {
			// The ops are looked up paramBatch at a time: a disagreement after the first batch, and one in the
			// last, partial batch, are found as in a small program.
			w, u := v.c.Str("w"), v.c.Str("u")
			v.b.Create(OpSpec{Name: ParameterOpName, Results: []Type{v.f32t}, Attrs: []NamedAttr{{"parameter_name", w}}})
			v.b.Create(OpSpec{Name: ParameterOpName, Results: []Type{v.f32t}, Attrs: []NamedAttr{{"parameter_name", u}}})
			for i := range paramBatch + 7 {
				name := v.c.Str(fmt.Sprintf("p%d", i))
				v.b.Create(OpSpec{Name: ParameterOpName, Results: []Type{v.f32t}, Attrs: []NamedAttr{{"parameter_name", name}}})
			}
			v.b.Create(OpSpec{Name: ParameterOpName, Results: []Type{v.c.Scalar(DTypeInt8)}, Attrs: []NamedAttr{{"parameter_name", w}}})
			for i := range paramBatch - 3 {
				name := v.c.Str(fmt.Sprintf("q%d", i))
				v.b.Create(OpSpec{Name: ParameterOpName, Results: []Type{v.f32t}, Attrs: []NamedAttr{{"parameter_name", name}}})
			}
			v.b.Create(OpSpec{Name: ParameterOpName, Results: []Type{v.c.Scalar(DTypeInt8)}, Attrs: []NamedAttr{{"parameter_name", u}}})
			v.fixture.p.CollectParams()
		}, []string{
			"warning: %73 = builtin.parameter: parameter w is read as i8 here and as builtin.tensor<2x3xf32> before",
			"warning: %135 = builtin.parameter: parameter u is read as i8 here and as builtin.tensor<2x3xf32> before",
		}},
		{"parameter table out of date", func(v *vb) {
			// The table says i8 for w, which no op reads: both ops disagree with it, and not with each other.
			w := v.c.Str("w")
			v.b.Create(OpSpec{Name: ParameterOpName, Results: []Type{v.f32t}, Attrs: []NamedAttr{{"parameter_name", w}}})
			v.b.Create(OpSpec{Name: ParameterOpName, Results: []Type{v.f32t}, Attrs: []NamedAttr{{"parameter_name", w}}})
			v.fixture.p.CollectParams()
			v.fixture.p.Params["w"].Type = v.c.Scalar(DTypeInt8)
		}, nil},
		{"mutable operand as an older program's attribute", func(v *vb) {
			x := v.mk("x.src", 1)
			axis := NamedAttr{Name: "axis", Value: v.c.IntArray([]int64{-1})}
			v.b.Create(OpSpec{Name: "t.mean", Operands: []*Value{x.Result(0)}, Results: []Type{v.f32t}, Attrs: []NamedAttr{axis}})
			v.b.Create(OpSpec{Name: "t.mean", Operands: []*Value{x.Result(0)}, Results: []Type{v.f32t}})
			axisOp := v.mk("x.src", 1)
			v.mk("t.mean", 1, x.Result(0), axisOp.Result(0))
		}, []string{
			"warning: %1 = t.mean: has 1 operands and attribute axis; t.mean takes it as an operand now (an older program's form)",
			"error: %2 = t.mean: has 1 operands; t.mean takes 2 operands",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			v := &vb{fixture: f, b: f.b}
			tt.build(v)
			var got []string
			for _, d := range Verify(f.p) {
				got = append(got, d.Error())
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestVerifyPositions(t *testing.T) {
	f := newFixture(t)
	f.p.File = "model.pir"
	x := f.b.Create(OpSpec{Name: "x.src", Results: []Type{f.f32t}, Loc: Loc{Line: 3, Col: 5}})
	f.b.SetInsertionPointBefore(x)
	f.b.Create(OpSpec{Name: "t.relu", Operands: []*Value{x.Result(0)}, Results: []Type{f.f32t}, Loc: Loc{Line: 2, Col: 5}})
	ds := Verify(f.p)
	require.Len(t, ds, 1)
	assert.Equal(t, "model.pir:2:5: error: %0 = t.relu: operand 0 (%1) is used before its definition", ds[0].Error())
	assert.Error(t, ds.Err())
	assert.Len(t, ds.Warnings(), 0)
}

// TestVerifyUseLists: corrupt use lists are reported with the same messages whether the list is short (walked when
// its value is defined) or long (checked from its records, then walked on a second pass); a record reading a value
// outside its list is found in a long list.
func TestVerifyUseLists(t *testing.T) {
	// middle returns the use record of the reader of x in the middle of the program.
	middle := func(readers []*Op) *Use { return readers[len(readers)/2].OperandUse(0) }
	tests := []struct {
		name    string
		corrupt func(x *Value, other *Value, readers []*Op)
		// want are the messages for a short list and a long one (nil: as for the short one).
		want, wantLong []string
	}{
		{"intact", func(*Value, *Value, []*Op) {}, nil, nil},
		{"a record of another value in the list", func(x, other *Value, readers []*Op) {
			middle(readers).value = other
		}, []string{"error: %0 = x.src: use list of %0 holds a use of another value"}, nil},
		{"a record of an erased op in the list", func(x, other *Value, readers []*Op) {
			op := middle(readers).owner
			op.block.unlink(op)
			op.nAttrs |= erasedBit
		}, []string{"error: %0 = x.src: %0 is used by an erased t.relu"}, nil},
		{"use count too high", func(x, other *Value, readers []*Op) {
			x.nuses++
		}, []string{"error: %0 = x.src: %0 has N uses in its list but counts N+1"}, nil},
		{"use count too low", func(x, other *Value, readers []*Op) {
			x.nuses--
		}, []string{"error: %0 = x.src: %0 has N uses in its list but counts N-1"}, nil},
		{"a record reading the value outside its list", func(x, other *Value, readers []*Op) {
			u := middle(readers)
			u.prev.next, u.next.prev = u.next, u.prev
			u.prev, u.next = nil, nil
			x.nuses--
		}, nil, []string{"error: %0 = x.src: the use list of %0 does not match the N operand records of the program that read it"}},
		{"a wrong predecessor", func(x, other *Value, readers []*Op) {
			middle(readers).prev = readers[0].OperandUse(0)
		}, nil, []string{"error: %0 = x.src: the use list of %0 does not match the N operand records of the program that read it"}},
		{"the first use with a predecessor", func(x, other *Value, readers []*Op) {
			x.first.prev = middle(readers)
		}, nil, []string{"error: %0 = x.src: the use list of %0 does not match the N operand records of the program that read it"}},
		{"a broken back link", func(x, other *Value, readers []*Op) {
			u := middle(readers)
			u.next.prev = nil
		}, nil, []string{"error: %0 = x.src: the use list of %0 does not match the N operand records of the program that read it"}},
	}
	for _, n := range []int{3, longList + 8} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s/%d uses", tt.name, n), func(t *testing.T) {
				f := newFixture(t)
				x := f.op("x.src")
				other := f.op("x.src")
				var readers []*Op
				for range n {
					readers = append(readers, f.op("t.relu", x.Result(0)))
				}
				tt.corrupt(x.Result(0), other.Result(0), readers)
				want := tt.want
				if n > longList && tt.wantLong != nil {
					want = tt.wantLong
				}
				r := strings.NewReplacer("N+1", fmt.Sprint(n+1), "N-1", fmt.Sprint(n-1), "N", fmt.Sprint(n))
				var wantN []string
				for _, w := range want {
					wantN = append(wantN, r.Replace(w))
				}
				var got []string
				for _, d := range Verify(f.p) {
					got = append(got, d.Error())
				}
				assert.Equal(t, wantN, got)
			})
		}
	}
}
