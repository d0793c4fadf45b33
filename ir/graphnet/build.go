package graphnet

import (
	"fmt"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/ir"
)

// builder turns the forward function of a GraphNet model.py into a program. Every statement of forward but del and
// return is one op; the comment before it says which op, with which result and operand types (the truth about
// the op); the statement's form and the call's arguments give its operands and attributes, by the catalog's
// argument order (ir.OpSchema.Args).
type builder struct {
	ctx   *ir.Context
	prog  *ir.Program
	b     *ir.Builder
	rw    *ir.Rewriter
	file  string // model.py, for messages
	env   map[string]binding
	memo  map[string]ir.Type
	sigs  map[string]sigTypes // the types of signature comments, by their text
	trueA *ir.ArrayAttr
	// inputs are the forward parameters (parameter and data ops), which have the metadata's type until their first
	// use fixes the program's type (which may have -1 dims).
	inputs []*inputInfo
	fetch  int
	// attrCache remembers the attribute each literal argument became, by its type and source text, so that the
	// Context's interning runs once per distinct value.
	attrCache map[attrKey]ir.Attribute
	sgAttrs   [2][]*ir.ArrayAttr // stop_gradient arrays by value and length
	// scratch space of callForm
	scratchArgs     []expr
	scratchGiven    []bool
	scratchOperands []*ir.Value
	scratchAttrs    []ir.Attribute
}

// While building, each op's mark (ir.Op.Mark) holds the stop_gradient of its results (bit 0) and, for the ops of
// forward's parameters, 1 + their index in builder.inputs (the other bits). finish resets the marks to 0.
const markStopGradient = 1

// binding is what a Python name stands for: a value, or, once del removed it, the line of the del.
type binding struct {
	v    *ir.Value
	gone int32
}

func stopGradient(v *ir.Value) bool { return v.DefiningOp().Mark()&markStopGradient != 0 }

func (b *builder) inputOf(v *ir.Value) *inputInfo {
	d := v.DefiningOp()
	if d == nil {
		return nil
	}
	if i := d.Mark() >> 1; i > 0 {
		return b.inputs[i-1]
	}
	return nil
}

// inputInfo is what the builder knows of a forward parameter: its op and metadata, and whether its type was
// already checked against a use.
type inputInfo struct {
	op    *ir.Op
	meta  *tensorMeta
	fixed bool
	data  bool // a pd_op.data op (else builtin.parameter)
}

func newBuilder(ctx *ir.Context, file string) *builder {
	p := ir.NewProgram(ctx)
	b := ir.NewBuilder(ctx)
	b.Alloc = &ir.Allocator{}
	b.SetInsertionPointToEnd(p.Body())
	return &builder{ctx: ctx, prog: p, b: b, rw: ir.NewRewriter(ctx, nil), file: file, env: map[string]binding{},
		memo: map[string]ir.Type{}, sigs: map[string]sigTypes{}, trueA: ctx.Array(ctx.Bool(true))}
}

func (b *builder) errorf(p ir.Loc, format string, args ...any) *Error {
	return errorAt(b.file, p, format, args...)
}

// forward finds GraphModule.forward in the module.
func (b *builder) forward(body []stmt) (*funcDef, *Error) {
	var cls *classDef
	for _, s := range body {
		switch s := s.(type) {
		case *importStmt:
		case *classDef:
			if cls != nil {
				return nil, b.errorf(s.pos, "a second class %s (a GraphNet model.py holds one class, GraphModule)", s.name)
			}
			cls = s
		default:
			return nil, b.errorf(s.start(), "unexpected top-level statement (a GraphNet model.py holds imports and class GraphModule)")
		}
	}
	if cls == nil {
		return nil, &Error{Pos: diag.Position{Filename: b.file}, Msg: "no class GraphModule"}
	}
	for _, s := range cls.body {
		if f, ok := s.(*funcDef); ok && f.name == "forward" {
			if len(f.params) == 0 || f.params[0].name != "self" {
				return nil, b.errorf(f.pos, "forward must take self first")
			}
			return f, nil
		}
	}
	return nil, b.errorf(cls.pos, "class %s has no forward method", cls.name)
}

// params creates the parameter and data ops of forward's parameters, in their order.
func (b *builder) params(f *funcDef, weights, inputs []tensorMeta, weightFile, inputFile string) *Error {
	byName := map[string]*tensorMeta{}
	isInput := map[string]bool{}
	for i := range weights {
		byName[weights[i].name] = &weights[i]
	}
	for i := range inputs {
		if _, dup := byName[inputs[i].name]; dup {
			return errorAt(inputFile, inputs[i].pos, "%s is described in both weight_meta.py and input_meta.py", inputs[i].name)
		}
		byName[inputs[i].name] = &inputs[i]
		isInput[inputs[i].name] = true
	}
	used := map[string]bool{}
	for _, prm := range f.params[1:] {
		m := byName[prm.name]
		if m == nil {
			return b.errorf(prm.pos, "forward parameter %s is described in neither weight_meta.py nor input_meta.py", prm.name)
		}
		if used[prm.name] {
			return b.errorf(prm.pos, "forward takes %s twice", prm.name)
		}
		used[prm.name] = true
		t := b.ctx.Tensor(ir.DenseTensor, m.shape, b.ctx.Scalar(m.dtype))
		info := &inputInfo{meta: m, data: isInput[prm.name]}
		if info.data {
			info.op = b.b.Create(ir.OpSpec{Name: opData, Results: []ir.Type{t}, Loc: prm.pos})
			if b.prog.Feeds == nil {
				b.prog.Feeds = map[string]*ir.Variable{}
			}
			b.prog.Feeds[m.name] = &ir.Variable{Name: m.name, Type: t, Data: m.data, Stats: m.stats, OriginalName: m.originalName}
		} else {
			c := b.ctx
			falseA := c.Array(c.Bool(false))
			info.op = b.b.Create(ir.OpSpec{Name: ir.ParameterOpName, Results: []ir.Type{t}, Loc: prm.pos,
				Attrs: []ir.NamedAttr{{Name: "is_distributed", Value: falseA}, {Name: "is_parameter", Value: b.trueA},
					{Name: "need_clip", Value: b.trueA}, {Name: "parameter_name", Value: c.Str(m.name)},
					{Name: "persistable", Value: b.trueA}, {Name: "stop_gradient", Value: falseA},
					{Name: "trainable", Value: b.trueA}}})
			b.prog.Params[m.name] = &ir.Variable{Name: m.name, Type: t, Data: m.data, Stats: m.stats, OriginalName: m.originalName}
		}
		v := info.op.Result(0)
		b.inputs = append(b.inputs, info)
		info.op.SetMark(int32(len(b.inputs)) << 1) // stop_gradient false
		b.env[prm.name] = binding{v: v}
	}
	for _, list := range []struct {
		metas []tensorMeta
		file  string
	}{{weights, weightFile}, {inputs, inputFile}} {
		for _, m := range list.metas {
			if !used[m.name] {
				return errorAt(list.file, m.pos, "%s is not a parameter of forward in model.py", m.name)
			}
		}
	}
	return nil
}

// finish gives the data ops their attributes, now that their types are known, and resets the marks.
func (b *builder) finish() {
	for op := range b.prog.Body().Ops() {
		op.SetMark(0)
	}
	c := b.ctx
	falseA := c.Array(c.Bool(false))
	for _, info := range b.inputs {
		op := info.op
		t := op.Result(0).Type().(*ir.TensorType)
		if info.data {
			b.rw.SetAttrs(op, []ir.NamedAttr{{Name: "name", Value: c.Str(info.meta.name)},
				{Name: "shape", Value: c.IntArray(t.Dims)}, {Name: "dtype", Value: c.DataType(t.DType())},
				{Name: "place", Value: c.Place(expectedPlace)}, {Name: "stop_gradient", Value: falseA}})
		}
	}
}

// body builds the ops of forward's statements.
func (b *builder) body(f *funcDef) *Error {
	var ret *returnStmt
	for _, s := range f.body {
		if ret != nil {
			return b.errorf(s.start(), "statement after return")
		}
		var err *Error
		switch s := s.(type) {
		case *delStmt:
			err = b.del(s)
		case *returnStmt:
			ret = s
			err = b.ret(s)
		case *assignStmt:
			err = b.assign(s)
		case *passStmt:
		case *exprStmt:
			err = b.errorf(s.pos, "an expression statement is not an op (GraphNet assigns every op's results)")
		default:
			err = b.errorf(s.start(), "unsupported statement in forward")
		}
		if err != nil {
			return err
		}
	}
	if ret == nil {
		return b.errorf(f.pos, "forward has no return statement, so the graph has no outputs")
	}
	return nil
}

func (b *builder) del(s *delStmt) *Error {
	targets := s.targets
	if len(targets) == 1 {
		if t, ok := targets[0].(*tupleExpr); ok { // del (a, b,)
			targets = t.elems
		}
	}
	for _, t := range targets {
		n, ok := t.(*nameExpr)
		if !ok {
			return b.errorf(t.start(), "del of something other than a name")
		}
		if b.env[n.id].v == nil {
			return b.undefined(n)
		}
		b.env[n.id] = binding{gone: s.pos.Line}
	}
	return nil
}

func (b *builder) undefined(n *nameExpr) *Error {
	if line := b.env[n.id].gone; line > 0 {
		return b.errorf(n.pos, "%s was deleted at line %d", n.id, line)
	}
	return b.errorf(n.pos, "%s is not defined", n.id)
}

// ret marks the returned values as the program's outputs with fetch ops.
func (b *builder) ret(s *returnStmt) *Error {
	var elems []expr
	switch v := s.value.(type) {
	case nil:
		return b.errorf(s.pos, "forward returns nothing, so the graph has no outputs")
	case *tupleExpr:
		elems = v.elems
	case *listExpr:
		elems = v.elems
	default:
		elems = []expr{v}
	}
	if len(elems) == 0 {
		return b.errorf(s.pos, "forward returns nothing, so the graph has no outputs")
	}
	for _, e := range elems {
		v, err := b.value(e)
		if err != nil {
			return err
		}
		if v == nil {
			return b.errorf(e.start(), "forward returns None")
		}
		b.fixInput(v, v.Type())
		c := b.ctx
		op := b.b.Create(ir.OpSpec{Name: opFetch, Operands: []*ir.Value{v}, Results: []ir.Type{v.Type()}, Loc: e.start(),
			Attrs: []ir.NamedAttr{{Name: "name", Value: c.Str(fmt.Sprintf("%s%d", fetchNamePrefix, b.fetch))},
				{Name: "col", Value: c.Int32(int32(b.fetch))}, {Name: "persistable", Value: b.trueA},
				{Name: "stop_gradient", Value: c.Array(c.Bool(stopGradient(v)))}}})
		if stopGradient(v) {
			op.SetMark(markStopGradient)
		}
		b.fetch++
	}
	return nil
}

// value resolves an operand expression: a name bound to a value, or None (an absent optional operand, nil).
func (b *builder) value(e expr) (*ir.Value, *Error) {
	switch e := e.(type) {
	case *nameExpr:
		if e.id == "None" {
			return nil, nil
		}
		if bd := b.env[e.id]; bd.v != nil {
			return bd.v, nil
		}
		return nil, b.undefined(e)
	case *binExpr:
		// one_hot's guard against indices out of range: x % paddle.cast(num_classes, x.dtype) reads x.
		if x, ok := oneHotGuard(e); ok {
			return b.value(x)
		}
	}
	return nil, b.errorf(e.start(), "expected the name of a value")
}

// oneHotGuard recognizes GraphNet's x % paddle.cast(n, x.dtype) and returns x.
func oneHotGuard(e *binExpr) (expr, bool) {
	x, ok := e.x.(*nameExpr)
	if !ok || e.op != "%" {
		return nil, false
	}
	c, ok := e.y.(*callExpr)
	if !ok || !isDotted(c.fn, "paddle", "cast") || len(c.args) != 2 || len(c.keywords) != 0 {
		return nil, false
	}
	if _, ok := c.args[0].(*nameExpr); !ok {
		return nil, false
	}
	dt, ok := c.args[1].(*attrExpr)
	if !ok || dt.name != "dtype" || !isName(dt.x, x.id) {
		return nil, false
	}
	return x, true
}

// fixInput settles the type of a forward parameter at its first use: the metadata gives the sample's concrete
// shape, the comment the program's type, which may have -1 dims. Later uses must then agree with it exactly.
func (b *builder) fixInput(v *ir.Value, t ir.Type) bool {
	info := b.inputOf(v)
	if info == nil || info.fixed {
		return v.Type() == t
	}
	info.fixed = true
	if v.Type() == t {
		return true
	}
	have, ok1 := v.Type().(*ir.TensorType)
	want, ok2 := t.(*ir.TensorType)
	if !ok1 || !ok2 || have.DType() != want.DType() || len(have.Dims) != len(want.Dims) {
		return false
	}
	for i, d := range want.Dims {
		if d != have.Dims[i] && d != -1 {
			return false
		}
	}
	b.rw.SetType(v, t)
	if info.data {
		// The feed keeps the sample's concrete shape; the program's data op takes the comment's.
	} else if p := b.prog.Params[info.meta.name]; p != nil {
		p.Type = t
	}
	return true
}

// signatureOf finds the signature comment of a statement: the last comment line before it that has the
// "dialect.op: (…) <- (…)" form.
func (b *builder) signatureOf(s stmt) (*signature, *Error) {
	cs := s.leading()
	for i := len(cs) - 1; i >= 0; i-- {
		sig, ok, err := parseSignature(b.ctx, b.file, cs[i], b.memo, b.sigs)
		if err != nil {
			return nil, err
		}
		if ok {
			return sig, nil
		}
	}
	return nil, b.errorf(s.start(), "no '# dialect.op: (result types) <- (operand types)' comment before this statement")
}
