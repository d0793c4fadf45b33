package matcher

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// checkGolden compares outputs (file name → text) with the txtar archive testdata/archive, or rewrites it with
// -update.
func checkGolden(t *testing.T, archive, comment string, outputs map[string]string) {
	t.Helper()
	path := filepath.Join("testdata", archive)
	names := make([]string, 0, len(outputs))
	for n := range outputs {
		names = append(names, n)
	}
	sort.Strings(names)
	if *update {
		a := &txtar.Archive{Comment: []byte(comment + "\n")}
		for _, n := range names {
			text := outputs[n]
			if !strings.HasSuffix(text, "\n") {
				text += "\n"
			}
			a.Files = append(a.Files, txtar.File{Name: n, Data: []byte(text)})
		}
		require.NoError(t, os.WriteFile(path, txtar.Format(a), 0o644))
		return
	}
	a, err := txtar.ParseFile(path)
	require.NoError(t, err, "run go test -update to create it")
	want := map[string]string{}
	for _, f := range a.Files {
		want[f.Name] = string(f.Data)
	}
	for _, n := range names {
		text := outputs[n]
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		assert.Equal(t, want[n], text, "%s: %s (go test -update rewrites it)", archive, n)
		delete(want, n)
	}
	for n := range want {
		t.Errorf("%s: %s is no longer produced (go test -update removes it)", archive, n)
	}
}

// featureRules exercise every kind of tree node and remainder: any-op roots, commutative ops, a multi-root
// pattern, list tails, type patterns, hoisted and plain constraints, and a contradictory rule.
func featureRules(ctx *ir.Context) []*rule.Rule {
	var rules []*rule.Rule
	b := rb(ctx, "add_relu").Benefit(2)
	b.Op("t.relu", "%a").Results("%r")
	b.Op("t.add", "%r", "%b").Commutative().Attr("k", "$k").Results("%s")
	b.Where(rule.Bin("==", b.Uses("%s"), rule.Int(1)), rule.Bin("<", b.H("$k"), rule.Int(2)))
	rules = append(rules, b.MustBuild())

	b = rb(ctx, "add_any")
	b.Op("t.add", "%a", "%b").Attr("k", ctx.Int32(1)).Results("%s")
	rules = append(rules, b.MustBuild())

	b = rb(ctx, "concat_tail")
	b.Op("t.concat", "%first", "%rest...").Attr("axis", "$axis").Results("%c")
	b.Type("%first", b.Tensor([]string{"$n", "*"}, "$dt")).Type("%rest", b.Tensor([]string{"$n", "*"}, "$dt"))
	b.Where(rule.Bin(">=", rule.Fn("len", b.V("%rest")), rule.Int(1)))
	rules = append(rules, b.MustBuild())

	b = rule.NewBuilder(ctx, "siblings")
	b.Root(b.Op("t.exp", "%x").Results("%e"))
	b.Op("t.log", "%x").Results("%l")
	rules = append(rules, b.MustBuild())

	b = rb(ctx, "any_unused")
	b.Op("", "%x", "%more...").Results("_", "...")
	rules = append(rules, b.MustBuild())

	b = rb(ctx, "never")
	b.Op("t.add", "%a", "%b").Attr("k", ctx.Int32(1)).Results("%s")
	b.Where(rule.Bin("==", b.Uses("%s"), rule.Int(1)), rule.Bin("==", b.Uses("%s"), rule.Int(2)))
	rules = append(rules, b.MustBuild())
	return rules
}

func TestDumpGolden(t *testing.T) {
	sets := map[string]func(*ir.Context) []*rule.Rule{
		"bench":    benchRules,
		"features": featureRules,
		"scaling":  func(ctx *ir.Context) []*rule.Rule { return scalingRules(ctx, 7) },
	}
	outputs := map[string]string{}
	for name, mk := range sets {
		ctx := semCtx(t)
		a, err := Compile(rule.NewSet(ctx, mk(ctx)...), Options{})
		require.NoError(t, err)
		var dump, dot bytes.Buffer
		require.NoError(t, a.Dump(&dump))
		require.NoError(t, a.Dot(&dot))
		outputs[name+".dump"] = dump.String()
		outputs[name+".dot"] = dot.String()
		// Deterministic: compiling again gives the same text.
		a2, err := Compile(rule.NewSet(ctx, mk(ctx)...), Options{})
		require.NoError(t, err)
		var again bytes.Buffer
		require.NoError(t, a2.Dump(&again))
		assert.Equal(t, dump.String(), again.String())
	}
	checkGolden(t, "automaton.txtar", "Automaton.Dump and Automaton.Dot of three rule sets.", outputs)
}

// explainProg is a conv/batch_norm program with every way conv_bn can fail.
const explainProg = `
%x = pd_op.data() {name: "x"}
%w = builtin.parameter() {parameter_name: "w"}
%mean = builtin.parameter() {parameter_name: "mean"}
%var = builtin.parameter() {parameter_name: "var"}
%scale = builtin.parameter() {parameter_name: "scale"}
%bias = builtin.parameter() {parameter_name: "bias"}
%c1 = pd_op.depthwise_conv2d(%x, %w) {data_format: "NCHW", groups: 1}
@bn1 %y1, %m1, %v1, %s1, %t1, %r1 = pd_op.batch_norm_(%c1, %mean, %var, %scale, %bias) {data_format: "NCHW", epsilon: 0.00001}
%c2 = pd_op.conv2d(%y1, %w) {data_format: "NHWC", groups: 1}
@bn2 %y2, %m2, %v2, %s2, %t2, %r2 = pd_op.batch_norm_(%c2, %mean, %var, %scale, %bias) {data_format: "NHWC", epsilon: 0.00001}
%c3 = pd_op.conv2d(%y2, %w) {data_format: "NCHW", groups: 1}
%u3 = pd_op.relu(%c3)
%a3 = pd_op.add(%c3, %u3)
@bn3 %y3, %m3, %v3, %s3, %t3, %r3 = pd_op.batch_norm_(%c3, %mean, %var, %scale, %bias) {data_format: "NCHW", epsilon: 0.00001}
%c4 = pd_op.conv2d(%a3, %w) {data_format: "NCHW", groups: 1}
@bn4 %y4, %m4, %v4, %s4, %t4, %r4 = pd_op.batch_norm_(%c4, %mean, %var, %scale, %bias) {data_format: "NCHW", epsilon: 0.01}
%c5:f16 = pd_op.conv2d(%y4, %w) {data_format: "NCHW", groups: 1}
@bn5 %y5, %m5, %v5, %s5, %t5, %r5 = pd_op.batch_norm_(%c5, %mean, %var, %scale, %bias) {data_format: "NCHW", epsilon: 0.00001}
%c6 = pd_op.conv2d(%y5, %w) {data_format: "NCHW", groups: 1}
@bn6 %y6, %m6, %v6, %s6, %t6, %r6 = pd_op.batch_norm_(%c6, %mean, %var, %scale, %bias) {data_format: "NCHW", epsilon: 0.00001}
%e = pd_op.exp(%y6)
%s = pd_op.add(%e, %y6)
%c7 = pd_op.conv2d(%s, %w) {data_format: "NCHW", groups: 1}
@bn7 %y7, %m7, %v7, %s7, %t7, %r7 = pd_op.batch_norm_(%c7, %mean, %var, %scale, %bias) {data_format: "NCHW", epsilon: 0.00001}
%q7 = pd_op.relu(%m7)
%g7 = pd_op.sigmoid(%m7)
@fetch pd_op.fetch(%y7)
`

func explainRules(ctx *ir.Context) []*rule.Rule {
	convBN := func(name string) *rule.Builder {
		b := rule.NewBuilder(ctx, name)
		b.Op("pd_op.conv2d", "%x", "%w").Label("conv").Attr("data_format", ctx.Str("NCHW")).Attr("groups", "$g").
			Results("%y")
		b.Op("pd_op.batch_norm_", "%y", "%mean", "%var", "%scale", "%bias").Label("bn").Attr("epsilon", "$eps").
			Results("%out", "_", "_", "_", "_", "_")
		return b
	}
	b := convBN("conv_bn").Benefit(3)
	b.Where(rule.Bin("<=", b.H("$eps"), rule.Float(0.001)))
	b.Type("%y", b.Tensor([]string{"?", "*"}, "f32"))
	r1 := b.MustBuild()

	b = convBN("conv_bn_shared")
	b.Shared("%y")
	b.Where(rule.Bin("==", b.Uses("%y"), rule.Int(1)))
	r2 := b.MustBuild()

	b = convBN("conv_bn_param")
	b.Where(rule.Fn("immutable", b.V("%w")), rule.Bin("<", b.H("$g"), rule.Str("a")))
	r3 := b.MustBuild()

	b = rule.NewBuilder(ctx, "exp_add")
	b.Op("pd_op.exp", "%a").Results("%e")
	b.Op("pd_op.add", "%a", "%e").Commutative().Results("%s")
	b.Shared("%e")
	r4 := b.MustBuild()

	b = rule.NewBuilder(ctx, "relu_of_output")
	b.Root(b.Op("pd_op.batch_norm_", "%in", "_", "_", "_", "_").Label("bn").
		Results("%out", "%mo", "_", "_", "_", "_"))
	b.Op("pd_op.sigmoid", "%mo").Results("%r")
	r5 := b.MustBuild()
	return []*rule.Rule{r1, r2, r3, r4, r5, altRule(ctx)}
}

// altRule is a batch norm whose input is a conv2d's result or, second alternative, its own scale operand:
// `pd_op.batch_norm_(pd_op.conv2d(%x, %w) | %scale, %mean, %var, %scale, %bias)`.
func altRule(ctx *ir.Context) *rule.Rule {
	b := rule.NewBuilder(ctx, "bn_alt")
	b.Op("pd_op.conv2d", "%x", "%w").Results("%y")
	b.Root(b.Op("pd_op.batch_norm_", "%y", "%mean", "%var", "%scale", "%bias").Results("%out", "_", "_", "_", "_", "_"))
	r := b.MustBuild()
	p := r.Pattern
	val := func(name string) int {
		for h, v := range p.Values {
			if v.Name == name {
				return h
			}
		}
		panic(name)
	}
	a := len(p.Values)
	p.Values = append(p.Values, &rule.ValueHole{Name: "in", Def: -1})
	p.Alts = []*rule.AltGroup{{Op: p.Root, Operand: 0, Value: a,
		Branches: []rule.AltBranch{{Value: val("y"), Ops: []int{p.Values[val("y")].Def}}, {Value: val("scale")}}}}
	p.Ops[p.Root].Operands[0] = rule.OperandPattern{Kind: rule.OperandAlt, Value: a}
	return r
}

func TestExplainGolden(t *testing.T) {
	ctx := semCtx(t)
	tp := parseProg(t, ctx, explainProg)
	set := rule.NewSet(ctx, explainRules(ctx)...)
	num := ir.NumberValues(tp.p.Body())
	cases := []struct {
		name, rule, at string
		oracle         Oracle
	}{
		{"bn1-depthwise", "conv_bn", "@bn1", nil},
		{"bn2-nhwc", "conv_bn", "@bn2", nil},
		{"bn3-closure", "conv_bn", "@bn3", nil},
		{"bn3-uses", "conv_bn_shared", "@bn3", nil},
		{"bn4-epsilon", "conv_bn", "@bn4", nil},
		{"bn5-type", "conv_bn", "@bn5", nil},
		{"bn7-unused-result", "conv_bn_shared", "@bn7", nil},
		{"bn6-match", "conv_bn", "@bn6", nil},
		{"bn6-no-oracle", "conv_bn_param", "@bn6", nil},
		{"bn6-oracle", "conv_bn_param", "@bn6", testOracle},
		{"root-mismatch", "conv_bn", "%c6", nil},
		{"commutative", "exp_add", "%s", nil},
		{"commutative-fails", "exp_add", "%a3", nil},
		{"users", "relu_of_output", "@bn7", nil},
		{"no-users", "relu_of_output", "@bn6", nil},
		{"alternatives-fail", "bn_alt", "@bn1", nil},
		{"alternatives-match", "bn_alt", "@bn6", nil},
		{"all-rules-at-bn6", "", "@bn6", nil},
	}
	outputs := map[string]string{}
	for _, c := range cases {
		op := tp.ops[c.at]
		require.NotNil(t, op, c.at)
		var out strings.Builder
		out.WriteString("at " + num.Describe(op) + "\n")
		for _, e := range Explain(set, c.rule, op, c.oracle, num) {
			out.WriteString(e.String())
		}
		outputs[c.name] = out.String()
	}
	checkGolden(t, "explain.txtar", "Explain output on explainProg (golden_test.go).", outputs)
}

func TestExplainComputesNumbering(t *testing.T) {
	ctx := semCtx(t)
	tp := parseProg(t, ctx, explainProg)
	set := rule.NewSet(ctx, explainRules(ctx)...)
	op := tp.ops["@bn1"]
	with := Explain(set, "conv_bn", op, nil, ir.NumberValues(tp.p.Body()))
	without := Explain(set, "conv_bn", op, nil, nil)
	require.Len(t, with, 1)
	require.Len(t, without, 1)
	assert.Equal(t, with[0].String(), without[0].String())
	assert.Contains(t, with[0].Failure.String(), "conv_bn.drr:2:3: operand 0 of pd_op.batch_norm_ %7 is defined by "+
		"pd_op.depthwise_conv2d; the rule wants pd_op.conv2d")
}
