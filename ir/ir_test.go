package ir

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder is a Listener that logs notifications.
type recorder struct{ log []string }

func (r *recorder) OpInserted(op *Op) { r.log = append(r.log, "insert "+op.Name()) }
func (r *recorder) OpModified(op *Op) { r.log = append(r.log, "modify "+op.Name()) }
func (r *recorder) OpErased(op *Op)   { r.log = append(r.log, "erase "+op.Name()) }

type fixture struct {
	c    *Context
	p    *Program
	b    *Builder
	f32t Type
}

func newFixture(t *testing.T) *fixture {
	c := testContext(t)
	p := NewProgram(c)
	b := NewBuilder(c)
	b.SetInsertionPointToEnd(p.Body())
	return &fixture{c: c, p: p, b: b, f32t: c.Tensor(DenseTensor, []int64{2, 3}, c.Scalar(DTypeFloat32))}
}

func (f *fixture) op(name string, operands ...*Value) *Op {
	return f.b.Create(OpSpec{Name: name, Operands: operands, Results: []Type{f.f32t}})
}

func TestUseLists(t *testing.T) {
	f := newFixture(t)
	x := f.op("x.src")
	y := f.op("x.src")
	a := f.op("t.add", x.Result(0), x.Result(0))
	r := f.op("t.relu", a.Result(0))
	assert.Equal(t, 2, x.Result(0).NumUses())
	assert.Equal(t, 0, y.Result(0).NumUses())
	assert.True(t, a.Result(0).HasOneUse())
	assert.Equal(t, []*Op{a}, x.Result(0).Users())

	rw := NewRewriter(f.c, nil)
	rw.SetOperand(a, 1, y.Result(0))
	assert.Equal(t, 1, x.Result(0).NumUses())
	assert.Equal(t, 1, y.Result(0).NumUses())

	rw.ReplaceAllUsesWith(a.Result(0), x.Result(0))
	assert.False(t, a.Result(0).HasUses())
	assert.Same(t, x.Result(0), r.Operand(0))
	assert.Equal(t, 2, x.Result(0).NumUses())

	require.NoError(t, rw.Erase(a))
	assert.True(t, a.Erased())
	assert.Equal(t, 1, x.Result(0).NumUses(), "erasing releases operands")
	assert.Equal(t, 0, y.Result(0).NumUses())
	assert.Equal(t, 3, f.p.Body().Len())
	assert.Empty(t, Verify(f.p))
}

func TestEraseWithUsesFails(t *testing.T) {
	f := newFixture(t)
	x := f.op("x.src")
	f.op("t.relu", x.Result(0))
	err := NewRewriter(f.c, nil).Erase(x)
	assert.EqualError(t, err, "ir: cannot erase x.src: result 0 still has uses")
	assert.False(t, x.Erased())
}

func TestRewriterNotifies(t *testing.T) {
	f := newFixture(t)
	rec := &recorder{}
	rw := NewRewriter(f.c, rec)
	rw.SetInsertionPointToEnd(f.p.Body())
	x := rw.Create(OpSpec{Name: "x.src", Results: []Type{f.f32t}})
	r := rw.Create(OpSpec{Name: "t.relu", Operands: []*Value{x.Result(0)}, Results: []Type{f.f32t}})
	y := rw.Create(OpSpec{Name: "x.src", Results: []Type{f.f32t}})
	rw.ReplaceAllUsesWith(x.Result(0), y.Result(0))
	rw.SetAttr(r, "k", f.c.Int32(1))
	rw.SetAttr(r, "k", f.c.Int32(1)) // unchanged: no notification
	rw.RemoveAttr(r, "k")
	require.NoError(t, rw.Erase(x))
	rw.MoveBefore(y, r)
	assert.Equal(t, []string{"insert x.src", "insert t.relu", "insert x.src", "modify t.relu", "modify t.relu",
		"modify t.relu", "erase x.src", "insert x.src"}, rec.log)
	assert.Same(t, y, f.p.Body().First())
	assert.Empty(t, Verify(f.p))
}

func TestReplaceOp(t *testing.T) {
	f := newFixture(t)
	x := f.op("x.src")
	r := f.op("t.relu", x.Result(0))
	u := f.op("t.relu", r.Result(0))
	rw := NewRewriter(f.c, nil)
	require.NoError(t, rw.ReplaceOp(r, []*Value{x.Result(0)}))
	assert.Same(t, x.Result(0), u.Operand(0))
	assert.EqualError(t, rw.ReplaceOp(u, nil), "ir: ReplaceOp of t.relu with 0 values for 1 results")
}

func TestSetOperandsChangesCount(t *testing.T) {
	f := newFixture(t)
	x := f.op("x.src")
	y := f.op("x.src")
	cmb := f.b.Create(OpSpec{Name: "t.combine", Operands: []*Value{x.Result(0)}, Results: []Type{f.c.Vector(f.f32t)}})
	rw := NewRewriter(f.c, nil)
	rw.SetOperands(cmb, []*Value{x.Result(0), y.Result(0), x.Result(0)})
	assert.Equal(t, 3, cmb.NumOperands())
	assert.Equal(t, 2, x.Result(0).NumUses())
	assert.Equal(t, 2, cmb.OperandUse(2).Index())
	rw.SetOperands(cmb, nil)
	assert.Equal(t, 0, x.Result(0).NumUses())
}

func TestIsBeforeSurvivesManyInsertions(t *testing.T) {
	f := newFixture(t)
	first := f.op("x.src")
	last := f.op("x.src")
	ops := []*Op{first}
	// Insert repeatedly right before `last`, exhausting the gaps and forcing renumbering.
	for i := 0; i < 200; i++ {
		f.b.SetInsertionPointBefore(last)
		ops = append(ops, f.op("x.src"))
	}
	ops = append(ops, last)
	// And repeatedly right after `first`.
	for i := 0; i < 100; i++ {
		f.b.SetInsertionPointAfter(first)
		op := f.op("x.src")
		ops = append([]*Op{ops[0], op}, ops[1:]...)
	}
	i := 0
	for op := range f.p.Body().Ops() {
		require.Same(t, ops[i], op)
		i++
	}
	for k := 1; k < len(ops); k++ {
		require.True(t, ops[k-1].IsBefore(ops[k]), "op %d before op %d", k-1, k)
		require.False(t, ops[k].IsBefore(ops[k-1]))
	}
}

func TestWalkAndErase(t *testing.T) {
	f := newFixture(t)
	c := f.c
	cond := f.b.Create(OpSpec{Name: "x.src", Results: []Type{c.Tensor(DenseTensor, nil, c.Scalar(DTypeBool))}})
	x := f.op("x.src")
	ifOp := f.b.Create(OpSpec{Name: "t.if", Operands: []*Value{cond.Result(0)}, Results: []Type{f.f32t}, Regions: 2})
	for i := 0; i < 2; i++ {
		blk := ifOp.Region(i).AddBlock()
		ib := NewBuilder(c)
		ib.SetInsertionPointToEnd(blk)
		r := ib.Create(OpSpec{Name: "t.relu", Operands: []*Value{x.Result(0)}, Results: []Type{f.f32t}})
		ib.Create(OpSpec{Name: "t.yield", Operands: []*Value{r.Result(0)}})
	}
	f.op("t.relu", ifOp.Result(0))

	var pre, post []string
	for op := range f.p.Walk() {
		pre = append(pre, op.Name())
	}
	for op := range WalkPost(f.p.Body()) {
		post = append(post, op.Name())
	}
	assert.Equal(t, []string{"x.src", "x.src", "t.if", "t.relu", "t.yield", "t.relu", "t.yield", "t.relu"}, pre)
	assert.Equal(t, []string{"x.src", "x.src", "t.relu", "t.yield", "t.relu", "t.yield", "t.if", "t.relu"}, post)
	assert.Equal(t, 8, f.p.NumOps())
	assert.Equal(t, 1, ifOp.Region(0).Block(0).First().Depth())

	n := NumberValues(f.p.Body())
	assert.Equal(t, "%2", n.Name(ifOp.Result(0)))
	assert.Equal(t, "%3", n.Name(ifOp.Region(0).Block(0).First().Result(0)))
	assert.Equal(t, "%2 = t.if", n.Describe(ifOp))

	// Erase everything from the last op backwards: users first, so every erase is legal.
	rw := NewRewriter(c, nil)
	for op := range f.p.Body().Backward() {
		require.NoError(t, rw.Erase(op))
	}
	assert.Equal(t, 0, f.p.NumOps())
	assert.Equal(t, 0, x.Result(0).NumUses())
}

func TestCloneRewires(t *testing.T) {
	f := newFixture(t)
	x := f.op("x.src")
	r := f.op("t.relu", x.Result(0))
	a := f.op("t.add", r.Result(0), x.Result(0))
	f.b.Create(OpSpec{Name: "t.fetch", Operands: []*Value{a.Result(0)}, Results: []Type{f.f32t}, Attrs: []NamedAttr{{"name", f.c.Str("out")}}})
	cp := f.p.Clone()
	require.Equal(t, 4, cp.NumOps())
	var ops []*Op
	for op := range cp.Walk() {
		ops = append(ops, op)
	}
	assert.Same(t, ops[0].Result(0), ops[1].Operand(0))
	assert.Same(t, ops[1].Result(0), ops[2].Operand(0))
	assert.Same(t, ops[2].Result(0), ops[3].Operand(0))
	assert.Equal(t, 2, ops[0].Result(0).NumUses())
	assert.Equal(t, 2, x.Result(0).NumUses(), "the original is untouched")
	assert.Same(t, f.c.Str("out"), ops[3].Attr("name"))
	assert.Empty(t, Verify(cp))
}

// Clone keeps what the source recorded about the inputs (GraphNet's input data and statistics), in a table of its
// own: verification clones a program before evaluating it.
func TestCloneKeepsFeeds(t *testing.T) {
	f := newFixture(t)
	f.p.Feeds = map[string]*Variable{"ids": {Name: "ids", Data: []byte{1, 0, 0, 0}, Stats: &TensorStats{Min: 0, Max: 3}}}
	cp := f.p.Clone()
	require.Contains(t, cp.Feeds, "ids")
	assert.Equal(t, f.p.Feeds["ids"].Data, cp.Feeds["ids"].Data)
	assert.Equal(t, 3.0, cp.Feeds["ids"].Stats.Max)
	cp.Feeds["ids"].Name = "changed"
	assert.Equal(t, "ids", f.p.Feeds["ids"].Name, "the copy has its own variables")
	assert.Nil(t, NewProgram(f.c).Clone().Feeds)
}

func TestCollectParams(t *testing.T) {
	c := NewContext()
	p := NewProgram(c)
	b := NewBuilder(c)
	b.SetInsertionPointToEnd(p.Body())
	w := c.Tensor(DenseTensor, []int64{4}, c.Scalar(DTypeFloat32))
	pw := b.Create(OpSpec{Name: ParameterOpName, Results: []Type{w}, Attrs: []NamedAttr{{"parameter_name", c.Str("w")}}})
	b.Create(OpSpec{Name: ParameterOpName, Results: []Type{w}, Attrs: []NamedAttr{{"parameter_name", c.Str("m")}}})
	b.Create(OpSpec{Name: SetParameterOpName, Operands: []*Value{pw.Result(0)}, Attrs: []NamedAttr{{"parameter_name", c.Str("m")}}})
	p.CollectParams()
	assert.Equal(t, []string{"m", "w"}, p.ParamNames())
	assert.False(t, p.Params["w"].Mutable)
	assert.True(t, p.Params["m"].Mutable)
	assert.Same(t, p.Params["w"], p.ParamOf(pw.Result(0)))

	stats := &TensorStats{Min: -1, Max: 1, Missing: StatMean | StatStd}
	p.Params["w"].Stats, p.Params["w"].OriginalName, p.Params["w"].Data = stats, "linear_0.w_0", make([]byte, 16)
	p.CollectParams()
	assert.Same(t, stats, p.Params["w"].Stats, "statistics survive a rebuild")
	assert.Equal(t, "linear_0.w_0", p.Params["w"].OriginalName)
	assert.Len(t, p.Params["w"].Data, 16)
	assert.True(t, stats.Has(StatMin|StatMax))
	assert.False(t, stats.Has(StatMin|StatMean))
}

func ExampleBuilder() {
	c := NewContext()
	p := NewProgram(c)
	b := NewBuilder(c)
	b.SetInsertionPointToEnd(p.Body())
	t := c.Tensor(DenseTensor, []int64{1, 3}, c.Scalar(DTypeFloat32))
	x := b.Create(OpSpec{Name: "pd_op.data", Results: []Type{t}, Attrs: []NamedAttr{{"name", c.Str("x")}}})
	b.Create(OpSpec{Name: "pd_op.relu", Operands: []*Value{x.Result(0)}, Results: []Type{t}})
	n := NumberValues(p.Body())
	for op := range p.Walk() {
		fmt.Println(n.Describe(op), op.Result(0).Type())
	}
	// Output:
	// %0 = pd_op.data builtin.tensor<1x3xf32>
	// %1 = pd_op.relu builtin.tensor<1x3xf32>
}

func TestEqual(t *testing.T) {
	f := newFixture(t)
	x := f.op("x.src")
	r := f.op("t.relu", x.Result(0))
	f.op("t.add", r.Result(0), x.Result(0))
	cp := f.p.Clone()
	require.NoError(t, Equal(f.p, cp, EqualOptions{}))

	// Swap the operands of the add in the copy: the programs now differ.
	var add *Op
	for op := range cp.Walk() {
		add = op
	}
	rw := NewRewriter(f.c, nil)
	rw.SetOperands(add, []*Value{add.Operand(1), add.Operand(0)})
	assert.EqualError(t, Equal(f.p, cp, EqualOptions{}), "%2 = t.add: operand 0 (%1) does not correspond")

	rw.SetOperands(add, []*Value{add.Operand(1), add.Operand(0)})
	rw.SetAttr(add, "k", f.c.Int32(1))
	assert.EqualError(t, Equal(f.p, cp, EqualOptions{}), "%2 = t.add: attribute k is only in the second program")
	assert.NoError(t, Equal(f.p, cp, EqualOptions{IgnoreAttrs: []string{"k"}}))
}

// TestNumOpsCountsNestedOps checks NumOps against a walk while ops with regions are made, moved between blocks
// and erased: a block counts its ops with regions, and only those lead NumOps inside.
func TestNumOpsCountsNestedOps(t *testing.T) {
	f := newFixture(t)
	c := f.c
	walked := func() int {
		n := 0
		for range f.p.Walk() {
			n++
		}
		return n
	}
	cond := f.b.Create(OpSpec{Name: "x.src", Results: []Type{c.Tensor(DenseTensor, nil, c.Scalar(DTypeBool))}})
	x := f.op("x.src")
	newIf := func() (*Op, *Block) {
		op := f.b.Create(OpSpec{Name: "t.if", Operands: []*Value{cond.Result(0)}, Regions: 1})
		blk := op.Region(0).AddBlock()
		ib := NewBuilder(c)
		ib.SetInsertionPointToEnd(blk)
		r := ib.Create(OpSpec{Name: "t.relu", Operands: []*Value{x.Result(0)}, Results: []Type{f.f32t}})
		ib.Create(OpSpec{Name: "t.yield", Operands: []*Value{r.Result(0)}})
		return op, blk
	}
	outer, outerBody := newIf()
	inner, innerBody := newIf()
	require.Equal(t, 8, f.p.NumOps())
	require.Equal(t, walked(), f.p.NumOps())

	rw := NewRewriter(c, nil)
	rw.MoveBefore(inner, outerBody.Last()) // the inner if now sits in the outer one's block
	assert.Equal(t, 8, f.p.NumOps())
	assert.Equal(t, walked(), f.p.NumOps())

	require.NoError(t, rw.Erase(innerBody.Last())) // the yield
	require.NoError(t, rw.Erase(innerBody.First()))
	assert.Equal(t, 6, f.p.NumOps())
	require.NoError(t, rw.Erase(inner))
	assert.Equal(t, 5, f.p.NumOps())
	assert.Equal(t, walked(), f.p.NumOps())
	require.NoError(t, rw.Erase(outerBody.Last()))
	require.NoError(t, rw.Erase(outerBody.First()))
	require.NoError(t, rw.Erase(outer))
	assert.Equal(t, 2, f.p.NumOps())
	assert.Equal(t, walked(), f.p.NumOps())
}
