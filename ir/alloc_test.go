package ir

import (
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRecordSizes keeps the records a program has millions of small: every byte is one more per op for the
// garbage collector to scan.
func TestRecordSizes(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("the sizes are for 64-bit platforms")
	}
	// An op with its first result: 96 + 40 bytes before results moved into the op record and values held their
	// type in one word; 112 before order numbers took 32 bits and the result count moved to the op's extension.
	assert.Equal(t, uintptr(104), unsafe.Sizeof(Op{}), "Op")
	assert.Equal(t, uintptr(32), unsafe.Sizeof(Use{}), "Use")
	assert.Equal(t, uintptr(24), unsafe.Sizeof(Value{}), "Value")
	assert.Equal(t, uintptr(32), unsafe.Sizeof(extraResult{}), "extraResult")
}

// TestUseIndexAndBlockArgs: a use's index is its place among its op's operand records, also after SetOperands
// changes their number; block arguments know their block and index, results do not have a block of their own.
func TestUseIndexAndBlockArgs(t *testing.T) {
	c := NewContext()
	p := NewProgram(c)
	b := NewBuilder(c)
	b.Alloc = &Allocator{}
	b.SetInsertionPointToEnd(p.Body())
	f32 := c.Scalar(DTypeFloat32)
	x := b.Create(OpSpec{Name: "pd_op.data", Results: []Type{f32}}).Result(0)
	y := b.Create(OpSpec{Name: "pd_op.data", Results: []Type{f32, f32}}).Result(1)
	add := b.Create(OpSpec{Name: "pd_op.add", Operands: []*Value{x, y, x}, Results: []Type{f32}})
	for i := range 3 {
		assert.Equal(t, i, add.OperandUse(i).Index())
		assert.Same(t, add, add.OperandUse(i).Owner())
	}
	assert.Equal(t, 1, y.Index())
	assert.False(t, y.IsBlockArg())
	assert.Same(t, p.Body(), y.OwnerBlock())

	rw := NewRewriter(c, nil)
	rw.SetOperands(add, []*Value{y, x, x, y, x})
	for i := range 5 {
		assert.Equal(t, i, add.OperandUse(i).Index())
	}
	assert.Equal(t, 3, x.NumUses())

	loop := b.Create(OpSpec{Name: "pd_op.while", Regions: 1})
	body := loop.Region(0).AddBlock()
	a0, a1 := body.AddArg(f32), body.AddArg(f32)
	assert.True(t, a1.IsBlockArg())
	assert.Equal(t, 1, a1.Index())
	assert.Equal(t, 0, a0.Index())
	assert.Same(t, body, a1.OwnerBlock())
	assert.Nil(t, a1.DefiningOp())
}

// TestAllocatorReuse: with TrackErased, the records of erased ops go to the ops created after Reuse; the program
// stays valid, and runs of operand records are split to serve shorter ones.
func TestAllocatorReuse(t *testing.T) {
	c := NewContext() // every op unregistered: the verifier checks the structure only
	p := NewProgram(c)
	alloc := &Allocator{}
	alloc.TrackErased(true)
	rw := NewRewriter(c, nil)
	rw.Alloc = alloc
	rw.SetInsertionPointToEnd(p.Body())
	f32 := c.Tensor(DenseTensor, []int64{4}, c.Scalar(DTypeFloat32))
	x := rw.Create(OpSpec{Name: "pd_op.data", Results: []Type{f32}}).Result(0)
	// A three-operand op and a one-result op, erased.
	concat := rw.Create(OpSpec{Name: "my.three", Operands: []*Value{x, x, x}, Results: []Type{f32}})
	require.NoError(t, rw.Erase(concat))
	assert.True(t, concat.Erased(), "erased ops stay recognisable until Reuse")
	alloc.Reuse()

	// The next op takes the erased op's record and its result; its one operand record comes from the three.
	relu := rw.Create(OpSpec{Name: "pd_op.relu", Operands: []*Value{x}, Results: []Type{f32}})
	assert.Same(t, concat, relu, "the op record is recycled")
	assert.False(t, relu.Erased())
	assert.Equal(t, "pd_op.relu", relu.Name())
	assert.Equal(t, 0, relu.OperandUse(0).Index())
	assert.Equal(t, 1, runLen(alloc.freeUses[2]), "the rest of the three records is a run of two")
	add := rw.Create(OpSpec{Name: "pd_op.add", Operands: []*Value{x, relu.Result(0)}, Results: []Type{f32}})
	assert.Equal(t, 1, add.OperandUse(1).Index())
	assert.Nil(t, alloc.freeUses[2])
	rw.Create(OpSpec{Name: "pd_op.fetch", Operands: []*Value{add.Result(0)}, Attrs: []NamedAttr{{Name: "name", Value: c.Str("out")}}})
	assert.Equal(t, 2, x.NumUses())
	assert.Empty(t, Verify(p).Errors())

	// Two ops erased together whose operand records touch: their runs merge and serve a longer one.
	two := rw.Create(OpSpec{Name: "my.two", Operands: []*Value{x, x}, Results: []Type{f32}})
	five := rw.Create(OpSpec{Name: "my.five", Operands: []*Value{x, x, x, x, two.Result(0)}, Results: []Type{f32}})
	require.Same(t, (*Use)(unsafe.Add(unsafe.Pointer(two.OperandUse(1)), unsafe.Sizeof(Use{}))), five.OperandUse(0),
		"consecutive ops get consecutive operand records")
	require.NoError(t, rw.Erase(five))
	require.NoError(t, rw.Erase(two))
	alloc.Reuse()
	assert.Equal(t, 1, runLen(alloc.freeUses[7]), "2 + 5 records")
	six := rw.Create(OpSpec{Name: "my.six", Operands: []*Value{x, x, x, x, x, x}, Results: []Type{f32}})
	assert.Same(t, two.uses, six.uses, "the merged run serves six operands")
	for i := range 6 {
		assert.Equal(t, i, six.OperandUse(i).Index())
	}
	assert.Equal(t, 1, runLen(alloc.freeUses[1]), "one record is left")
	require.NoError(t, rw.Erase(six))
	alloc.Reuse()
	assert.Equal(t, 2, x.NumUses())

	// Without TrackErased nothing is recorded.
	alloc.TrackErased(false)
	dead := rw.Create(OpSpec{Name: "pd_op.relu", Operands: []*Value{x}, Results: []Type{f32}})
	require.NoError(t, rw.Erase(dead))
	alloc.Reuse()
	assert.True(t, dead.Erased())
}

// runLen returns the number of runs in a free list of operand-record runs.
func runLen(head *Use) int {
	n := 0
	for ; head != nil; head = head.next {
		n++
	}
	return n
}

// TestOpIDs: the ops of a program's allocator get distinct numbers below Len, whatever the order of the lookups;
// ops built by Context.NewOp get -1.
func TestOpIDs(t *testing.T) {
	c := NewContext()
	p := NewProgram(c)
	b := NewBuilder(c)
	b.Alloc = p.Allocator()
	b.SetInsertionPointToEnd(p.Body())
	f32 := c.Scalar(DTypeFloat32)
	var ops []*Op
	for range 3*allocChunk + 5 {
		ops = append(ops, b.Create(OpSpec{Name: "pd_op.data", Results: []Type{f32}}))
	}
	other := c.NewOp(OpSpec{Name: "pd_op.data", Results: []Type{f32}})
	ids := p.OpIDs()
	seen := map[int]bool{}
	for _, i := range []int{0, len(ops) - 1, allocChunk, 5, 2*allocChunk + 7, allocChunk - 1} {
		id := ids.ID(ops[i])
		assert.GreaterOrEqual(t, id, 0)
		assert.Less(t, id, ids.Len())
		seen[id] = true
	}
	for _, op := range ops {
		seen[ids.ID(op)] = true
	}
	assert.Len(t, seen, len(ops), "distinct numbers")
	assert.Equal(t, -1, ids.ID(other))
	assert.Equal(t, 0, NewProgram(c).OpIDs().Len(), "a program without allocated ops")
}

// TestAllocatorOpInfoCache: the allocator's cache of op kinds answers what the Context does, for names that are
// the same string, equal strings at other addresses, and different names, in two contexts.
func TestAllocatorOpInfoCache(t *testing.T) {
	c1, c2 := NewContext(), NewContext()
	a := &Allocator{}
	names := []string{"pd_op.relu", "pd_op.tanh", "pd_op.relu", string([]byte("pd_op.relu")), string([]byte("pd_op.tanh")), ""}
	for range 3 {
		for _, n := range names {
			for _, c := range []*Context{c1, c2} {
				assert.Same(t, c.OpInfo(n), a.opInfo(c, n), "%q", n)
				assert.Same(t, c.OpInfo(n), a.NewOp(c, OpSpec{Name: n}).Info(), "%q", n)
			}
		}
	}
}

// TestAllocatorReuseResults: recycled op records serve ops of any number of results; an op of several results
// keeps its further results (and they find their op) whether its record was recycled with them, without them or
// with another number of them; regions are not carried over.
func TestAllocatorReuseResults(t *testing.T) {
	c := NewContext()
	p := NewProgram(c)
	alloc := &Allocator{}
	alloc.TrackErased(true)
	rw := NewRewriter(c, nil)
	rw.Alloc = alloc
	rw.SetInsertionPointToEnd(p.Body())
	f32 := c.Tensor(DenseTensor, []int64{4}, c.Scalar(DTypeFloat32))
	i64 := c.Scalar(DTypeInt64)
	x := rw.Create(OpSpec{Name: "pd_op.data", Results: []Type{f32}}).Result(0)
	checkResults := func(op *Op, types ...Type) {
		t.Helper()
		require.Equal(t, len(types), op.NumResults())
		for i, typ := range types {
			r := op.Result(i)
			assert.Same(t, op, r.DefiningOp(), "result %d", i)
			assert.Equal(t, i, r.Index())
			assert.Same(t, typ, r.Type())
			assert.Same(t, op.Block(), r.OwnerBlock())
			assert.False(t, r.HasUses())
		}
	}

	three := rw.Create(OpSpec{Name: "my.three", Operands: []*Value{x}, Results: []Type{f32, i64, f32}})
	checkResults(three, f32, i64, f32)
	ext := three.ext
	require.NoError(t, rw.Erase(three))
	alloc.Reuse()
	again := rw.Create(OpSpec{Name: "my.again", Operands: []*Value{x}, Results: []Type{i64, i64, f32}})
	assert.Same(t, three, again, "the record of an op of three results serves one of three")
	assert.Same(t, ext, again.ext, "with its further results")
	checkResults(again, i64, i64, f32)

	require.NoError(t, rw.Erase(again))
	alloc.Reuse()
	two := rw.Create(OpSpec{Name: "my.two", Results: []Type{f32, f32}})
	assert.Same(t, again, two, "a record of another number of results is taken when no other is free")
	assert.NotSame(t, ext, two.ext)
	checkResults(two, f32, f32)
	assert.Equal(t, []*opExt{ext}, alloc.freeExts[3], "the further results it kept wait for an op of three")
	four := rw.Create(OpSpec{Name: "my.four", Results: []Type{i64, i64, i64}})
	assert.Same(t, ext, four.ext)
	checkResults(four, i64, i64, i64)

	// An op with a region is recycled without it.
	loop := rw.Create(OpSpec{Name: "my.loop", Results: []Type{f32, f32}, Regions: 1})
	loop.Region(0).AddBlock()
	require.NoError(t, rw.Erase(loop))
	alloc.Reuse()
	plain := rw.Create(OpSpec{Name: "my.plain", Results: []Type{f32, f32}})
	assert.Same(t, loop, plain)
	assert.Equal(t, 0, plain.NumRegions())
	checkResults(plain, f32, f32)
	assert.Empty(t, Verify(p).Errors())

	// Without an allocator, too.
	free := c.NewOp(OpSpec{Name: "my.free", Results: []Type{f32, i64}, Regions: 2})
	checkResults(free, f32, i64)
	assert.Equal(t, 2, free.NumRegions())
	assert.Nil(t, free.Result(1).OwnerBlock(), "a detached op")
}

// TestAllocatorAppend: Append builds what Builder.Create builds at the end of a block: the same program, operands
// linked, results defined, positions kept, the order of the block known.
func TestAllocatorAppend(t *testing.T) {
	c := NewContext()
	f32 := c.Scalar(DTypeFloat32)
	build := func(appendOps bool) *Program {
		p := NewProgram(c)
		a := p.Allocator()
		b := NewBuilder(c)
		b.Alloc = a
		b.SetInsertionPointToEnd(p.Body())
		mk := func(name string, operands []*Value, results []Type, attrs []NamedAttr, line int32) *Op {
			if appendOps {
				return a.Append(p.Body(), c.OpInfo(name), operands, results, attrs, Loc{Line: line, Col: 5})
			}
			return b.Create(OpSpec{Name: name, Operands: operands, Results: results, Attrs: attrs, Loc: Loc{Line: line, Col: 5}})
		}
		x := mk("pd_op.data", nil, []Type{f32}, []NamedAttr{{Name: "name", Value: c.Str("x")}}, 1).Result(0)
		two := mk("my.two", []*Value{x, x}, []Type{f32, f32}, nil, 2)
		add := mk("pd_op.add", []*Value{two.Result(1), nil, x}, []Type{f32}, nil, 3)
		mk("pd_op.fetch", []*Value{add.Result(0)}, nil, []NamedAttr{{Name: "name", Value: c.Str("out")}}, 4)
		return p
	}
	want, got := build(false), build(true)
	require.NoError(t, Equal(want, got, EqualOptions{AttrOrder: true}))
	assert.Empty(t, Verify(got).Errors())
	var ops []*Op
	for op := range got.Walk() {
		ops = append(ops, op)
		assert.Equal(t, int32(len(ops)), op.Loc.Line)
		assert.Same(t, got.Body(), op.Block())
	}
	require.Len(t, ops, 4)
	assert.True(t, ops[1].IsBefore(ops[2]))
	assert.Equal(t, 3, ops[0].Result(0).NumUses())
	assert.Same(t, ops[1], ops[1].Result(1).DefiningOp())
	assert.Same(t, ops[2], ops[1].Result(1).FirstUse().Owner())
}

// TestAllocatorPrefault: a program built while the allocator's prefaulter runs, and grown after it stopped (from
// the chunks it had ready), equals the same program built without it, and numbers its ops as OpIDs must.
func TestAllocatorPrefault(t *testing.T) {
	c := NewContext()
	f32 := c.Scalar(DTypeFloat32)
	const n = 5*allocChunk + 17
	build := func(prefault bool) *Program {
		p := NewProgram(c)
		a := p.Allocator()
		stop := func() {}
		if prefault {
			stop = a.Prefault()
			assert.NotNil(t, a.pre)
			a.Prefault()() // a second call while one runs does nothing
			assert.NotNil(t, a.pre, "the first prefaulter still runs")
		}
		x := a.Append(p.Body(), c.OpInfo("pd_op.data"), nil, []Type{f32}, nil, Loc{Line: 1})
		last := x.Result(0)
		for i := range n {
			if i == n/2 {
				if prefault {
					// The prefaulter's goroutine may not have run yet on a loaded machine: wait for a chunk it
					// made, which nothing takes before stop (this goroutine is the only reader).
					require.Eventually(t, func() bool { return len(a.pre.ops) > 0 }, 10*time.Second, time.Millisecond,
						"the prefaulter makes op chunks")
				}
				stop()
				if prefault {
					assert.Nil(t, a.pre)
					assert.NotEmpty(t, a.spareOps, "the chunks it had ready are kept")
				}
			}
			last = a.Append(p.Body(), c.OpInfo("pd_op.relu"), []*Value{last, x.Result(0)}, []Type{f32}, nil,
				Loc{Line: int32(i + 2)}).Result(0)
		}
		return p
	}
	want, got := build(false), build(true)
	require.NoError(t, Equal(want, got, EqualOptions{AttrOrder: true}))
	assert.Empty(t, Verify(got).Errors())
	ids := got.OpIDs()
	seen := map[int]bool{}
	for op := range got.Walk() {
		id := ids.ID(op)
		require.GreaterOrEqual(t, id, 0)
		require.Less(t, id, ids.Len())
		seen[id] = true
	}
	assert.Len(t, seen, n+1, "distinct numbers")
}
