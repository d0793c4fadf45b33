package interp

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// Evaluate runs p on the CPU with the inputs and parameters of feed (parameters missing from feed are read from
// ir.Variable.Data) and returns its outputs. Evaluation stops at the first op it cannot evaluate, with an *OpError
// ("cannot evaluate pd_op.X at FILE:LINE"); it never panics and never guesses.
func Evaluate(p *ir.Program, feed *Feed, opts Options) (*Result, error) {
	if p == nil {
		return nil, errors.New("interp: nil program")
	}
	if feed == nil {
		feed = &Feed{}
	}
	opts.Precision = opts.Precision.Resolve(p)
	if opts.Precision == Float32 {
		return run(p, feed, opts, registry32)
	}
	return run(p, feed, opts, registry64)
}

// machine is the state of one evaluation.
type machine[T tensor.Float] struct {
	prog   *ir.Program
	opts   Options
	feed   *Feed
	kern   registry[T]
	env    map[*ir.Value]*value[T]
	params map[string]*value[T]
	// outputs collects fetches as they run; shadows are read at the end.
	outputs []Output
	shadows []shadow[T]
	cur     *ir.Op
	// life says what to drop after each top-level op (nil: keep everything).
	life *lifetimes
	// randomCount numbers the random ops of each kind in execution order (their stream keys).
	randomCount map[string]int
	// pending holds the top-level parameter reads deferred to their first reader (see liveness.go); nil when the
	// program's parameter reads run where they stand.
	pending map[*ir.Value]*ir.Op
	// bufs maps the buffers of values reused from another evaluation to this machine's (carry.go).
	bufs map[*buffer[T]]*buffer[T]
}

type shadow[T tensor.Float] struct {
	name string
	v    *value[T]
}

func run[T tensor.Float](p *ir.Program, feed *Feed, opts Options, kern registry[T]) (res *Result, err error) {
	m := &machine[T]{prog: p, opts: opts, feed: feed, kern: kern,
		env: map[*ir.Value]*value[T]{}, params: map[string]*value[T]{}, randomCount: map[string]int{}}
	defer func() {
		if r := recover(); r != nil {
			res = nil
			name, where := "(no op)", ""
			if m.cur != nil {
				name, where = m.cur.Name(), Where(p, m.cur)
			}
			err = &OpError{Op: name, Where: where,
				Err: fmt.Errorf("internal error (please report): %v", r)}
		}
	}()
	if p.Module == nil || p.Module.NumRegions() == 0 || p.Module.Region(0).NumBlocks() == 0 {
		return nil, errors.New("interp: program has no body")
	}
	deferParams := !replacesParams(p)
	if deferParams {
		m.pending = map[*ir.Value]*ir.Op{}
	}
	m.life = computeLifetimes(p.Body(), !ir.HasOutputs(p), deferParams)
	if _, err := m.block(p.Body()); err != nil {
		return nil, err
	}
	res = &Result{Outputs: m.outputs, Precision: opts.Precision}
	for _, s := range m.shadows {
		h, raw := s.v.output(opts.Compact, false) // read at the end: no op writes it any more
		res.Outputs = append(res.Outputs, Output{Kind: ShadowOutput, Name: s.name, Col: -1, Value: h, Elems: raw, Random: s.v.isRandom(),
			Rounding: s.v.roundingOf()})
	}
	if len(res.Outputs) == 0 {
		res.Outputs = m.sinks()
	}
	return res, nil
}

// block evaluates the ops of b in order and returns the operands of its cf.yield terminator, if any.
func (m *machine[T]) block(b *ir.Block) ([]*value[T], error) {
	for op := range b.Ops() {
		m.cur = op
		if ctx := m.opts.Context; ctx != nil && ctx.Err() != nil {
			return nil, fmt.Errorf("interp: stopped before %s: %w", op.Name(), context.Cause(ctx))
		}
		var err error
		if m.pending != nil && b == m.prog.Body() && deferred(op, b) {
			m.pending[op.Result(0)] = op
			continue
		}
		if m.opts.SkipOutputs[op] || unusedParam(op) {
			continue
		}
		if b == m.prog.Body() && m.opts.Reuse != nil {
			if reused, err := m.reuse(op); err != nil {
				return nil, err
			} else if reused {
				m.release(op)
				continue
			}
		}
		switch op.Name() {
		case "cf.yield":
			return m.operands(op)
		case "pd_op.if":
			err = m.ifOp(op)
		case "pd_op.while":
			err = m.whileOp(op)
		default:
			err = m.evalOp(op)
		}
		if err != nil {
			return nil, err
		}
		if b == m.prog.Body() {
			m.keep(op)
			m.release(op)
		}
	}
	return nil, nil
}

// operands returns the values of op's operands (nil for absent ones).
func (m *machine[T]) operands(op *ir.Op) ([]*value[T], error) {
	args := make([]*value[T], op.NumOperands())
	for i := range args {
		v := op.Operand(i)
		if v == nil {
			continue
		}
		a, ok := m.env[v]
		if d := m.pending[v]; !ok && d != nil {
			delete(m.pending, v)
			if err := m.evalOp(d); err != nil {
				return nil, err
			}
			a, ok = m.env[v]
		}
		if !ok {
			return nil, m.opErr(op, fmt.Errorf("operand %d is not defined before its use", i))
		}
		if a == nil {
			return nil, m.opErr(op, fmt.Errorf("operand %d reads a result the interpreter does not compute", i))
		}
		args[i] = a
	}
	return args, nil
}

func (m *machine[T]) opErr(op *ir.Op, err error) error {
	var oe *OpError
	if errors.As(err, &oe) {
		return err
	}
	return &OpError{Op: op.Name(), Where: Where(m.prog, op), Err: err}
}

// lookup finds the kernel of op: by name, or for an inplace op (X_) the kernel of its non-inplace form, the
// machine doing the inplace write.
func (m *machine[T]) lookup(op *ir.Op) kernel[T] {
	if k := m.kern[op.Name()]; k != nil {
		return k
	}
	if s := op.Schema(); s != nil && len(s.Inplace) > 0 {
		return m.kern[ir.NonInplaceName(op.Name())]
	}
	return nil
}

// evalOp evaluates a regionless op with its kernel and binds its results.
func (m *machine[T]) evalOp(op *ir.Op) error {
	if op.NumRegions() > 0 {
		return m.opErr(op, errNoKernel)
	}
	k := m.lookup(op)
	if k == nil {
		return m.opErr(op, errNoKernel)
	}
	args, err := m.operands(op)
	if err != nil {
		return err
	}
	if !complexAware[op.Name()] {
		for i, a := range args {
			if a != nil && a.hasComplex() {
				return m.opErr(op, unsupported("complex operand %d", i))
			}
		}
	}
	res, err := k(&call[T]{m: m, op: op, args: args})
	if err != nil {
		return m.opErr(op, err)
	}
	if len(res) > op.NumResults() {
		return m.opErr(op, fmt.Errorf("kernel returned %d results for %d", len(res), op.NumResults()))
	}
	if err := m.finish(op, args, res); err != nil {
		return m.opErr(op, err)
	}
	random := isRandomOp(op)
	rounding := 0.0
	for _, a := range args {
		random = random || a != nil && a.isRandom()
		rounding = max(rounding, a.roundingOf())
	}
	rounding += roundingCost(op, args, res)
	for _, r := range res {
		if r != nil {
			r.setRounding(rounding)
		}
	}
	if random {
		for _, r := range res {
			if r != nil {
				r.markRandom()
			}
		}
	}
	for j := 0; j < op.NumResults(); j++ {
		var v *value[T]
		if j < len(res) {
			v = res[j]
		}
		m.env[op.Result(j)] = v
	}
	return nil
}

// finish applies the declared types and the buffer semantics of the schema to kernel results: fresh results take
// the declared element type (integers truncated, booleans 0/1) and are checked against the declared static dims;
// inplace results (X_: operand → result) are written into their operand's buffer and share it; view results
// share their operand's buffer (views that also write, such as batch_norm's statistics in training, write first).
func (m *machine[T]) finish(op *ir.Op, args, res []*value[T]) error {
	for j, r := range res {
		if r == nil {
			continue
		}
		if err := m.declare(op, j, r, args); err != nil {
			return err
		}
	}
	s := op.Schema()
	if s == nil {
		return nil
	}
	share := func(p ir.IOPair, write bool) error {
		if p.Operand >= len(args) || p.Result >= len(res) || args[p.Operand] == nil || res[p.Result] == nil {
			return nil
		}
		a, r := args[p.Operand], res[p.Result]
		if a.vec || r.vec || a.buf == r.buf || len(r.buf.data) == 0 {
			return nil // an empty result has no element to share
		}
		if len(a.buf.data) != len(r.buf.data) {
			return fmt.Errorf("result %d (shape %v) cannot share the buffer of operand %d (shape %v)",
				p.Result, r.shape, p.Operand, a.shape)
		}
		if write {
			a.buf.overwrite(r.buf, args, res, p.Result)
		}
		res[p.Result] = a.view(r.shape, r.dtype)
		return nil
	}
	for _, p := range s.Inplace {
		if err := share(p, true); err != nil {
			return err
		}
	}
	for _, p := range s.View {
		if err := share(p, !s.Has(ir.ReadOnly)); err != nil {
			return err
		}
	}
	return nil
}

// declare sets the element type of result j of op from its declared type and checks its static dims.
func (m *machine[T]) declare(op *ir.Op, j int, r *value[T], args []*value[T]) error {
	t := op.Result(j).Type()
	if r.vec {
		vt, ok := t.(*ir.VectorType)
		if !ok {
			return fmt.Errorf("result %d is a vector but its type is %s", j, t)
		}
		if len(vt.Elems) != len(r.elems) {
			return fmt.Errorf("result %d has %d elements, its type %d", j, len(r.elems), len(vt.Elems))
		}
		for k, e := range r.elems {
			if err := m.declareTensor(vt.Elems[k], e, args, fmt.Sprintf("result %d element %d", j, k)); err != nil {
				return err
			}
		}
		return nil
	}
	return m.declareTensor(t, r, args, fmt.Sprintf("result %d", j))
}

func (m *machine[T]) declareTensor(t ir.Type, r *value[T], args []*value[T], what string) error {
	if dt := ir.ElemDType(t); dt != ir.DTypeUndefined {
		fresh := true
		for _, a := range args {
			if a != nil && a.buf == r.buf {
				fresh = false
			}
		}
		if fresh && r.buf.borrowed {
			fresh = false
		}
		if fresh {
			normalizeDType(r.buf.data, dt)
		}
		r.dtype = dt
	}
	if err := m.opts.CheckSize(what, r.shape); err != nil {
		return err
	}
	if n := r.NumElements(); len(r.buf.data) != n && !(isComplex(r.dtype) && len(r.buf.data) == 2*n) {
		return fmt.Errorf("%s holds %d elements for shape %v (internal error)", what, len(r.buf.data), r.shape)
	}
	tt := ir.TensorOf(t)
	if tt == nil || m.opts.IgnoreDeclaredShapes {
		return nil
	}
	if !dimsAgree(tt.Dims, r.shape) {
		return fmt.Errorf("%s has shape %v but its type is %s", what, r.shape, t)
	}
	return nil
}

// dimsAgree reports whether a computed shape fits declared dims (equal rank, equal static dims).
func dimsAgree(dims []int64, shape []int) bool {
	if len(dims) != len(shape) {
		return false
	}
	for i, d := range dims {
		if d >= 0 && int(d) != shape[i] {
			return false
		}
	}
	return true
}

// sinks returns the outputs of a program without output ops: the results of the sinks of its top-level block
// (ir.IsSink), in program order, each element of a vector result on its own.
func (m *machine[T]) sinks() []Output {
	var out []Output
	var num *ir.Numbering
	for op := range m.prog.Body().Ops() {
		if !ir.IsSink(op) {
			continue
		}
		if num == nil {
			num = ir.NumberValues(m.prog.Body())
		}
		for j := 0; j < op.NumResults(); j++ {
			v := m.env[op.Result(j)]
			if v == nil {
				continue
			}
			name := fmt.Sprintf("%s (%s at %s)", num.Name(op.Result(j)), op.Name(), Where(m.prog, op))
			if !v.vec {
				h, raw := v.output(m.opts.Compact, false)
				out = append(out, Output{Kind: SinkOutput, Name: name, Col: -1, Value: h, Elems: raw, Random: v.isRandom(), Rounding: v.roundingOf()})
				continue
			}
			for k, e := range v.elems {
				h, raw := e.output(m.opts.Compact, false)
				out = append(out, Output{Kind: SinkOutput, Name: fmt.Sprintf("%s[%d]", name, k), Col: -1, Value: h, Elems: raw, Random: e.isRandom(),
					Rounding: e.roundingOf()})
			}
		}
	}
	return out
}

// truthy reads a condition value: a one-element tensor, true when non-zero.
func truthy[T tensor.Float](v *value[T]) (bool, error) {
	if v == nil || v.vec {
		return false, errors.New("the condition is not a tensor")
	}
	if len(v.buf.data) != 1 {
		return false, fmt.Errorf("the condition must hold one element, has shape %v", v.shape)
	}
	return v.buf.data[0] != 0, nil
}

// ifOp evaluates pd_op.if: region 0 when the condition holds, else region 1; the results are the operands of the
// region's cf.yield (sharing their buffers).
func (m *machine[T]) ifOp(op *ir.Op) error {
	args, err := m.operands(op)
	if err != nil {
		return err
	}
	if len(args) != 1 || op.NumRegions() != 2 {
		return m.opErr(op, fmt.Errorf("pd_op.if needs 1 operand and 2 regions, has %d and %d", len(args), op.NumRegions()))
	}
	cond, err := truthy(args[0])
	if err != nil {
		return m.opErr(op, err)
	}
	r := op.Region(1)
	if cond {
		r = op.Region(0)
	}
	var ys []*value[T]
	if r.NumBlocks() > 0 {
		if ys, err = m.block(r.Block(0)); err != nil {
			return err
		}
	}
	m.cur = op
	if len(ys) != op.NumResults() {
		return m.opErr(op, fmt.Errorf("the taken branch yields %d values for %d results", len(ys), op.NumResults()))
	}
	return m.bindRegionResults(op, ys)
}

// whileOp evaluates pd_op.while: the body's arguments start as the loop inputs; while the condition holds the body
// runs and its cf.yield gives the next condition and values; the results are the last values.
func (m *machine[T]) whileOp(op *ir.Op) error {
	args, err := m.operands(op)
	if err != nil {
		return err
	}
	if len(args) < 1 || op.NumRegions() != 1 || op.Region(0).NumBlocks() != 1 {
		return m.opErr(op, errors.New("pd_op.while needs a condition operand and one single-block region"))
	}
	body := op.Region(0).Block(0)
	cond, vals := args[0], slices.Clone(args[1:])
	if body.NumArgs() != len(vals) || op.NumResults() != len(vals) {
		return m.opErr(op, fmt.Errorf("pd_op.while has %d loop values, %d body arguments and %d results",
			len(vals), body.NumArgs(), op.NumResults()))
	}
	for iter := 0; ; iter++ {
		ok, err := truthy(cond)
		if err != nil {
			return m.opErr(op, err)
		}
		if !ok {
			break
		}
		if iter >= m.opts.maxLoop() {
			return m.opErr(op, fmt.Errorf("the loop did not end within %d iterations (Options.MaxLoopIterations)", m.opts.maxLoop()))
		}
		for i, a := range body.Args() {
			m.env[a] = vals[i]
		}
		ys, err := m.block(body)
		if err != nil {
			return err
		}
		m.cur = op
		if len(ys) != len(vals)+1 {
			return m.opErr(op, fmt.Errorf("the body yields %d values, want the condition and %d loop values", len(ys), len(vals)))
		}
		cond, vals = ys[0], ys[1:]
	}
	return m.bindRegionResults(op, vals)
}

func (m *machine[T]) bindRegionResults(op *ir.Op, vals []*value[T]) error {
	for j, v := range vals {
		if v != nil && !v.vec && !m.opts.IgnoreDeclaredShapes {
			if tt := ir.TensorOf(op.Result(j).Type()); tt != nil && !dimsAgree(tt.Dims, v.shape) {
				return m.opErr(op, fmt.Errorf("result %d has shape %v but its type is %s", j, v.shape, tt))
			}
		}
		m.env[op.Result(j)] = v
	}
	return nil
}
