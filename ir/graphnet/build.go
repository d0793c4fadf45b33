package graphnet

import (
	"fmt"
	"strings"

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

func (b *builder) errorf(p Pos, format string, args ...any) *Error {
	return errorAt(b.file, p, format, args...)
}

func (b *builder) loc(p Pos) ir.Loc { return ir.Loc{Line: p.Line, Col: p.Col} }

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
		return nil, &Error{File: b.file, Msg: "no class GraphModule"}
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
			info.op = b.b.Create(ir.OpSpec{Name: opData, Results: []ir.Type{t}, Loc: b.loc(prm.pos)})
			if b.prog.Feeds == nil {
				b.prog.Feeds = map[string]*ir.Variable{}
			}
			b.prog.Feeds[m.name] = &ir.Variable{Name: m.name, Type: t, Data: m.data, Stats: m.stats, OriginalName: m.originalName}
		} else {
			c := b.ctx
			falseA := c.Array(c.Bool(false))
			info.op = b.b.Create(ir.OpSpec{Name: ir.ParameterOpName, Results: []ir.Type{t}, Loc: b.loc(prm.pos),
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
		op := b.b.Create(ir.OpSpec{Name: opFetch, Operands: []*ir.Value{v}, Results: []ir.Type{v.Type()}, Loc: b.loc(e.start()),
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

// assign builds the op of one assignment statement.
func (b *builder) assign(s *assignStmt) *Error {
	sig, err := b.signatureOf(s)
	if err != nil {
		return err
	}
	schema := b.ctx.Schema(sig.op)
	if schema == nil {
		return b.errorf(sig.pos, "op %s is not in the catalog", sig.op)
	}
	targets, err := b.targets(s.target)
	if err != nil {
		return err
	}
	var operands []*ir.Value
	var attrs []ir.NamedAttr
	value := s.value
	padded := 0
	if bin, ok := value.(*binExpr); ok && bin.op == "+" {
		// (lambda …)(…) + (None,): GraphNet pads the results of a call that returns fewer than the op has.
		if t, ok := bin.y.(*tupleExpr); ok && allNone(t.elems) {
			value, padded = bin.x, len(t.elems)
		}
	}
	switch v := value.(type) {
	case *listExpr:
		operands, attrs, err = b.listForm(sig, v)
	case *nameExpr:
		if sig.op != opAssign && sig.op != opSplit {
			return b.errorf(v.pos, "a plain name is %s or %s, not %s", opAssign, opSplit, sig.op)
		}
		var x *ir.Value
		if x, err = b.value(v); err == nil {
			operands = []*ir.Value{x}
		}
		if err == nil && x == nil {
			err = b.errorf(v.pos, "%s of None", sig.op)
		}
	case *callExpr:
		call := v
		if inner, ok := lambdaIdiom(v); ok {
			call = inner
		} else if padded > 0 {
			return b.errorf(v.start(), "unexpected '+' after a call")
		}
		operands, attrs, err = b.callForm(sig, schema, call)
	default:
		return b.errorf(value.start(), "unsupported expression for op %s", sig.op)
	}
	if err != nil {
		return err
	}
	return b.create(s, sig, schema, targets, operands, attrs)
}

func allNone(es []expr) bool {
	for _, e := range es {
		if !isName(e, "None") {
			return false
		}
	}
	return len(es) > 0
}

// targets returns the names a statement binds, in order: one name, or a tuple or list of names.
func (b *builder) targets(t expr) ([]*nameExpr, *Error) {
	switch t := t.(type) {
	case *nameExpr:
		return []*nameExpr{t}, nil
	case *tupleExpr:
		return b.nameList(t.elems)
	case *listExpr:
		return b.nameList(t.elems)
	}
	return nil, b.errorf(t.start(), "an op's results must be bound to names")
}

func (b *builder) nameList(es []expr) ([]*nameExpr, *Error) {
	out := make([]*nameExpr, len(es))
	for i, e := range es {
		n, ok := e.(*nameExpr)
		if !ok {
			return nil, b.errorf(e.start(), "an op's results must be bound to names")
		}
		out[i] = n
	}
	return out, nil
}

// lambdaIdiom recognizes (lambda x, f: f(x))(CALL, lambda out: …), GraphNet's way of calling an op with several
// results, and returns CALL.
func lambdaIdiom(c *callExpr) (*callExpr, bool) {
	l, ok := c.fn.(*lambdaExpr)
	if !ok || len(l.params) != 2 || len(c.args) != 2 || len(c.keywords) != 0 {
		return nil, false
	}
	body, ok := l.body.(*callExpr)
	if !ok || !isName(body.fn, l.params[1]) || len(body.args) != 1 || !isName(body.args[0], l.params[0]) {
		return nil, false
	}
	if _, ok := c.args[1].(*lambdaExpr); !ok {
		return nil, false
	}
	inner, ok := c.args[0].(*callExpr)
	return inner, ok
}

// listForm handles name = [...]: full_int_array's value or combine's operands.
func (b *builder) listForm(sig *signature, l *listExpr) ([]*ir.Value, []ir.NamedAttr, *Error) {
	switch sig.op {
	case opCombine:
		vals := make([]*ir.Value, len(l.elems))
		for i, e := range l.elems {
			v, err := b.value(e)
			if err != nil {
				return nil, nil, err
			}
			if v == nil {
				return nil, nil, b.errorf(e.start(), "builtin.combine of None")
			}
			vals[i] = v
		}
		return vals, nil, nil
	case opFullIntArray:
		lit, err := evalLiteral(b.file, l)
		if err != nil {
			return nil, nil, err
		}
		value, err := attrFromLiteral(b.ctx, b.file, lit, ir.AttrType{Kind: ir.KindInt64, Array: true})
		if err != nil {
			return nil, nil, err
		}
		dt := ir.DTypeInt64
		if len(sig.results) == 1 {
			if t, ok := sig.results[0].(*ir.TensorType); ok {
				dt = t.DType()
			}
		}
		return nil, []ir.NamedAttr{{Name: "value", Value: value}, {Name: "dtype", Value: b.ctx.DataType(dt)},
			{Name: "place", Value: b.ctx.Place(ir.Place{Type: ir.PlaceCPU})}}, nil
	}
	return nil, nil, b.errorf(l.pos, "a list is %s or %s, not %s", opCombine, opFullIntArray, sig.op)
}

// callForm maps a call's arguments to the op's operands and attributes by the schema's argument order.
func (b *builder) callForm(sig *signature, schema *ir.OpSchema, c *callExpr) ([]*ir.Value, []ir.NamedAttr, *Error) {
	short := sig.op[strings.IndexByte(sig.op, '.')+1:]
	// x.detach() is share_data_.
	if a, ok := c.fn.(*attrExpr); ok && a.name == "detach" && sig.op == opShareData {
		if len(c.args) != 0 || len(c.keywords) != 0 {
			return nil, nil, b.errorf(c.lparen, "detach() takes no arguments")
		}
		v, err := b.value(a.x)
		if err != nil {
			return nil, nil, err
		}
		return []*ir.Value{v}, nil, nil
	}
	args, given := b.argBuf(len(schema.Args))
	implied := map[string]ir.Attribute{}
	switch {
	case isDotted(c.fn, "paddle", "_C_ops", short), callAliases[sig.op] != "" && isDotted(c.fn, "paddle", "_C_ops", callAliases[sig.op]):
		if len(c.args) > len(schema.Args) {
			return nil, nil, b.errorf(c.lparen, "%s takes %d arguments (%s), the call gives %d", sig.op, len(schema.Args), argList(schema), len(c.args))
		}
		for i, e := range c.args {
			args[i], given[i] = e, true
		}
	case publicCalls[sig.op].fn != "" && isDotted(c.fn, "paddle", publicCalls[sig.op].fn):
		pc := publicCalls[sig.op]
		if len(c.args) > len(pc.positional)+len(pc.keywords) {
			return nil, nil, b.errorf(c.lparen, "paddle.%s takes %d arguments, the call gives %d", pc.fn, len(pc.positional)+len(pc.keywords), len(c.args))
		}
		names := append(append([]string(nil), pc.positional...), pc.keywords...)
		for i, e := range c.args {
			k := argIndex(schema, names[i])
			if k < 0 {
				return nil, nil, b.errorf(e.start(), "%s has no argument %s", sig.op, names[i])
			}
			args[k], given[k] = e, true
		}
		for name, place := range pc.implied {
			implied[name] = b.ctx.Place(place)
		}
	default:
		return nil, nil, b.errorf(c.start(), "the call does not match the comment's op %s (expected paddle._C_ops.%s)", sig.op, short)
	}
	for _, kw := range c.keywords {
		k := argIndex(schema, kw.name)
		if k < 0 {
			return nil, nil, b.errorf(kw.pos, "%s has no argument %s (arguments: %s)", sig.op, kw.name, argList(schema))
		}
		if given[k] {
			return nil, nil, b.errorf(kw.pos, "argument %s given twice", kw.name)
		}
		args[k], given[k] = kw.value, true
	}
	operands := b.operandBuf(len(schema.Operands))
	attrVals := b.attrBuf(len(schema.Attrs))
	for i, a := range schema.Args {
		e := args[i]
		if a.IsOperand() {
			spec := schema.Operands[a.Operand]
			if !given[i] {
				if spec.Optional {
					continue
				}
				return nil, nil, b.errorf(c.lparen, "%s: missing operand %s", sig.op, a.Name)
			}
			v, err := b.value(e)
			if err != nil {
				return nil, nil, b.errorf(e.start(), "%s: argument %s is an operand: %s", sig.op, a.Name, err.Msg)
			}
			if v == nil && !spec.Optional {
				return nil, nil, b.errorf(e.start(), "%s: operand %s is not optional", sig.op, a.Name)
			}
			operands[a.Operand] = v
			continue
		}
		spec := schema.Attrs[a.Attr]
		if !given[i] {
			continue
		}
		v, err := b.attr(e, spec.Type)
		if err != nil {
			err.Msg = fmt.Sprintf("%s: argument %s: %s", sig.op, a.Name, err.Msg)
			return nil, nil, err
		}
		attrVals[a.Attr] = v
	}
	attrs := make([]ir.NamedAttr, 0, len(schema.Attrs)+1)
	for i, spec := range schema.Attrs {
		v := attrVals[i]
		if v == nil {
			v = implied[spec.Name]
		}
		if v == nil {
			v = spec.Default
		}
		if v == nil {
			return nil, nil, b.errorf(c.lparen, "%s: missing argument %s", sig.op, spec.Name)
		}
		attrs = append(attrs, ir.NamedAttr{Name: spec.Name, Value: v})
	}
	return operands, attrs, nil
}

// argBuf, operandBuf and attrBuf return zeroed scratch slices of length n, reused from statement to statement
// (ir.Context.NewOp copies the operands; attributes are copied out before the next statement).
func (b *builder) argBuf(n int) ([]expr, []bool) {
	if cap(b.scratchArgs) < n {
		b.scratchArgs, b.scratchGiven = make([]expr, n), make([]bool, n)
	}
	args, given := b.scratchArgs[:n], b.scratchGiven[:n]
	clear(args)
	clear(given)
	return args, given
}

func (b *builder) operandBuf(n int) []*ir.Value {
	if cap(b.scratchOperands) < n {
		b.scratchOperands = make([]*ir.Value, n)
	}
	v := b.scratchOperands[:n]
	clear(v)
	return v
}

func (b *builder) attrBuf(n int) []ir.Attribute {
	if cap(b.scratchAttrs) < n {
		b.scratchAttrs = make([]ir.Attribute, n)
	}
	v := b.scratchAttrs[:n]
	clear(v)
	return v
}

// attrKey identifies a literal argument: the attribute type it converts to and its source text.
type attrKey struct {
	t   ir.AttrType
	neg bool
	src string
}

// literalKey returns the cache key of an attribute argument, if it has one.
func literalKey(e expr, t ir.AttrType) (attrKey, bool) {
	switch e := e.(type) {
	case *numExpr:
		return attrKey{t: t, src: e.text}, true
	case *unaryExpr:
		if n, ok := e.x.(*numExpr); ok && e.op == "-" {
			return attrKey{t: t, neg: true, src: n.text}, true
		}
	case *strExpr:
		return attrKey{t: t, src: e.value}, true
	case *listExpr:
		return attrKey{t: t, src: e.src}, e.src != ""
	case *nameExpr:
		return attrKey{t: t, src: e.id}, true
	case *attrExpr:
		if isName(e.x, "paddle") {
			return attrKey{t: t, src: e.name}, true
		}
	case *callExpr:
		if isName(e.fn, "float") && len(e.args) == 1 {
			if s, ok := e.args[0].(*strExpr); ok {
				return attrKey{t: t, src: s.value}, true
			}
		}
	}
	return attrKey{}, false
}

// attr converts an attribute argument, through the cache.
func (b *builder) attr(e expr, t ir.AttrType) (ir.Attribute, *Error) {
	key, ok := literalKey(e, t)
	if ok {
		if a, hit := b.attrCache[key]; hit {
			return a, nil
		}
	}
	a, err := attrFromExpr(b.ctx, b.file, e, t)
	if err == nil && ok {
		if b.attrCache == nil {
			b.attrCache = map[attrKey]ir.Attribute{}
		}
		key.src = strings.Clone(key.src) // the key outlives nothing, but keeps no source alive either
		b.attrCache[key] = a
	}
	return a, err
}

// stopGradientAttr returns the stop_gradient attribute of an op with n results.
func (b *builder) stopGradientAttr(sg bool, n int) *ir.ArrayAttr {
	i := 0
	if sg {
		i = 1
	}
	for len(b.sgAttrs[i]) <= n {
		elems := make([]ir.Attribute, len(b.sgAttrs[i]))
		for k := range elems {
			elems[k] = b.ctx.Bool(sg)
		}
		b.sgAttrs[i] = append(b.sgAttrs[i], b.ctx.Array(elems...))
	}
	return b.sgAttrs[i][n]
}

func argIndex(s *ir.OpSchema, name string) int {
	for i, a := range s.Args {
		if a.Name == name {
			return i
		}
	}
	return -1
}

func argList(s *ir.OpSchema) string {
	names := make([]string, len(s.Args))
	for i, a := range s.Args {
		names[i] = a.Name
	}
	return strings.Join(names, ", ")
}

// create checks the op against its signature and schema, creates it, and binds its results.
func (b *builder) create(s *assignStmt, sig *signature, schema *ir.OpSchema, targets []*nameExpr, operands []*ir.Value, attrs []ir.NamedAttr) *Error {
	if len(sig.operands) != len(operands) {
		return b.errorf(sig.pos, "the comment gives %s %d operands, the statement %d", sig.op, len(sig.operands), len(operands))
	}
	if !schema.OperandCountOK(len(operands)) {
		return b.errorf(sig.pos, "%s has %d operands; the catalog's %s takes %d", sig.op, len(operands), schema.Name, len(schema.Operands))
	}
	sgAll := true
	for i, v := range operands {
		want := sig.operands[i]
		if v == nil {
			if want != nil {
				return b.errorf(sig.pos, "%s: operand %d is None in the statement but %s in the comment", sig.op, i, typeText(want))
			}
			continue
		}
		if want == nil || !b.fixInput(v, want) {
			return b.errorf(sig.pos, "%s: operand %d is %s, the comment says %s", sig.op, i, typeText(v.Type()), typeText(want))
		}
		sgAll = sgAll && stopGradient(v)
	}
	if !schema.ResultCountOK(len(sig.results)) {
		return b.errorf(sig.pos, "%s has %d results in the comment; the catalog's %s has %s", sig.op, len(sig.results), schema.Name, resultCount(schema))
	}
	if len(targets) != len(sig.results) && !(len(targets) == 1 && len(sig.results) == 1) {
		return b.errorf(s.target.start(), "the statement binds %d names to the %d results of %s", len(targets), len(sig.results), sig.op)
	}
	results := make([]ir.Type, len(sig.results))
	for i, t := range sig.results {
		if t == nil {
			t = b.ctx.NullType()
		}
		results[i] = t
	}
	attrs = append(attrs, ir.NamedAttr{Name: "stop_gradient", Value: b.stopGradientAttr(sgAll, len(results))})
	op := b.b.Create(ir.OpSpec{Name: sig.op, Operands: operands, Results: results, Attrs: attrs, Loc: b.loc(s.pos)})
	if sgAll {
		op.SetMark(markStopGradient)
	}
	for i, n := range targets {
		b.env[n.id] = binding{v: op.Result(i)}
	}
	return nil
}

func resultCount(s *ir.OpSchema) string {
	n := len(s.Results)
	if s.IsVariadic() {
		return fmt.Sprintf("a variable number (at least %d)", n-1)
	}
	return fmt.Sprint(n)
}

func typeText(t ir.Type) string {
	var sb strings.Builder
	if !formatType(&sb, t) {
		return t.String()
	}
	return sb.String()
}
