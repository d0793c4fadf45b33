package pirjson

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// roundTrip reads src and checks that it writes back byte for byte; it returns the program.
func roundTrip(t *testing.T, ctx *ir.Context, src string) *ir.Program {
	t.Helper()
	p, err := Read(ctx, "t.json", []byte(src), ReadOptions{})
	require.NoError(t, err)
	out, err := Marshal(p, WriteOptions{})
	require.NoError(t, err)
	assert.Equal(t, src, string(out))
	return p
}

// whileOp is a region op reading values 1 and 2, whose body block has one argument (−1) and, if kw, a keyword
// argument (−2) that the body uses.
func whileOp(kw bool) string {
	kwargs, use := "", -1
	if kw {
		kwargs, use = `,"kwargs":[{"#":-2,"TT":`+denseF32+`,"key":"carry"}]`, -2
	}
	return `{"#":"1.while","A":[],"I":[{"%":1},{"%":1}],"O":[{"%":2,"TT":` + denseF32 + `}],"OA":` + sgFalse +
		`,"regions":[{"#":"region_1","blocks":[{"#":"block_1","args":[{"#":-1,"TT":` + denseF32 + `}]` + kwargs +
		`,"ops":[{"#":"1.relu","A":[],"I":[{"%":` + itoa(int64(use)) + `}],"O":[{"%":3,"TT":` + denseF32 + `}],"OA":` +
		sgFalse + `},{"#":"2.yield","A":[],"I":[{"%":1},{"%":3}],"O":[],"OA":[]}]}]}]}`
}

func TestBlockArguments(t *testing.T) {
	c := ir.NewContext()
	p := roundTrip(t, c, program("1", paramOp, whileOp(false)))
	w := p.Body().Last()
	require.Equal(t, "pd_op.while", w.Name())
	body := w.Region(0).Block(0)
	require.Equal(t, 1, body.NumArgs())
	assert.Same(t, body.Arg(0), body.First().Operand(0))
	assert.Nil(t, w.Attr(kwargsAttr))
}

// TestKeywordArguments: kwargs become trailing block arguments whose keys the parent op keeps in kwargsAttr.
func TestKeywordArguments(t *testing.T) {
	c := ir.NewContext()
	p := roundTrip(t, c, program("1", paramOp, whileOp(true)))
	w := p.Body().Last()
	body := w.Region(0).Block(0)
	require.Equal(t, 2, body.NumArgs())
	assert.Same(t, body.Arg(1), body.First().Operand(0))
	assert.Same(t, c.Array(c.Array(c.Str("carry"))), w.Attr(kwargsAttr))

	// Paddle's writer stores a copy of "args" under "kwargs"; such entries without a key are skipped.
	buggy := strings.Replace(program("1", paramOp, whileOp(false)), `"TT":`+denseF32+`}],"ops"`,
		`"TT":`+denseF32+`}],"kwargs":[{"#":-1,"TT":`+denseF32+`}],"ops"`, 1)
	q, err := Read(c, "bug.json", []byte(buggy), ReadOptions{})
	require.NoError(t, err)
	assert.Equal(t, 1, q.Body().Last().Region(0).Block(0).NumArgs())
	out, err := Marshal(q, WriteOptions{})
	require.NoError(t, err)
	assert.Equal(t, program("1", paramOp, whileOp(false)), string(out))

	// A kwargs attribute that does not fit the blocks is an ordinary attribute.
	rw := ir.NewRewriter(c, nil)
	rw.SetAttr(w, kwargsAttr, c.Array(c.Array(c.Str("a"), c.Str("b"), c.Str("c"))))
	out, err = Marshal(p, WriteOptions{})
	require.NoError(t, err)
	assert.Contains(t, string(out), `"N":"pirjson_kwargs"`)
	assert.NotContains(t, string(out), `"kwargs"`)
}

// TestStackOps: the writer drops cf.stack_create with the tuple_push/tuple_pop that use it, as Paddle does,
// unless asked to keep them; operands reading dropped values become null.
func TestStackOps(t *testing.T) {
	c := ir.NewContext()
	p := ir.NewProgram(c)
	b := ir.NewBuilder(c)
	b.SetInsertionPointToEnd(p.Body())
	t2 := c.Tensor(ir.DenseTensor, []int64{2}, c.Scalar(ir.DTypeFloat32))
	x := b.Create(ir.OpSpec{Name: "pd_op.data", Results: []ir.Type{t2}}).Result(0)
	st := b.Create(ir.OpSpec{Name: "cf.stack_create", Results: []ir.Type{c.Opaque("cf.stack"), c.Opaque("cf.inlet"), c.Opaque("cf.outlet")}})
	b.Create(ir.OpSpec{Name: "cf.tuple_push", Operands: []*ir.Value{st.Result(1), x}})
	y := b.Create(ir.OpSpec{Name: "cf.tuple_pop", Operands: []*ir.Value{st.Result(2)}, Results: []ir.Type{t2}}).Result(0)
	b.Create(ir.OpSpec{Name: "pd_op.relu", Operands: []*ir.Value{y}, Results: []ir.Type{t2}})

	out, err := Marshal(p, WriteOptions{})
	require.NoError(t, err)
	assert.Equal(t, program("1",
		`{"#":"1.data","A":[],"I":[],"O":[{"%":1,"TT":`+denseF32+`}],"OA":[]}`,
		`{"#":"1.relu","A":[],"I":[{"%":0}],"O":[{"%":2,"TT":`+denseF32+`}],"OA":[]}`), string(out))

	out, err = Marshal(p, WriteOptions{KeepStackOps: true})
	require.NoError(t, err)
	assert.Contains(t, string(out), `{"#":"2.stack_create","A":[],"I":[],"O":[{"%":2,"TT":{"#":"2.t_stack"}},{"%":3,"TT":{"#":"2.t_inlet"}},{"%":4,"TT":{"#":"2.t_outlet"}}],"OA":[]}`)
	q, err := Read(c, "kept.json", out, ReadOptions{})
	require.NoError(t, err)
	require.NoError(t, ir.Equal(p, q, ir.EqualOptions{}))
	again, err := Marshal(q, WriteOptions{KeepStackOps: true})
	require.NoError(t, err)
	assert.Equal(t, string(out), string(again))
}

// TestParameterForms: "p" with defaults, without DA/QA, with dist and quant attributes, and parameter ops that
// do not fit "p" and are written as ordinary ops.
func TestParameterForms(t *testing.T) {
	c := ir.NewContext()
	t.Run("defaults", func(t *testing.T) {
		p := ir.NewProgram(c)
		b := ir.NewBuilder(c)
		b.SetInsertionPointToEnd(p.Body())
		tt := c.Tensor(ir.DenseTensor, []int64{2}, c.Scalar(ir.DTypeFloat32))
		b.Create(ir.OpSpec{Name: ir.ParameterOpName, Results: []ir.Type{tt},
			Attrs: []ir.NamedAttr{{Name: "parameter_name", Value: c.Str("w")}}})
		out, err := Marshal(p, WriteOptions{})
		require.NoError(t, err)
		param := `{"#":"p","A":[0,1,0,"w"],"DA":[],"O":{"%":1,"TT":` + denseF32 + `},"OA":[1,1,1],"QA":[]}`
		assert.Equal(t, program("1", param), string(out))
		q := roundTrip(t, c, string(out))
		op := q.Body().First()
		assert.Equal(t, []string{"is_distributed", "is_parameter", "need_clip", "parameter_name", "persistable",
			"stop_gradient", "trainable"}, names(op))
		assert.Same(t, c.Bools(true), op.Attr("trainable"))
		assert.Contains(t, q.Params, "w")
	})
	t.Run("without DA and QA", func(t *testing.T) {
		param := `{"#":"p","A":[1,0,1,"w"],"O":{"%":1,"TT":` + denseF32 + `},"OA":[0,1,0]}`
		q := roundTrip(t, c, program("1", param))
		assert.Same(t, c.Array(c.Str("DA"), c.Str("QA")), q.Body().First().Attr(omitAttr))
		param = `{"#":"p","A":[1,0,1,"w"],"DA":[],"O":{"%":1,"TT":` + denseF32 + `},"OA":[0,1,0]}`
		roundTrip(t, c, program("1", param))
	})
	t.Run("dist and quant attributes", func(t *testing.T) {
		param := `{"#":"p","A":[0,1,1,"w"],"DA":[{"AT":{"#":"0.a_i32","D":1},"N":"op_role"}],"O":{"%":1,"TT":` + denseF32 +
			`},"OA":[1,0,1],"QA":[{"AT":{"#":"0.a_str","D":"/m/"},"N":"struct_name"}]}`
		q := roundTrip(t, c, program("1", param))
		assert.Same(t, c.Str("/m/"), q.Body().First().Attr("struct_name"))
	})
	t.Run("not trainable", func(t *testing.T) {
		src := strings.Replace(program("1", `{"#":"p","A":[0,1,1,"w"],"DA":[],"O":{"%":1,"TT":`+denseF32+`},"QA":[]}`,
			`{"#":"1.relu","A":[],"I":[{"%":1}],"O":[{"%":2,"TT":`+denseF32+`}]}`), `"trainable":true`, `"trainable":false`, 1)
		q := roundTrip(t, c, src)
		assert.False(t, q.Trainable)
	})
	t.Run("extra attribute: ordinary op", func(t *testing.T) {
		p := ir.NewProgram(c)
		b := ir.NewBuilder(c)
		b.SetInsertionPointToEnd(p.Body())
		tt := c.Tensor(ir.DenseTensor, []int64{2}, c.Scalar(ir.DTypeFloat32))
		b.Create(ir.OpSpec{Name: ir.ParameterOpName, Results: []ir.Type{tt}, Attrs: []ir.NamedAttr{
			{Name: "parameter_name", Value: c.Str("w")}, {Name: "stop_gradient", Value: c.Bools(true)},
			{Name: "zeta", Value: c.Int32(7)}}})
		b.Create(ir.OpSpec{Name: ir.ParameterOpName, Results: []ir.Type{tt}, Attrs: []ir.NamedAttr{
			{Name: "parameter_name", Value: c.Str("v")}, {Name: "need_clip", Value: c.Bool(true)}}})
		out, err := Marshal(p, WriteOptions{})
		require.NoError(t, err)
		assert.Equal(t, program("1",
			`{"#":"0.parameter","A":[{"AT":{"#":"0.a_str","D":"w"},"N":"parameter_name"},{"AT":{"#":"0.a_i32","D":7},"N":"zeta"}],"I":[],"O":[{"%":1,"TT":`+denseF32+`}],"OA":[{"AT":{"#":"0.a_array","D":[{"#":"0.a_bool","D":true}]},"N":"stop_gradient"}]}`,
			`{"#":"0.parameter","A":[{"AT":{"#":"0.a_str","D":"v"},"N":"parameter_name"},{"AT":{"#":"0.a_bool","D":true},"N":"need_clip"}],"I":[],"O":[{"%":2,"TT":`+denseF32+`}],"OA":[]}`),
			string(out))
		q := roundTrip(t, c, string(out))
		require.NoError(t, ir.Equal(p, q, ir.EqualOptions{}))
	})
}

func names(op *ir.Op) []string {
	var out []string
	for _, a := range op.Attrs() {
		out = append(out, a.Name)
	}
	return out
}

// TestUnsortedKeys: keys in any order read as in the writer's order, including "#" after the fields it governs,
// "ops" before "args" and "program" before "base_code".
func TestUnsortedKeys(t *testing.T) {
	c := ir.NewContext()
	canonical := program("1", paramOp, whileOp(false))
	shuffled := `{"program":{"regions":[{"blocks":[{"ops":[{"O":{"TT":` + denseF32 + `,"%":1},"OA":[1,0,1],"A":[0,1,1,"x"],"#":"p",` +
		`"QA":[],"DA":[]},` +
		`{"regions":[{"blocks":[{"ops":[{"OA":` + sgFalse + `,"O":[{"TT":` + denseF32 + `,"%":3}],"I":[{"%":-1}],"A":[],"#":"1.relu"},` +
		`{"OA":[],"O":[],"I":[{"%":1},{"%":3}],"A":[],"#":"2.yield"}],"args":[{"TT":` + denseF32 + `,"#":-1}],"#":"block_1"}],"#":"region_1"}],` +
		`"OA":` + sgFalse + `,"O":[{"%":2,"TT":` + denseF32 + `}],"I":[{"%":1},{"%":1}],"A":[],"#":"1.while"}],` +
		`"args":[],"#":"block_0"}],"#":"region_0"}]},"base_code":{"version":1,"trainable":true,"magic":"pir"}}`
	p, err := Read(c, "s.json", []byte(shuffled), ReadOptions{})
	require.NoError(t, err)
	out, err := Marshal(p, WriteOptions{})
	require.NoError(t, err)
	assert.Equal(t, canonical, string(out))
}

// TestParams: the parameter table Read fills is the one Program.CollectParams computes.
func TestParams(t *testing.T) {
	set := `{"#":"0.set_parameter","A":[{"AT":{"#":"0.a_str","D":"x"},"N":"parameter_name"}],"I":[{"%":2}],"O":[],"OA":[]}`
	setNew := strings.Replace(set, `"D":"x"`, `"D":"y"`, 1)
	srcs := []string{program("1", paramOp, unary("1.relu", ""), set, setNew)}
	for _, f := range corpusFiles(t) {
		srcs = append(srcs, string(f.src))
	}
	for _, src := range srcs {
		p, err := Read(ir.NewContext(), "p.json", []byte(src), ReadOptions{})
		require.NoError(t, err)
		got := p.Params
		p.CollectParams()
		assert.Equal(t, p.Params, got)
	}
	p, err := Read(ir.NewContext(), "p.json", []byte(srcs[0]), ReadOptions{})
	require.NoError(t, err)
	assert.True(t, p.Params["x"].Mutable)
	assert.True(t, p.Params["y"].Mutable)
}
