package matcher

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// testProg is a small program written in a test-only shorthand, one op per line:
//
//	[@label] [%a, %b:f16 =] name(%x, null, %y) [{k: 1, s: "x", b: true, f: 0.5, l: [1, 2]}] [[ … nested block … ]]
//
// Values are named by their %names; result types default to tensor<2x3xf32> and can be given after a colon (f32,
// f16, v, r1, dyn, i64, vec). Integer attributes are Int32, floats Float, lists Int64 arrays. A line ending in
// "[" opens the block of one region of that op and "]" closes it; "^%a:f32" as the first line of a block declares
// block arguments.
type testProg struct {
	ctx  *ir.Context
	p    *ir.Program
	vals map[string]*ir.Value
	ops  map[string]*ir.Op // by label, or by first result name
	name map[*ir.Value]string
}

func testTypes(ctx *ir.Context) map[string]ir.Type {
	f32, f16, i64 := ctx.Scalar(ir.DTypeFloat32), ctx.Scalar(ir.DTypeFloat16), ctx.Scalar(ir.DTypeInt64)
	return map[string]ir.Type{
		"f32": ctx.Tensor(ir.DenseTensor, []int64{2, 3}, f32),
		"f16": ctx.Tensor(ir.DenseTensor, []int64{2, 3}, f16),
		"v":   ctx.Tensor(ir.ValueTensor, []int64{2, 3}, f32),
		"r1":  ctx.Tensor(ir.DenseTensor, []int64{4}, f32),
		"dyn": ctx.Tensor(ir.DenseTensor, []int64{2, -1}, f32),
		"i64": ctx.Tensor(ir.DenseTensor, []int64{4}, i64),
		"r4":  ctx.Tensor(ir.DenseTensor, []int64{1, 8, 5, 5}, f32),
		"vec": ctx.Vector(ctx.Tensor(ir.DenseTensor, []int64{2, 3}, f32)),
	}
}

func parseProg(t testing.TB, ctx *ir.Context, src string) *testProg {
	tp := &testProg{ctx: ctx, p: ir.NewProgram(ctx), vals: map[string]*ir.Value{}, ops: map[string]*ir.Op{},
		name: map[*ir.Value]string{}}
	types := testTypes(ctx)
	b := ir.NewBuilder(ctx)
	blocks := []*ir.Block{tp.p.Body()}
	var last *ir.Op
	for lineNo, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		fail := func(format string, args ...any) {
			t.Helper()
			require.FailNowf(t, "bad test program", "line %d %q: %s", lineNo+1, line, fmt.Sprintf(format, args...))
		}
		if line == "]" {
			blocks = blocks[:len(blocks)-1]
			continue
		}
		if strings.HasPrefix(line, "^") {
			blk := blocks[len(blocks)-1]
			for _, a := range strings.Split(line[1:], ",") {
				n, ty, _ := strings.Cut(strings.TrimSpace(a), ":")
				if ty == "" {
					ty = "f32"
				}
				v := blk.AddArg(types[ty])
				tp.vals[n] = v
				tp.name[v] = n
			}
			continue
		}
		opens := strings.HasSuffix(line, "[")
		line = strings.TrimSpace(strings.TrimSuffix(line, "["))
		label := ""
		if strings.HasPrefix(line, "@") {
			label, line, _ = strings.Cut(line, " ")
		}
		var results []string
		if lhs, rhs, ok := strings.Cut(line, " = "); ok {
			results = strings.Split(lhs, ",")
			line = rhs
		}
		name, rest, ok := strings.Cut(line, "(")
		if !ok {
			fail("no operand list")
		}
		args, rest, _ := strings.Cut(rest, ")")
		spec := ir.OpSpec{Name: strings.TrimSpace(name)}
		if strings.TrimSpace(args) != "" {
			for _, a := range strings.Split(args, ",") {
				a = strings.TrimSpace(a)
				if a == "null" {
					spec.Operands = append(spec.Operands, nil)
					continue
				}
				v, ok := tp.vals[a]
				if !ok {
					fail("unknown value %s", a)
				}
				spec.Operands = append(spec.Operands, v)
			}
		}
		for i, r := range results {
			n, ty, _ := strings.Cut(strings.TrimSpace(r), ":")
			if ty == "" {
				ty = "f32"
			}
			results[i] = n
			spec.Results = append(spec.Results, types[ty])
		}
		rest = strings.TrimSpace(rest)
		if strings.HasPrefix(rest, "{") {
			body := strings.TrimSuffix(strings.TrimPrefix(rest, "{"), "}")
			for _, kv := range splitTop(body) {
				k, v, _ := strings.Cut(kv, ":")
				spec.Attrs = append(spec.Attrs, ir.NamedAttr{Name: strings.TrimSpace(k),
					Value: parseAttr(ctx, strings.TrimSpace(v))})
			}
		}
		if opens {
			spec.Regions = 1
		}
		b.SetInsertionPointToEnd(blocks[len(blocks)-1])
		op := b.Create(spec)
		last = op
		for i, n := range results {
			tp.vals[n] = op.Result(i)
			tp.name[op.Result(i)] = n
		}
		switch {
		case label != "":
			tp.ops[label] = op
		case len(results) > 0:
			tp.ops[results[0]] = op
		}
		if opens {
			blocks = append(blocks, op.Region(0).AddBlock())
		}
	}
	_ = last
	return tp
}

// splitTop splits s at commas outside brackets.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '[':
			depth++
		case ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	if strings.TrimSpace(s[start:]) != "" {
		out = append(out, s[start:])
	}
	return out
}

func parseAttr(ctx *ir.Context, s string) ir.Attribute {
	switch {
	case s == "true" || s == "false":
		return ctx.Bool(s == "true")
	case strings.HasPrefix(s, `"`):
		v, _ := strconv.Unquote(s)
		return ctx.Str(v)
	case strings.HasPrefix(s, "["):
		var vs []int64
		for _, x := range strings.Split(strings.Trim(s, "[]"), ",") {
			if x = strings.TrimSpace(x); x != "" {
				n, _ := strconv.ParseInt(x, 10, 64)
				vs = append(vs, n)
			}
		}
		return ctx.Int64s(vs...)
	case strings.ContainsAny(s, ".e"):
		f, _ := strconv.ParseFloat(s, 32)
		return ctx.Float(float32(f))
	}
	n, _ := strconv.ParseInt(s, 10, 32)
	return ctx.Int32(int32(n))
}

// show renders a match with the test program's value names: rule{ops; values; holes}.
func (tp *testProg) show(m *rule.Match) string {
	return showMatch(m, func(v *ir.Value) string {
		if n, ok := tp.name[v]; ok {
			return n
		}
		return "%?"
	})
}

func showMatch(m *rule.Match, name func(*ir.Value) string) string {
	p := m.Rule.Pattern
	var parts []string
	for k, o := range m.Ops {
		s := "<nil>"
		if o != nil {
			if o.NumResults() > 0 {
				s = name(o.Result(0))
			} else {
				s = o.Name()
			}
		}
		parts = append(parts, fmt.Sprintf("op%d=%s", k, s))
	}
	if m.Group != nil {
		var g []string
		for _, o := range m.Group {
			g = append(g, name(o.Result(0)))
		}
		parts = append(parts, "group=["+strings.Join(g, " ")+"]")
	}
	for h, hv := range p.Values {
		if hv.List || p.IsElem(h) {
			var l []string
			for _, v := range m.Lists[h] {
				if v == nil {
					l = append(l, "null")
				} else {
					l = append(l, name(v))
				}
			}
			nilMark := ""
			if m.Lists[h] == nil {
				nilMark = "NIL"
			}
			parts = append(parts, fmt.Sprintf("%s...=[%s]%s", rule.ValueName(p, h), strings.Join(l, " "), nilMark))
		} else {
			s := "<nil>"
			if v := m.Values[h]; v != nil {
				s = name(v)
			}
			parts = append(parts, rule.ValueName(p, h)+"="+s)
		}
	}
	for h := range p.Holes {
		s := "<unbound>"
		if v := m.Holes[h]; v != nil {
			s = rule.FormatVal(v)
		}
		parts = append(parts, rule.HoleName(p, h)+"="+s)
	}
	return m.Rule.ID() + "{" + strings.Join(parts, " ") + "}"
}

func (tp *testProg) showAll(ms []*rule.Match) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, tp.show(m))
	}
	return out
}

// allOps lists every op of the program in pre-order.
func allOps(p *ir.Program) []*ir.Op {
	var out []*ir.Op
	for op := range p.Walk() {
		out = append(out, op)
	}
	return out
}
