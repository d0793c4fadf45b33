package ir_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

// The result-type rules are tested on the cases of testdata/infer/*.cases, written from Paddle's InferMeta
// functions (the file's comments name them). One case a line:
//
//	pd_op.argmax(2x3xf32, full(1)) {keepdims: true, dtype: int32} -> 2x1xi32
//
// Operands are tensor types as PIR text spells them inside builtin.tensor<…> (2x3xf32; f32 is 0-D; u8, b), null
// for an absent optional operand, or the ops that make constant arguments: full(V) (shape [1]), full0(V) (0-D),
// full(V, DTYPE), ints(1, 2) (full_int_array), vec(…) (builtin.combine), stack(…) (pd_op.stack of a combine) and
// shape64(TYPE).
// Attributes are PIR text attributes, untagged. After "->" come the expected result types (null for an absent
// result, vec[…] for a vector), or "error: TEXT" for a rule that must refuse. An output that Paddle's InferMeta
// leaves unset is 0xf32: the meta of a DenseTensor nobody set (dims [0], float32), which Paddle's builders give it.
//
// TestInferCasesCoverEveryOp checks that every op of the catalogs with results has a rule and a case here (an
// inplace twin may share its counterpart's), or a place in infer_program_test.go for the rules that need a program
// or regions.

// inferCase is one parsed line.
type inferCase struct {
	pos      string
	op       string
	operands []string
	attrs    []string
	want     []string
	err      string
}

func loadInferCases(t *testing.T) []inferCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "infer", "*.cases"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var out []inferCase
	for _, f := range files {
		fh, err := os.Open(f)
		require.NoError(t, err)
		sc := bufio.NewScanner(fh)
		for n := 1; sc.Scan(); n++ {
			line := strings.TrimSpace(sc.Text())
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			c, err := parseInferCase(line)
			require.NoError(t, err, "%s:%d", f, n)
			c.pos = fmt.Sprintf("%s:%d", f, n)
			out = append(out, c)
		}
		require.NoError(t, sc.Err())
		fh.Close()
	}
	return out
}

func parseInferCase(line string) (inferCase, error) {
	var c inferCase
	head, results, ok := strings.Cut(line, " -> ")
	if !ok {
		return c, fmt.Errorf("no ' -> ' in %q", line)
	}
	open := strings.IndexByte(head, '(')
	if open < 0 {
		return c, fmt.Errorf("no '(' in %q", head)
	}
	c.op = head[:open]
	end := matching(head, open)
	if end < 0 {
		return c, fmt.Errorf("unbalanced operands in %q", head)
	}
	c.operands = splitTop(head[open+1 : end])
	rest := strings.TrimSpace(head[end+1:])
	if rest != "" {
		if !strings.HasPrefix(rest, "{") || !strings.HasSuffix(rest, "}") {
			return c, fmt.Errorf("attributes must be {…}, have %q", rest)
		}
		c.attrs = splitTop(rest[1 : len(rest)-1])
	}
	results = strings.TrimSpace(results)
	if e, ok := strings.CutPrefix(results, "error:"); ok {
		c.err = strings.TrimSpace(e)
	} else {
		c.want = splitTop(results)
	}
	return c, nil
}

// matching returns the index of the bracket closing the one at s[i].
func matching(s string, i int) int {
	depth := 0
	inStr := false
	for j := i; j < len(s); j++ {
		switch ch := s[j]; {
		case ch == '"':
			inStr = !inStr
		case inStr:
		case ch == '(' || ch == '[' || ch == '{':
			depth++
		case ch == ')' || ch == ']' || ch == '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// splitTop splits at the commas outside brackets and strings.
func splitTop(s string) []string {
	var out []string
	depth, start, inStr := 0, 0, false
	for j := 0; j < len(s); j++ {
		switch ch := s[j]; {
		case ch == '"':
			inStr = !inStr
		case inStr:
		case ch == '(' || ch == '[' || ch == '{':
			depth++
		case ch == ')' || ch == ']' || ch == '}':
			depth--
		case ch == ',' && depth == 0:
			out = append(out, strings.TrimSpace(s[start:j]))
			start = j + 1
		}
	}
	if last := strings.TrimSpace(s[start:]); last != "" || len(out) > 0 {
		out = append(out, last)
	}
	return out
}

// caseBuilder makes the operands of cases.
type caseBuilder struct {
	ctx *ir.Context
	b   *ir.Builder
}

func (cb *caseBuilder) typ(s string) (ir.Type, error) {
	if s == "null" {
		return cb.ctx.NullType(), nil
	}
	if inner, ok := strings.CutPrefix(s, "vec["); ok {
		var ts []ir.Type
		for _, e := range splitTop(strings.TrimSuffix(inner, "]")) {
			t, err := cb.typ(e)
			if err != nil {
				return nil, err
			}
			ts = append(ts, t)
		}
		return cb.ctx.Vector(ts...), nil
	}
	return pirtext.ParseType(cb.ctx, "builtin.tensor<"+s+">")
}

func (cb *caseBuilder) create(name string, operands []*ir.Value, attrs map[string]ir.Attribute) (*ir.Value, error) {
	s := cb.ctx.Schema(name)
	var named []ir.NamedAttr
	for _, a := range s.Attrs {
		if v, ok := attrs[a.Name]; ok {
			named = append(named, ir.NamedAttr{Name: a.Name, Value: v})
		}
	}
	types, err := cb.ctx.InferResultTypes(s, operands, named)
	if err != nil {
		return nil, err
	}
	return cb.b.Create(ir.OpSpec{Name: name, Operands: operands, Attrs: named, Results: types}).Result(0), nil
}

func (cb *caseBuilder) operand(s string) (*ir.Value, error) {
	if s == "null" {
		return nil, nil
	}
	open := strings.IndexByte(s, '(')
	if open < 0 {
		t, err := cb.typ(s)
		if err != nil {
			return nil, err
		}
		return cb.b.Create(ir.OpSpec{Name: "test.value", Results: []ir.Type{t}}).Result(0), nil
	}
	args := splitTop(s[open+1 : len(s)-1])
	c := cb.ctx
	switch s[:open] {
	case "full", "full0":
		v, err := pirtext.ParseAttribute(c, args[0])
		if err != nil {
			return nil, err
		}
		f, _ := ir.AsFloat(v)
		dt := ir.DTypeFloat32
		if len(args) > 1 {
			d, err := pirtext.ParseAttribute(c, args[1])
			if err != nil {
				return nil, err
			}
			dt = d.(*ir.DataTypeAttr).DType
		}
		shape := []int64{1}
		if s[:open] == "full0" {
			shape = []int64{}
		}
		return cb.create("pd_op.full", nil, map[string]ir.Attribute{"shape": c.IntArray(shape), "value": c.Double(f),
			"dtype": c.DataType(dt)})
	case "ints":
		var vals []int64
		for _, a := range args {
			var v int64
			if _, err := fmt.Sscan(a, &v); err != nil {
				return nil, err
			}
			vals = append(vals, v)
		}
		return cb.create("pd_op.full_int_array", nil, map[string]ir.Attribute{"value": c.Int64s(vals...),
			"dtype": c.DataType(ir.DTypeInt64)})
	case "vec", "stack":
		var vs []*ir.Value
		for _, a := range args {
			v, err := cb.operand(a)
			if err != nil {
				return nil, err
			}
			vs = append(vs, v)
		}
		vec, err := cb.create("builtin.combine", vs, nil)
		if err != nil || s[:open] == "vec" {
			return vec, err
		}
		return cb.create("pd_op.stack", []*ir.Value{vec}, map[string]ir.Attribute{"axis": c.Int32(0)})
	case "shape64":
		v, err := cb.operand(args[0])
		if err != nil {
			return nil, err
		}
		return cb.create("pd_op.shape64", []*ir.Value{v}, nil)
	}
	return nil, fmt.Errorf("unknown operand form %q", s)
}

// run builds the case's operands and op and returns the inferred types.
func (cb *caseBuilder) run(c inferCase) ([]ir.Type, error) {
	s := cb.ctx.Schema(c.op)
	if s == nil {
		return nil, fmt.Errorf("no op %s", c.op)
	}
	var operands []*ir.Value
	for _, o := range c.operands {
		v, err := cb.operand(o)
		if err != nil {
			return nil, fmt.Errorf("operand %q: %w", o, err)
		}
		operands = append(operands, v)
	}
	var attrs []ir.NamedAttr
	for _, a := range c.attrs {
		name, val, ok := strings.Cut(a, ":")
		if !ok {
			return nil, fmt.Errorf("attribute %q is not name: value", a)
		}
		name = strings.TrimSpace(name)
		if s.Attr(name) == nil {
			return nil, fmt.Errorf("%s has no attribute %s", c.op, name)
		}
		v, err := pirtext.ParseAttribute(cb.ctx, strings.TrimSpace(val))
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", name, err)
		}
		attrs = append(attrs, ir.NamedAttr{Name: name, Value: v})
	}
	return cb.ctx.InferResultTypes(s, operands, attrs)
}

func TestInferCases(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	p := ir.NewProgram(ctx)
	b := ir.NewBuilder(ctx)
	b.SetInsertionPointToEnd(p.Body())
	cb := &caseBuilder{ctx: ctx, b: b}
	for _, c := range loadInferCases(t) {
		got, err := cb.run(c)
		if c.err != "" {
			if assert.Error(t, err, c.pos) {
				assert.Contains(t, err.Error(), c.err, c.pos)
			}
			continue
		}
		if !assert.NoError(t, err, c.pos) {
			continue
		}
		var want []ir.Type
		for _, w := range c.want {
			ty, err := cb.typ(w)
			require.NoError(t, err, c.pos)
			want = append(want, ty)
		}
		if !assert.Equal(t, typeStrings(want), typeStrings(got), c.pos) {
			continue
		}
		for i := range want {
			assert.Same(t, want[i], got[i], "%s: result %d", c.pos, i)
		}
	}
}

func typeStrings(ts []ir.Type) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.String()
	}
	return out
}

// goTestedOps are the ops whose rules need a program or regions; infer_program_test.go tests them.
var goTestedOps = map[string]bool{
	"pd_op.if": true, "pd_op.while": true, "builtin.parameter": true, "builtin.get_parameter": true,
	"builtin.constant": true, "pd_op.feed": true, "cf.has_elements": true, "pd_op.to_tensor": true,
	"pd_op.to_vtensor": true, "cf.tuple_pop": true, "cf.stack_create": true, "builtin.combine": true,
	"builtin.split": true, "builtin.slice": true, "pd_op.select_input": true, "pd_op.select_output": true,
}

func TestInferCasesCoverEveryOp(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	cased := map[string]bool{}
	for _, c := range loadInferCases(t) {
		cased[c.op] = true
	}
	var missing, noRule []string
	for _, s := range ctx.Schemas() {
		if len(s.Results) == 0 || s.Dialect.Name == "test" {
			continue
		}
		if s.Infer == "" {
			noRule = append(noRule, s.Name)
			continue
		}
		if cased[s.Name] || goTestedOps[s.Name] {
			continue
		}
		// An inplace twin that shares its counterpart's rule is covered by the counterpart's cases.
		if cp := s.Counterpart; cp != nil && cp.Infer == s.Infer && cased[cp.Name] {
			continue
		}
		missing = append(missing, s.Name)
	}
	assert.Empty(t, noRule, "ops with results and no type rule")
	assert.Empty(t, missing, "ops with no case in testdata/infer")
}
