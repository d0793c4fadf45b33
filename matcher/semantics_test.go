package matcher

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

const testDialect = `
dialect r id 9
op conv(input, filter) -> (out)
    attrs(groups: i32 = 1, data_format: str = "NCHW")
op k() -> (out)
    attrs(value: i32 = 0)
    traits(ReadOnly, ValueSemantics, ConstantLike)
op fill_(x) -> (out)
    inplace(x -> out)
op view(x) -> (out)
    view(x -> out)
op add(x, y) -> (out)
op mul(x, y) -> (out)
`

func semCtx(t testing.TB) *ir.Context {
	ctx := ir.NewContext()
	_, err := ctx.LoadCatalog("r.dialect", []byte(testDialect))
	require.NoError(t, err)
	return ctx
}

// testOracle knows one program builtin (immutable: the value is a t.src result) and one native constraint (even).
var testOracle = &Funcs{
	Builtins: map[string]func([]rule.Val) (rule.Val, error){
		"immutable": func(a []rule.Val) (rule.Val, error) {
			v, ok := a[0].(*ir.Value)
			if !ok {
				return nil, errors.New("needs a value")
			}
			return v.DefiningOp() != nil && v.DefiningOp().Name() == "t.src", nil
		},
	},
	Natives: map[string]func([]rule.Val) (rule.Val, error){
		"even": func(a []rule.Val) (rule.Val, error) {
			n, ok := a[0].(int64)
			if !ok {
				return nil, errors.New("needs an int")
			}
			return n%2 == 0, nil
		},
	},
}

type semCase struct {
	name   string
	prog   string
	at     string // the op to match (label or first result name)
	rules  func(ctx *ir.Context) []*rule.Rule
	oracle Oracle
	want   []string
}

// rb starts a builder whose root is chosen by ChooseRoot.
func rb(ctx *ir.Context, name string) *rule.Builder {
	b := rule.NewBuilder(ctx, name)
	b.ChooseRoot = ChooseRoot
	return b
}

var semCases = []semCase{
	// 1. Root dispatch.
	{name: "root name", prog: `
%x = t.src()
%y = t.relu(%x)
%z = t.tanh(%x)`, at: "%y",
		rules: func(ctx *ir.Context) []*rule.Rule {
			return []*rule.Rule{
				rb(ctx, "relu").Op("t.relu", "%a").Results("%r").Builder().MustBuild(),
				rb(ctx, "tanh").Op("t.tanh", "%a").Results("%r").Builder().MustBuild(),
				rb(ctx, "any").Op("", "%a").Results("%r").Builder().MustBuild(),
			}
		},
		want: []string{"relu{op0=%y %a=%x %r=%y}", "any{op0=%y %a=%x %r=%y}"}},
	// 2. Operand counts and lists.
	{name: "operand count exact", prog: `
%x = t.src()
%y = t.add(%x, %x, %x)`, at: "%y",
		rules: func(ctx *ir.Context) []*rule.Rule {
			return []*rule.Rule{
				rb(ctx, "two").Op("t.add", "%a", "%b").Results("%r").Builder().MustBuild(),
				rb(ctx, "three").Op("t.add", "%a", "_", "_").Results("%r").Builder().MustBuild(),
			}
		},
		want: []string{"three{op0=%y %a=%x %r=%y}"}},
	{name: "list tail", prog: `
%x = t.src()
%w = t.src()
%y = t.concat(%x, %w, null)
%z = t.concat(%x)`, at: "%y",
		rules: func(ctx *ir.Context) []*rule.Rule {
			return []*rule.Rule{
				rb(ctx, "rest").Op("t.concat", "%a", "%xs...").Results("%r").Builder().MustBuild(),
				rb(ctx, "all").Op("t.concat", "%xs...").Results("%r").Builder().MustBuild(),
				rb(ctx, "toolong").Op("t.concat", "_", "_", "_", "_", "%xs...").Results("%r").Builder().MustBuild(),
			}
		},
		want: []string{"rest{op0=%y %a=%x %xs...=[%w null] %r=%y}", "all{op0=%y %xs...=[%x %w null] %r=%y}"}},
	{name: "empty list tail", prog: `
%x = t.src()
%z = t.concat(%x)`, at: "%z",
		rules: func(ctx *ir.Context) []*rule.Rule {
			return []*rule.Rule{rb(ctx, "rest").Op("t.concat", "%a", "%xs...").Results("%r").Builder().MustBuild()}
		},
		want: []string{"rest{op0=%z %a=%x %xs...=[] %r=%z}"}},
	// 3. Result counts, _ results, extra results.
	{name: "results", prog: `
%x = t.src()
%a, %b, %c = t.split(%x)
%u = t.relu(%b)`, at: "%a",
		rules: func(ctx *ir.Context) []*rule.Rule {
			return []*rule.Rule{
				rb(ctx, "exact").Op("t.split", "%i").Results("%p", "%q", "%s").Builder().MustBuild(),
				rb(ctx, "two").Op("t.split", "%i").Results("%p", "%q").Builder().MustBuild(),
				rb(ctx, "more").Op("t.split", "%i").Results("%p", "%q", "...").Builder().MustBuild(),
				rb(ctx, "more_used").Op("t.split", "%i").Results("%p", "...").Builder().MustBuild(),
				rb(ctx, "unused_ok").Op("t.split", "%i").Results("%p", "%q", "_").Builder().MustBuild(),
				rb(ctx, "unused_bad").Op("t.split", "%i").Results("%p", "_", "%s").Builder().MustBuild(),
			}
		},
		want: []string{"exact{op0=%a %i=%x %p=%a %q=%b %s=%c}", "more{op0=%a %i=%x %p=%a %q=%b}",
			"unused_ok{op0=%a %i=%x %p=%a %q=%b}"}},
	// 4. Attributes.
	{name: "attr bind literal present rest", prog: `
%x = t.src()
%y = t.op(%x) {k: 1, s: "a", m: 2}`, at: "%y",
		rules: func(ctx *ir.Context) []*rule.Rule {
			return []*rule.Rule{
				rb(ctx, "bind").Op("t.op", "%a").Attr("k", "$k").Results("%r").Builder().MustBuild(),
				rb(ctx, "lit").Op("t.op", "%a").Attr("s", ctx.Str("a")).Results("%r").Builder().MustBuild(),
				rb(ctx, "lit_bad").Op("t.op", "%a").Attr("s", ctx.Str("b")).Results("%r").Builder().MustBuild(),
				rb(ctx, "lit_kind").Op("t.op", "%a").Attr("k", ctx.Int64(1)).Results("%r").Builder().MustBuild(),
				rb(ctx, "present").Op("t.op", "%a").Attr("m", "_").Results("%r").Builder().MustBuild(),
				rb(ctx, "absent").Op("t.op", "%a").Attr("q", "_").Results("%r").Builder().MustBuild(),
				rb(ctx, "bind_missing").Op("t.op", "%a").Attr("q", "$q").Results("%r").Builder().MustBuild(),
				rb(ctx, "rest").Op("t.op", "%a").Attr("s", "$s").RestAttrs("$rest").Results("%r").Builder().MustBuild(),
				rb(ctx, "same_hole").Op("t.op", "%a").Attr("k", "$v").Attr("m", "$v").Results("%r").Builder().MustBuild(),
			}
		},
		want: []string{"bind{op0=%y %a=%x %r=%y $k=(Int32)1}", "lit{op0=%y %a=%x %r=%y}",
			"present{op0=%y %a=%x %r=%y}", `rest{op0=%y %a=%x %r=%y $s="a" $rest={k: (Int32)1, m: (Int32)2}}`}},
	{name: "attr defaults", prog: `
%x = t.src()
%y = r.conv(%x, %x) {groups: 2}`, at: "%y",
		rules: func(ctx *ir.Context) []*rule.Rule {
			return []*rule.Rule{
				rb(ctx, "default_bind").Op("r.conv", "%a", "%b").Attr("data_format", "$f").Results("%r").Builder().MustBuild(),
				rb(ctx, "default_eq").Op("r.conv", "%a", "%b").Attr("data_format", ctx.Str("NCHW")).Results("%r").Builder().MustBuild(),
				rb(ctx, "default_present").Op("r.conv", "%a", "%b").Attr("data_format", "_").Results("%r").Builder().MustBuild(),
				rb(ctx, "carried").Op("r.conv", "%a", "%b").Attr("groups", ctx.Int32(2)).Results("%r").Builder().MustBuild(),
			}
		},
		want: []string{`default_bind{op0=%y %a=%x %b=%x %r=%y $f="NCHW"}`, "default_eq{op0=%y %a=%x %b=%x %r=%y}",
			"carried{op0=%y %a=%x %b=%x %r=%y}"}},
	{name: "attr hole across ops", prog: `
%x = t.src()
%c = t.conv(%x) {f: "NCHW"}
%y = t.bn(%c) {f: "NCHW"}
%d = t.conv(%x) {f: "NCHW"}
%z = t.bn(%d) {f: "NHWC"}`, at: "%y",
		rules: func(ctx *ir.Context) []*rule.Rule {
			return []*rule.Rule{rb(ctx, "same_fmt").Op("t.conv", "%i").Attr("f", "$f").Results("%c").
				Builder().Op("t.bn", "%c").Attr("f", "$f").Results("%o").Builder().MustBuild()}
		},
		want: []string{`same_fmt{op0=%c op1=%y %i=%x %c=%c %o=%y $f="NCHW"}`}},
	// 5. Operands: present, null, any, repeated holes, producers.
	{name: "null and any", prog: `
%x = t.src()
%y = t.n(%x, null)
%z = t.n(%x, %x)`, at: "%y",
		rules: func(ctx *ir.Context) []*rule.Rule {
			return []*rule.Rule{
				rb(ctx, "null").Op("t.n", "%a", "null").Results("%r").Builder().MustBuild(),
				rb(ctx, "any").Op("t.n", "%a", "_").Results("%r").Builder().MustBuild(),
				rb(ctx, "value").Op("t.n", "%a", "%b").Results("%r").Builder().MustBuild(),
			}
		},
		want: []string{"null{op0=%y %a=%x %r=%y}", "any{op0=%y %a=%x %r=%y}"}},
	{name: "repeated value hole", prog: `
%x = t.src()
%w = t.src()
@same %y = t.add(%x, %x)
@diff %z = t.add(%x, %w)`, at: "@same",
		rules: func(ctx *ir.Context) []*rule.Rule {
			return []*rule.Rule{rb(ctx, "square").Op("t.add", "%a", "%a").Results("%r").Builder().MustBuild()}
		},
		want: []string{"square{op0=%y %a=%x %r=%y}"}},
	{name: "producer result index", prog: `
%x = t.src()
%a, %b = t.split(%x)
%y = t.relu(%b)`, at: "%y",
		rules: func(ctx *ir.Context) []*rule.Rule {
			return []*rule.Rule{
				rb(ctx, "second").Op("t.split", "%i").Results("_", "%q").Builder().Op("t.relu", "%q").Results("%r").Builder().MustBuild(),
				rb(ctx, "first").Op("t.split", "%i").Results("%p", "_").Builder().Op("t.relu", "%p").Results("%r").Builder().MustBuild(),
			}
		},
		want: []string{"second{op0=%a op1=%y %i=%x %q=%b %r=%y}"}},
	{name: "block argument producer", prog: `
%c = t.src()
@if t.if(%c) [
^%arg
%y = t.relu(%arg)
]`, at: "%y",
		rules: func(ctx *ir.Context) []*rule.Rule {
			return []*rule.Rule{
				rb(ctx, "prod").Op("t.src").Results("%s").Builder().Op("t.relu", "%s").Results("%r").Builder().MustBuild(),
				rb(ctx, "input").Op("t.relu", "%a").Results("%r").Builder().MustBuild(),
			}
		},
		want: []string{"input{op0=%y %a=%arg %r=%y}"}},
	{name: "distinct pattern ops", prog: `
%x = t.src()
%y = t.add(%x, %x)`, at: "%y",
		rules: func(ctx *ir.Context) []*rule.Rule {
			return []*rule.Rule{
				rb(ctx, "two_srcs").Op("t.src").Results("%a").Builder().Op("t.src").Results("%b").Builder().
					Op("t.add", "%a", "%b").Results("%r").Builder().MustBuild(),
				rb(ctx, "one_src").Op("t.src").Results("%a").Builder().Op("t.add", "%a", "%a").Results("%r").
					Builder().Shared("%a").MustBuild(),
			}
		},
		want: []string{"one_src{op0=%x op1=%y %a=%x %r=%y}"}},
	{name: "constants named once match equal ops", prog: `
%a = r.k() {value: 2}
%b = r.k() {value: 2}
%x = t.src()
%p = r.add(%x, %a)
%q = r.add(%x, %b)
@y %y = r.mul(%p, %q)`, at: "@y",
		rules: func(ctx *ir.Context) []*rule.Rule {
			named := func(name string) *rule.Rule {
				return rb(ctx, name).Op("r.k").Attr("value", "$v").Results("%k").Constant().Builder().
					Op("r.add", "%x", "%k").Results("%p").Builder().Op("r.add", "%x", "%k").Results("%q").Builder().
					Op("r.mul", "%p", "%q").Results("%y").Builder().MustBuild()
			}
			identity := rb(ctx, "by_identity").Op("r.k").Attr("value", "$v").Results("%k").Builder().
				Op("r.add", "%x", "%k").Results("%p").Builder().Op("r.add", "%x", "%k").Results("%q").Builder().
				Op("r.mul", "%p", "%q").Results("%y").Builder().Shared("%k").MustBuild()
			return []*rule.Rule{named("by_value"), identity}
		},
		want: []string{"by_value{op0=%a op1=%p op2=%q op3=%y %k=%a %x=%x %p=%p %q=%q %y=%y $v=(Int32)2}"}},
	{name: "constants of other values or types differ", prog: `
%a = r.k() {value: 2}
%c = r.k() {value: 3}
%d:f16 = r.k() {value: 2}
%x = t.src()
%p = r.add(%x, %a)
%r = r.add(%x, %c)
@z %z = r.mul(%p, %r)
%p2 = r.add(%x, %a)
%s = r.add(%x, %d)
@w %w = r.mul(%p2, %s)`, at: "@z",
		rules: func(ctx *ir.Context) []*rule.Rule {
			return []*rule.Rule{rb(ctx, "by_value").Op("r.k").Results("%k").Constant().Builder().
				Op("r.add", "%x", "%k").Results("%p").Builder().Op("r.add", "%x", "%k").Results("%q").Builder().
				Op("r.mul", "%p", "%q").Results("%y").Builder().MustBuild()}
		},
		want: nil},
	{name: "constants of other types differ", prog: `
%a = r.k() {value: 2}
%c = r.k() {value: 3}
%d:f16 = r.k() {value: 2}
%x = t.src()
%p = r.add(%x, %a)
%r = r.add(%x, %c)
@z %z = r.mul(%p, %r)
%p2 = r.add(%x, %a)
%s = r.add(%x, %d)
@w %w = r.mul(%p2, %s)`, at: "@w",
		rules: func(ctx *ir.Context) []*rule.Rule {
			return []*rule.Rule{rb(ctx, "by_value").Op("r.k").Results("%k").Constant().Builder().
				Op("r.add", "%x", "%k").Results("%p").Builder().Op("r.add", "%x", "%k").Results("%q").Builder().
				Op("r.mul", "%p", "%q").Results("%y").Builder().MustBuild()}
		},
		want: nil},
	{name: "constants written in place match only themselves", prog: `
%a = r.k() {value: 2}
%b = r.k() {value: 2}
%v = r.view(%b)
%f = r.fill_(%v)
%x = t.src()
%p = r.add(%x, %a)
%q = r.add(%x, %b)
@y %y = r.mul(%p, %q)`, at: "@y",
		rules: func(ctx *ir.Context) []*rule.Rule {
			return []*rule.Rule{rb(ctx, "by_value").Op("r.k").Results("%k").Constant().Builder().
				Op("r.add", "%x", "%k").Results("%p").Builder().Op("r.add", "%x", "%k").Results("%q").Builder().
				Op("r.mul", "%p", "%q").Results("%y").Builder().MustBuild()}
		},
		want: nil},
	{name: "constants written twice may bind one op", prog: `
%a = r.k() {value: 2}
%x = t.src()
%y = r.add(%a, %a)`, at: "%y",
		rules: func(ctx *ir.Context) []*rule.Rule {
			return []*rule.Rule{
				rb(ctx, "inline_twice").Op("r.k").Attr("value", "$v").Results("%k1").Constant().Builder().
					Op("r.k").Attr("value", "$v").Results("%k2").Constant().Builder().
					Op("r.add", "%k1", "%k2").Results("%r").Builder().MustBuild(),
				rb(ctx, "not_constants").Op("r.k").Results("%k1").Builder().Op("r.k").Results("%k2").Builder().
					Op("r.add", "%k1", "%k2").Results("%r").Builder().Shared("%k1").Shared("%k2").MustBuild(),
			}
		},
		want: []string{"inline_twice{op0=%a op1=%a op2=%y %k1=%a %k2=%a %r=%y $v=(Int32)2}"}},
	// 6. Types.
	{name: "types", prog: `
%x:f16 = t.src()
%w = t.src()
%y = t.add(%x, %w)`, at: "%y",
		rules: func(ctx *ir.Context) []*rule.Rule {
			types := testTypes(ctx)
			mk := func(name string, tp func(b *rule.Builder) *rule.TypePattern) *rule.Rule {
				b := rb(ctx, name)
				b.Op("t.add", "%a", "%b").Results("%r")
				b.Type("%a", tp(b))
				return b.MustBuild()
			}
			return []*rule.Rule{
				mk("exact", func(b *rule.Builder) *rule.TypePattern { return b.ExactType(types["f16"]) }),
				mk("exact_bad", func(b *rule.Builder) *rule.TypePattern { return b.ExactType(types["f32"]) }),
				mk("dims", func(b *rule.Builder) *rule.TypePattern { return b.Tensor([]string{"2", "?"}, "f16") }),
				mk("dims_bad", func(b *rule.Builder) *rule.TypePattern { return b.Tensor([]string{"3", "?"}, "f16") }),
				mk("rank_bad", func(b *rule.Builder) *rule.TypePattern { return b.Tensor([]string{"?"}, "?") }),
				mk("rest", func(b *rule.Builder) *rule.TypePattern { return b.Tensor([]string{"*", "3"}, "?") }),
				mk("rest_long", func(b *rule.Builder) *rule.TypePattern { return b.Tensor([]string{"2", "*", "3"}, "?") }),
				mk("rest_bad", func(b *rule.Builder) *rule.TypePattern { return b.Tensor([]string{"2", "3", "*", "3"}, "?") }),
				mk("holes", func(b *rule.Builder) *rule.TypePattern { return b.Tensor([]string{"$n", "$m"}, "$dt") }),
				mk("dtype_bad", func(b *rule.Builder) *rule.TypePattern { return b.Tensor([]string{"*"}, "f32") }),
				mk("spelling_bad", func(b *rule.Builder) *rule.TypePattern {
					return b.Tensor([]string{"*"}, "?", ir.ValueTensor)
				}),
				mk("whole", func(b *rule.Builder) *rule.TypePattern { return b.TypeHole("$t") }),
			}
		},
		want: []string{"exact{op0=%y %a=%x %b=%w %r=%y}", "dims{op0=%y %a=%x %b=%w %r=%y}",
			"rest{op0=%y %a=%x %b=%w %r=%y}", "rest_long{op0=%y %a=%x %b=%w %r=%y}",
			"holes{op0=%y %a=%x %b=%w %r=%y $n=2 $m=3 $dt=float16}",
			"whole{op0=%y %a=%x %b=%w %r=%y $t=builtin.tensor<2x3xf16>}"}},
	{name: "type holes shared", prog: `
%x:f16 = t.src()
%w = t.src()
%v:f16 = t.src()
@mixed %y = t.add(%x, %w)
@same %z = t.add(%x, %v)`, at: "@same",
		rules: func(ctx *ir.Context) []*rule.Rule {
			b := rb(ctx, "same_dtype")
			b.Op("t.add", "%a", "%b").Results("%r")
			b.Type("%a", b.Tensor([]string{"*"}, "$dt")).Type("%b", b.Tensor([]string{"$d0", "*"}, "$dt"))
			b2 := rb(ctx, "same_type")
			b2.Op("t.add", "%a", "%b").Results("%r")
			b2.Type("%a", b2.TypeHole("$t")).Type("%b", b2.TypeHole("$t"))
			return []*rule.Rule{b.MustBuild(), b2.MustBuild()}
		},
		want: []string{"same_dtype{op0=%z %a=%x %b=%v %r=%z $dt=float16 $d0=2}",
			"same_type{op0=%z %a=%x %b=%v %r=%z $t=builtin.tensor<2x3xf16>}"}},
	// 7. Commutative ops.
	{name: "commutative written order first", prog: `
%x = t.src()
%e = t.exp(%x)
%l = t.log(%x)
%y = t.add(%e, %l)`, at: "%y",
		rules: func(ctx *ir.Context) []*rule.Rule {
			return []*rule.Rule{
				rb(ctx, "any_order").Op("t.add", "%p", "%q").Commutative().Results("%r").Builder().MustBuild(),
				rb(ctx, "swapped").Op("t.log", "%i").Results("%l").Builder().Op("t.exp", "%i").Results("%e").Builder().
					Op("t.add", "%l", "%e").Commutative().Results("%r").Builder().MustBuild(),
				rb(ctx, "not_comm").Op("t.log", "%i").Results("%l").Builder().Op("t.exp", "%i").Results("%e").Builder().
					Op("t.add", "%l", "%e").Results("%r").Builder().MustBuild(),
			}
		},
		want: []string{"any_order{op0=%y %p=%e %q=%l %r=%y}",
			"swapped{op0=%l op1=%e op2=%y %i=%x %l=%l %e=%e %r=%y}"}},
	{name: "commutative where picks swapped", prog: `
%x = t.src() {k: 1}
%w = t.src() {k: 2}
%y = t.add(%x, %w)`, at: "%y",
		rules: func(ctx *ir.Context) []*rule.Rule {
			b := rb(ctx, "two_first")
			b.Op("t.src").Attr("k", "$k").Results("%a")
			b.Op("t.add", "%a", "%b").Commutative().Results("%r")
			b.Where(rule.Bin("==", b.H("$k"), rule.Int(2)))
			return []*rule.Rule{b.MustBuild()}
		},
		want: []string{"two_first{op0=%w op1=%y %a=%w %b=%x %r=%y $k=(Int32)2}"}},
	// 8. Closure.
	{name: "closure", prog: `
%x = t.src()
%c = t.conv(%x)
%b = t.bn(%c)
%o = t.other(%c)
%d = t.conv(%x)
@ok %e = t.bn(%d)
%f = t.use(%e)`, at: "%b",
		rules: func(ctx *ir.Context) []*rule.Rule {
			return []*rule.Rule{
				rb(ctx, "closed").Op("t.conv", "%i").Results("%c").Builder().Op("t.bn", "%c").Results("%o").Builder().MustBuild(),
				rb(ctx, "shared").Op("t.conv", "%i").Results("%c").Builder().Op("t.bn", "%c").Results("%o").
					Builder().Shared("%c").MustBuild(),
			}
		},
		want: []string{"shared{op0=%c op1=%b %i=%x %c=%c %o=%b}"}},
	{name: "closure outputs may escape", prog: `
%x = t.src()
%d = t.conv(%x)
%e = t.bn(%d)
%f = t.use(%e)`, at: "%e",
		rules: func(ctx *ir.Context) []*rule.Rule {
			return []*rule.Rule{rb(ctx, "closed").Op("t.conv", "%i").Results("%c").Builder().
				Op("t.bn", "%c").Results("%o").Builder().MustBuild()}
		},
		want: []string{"closed{op0=%d op1=%e %i=%x %c=%d %o=%e}"}},
	// 9. Multi-root patterns.
	{name: "multi-root users in program order", prog: `
%x = t.src()
%y = t.relu(%x)
%a = t.mul(%y, %x) {k: 1}
%b = t.mul(%y, %x) {k: 2}
%c = t.mul(%x, %x) {k: 3}`, at: "%y",
		rules: func(ctx *ir.Context) []*rule.Rule {
			b := rule.NewBuilder(ctx, "relu_mul")
			relu := b.Op("t.relu", "%i").Results("%r")
			b.Op("t.mul", "%r", "%i").Attr("k", "$k").Results("%m")
			b.Root(relu).Shared("%r")
			b2 := rule.NewBuilder(ctx, "relu_mul2")
			relu2 := b2.Op("t.relu", "%i").Results("%r")
			b2.Op("t.mul", "%r", "%i").Attr("k", "$k").Results("%m")
			b2.Where(rule.Bin(">", b2.H("$k"), rule.Int(1)))
			b2.Root(relu2).Shared("%r")
			return []*rule.Rule{b.MustBuild(), b2.MustBuild()}
		},
		want: []string{"relu_mul{op0=%y op1=%a %i=%x %r=%y %m=%a $k=(Int32)1}",
			"relu_mul2{op0=%y op1=%b %i=%x %r=%y %m=%b $k=(Int32)2}"}},
	{name: "multi-root two outputs", prog: `
%x = t.src()
%p = t.exp(%x)
%q = t.log(%x)`, at: "%q",
		rules: func(ctx *ir.Context) []*rule.Rule {
			b := rb(ctx, "siblings")
			b.Op("t.exp", "%i").Results("%e")
			b.Op("t.log", "%i").Results("%l")
			return []*rule.Rule{b.MustBuild()}
		},
		want: []string{"siblings{op0=%p op1=%q %i=%x %e=%p %l=%q}"}},
	{name: "multi-root nested user", prog: `
%x = t.src()
%y = t.relu(%x)
@if t.if(%x) [
%n = t.mul(%y)
]
%z = t.mul(%y)`, at: "%y",
		rules: func(ctx *ir.Context) []*rule.Rule {
			b := rule.NewBuilder(ctx, "relu_mul")
			b.Root(b.Op("t.relu", "%i").Results("%r"))
			b.Op("t.mul", "%r").Results("%m")
			b.Shared("%r")
			return []*rule.Rule{b.MustBuild()}
		},
		want: []string{"relu_mul{op0=%y op1=%n %i=%x %r=%y %m=%n}"}},
	// 10. Where constraints.
	{name: "where", prog: `
%x = t.src() {k: 3}
%y = t.relu(%x)
%z = t.tanh(%x)`, at: "%x", oracle: testOracle,
		rules: func(ctx *ir.Context) []*rule.Rule {
			mk := func(name string, w func(b *rule.Builder) rule.Expr) *rule.Rule {
				b := rb(ctx, name)
				b.Op("t.src").Attr("k", "$k").Results("%s")
				b.Where(w(b))
				return b.MustBuild()
			}
			return []*rule.Rule{
				mk("uses2", func(b *rule.Builder) rule.Expr { return rule.Bin("==", b.Uses("%s"), rule.Int(2)) }),
				mk("uses1", func(b *rule.Builder) rule.Expr { return rule.Bin("==", b.Uses("%s"), rule.Int(1)) }),
				mk("uses_ge", func(b *rule.Builder) rule.Expr { return rule.Bin("<=", rule.Int(1), b.Uses("%s")) }),
				mk("hole_cmp", func(b *rule.Builder) rule.Expr { return rule.Bin(">", b.H("$k"), rule.Int(2)) }),
				mk("error", func(b *rule.Builder) rule.Expr { return rule.Bin("<", b.H("$k"), rule.Str("a")) }),
				mk("not_bool", func(b *rule.Builder) rule.Expr { return b.H("$k") }),
				mk("builtin", func(b *rule.Builder) rule.Expr { return rule.Fn("immutable", b.V("%s")) }),
				mk("native", func(b *rule.Builder) rule.Expr { return rule.NativeFn("even", b.H("$k")) }),
				mk("and", func(b *rule.Builder) rule.Expr {
					return rule.Bin("&&", rule.Fn("immutable", b.V("%s")), rule.Bin("==", b.Uses("%s"), rule.Int(2)))
				}),
			}
		},
		want: []string{"uses2{op0=%x %s=%x $k=(Int32)3}", "uses_ge{op0=%x %s=%x $k=(Int32)3}",
			"hole_cmp{op0=%x %s=%x $k=(Int32)3}", "builtin{op0=%x %s=%x $k=(Int32)3}",
			"and{op0=%x %s=%x $k=(Int32)3}"}},
	{name: "where without oracle", prog: `
%x = t.src() {k: 2}`, at: "%x",
		rules: func(ctx *ir.Context) []*rule.Rule {
			b := rb(ctx, "builtin")
			b.Op("t.src").Attr("k", "$k").Results("%s")
			b.Where(rule.Fn("immutable", b.V("%s")))
			b2 := rb(ctx, "native")
			b2.Op("t.src").Attr("k", "$k").Results("%s")
			b2.Where(rule.NativeFn("even", b2.H("$k")))
			b3 := rb(ctx, "pure")
			b3.Op("t.src").Attr("k", "$k").Results("%s")
			b3.Where(rule.Fn("unused", b3.V("%s")))
			return []*rule.Rule{b.MustBuild(), b2.MustBuild(), b3.MustBuild()}
		},
		want: []string{"pure{op0=%x %s=%x $k=(Int32)2}"}},
	// 11. Order of results.
	{name: "benefit then index", prog: `
%x = t.src()
%y = t.relu(%x)`, at: "%y",
		rules: func(ctx *ir.Context) []*rule.Rule {
			mk := func(name string, benefit int) *rule.Rule {
				return rb(ctx, name).Benefit(benefit).Op("t.relu", "%a").Results("%r").Builder().MustBuild()
			}
			return []*rule.Rule{mk("a1", 1), mk("b3", 3), mk("c1", 1), mk("d3", 3), mk("e2", 2)}
		},
		want: []string{"b3{op0=%y %a=%x %r=%y}", "d3{op0=%y %a=%x %r=%y}", "e2{op0=%y %a=%x %r=%y}",
			"a1{op0=%y %a=%x %r=%y}", "c1{op0=%y %a=%x %r=%y}"}},
}

func TestSemantics(t *testing.T) {
	for _, tc := range semCases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := semCtx(t)
			tp := parseProg(t, ctx, tc.prog)
			op := tp.ops[tc.at]
			require.NotNil(t, op, "no op %s", tc.at)
			set := rule.NewSet(ctx, tc.rules(ctx)...)
			want := tc.want
			if want == nil {
				want = []string{}
			}
			for _, opts := range []Options{{}, {NoTree: true}} {
				a, err := Compile(set, opts)
				require.NoError(t, err)
				assert.Equal(t, want, tp.showAll(a.Match(op, tc.oracle)), "automaton %+v", opts)
			}
			assert.Equal(t, want, tp.showAll(newRef().match(set, op, tc.oracle)), "reference")
			var explained []*rule.Match
			for _, e := range Explain(set, "", op, tc.oracle, nil) {
				if e.Match != nil {
					explained = append(explained, e.Match)
				}
			}
			sortMatches(explained)
			if !assert.Equal(t, want, tp.showAll(explained), "explain") {
				for _, e := range Explain(set, "", op, tc.oracle, nil) {
					t.Logf("%+v", e)
				}
			}
		})
	}
}
