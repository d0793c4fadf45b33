package ir

// ParamsBuilder builds the parameter table of a program a reader is reading (what NewParams computes) from the
// parameter ops the reader hands it in program order. Started concurrent, it reads the ops on a goroutine of its
// own while the reader reads on: each reading op's name and type into a variable, in program order (at gen.py's 1M
// blocks, 687,000 ops scattered over 700 MB, a cache miss or two each). Params then enters the variables into a
// map of the right size on the caller's goroutine, the first reader of a name winning as in NewParams: the map is
// not built on the goroutine because, not knowing its size, it would grow, and what it grows out of stays (drrc
// apply collects no garbage at that size: 28 MB). The reader hands the goroutine each run of its OpList as the
// run fills; Params hands it the last one and waits.
//
// The ops must not change once appended (readers make each op whole, operands, attributes and result types
// included), and the reader must call Params or Stop before it lets the ops go.
type ParamsBuilder struct {
	ctx  *Context
	ops  OpList
	sent int           // the runs of ops handed to the goroutine
	runs chan []*Op    // nil when not concurrent
	done chan struct{} // closed when the goroutine ends
	vars [][]Variable  // the goroutine's: a variable per reading op, in program order, in slabs
	sets []*Op         // the goroutine's: the set_parameter ops, for the end
}

// NewParamsBuilder returns a builder for a program of ctx, building on its own goroutine if concurrent (for a
// large source: the goroutine costs a channel operation per 4,096 parameter ops).
func NewParamsBuilder(ctx *Context, concurrent bool) *ParamsBuilder {
	b := &ParamsBuilder{ctx: ctx}
	if concurrent {
		b.runs = make(chan []*Op, 4)
		b.done = make(chan struct{})
		go b.read()
	}
	return b
}

// Append adds the next parameter op (builtin.parameter, get_parameter or set_parameter: IsParamOp).
func (b *ParamsBuilder) Append(op *Op) {
	b.ops.Append(op)
	if b.runs != nil {
		if last := b.ops.runs[len(b.ops.runs)-1]; len(last) == cap(last) {
			b.runs <- last // full: never appended to again
			b.sent++
		}
	}
}

// Params returns the parameter table of the ops appended, waiting for the goroutine if there is one.
func (b *ParamsBuilder) Params() map[string]*Variable {
	if b.runs == nil {
		return NewParams(b.ctx, &b.ops)
	}
	if k := len(b.ops.runs); b.sent < k {
		b.runs <- b.ops.runs[k-1]
		b.sent++
	}
	b.Stop()
	n := 0
	for _, slab := range b.vars {
		n += len(slab)
	}
	params := make(map[string]*Variable, n)
	// Last to first, so that the first op reading a name makes its entry, with one map assignment per variable.
	for k := len(b.vars) - 1; k >= 0; k-- {
		slab := b.vars[k]
		for i := len(slab) - 1; i >= 0; i-- {
			params[slab[i].Name] = &slab[i]
		}
	}
	// The writes come last, as in NewParams: a name read anywhere has its first reader's type.
	for _, op := range b.sets {
		setParam(b.ctx, params, op, func(v Variable) *Variable { return &v })
	}
	return params
}

// Stop ends the goroutine, if any, and waits for it (a reader that fails calls it instead of Params).
func (b *ParamsBuilder) Stop() {
	if b.runs == nil || b.done == nil {
		return
	}
	close(b.runs)
	<-b.done
	b.done = nil
}

// read is the goroutine: a variable for each op reading a parameter, the writes kept for the end.
func (b *ParamsBuilder) read() {
	defer close(b.done)
	for run := range b.runs {
		for _, op := range run {
			if op.info.Name == SetParameterOpName {
				b.sets = append(b.sets, op)
				continue
			}
			v, ok := readVariable(op)
			if !ok {
				continue
			}
			if k := len(b.vars) - 1; k < 0 || len(b.vars[k]) == cap(b.vars[k]) {
				b.vars = append(b.vars, make([]Variable, 0, opListRun))
			}
			last := &b.vars[len(b.vars)-1]
			*last = append(*last, v)
		}
	}
}
