package kernels_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/kernels"
)

func defaultCtx(t testing.TB) *ir.Context {
	t.Helper()
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	return ctx
}

// TestParseErrors: every malformed table is an error at file:line:col that says what is wrong.
func TestParseErrors(t *testing.T) {
	ctx := defaultCtx(t)
	for _, tc := range []struct{ name, src, err string }{
		{"no header", "op pd_op.relu dtypes(float32) source \"x\"",
			`t.kernels:1:1: a kernel table starts with 'kernels TARGET' (gpu or cpu), found "op"`},
		{"bad target", "kernels tpu", `t.kernels:1:9: unknown target "tpu": a kernel table is for gpu or cpu`},
		{"unknown op", "kernels gpu\nop pd_op.relux dtypes(float32) source \"x\"", "t.kernels:2:4: unknown op pd_op.relux (no catalog declares it)"},
		{"listed twice", "kernels gpu\nop pd_op.relu dtypes(float32) source \"x\"\nop pd_op.relu dtypes(float32) source \"x\"",
			"t.kernels:3:1: op pd_op.relu is listed twice (first at t.kernels:2:1)"},
		{"unknown dtype", "kernels gpu\nop pd_op.relu dtypes(float33) source \"x\"",
			`t.kernels:2:22: unknown data type "float33" (Paddle's names: float32, float16, bfloat16, int64, bool, …)`},
		{"no dtypes", "kernels gpu\nop pd_op.relu source \"x\"", "t.kernels:2:1: kernel of pd_op.relu without dtypes(…)"},
		{"no source", "kernels gpu\nop pd_op.relu dtypes(float32)",
			"t.kernels:2:1: pd_op.relu: no source: every entry cites the Paddle file it comes from"},
		{"unknown attribute", "kernels gpu\nop pd_op.fc dtypes(float32) source \"x\"\n require a: $activation \"m\"",
			"t.kernels:3:14: pd_op.fc has no attribute activation"},
		{"unknown operand", "kernels gpu\nop pd_op.fc dtypes(float32) source \"x\"\n require a: rank(%x) == 2 \"m\"",
			"t.kernels:3:19: pd_op.fc has no operand or result x"},
		{"bare tensor", "kernels gpu\nop pd_op.fc dtypes(float32) source \"x\"\n require a: %input == 2 \"m\"",
			"t.kernels:3:13: %input is a tensor: use it in dtype(…), rank(…), dim(…) or present(…)"},
		{"unknown name", "kernels gpu\nop pd_op.fc dtypes(float32) source \"x\"\n require a: activation == \"relu\" \"m\"",
			`t.kernels:3:13: unknown name "activation": write $activation for an attribute, %activation for a tensor, or a data type`},
		{"no message", "kernels gpu\nop pd_op.fc dtypes(float32) source \"x\"\n require a: sm >= 80",
			"t.kernels:3:21: expected the message of a finding, a string, found end of file"},
		{"bad message expression", "kernels gpu\nop pd_op.fc dtypes(float32) source \"x\"\n require a: sm >= 80 \"not {$nope}\"",
			"t.kernels:3:29: pd_op.fc has no attribute nope"},
		{"unreachable kernel", "kernels gpu\nop pd_op.relu source \"x\"\n kernel a dtypes(float32)\n kernel b dtypes(float16)",
			"t.kernels:4:2: kernel b can never be chosen: kernel a before it has no if"},
		{"dtypes before kernels", "kernels gpu\nop pd_op.relu source \"x\" dtypes(float32)\n kernel a dtypes(float16)",
			"t.kernels:3:2: dtypes before the first kernel clause belong to no kernel: give them after it"},
		{"instruction and kernels", "kernels gpu\nop pd_op.relu instruction \"x\" dtypes(float32)",
			"t.kernels:2:31: an entry that is instruction or unsupported has no dtypes"},
		{"unterminated string", "kernels gpu\nop pd_op.relu source \"x", "t.kernels:2:22: unterminated string"},
		{"stray character", "kernels gpu\nop pd_op.relu dtypes(float32) source \"x\" @", `t.kernels:2:42: unexpected character '@'`},
		{"stray token", "kernels gpu\nop pd_op.relu dtypes(float32) source \"x\" 3",
			"t.kernels:2:42: expected a clause (key, source, dtypes, require, kernel, instruction, unsupported) or the next op, found number 3"},
		{"key twice", "kernels gpu\nop pd_op.fc key(%input) key(%w) dtypes(float32) source \"x\"",
			"t.kernels:2:25: key is given once per entry, before its kernels"},
		{"wrong arity", "kernels gpu\nop pd_op.fc dtypes(float32) source \"x\"\n require a: dim(%w) == 2 \"m\"",
			"t.kernels:3:19: expected ',', found ')'"},
	} {
		_, err := kernels.Parse(ctx, "t.kernels", []byte(tc.src))
		assert.EqualError(t, err, tc.err, tc.name)
	}
}

// TestExpressions: the expression language's values and operators, and what is unknown (not a finding).
func TestExpressions(t *testing.T) {
	ctx := defaultCtx(t)
	prog := "{\n" +
		`    (%0) = "builtin.parameter" () {parameter_name:"x"} : () -> builtin.tensor<-1x16x8xf16>` + "\n" +
		`    (%1) = "builtin.parameter" () {parameter_name:"w"} : () -> builtin.tensor<8x4xf16>` + "\n" +
		`    (%2) = "pd_op.fc" (%0, %1, <<NULL VALUE>>) {activation_type:"relu",in_num_col_dims:(Int32)2} : (builtin.tensor<-1x16x8xf16>, builtin.tensor<8x4xf16>, <<NULL TYPE>>) -> builtin.tensor<-1x16x4xf16>` + "\n}\n"
	for _, tc := range []struct {
		cond string
		want string // "holds", "fails" or "unknown"
	}{
		{`$activation_type == "relu"`, "holds"},
		{`$activation_type in ["gelu", "relu"]`, "holds"},
		{`$activation_type in ["gelu"]`, "fails"},
		{`$in_num_col_dims == 2 && $padding_weights == false`, "holds"}, // padding_weights: the schema default
		{`dtype(%input) == float16`, "holds"},
		{`dtype(%input) in [float32, bfloat16]`, "fails"},
		{`rank(%input) == 3 && dim(%input, -1) == 8 && dim(%w, 1) % 4 == 0`, "holds"},
		{`dim(%input, 0) == 4`, "unknown"},                  // a dynamic dimension
		{`dim(%input, 0) == 4 || dim(%w, 0) == 8`, "holds"}, // what is known decides
		{`dim(%input, 0) == 4 && dim(%w, 0) == 7`, "fails"},
		{`present(%bias)`, "fails"},
		{`!present(%bias) && present(%w)`, "holds"},
		{`sm >= 80 ? dim(%w, 0) * 2 - 1 == 15 : false`, "holds"},
		{`len([1, 2, 3]) == 3 && [1, 2][1] == 2 && 7 / 2 == 3 && -dim(%w, 1) == -4`, "holds"},
		{`1.5 < 2 && 2 <= 2.0 && 3 > 2.5`, "holds"},
		{`dim(%input, 5) == 1`, "unknown"}, // out of range: nothing known
	} {
		src := "kernels gpu\nop pd_op.fc dtypes(float16) source \"s\"\n require c: " + tc.cond + " \"m\"\n"
		tab, err := kernels.Parse(ctx, "t.kernels", []byte(src))
		require.NoError(t, err, tc.cond)
		p := parse(t, ctx, prog)
		var fc *ir.Op
		for op := range p.Walk() {
			if op.Name() == "pd_op.fc" {
				fc = op
			}
		}
		fs := kernels.CheckOp(fc, tab, ir.GPU(80))
		switch tc.want {
		case "fails":
			require.Len(t, fs, 1, tc.cond)
			assert.Equal(t, "c", fs[0].Constraint, tc.cond)
		default: // holds and unknown are not findings
			assert.Empty(t, fs, tc.cond)
		}
	}
}

// TestKernelSelection: the first kernel whose if holds runs; its dtypes and requires apply, the others' do not;
// an unknown if does not select.
func TestKernelSelection(t *testing.T) {
	ctx := defaultCtx(t)
	tab, err := kernels.Parse(ctx, "t.kernels", []byte(`kernels gpu
runtime force_backend
op pd_op.fused_conv2d_add_act
    source "s"
    require all: $groups == 1 "groups {$groups}"
    kernel special if($force_backend == "gpu")
        dtypes(float16)
        require special_act: $activation == "swish" "special {$activation}"
    kernel plain
        dtypes(float32)
`))
	require.NoError(t, err)
	conv := func(dt, attrs string) string {
		return "{\n" +
			`    (%0) = "builtin.parameter" () {parameter_name:"x"} : () -> builtin.tensor<1x8x4x4x` + dt + `>` + "\n" +
			`    (%1) = "builtin.parameter" () {parameter_name:"w"} : () -> builtin.tensor<8x8x1x1x` + dt + `>` + "\n" +
			`    (%2, %3) = "pd_op.fused_conv2d_add_act" (%0, %1, <<NULL VALUE>>, <<NULL VALUE>>) {` + attrs + `} : (builtin.tensor<1x8x4x4x` + dt + `>, builtin.tensor<8x8x1x1x` + dt + `>, <<NULL TYPE>>, <<NULL TYPE>>) -> builtin.tensor<1x8x4x4x` + dt + `>, <<NULL TYPE>>` + "\n}\n"
	}
	for _, tc := range []struct {
		name, dt, attrs string
		want            []string // "kernel constraint"
	}{
		{"special", "f16", `activation:"swish",force_backend:"gpu"`, nil},
		{"special's require", "f16", `activation:"relu",force_backend:"gpu"`, []string{"special special_act"}},
		{"special's dtypes", "f32", `activation:"swish",force_backend:"gpu"`, []string{"special dtype"}},
		{"plain", "f32", `activation:"relu"`, nil},
		{"plain without force_backend", "f16", `activation:"relu"`, []string{"plain dtype"}},
		{"entry require", "f32", `activation:"relu",groups:(Int32)2`, []string{"plain all"}},
	} {
		p := parse(t, ctx, conv(tc.dt, tc.attrs))
		var got []string
		for _, f := range kernels.Check(p, tab, ir.GPU(80)) {
			if f.Warning {
				continue
			}
			got = append(got, f.Kernel+" "+f.Constraint)
		}
		assert.Equal(t, tc.want, got, tc.name)
	}
}

func parse(t *testing.T, ctx *ir.Context, src string) *ir.Program {
	t.Helper()
	p, _, err := pirtextParse(ctx, src)
	require.NoError(t, err)
	return p
}

// TestTwinsListedTogether: the table lists an op's inplace twin (relu and relu_) whenever it lists the op, so that
// what the reinplace rules make of a checked program is checked too.
func TestTwinsListedTogether(t *testing.T) {
	ctx := defaultCtx(t)
	for _, target := range []ir.Target{ir.GPU(80)} {
		tab, err := kernels.Load(ctx, target)
		require.NoError(t, err)
		for _, op := range tab.Ops() {
			s := ctx.Schema(op)
			if s == nil || s.Counterpart == nil {
				continue
			}
			assert.NotNil(t, tab.Lookup(s.Counterpart.Name), "%s lists %s but not its twin %s", tab.File, op, s.Counterpart.Name)
		}
	}
}
