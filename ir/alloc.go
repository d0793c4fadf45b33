package ir

import (
	"slices"
	"unsafe"
)

// Allocator hands out ops, their operand records and their further results from large chunks, so that building a big
// program costs a few allocations per thousand ops instead of several per op (readers use one per program). Ops
// from an allocator behave exactly like those of Context.NewOp. An Allocator is not safe for concurrent use.
//
// An allocator can also recycle erased ops (TrackErased, Reuse): a rewrite driver that erases as many ops as it
// creates then works in the memory the erased ones held, instead of growing the program by every op it ever built
// (chunks are freed only when every record in them is unreachable, which a surviving neighbour prevents).
type Allocator struct {
	ops  []Op
	uses []Use
	more []extraResult
	exts []opExt
	// useChunks are the operand-record chunks handed out so far, and chunkBase their addresses, both sorted by
	// address, so that Reuse can tell whether two freed runs that touch lie in one chunk (and may be merged).
	useChunks []*[allocChunk]Use
	chunkBase []uintptr
	lastChunk int // the chunk chunkOf found last
	// opChunks are the op chunks, opBase their addresses, sorted by address: for OpIDs.
	opChunks []*[allocChunk]Op
	opBase   []uintptr
	// pre is the running prefaulter (Prefault), if any; spareOps and spareUses the chunks it had ready when it
	// stopped, taken before new ones.
	pre       *prefaulter
	spareOps  []*[allocChunk]Op
	spareUses []*[allocChunk]Use

	track  bool
	erased []*Op
	// Free records of recycled ops, kept in the records themselves so that recycling allocates nothing: op
	// records by their number of results k (0: none kept), linked through next, each with its extension holding
	// k-1 further results when k > 1; runs of k operand records, linked through the first record's next; and
	// extensions holding k-1 further results, parted from their op.
	freeOps  [maxRun + 1]*Op
	freeUses [maxRun + 1]*Use
	// nFreeOps and nFreeUses count the op records and runs in the free lists (a reader never has any).
	nFreeOps, nFreeUses int
	freeExts            [maxRun + 1][]*opExt
	runs                []useRun // scratch of Reuse

	// infos caches Context.OpInfo by the name's bytes' address: readers and rules pass the same string for every
	// op of a kind, and the Context's table takes a lock and a hash per lookup.
	infos [64]infoEntry
}

type infoEntry struct {
	ctx  *Context
	name string
	info *OpInfo
}

// opInfo is c.OpInfo(name), through the cache.
func (a *Allocator) opInfo(c *Context, name string) *OpInfo {
	if len(name) == 0 {
		return c.OpInfo(name)
	}
	e := &a.infos[uintptr(unsafe.Pointer(unsafe.StringData(name)))>>3%uintptr(len(a.infos))]
	if e.ctx == c && unsafe.StringData(e.name) == unsafe.StringData(name) && len(e.name) == len(name) {
		return e.info
	}
	info := c.OpInfo(name)
	*e = infoEntry{c, name, info}
	return info
}

// useRun is a run of n operand records starting at p, in chunk c of the allocator (-1: not from a chunk).
type useRun struct {
	p *Use
	n int
	c int
}

const (
	allocChunk = 1024
	// maxRun is the longest run of operand records or results that is recycled.
	maxRun = 8
)

// NewOp is Context.NewOp, allocating from a's chunks.
func (a *Allocator) NewOp(c *Context, spec OpSpec) *Op { return newOp(c, spec, a) }

// opRecord returns a zeroed op record for an op of nres results: with an extension holding nres-1 further results
// when nres > 1 (newOp writes the results whole).
func (a *Allocator) opRecord(nres int) *Op {
	if a.nFreeOps == 0 {
		return a.newRecord(nres)
	}
	if nres <= maxRun {
		if op := a.freeOps[nres]; op != nil {
			a.freeOps[nres] = op.next
			a.nFreeOps--
			ext := op.ext
			*op = Op{}
			if nres > 1 {
				ext.regions = nil
				op.ext = ext
			}
			return op
		}
	}
	for k, free := range a.freeOps {
		if free != nil {
			// A record that kept another number of results: its further results go to their own list.
			a.freeOps[k] = free.next
			a.nFreeOps--
			if k > 1 {
				free.ext.regions = nil
				a.freeExts[k] = append(a.freeExts[k], free.ext)
			}
			*free = Op{}
			if nres > 1 {
				free.ext = a.extRecord(nres)
			}
			return free
		}
	}
	return a.newRecord(nres)
}

// newRecord is opRecord when no record is free.
func (a *Allocator) newRecord(nres int) *Op {
	if len(a.ops) == 0 {
		chunk := a.takeOpChunk()
		base := uintptr(unsafe.Pointer(chunk))
		i, _ := slices.BinarySearch(a.opBase, base)
		a.opChunks = slices.Insert(a.opChunks, i, chunk)
		a.opBase = slices.Insert(a.opBase, i, base)
		a.ops = chunk[:]
	}
	op := &a.ops[0]
	a.ops = a.ops[1:]
	if nres > 1 {
		op.ext = a.extRecord(nres)
	}
	return op
}

// extRecord returns an op extension holding the nres-1 further results of an op of nres results.
func (a *Allocator) extRecord(nres int) *opExt {
	if nres <= maxRun {
		if free := a.freeExts[nres]; len(free) > 0 {
			a.freeExts[nres] = free[:len(free)-1]
			return free[len(free)-1]
		}
	}
	if len(a.exts) == 0 {
		a.exts = make([]opExt, allocChunk/8)
	}
	ext := &a.exts[0]
	a.exts = a.exts[1:]
	n := nres - 1
	ext.nMore = uint32(n)
	if n > allocChunk/4 {
		ext.more = unsafe.SliceData(make([]extraResult, n))
		return ext
	}
	if len(a.more) < n {
		a.more = make([]extraResult, allocChunk)
	}
	ext.more = &a.more[0]
	a.more = a.more[n:]
	return ext
}

// useRun returns n contiguous operand records that link nowhere (value, prev and next nil; the owner is set by
// newOp).
func (a *Allocator) useRun(n int) []Use {
	if n == 0 {
		return nil
	}
	if n <= maxRun && a.nFreeUses > 0 {
		for k := n; k <= maxRun; k++ {
			if head := a.freeUses[k]; head != nil {
				a.freeUses[k] = head.next
				a.nFreeUses--
				head.next = nil
				run := unsafe.Slice(head, k)
				if k > n {
					a.pushUses(&run[n], k-n)
				}
				return run[:n:n]
			}
		}
	}
	if n > allocChunk/4 {
		return make([]Use, n)
	}
	if len(a.uses) < n {
		chunk := a.takeUseChunk()
		base := uintptr(unsafe.Pointer(chunk))
		i, _ := slices.BinarySearch(a.chunkBase, base)
		a.useChunks = slices.Insert(a.useChunks, i, chunk)
		a.chunkBase = slices.Insert(a.chunkBase, i, base)
		a.uses = chunk[:]
	}
	s := a.uses[:n:n]
	a.uses = a.uses[n:]
	return s
}

// chunkOf returns the index of the chunk holding the n records at p, or -1 if they are not in one of a's chunks.
func (a *Allocator) chunkOf(p *Use, n int) int {
	addr := uintptr(unsafe.Pointer(p))
	end := addr + uintptr(n)*unsafe.Sizeof(Use{})
	const size = unsafe.Sizeof([allocChunk]Use{})
	if i := a.lastChunk; i < len(a.chunkBase) && addr >= a.chunkBase[i] && end <= a.chunkBase[i]+size {
		return i // runs freed together are usually in one chunk
	}
	lo, hi := 0, len(a.chunkBase) // the first chunk starting after addr is in [lo, hi]
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if a.chunkBase[m] <= addr {
			lo = m + 1
		} else {
			hi = m
		}
	}
	i := lo - 1
	if i < 0 || end > a.chunkBase[i]+size {
		return -1
	}
	a.lastChunk = i
	return i
}

// pushUses adds the unlinked run of k operand records at head to the free lists.
func (a *Allocator) pushUses(head *Use, k int) {
	head.next = a.freeUses[k]
	a.freeUses[k] = head
	a.nFreeUses++
}

// TrackErased makes rewriters that allocate from a (Builder.Alloc) remember the ops they erase, so that Reuse can
// recycle them. Only a caller that knows every pointer to an erased op is dropped may turn it on: see Reuse.
func (a *Allocator) TrackErased(on bool) {
	a.track = on
	if !on {
		a.erased = a.erased[:0]
	}
}

// Reuse recycles the ops erased since the last call (by rewriters allocating from a, with TrackErased on): their
// op records, operand records and results go to the next ops a allocates. Afterwards a pointer to such an op, its
// results or its uses may designate whatever op takes its place; so the caller must hold none (the rewrite driver
// calls Reuse between rewrites, when its worklist, matches and listeners have let go of the erased ops).
func (a *Allocator) Reuse() {
	if len(a.erased) == 0 {
		return
	}
	runs := a.runs[:0]
	for _, op := range a.erased {
		if !op.isErased() {
			continue // erased twice, or not at all: leave it alone
		}
		if n := int(op.nOperands); n > 0 {
			if c := a.chunkOf(op.uses, n); c >= 0 {
				// Erasing unlinked every record (value, prev and next are nil); newOp sets the owner.
				runs = append(runs, useRun{op.uses, n, c})
			}
		}
		k := op.NumResults()
		if k > maxRun {
			k = 0 // the further results are not recycled
		}
		if k < 2 {
			op.ext = nil // regions, if any, are not recycled
		}
		// The record is cleared when it is taken (opRecord), and newOp writes its results whole.
		op.next = a.freeOps[k]
		a.freeOps[k] = op
		a.nFreeOps++
	}
	a.erased = a.erased[:0] // the pointers left behind are to records of the program's chunks
	// The operand records of ops erased together often touch (a conv2d's two and its batch_norm's five were
	// allocated one after the other): merged, they can serve a fused op that takes more than either.
	for i := 1; i < len(runs); i++ { // by address; a batch is a few ops
		r := runs[i]
		j := i
		for ; j > 0 && uintptr(unsafe.Pointer(runs[j-1].p)) > uintptr(unsafe.Pointer(r.p)); j-- {
			runs[j] = runs[j-1]
		}
		runs[j] = r
	}
	for i := 0; i < len(runs); {
		r := runs[i]
		i++
		for i < len(runs) && runs[i].c == r.c && unsafe.Add(unsafe.Pointer(r.p), uintptr(r.n)*unsafe.Sizeof(Use{})) == unsafe.Pointer(runs[i].p) {
			r.n += runs[i].n
			i++
		}
		for r.n > 0 {
			k := min(r.n, maxRun)
			a.pushUses(r.p, k)
			r.p = unsafe.SliceData(unsafe.Slice(r.p, r.n)[k:])
			r.n -= k
		}
	}
	a.runs = runs[:0]
}

// erasedBy records an op a rewriter allocating from a erased.
func (a *Allocator) erasedBy(op *Op) {
	if a.track {
		a.erased = append(a.erased, op)
	}
}

// OpIDs numbers the ops of a program densely, for tables indexed by op (the text printer numbers values with one):
// an op allocated from the program's allocator gets a number below Len, from its place in the allocator's chunks,
// and other ops (Context.NewOp, Clone) get -1. The numbering holds until the program allocates more ops.
type OpIDs struct {
	base []uintptr // the allocator's op chunks, sorted by address
	last int       // the chunk of the last lookup, tried first
	prev int       // the chunk of the lookup before, tried second (an op's and its operands' definers alternate)
}

// OpIDs returns the numbering of the ops of p's allocator. It only reads the program.
func (p *Program) OpIDs() *OpIDs {
	if p.alloc == nil {
		return &OpIDs{}
	}
	return &OpIDs{base: p.alloc.opBase}
}

// Len returns the bound of the numbers.
func (ids *OpIDs) Len() int { return len(ids.base) * allocChunk }

// ID returns the number of op, or -1.
func (ids *OpIDs) ID(op *Op) int {
	addr := uintptr(unsafe.Pointer(op))
	const size = unsafe.Sizeof([allocChunk]Op{})
	if i := ids.last; i < len(ids.base) && addr-ids.base[i] < size {
		return i*allocChunk + int((addr-ids.base[i])/unsafe.Sizeof(Op{}))
	}
	if i := ids.prev; i < len(ids.base) && addr-ids.base[i] < size {
		ids.prev, ids.last = ids.last, i
		return i*allocChunk + int((addr-ids.base[i])/unsafe.Sizeof(Op{}))
	}
	lo, hi := 0, len(ids.base)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ids.base[m] <= addr {
			lo = m + 1
		} else {
			hi = m
		}
	}
	i := lo - 1
	if i < 0 || addr-ids.base[i] >= size {
		return -1
	}
	ids.prev, ids.last = ids.last, i
	return i*allocChunk + int((addr-ids.base[i])/unsafe.Sizeof(Op{}))
}
