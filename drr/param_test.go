package drr

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

const paramRule = `
/// The compute capability; 0 is none.
param sm: i64 = 0

rule r {
  match { %y = pd_op.relu(%x) }
  where { $sm in [70, 80] }
  rewrite { replace %y with pd_op.scale(%x, pd_op.full() {shape: [1], value: $sm, dtype: float32}) }
}
`

func TestParseParamDecl(t *testing.T) {
	f := mustParse(t, "/// Doc.\nparam sizes: i64[] = [64, -16]\n")
	require.Len(t, f.Params, 1)
	p := f.Params[0]
	assert.Equal(t, "sizes", p.Name.Name)
	assert.Equal(t, "i64[]", p.Type.Name)
	assert.Equal(t, "Doc.", p.Doc.Text())
	assert.IsType(t, &ListExpr{}, p.Default)
	assert.Equal(t, 2, p.End().Line)
}

func TestCheckParams(t *testing.T) {
	set, msgs := checkSrc(t, paramRule, CheckOptions{})
	require.Empty(t, msgs)
	require.Len(t, set.Params, 1)
	d := set.Params[0]
	assert.Equal(t, "sm", d.Name)
	assert.Equal(t, "The compute capability; 0 is none.", d.Doc)
	assert.Equal(t, ir.AttrType{Kind: ir.KindInt64}, d.Type)
	assert.Equal(t, int64(0), d.Default)
	assert.Equal(t, []string{"sm"}, set.Rules[0].UsesParams())
	ref := set.Rules[0].Where[0].(*rule.Binary).X.(*rule.ParamRef)
	assert.Equal(t, "sm", ref.Name)
	assert.Equal(t, "$sm in [70, 80]", rule.FormatExpr(set.Rules[0], set.Rules[0].Where[0]))
}

func TestCheckParamErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"unknown kind", "param p: i65 = 0\n", []string{`t.drr:1:10: error: parameter p: unknown kind "i65" (kinds: bool, i32, i64, f32, f64, str, DataType, …, each also as an array: i64[]) (did you mean i64?)`}},
		{"type kind", "param p: type = 0\n", []string{"t.drr:1:10: error: parameter p: a parameter has a value kind, not type"}},
		{"default of another kind", `param p: i64 = "x"` + "\n", []string{`t.drr:1:16: error: the default of parameter p is not an i64: cannot use "x" as i64`}},
		{"default not constant", "param p: i64 = rank(%x)\n", []string{"t.drr:1:16: error: the default of parameter p must be a constant (a literal or a list of literals)"}},
		{"unused", "param p: i64 = 0\n", []string{"t.drr:1:7: warning: parameter p is declared but no rule reads $p"}},
		{"declared twice differently", "param p: i64 = 0\nparam p: i64 = 1\nrule r { match { %y = pd_op.relu(%x) }; where { $p == 1 }; rewrite { replace %y with %x } }\n",
			[]string{"t.drr:2:7: error: parameter p is already declared at t.drr:1:1 as i64 = 0; the files of a rule set share their parameters"}},
		{"bound by a pattern", "param g: i32 = 1\nrule r { match { %y = pd_op.conv2d(%x, %w) {groups: $g} }; where { $g == 1 }; rewrite { replace %y with %x } }\n",
			[]string{"t.drr:2:53: error: $g is a parameter of the rule set (declared at t.drr:1:1); a pattern cannot bind it: bind another hole and compare it with $g in the where clause"}},
		{"misspelled", "param sm_version: i64 = 0\nrule r { match { %y = pd_op.relu(%x) }; where { $sm_versoin == 1 && $sm_version > 0 }; rewrite { replace %y with %x } }\n",
			[]string{"t.drr:2:49: error: $sm_versoin is not bound in the match (did you mean $sm_version, the parameter of the rule set?)"}},
		{"kind in expressions", "param p: str = \"a\"\nrule r { match { %y = pd_op.relu(%x) }; where { $p + 1 > 2 }; rewrite { replace %y with %x } }\n",
			[]string{"t.drr:2:52: error: + needs numbers, these are a string and an int"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, msgs := checkSrc(t, tc.src, CheckOptions{})
			assert.Equal(t, tc.want, msgs)
		})
	}
}

func TestParamsSharedAcrossImports(t *testing.T) {
	fsys := fstest.MapFS{
		"a.drr":    {Data: []byte("param sm: i64 = 0\n")},
		"main.drr": {Data: []byte("import \"a.drr\"\n" + paramRule[len("\n/// The compute capability; 0 is none.\nparam sm: i64 = 0\n"):])},
	}
	set, diags := Load(defaultCtx(t), LoadOptions{FS: fsys}, "main.drr")
	require.False(t, diags.HasErrors(), "%v", diags)
	require.Len(t, set.Params, 1)
	assert.Equal(t, "a.drr", set.Params[0].Pos.Filename)
}

func TestParseParams(t *testing.T) {
	ctx := defaultCtx(t)
	i64 := &rule.ParamDecl{Name: "sm_version", Type: ir.AttrType{Kind: ir.KindInt64}, Default: int64(0), Pos: diag.Position{Filename: "a.drr", Line: 1, Column: 1}}
	str := &rule.ParamDecl{Name: "algo", Type: ir.AttrType{Kind: ir.KindStr}, Default: "x"}
	dt := &rule.ParamDecl{Name: "dt", Type: ir.AttrType{Kind: ir.KindDataType}, Default: ir.DTypeFloat16}
	list := &rule.ParamDecl{Name: "sizes", Type: ir.AttrType{Kind: ir.KindInt64, Array: true}, Default: []rule.Val{}}
	decls := []*rule.ParamDecl{i64, str, dt, list}
	for _, tc := range []struct {
		assigns []string
		want    rule.Params
		err     string
	}{
		{assigns: nil, want: nil},
		{assigns: []string{"sm_version=80"}, want: rule.Params{"sm_version": int64(80)}},
		{assigns: []string{"sm_version=80", "sm_version=86"}, want: rule.Params{"sm_version": int64(86)}},
		{assigns: []string{"algo=weight_only_int4"}, want: rule.Params{"algo": "weight_only_int4"}},
		{assigns: []string{`algo="a b"`}, want: rule.Params{"algo": "a b"}},
		{assigns: []string{"dt=bfloat16"}, want: rule.Params{"dt": ir.DTypeBFloat16}},
		{assigns: []string{"sizes=[64, 16]"}, want: rule.Params{"sizes": []rule.Val{int64(64), int64(16)}}},
		{assigns: []string{"sm_versoin=80"}, err: `-param sm_versoin: unknown parameter "sm_versoin" (did you mean sm_version?)`},
		{assigns: []string{"sm_version"}, err: `-param "sm_version": write NAME=VALUE`},
		{assigns: []string{"sm_version=eighty"}, err: `-param sm_version=eighty: parameter sm_version: "eighty" is not an i64: cannot use "eighty" as i64 (declared at a.drr:1:1)`},
		{assigns: []string{"sm_version="}, err: `-param sm_version=: parameter sm_version: no value (write -param sm_version=VALUE, a i64) (declared at a.drr:1:1)`},
		{assigns: []string{"sm_version=1; rule"}, err: `-param sm_version=1; rule: parameter sm_version: "1; rule" is not a constant i64 (declared at a.drr:1:1)`},
	} {
		got, err := ParseParams(ctx, decls, tc.assigns)
		if tc.err != "" {
			assert.EqualError(t, err, tc.err, "%v", tc.assigns)
			continue
		}
		require.NoError(t, err, "%v", tc.assigns)
		assert.Equal(t, tc.want, got, "%v", tc.assigns)
	}
	_, err := ParseParams(ctx, nil, []string{"x=1"})
	assert.EqualError(t, err, "-param x: the rule sets that run declare no parameter")
}

func TestEvalParam(t *testing.T) {
	set, msgs := checkSrc(t, paramRule, CheckOptions{})
	require.Empty(t, msgs)
	w := set.Rules[0].Where[0]
	v, err := rule.Eval(w, constEnv{})
	require.NoError(t, err)
	assert.Equal(t, false, v, "the default, 0, is not in the list")
	o := rule.WithParams(nil, rule.Params{"sm": int64(80)})
	got, ok := rule.OracleParam(o, "sm")
	require.True(t, ok)
	assert.Equal(t, int64(80), got)
	_, ok = rule.OracleParam(o, "other")
	assert.False(t, ok)
	assert.Equal(t, o, rule.WithParams(o, nil), "no parameters: the oracle itself")
}

// TestTargetParams: -target gives sm_version to the sets that declare it; -param sm_version, its alias, must agree.
func TestTargetParams(t *testing.T) {
	sm := &rule.ParamDecl{Name: rule.TargetParam, Type: ir.AttrType{Kind: ir.KindInt64}, Default: int64(0), Pos: diag.Position{Filename: "a.drr", Line: 3, Column: 1}}
	other := &rule.ParamDecl{Name: "algo", Type: ir.AttrType{Kind: ir.KindStr}, Default: "x"}
	wrongKind := &rule.ParamDecl{Name: rule.TargetParam, Type: ir.AttrType{Kind: ir.KindStr}, Default: "", Pos: diag.Position{Filename: "b.drr", Line: 2, Column: 1}}
	for _, tc := range []struct {
		name   string
		decls  []*rule.ParamDecl
		params rule.Params
		target ir.Target
		want   rule.Params
		err    string
	}{
		{name: "no target", decls: []*rule.ParamDecl{sm}, params: rule.Params{"algo": "y"}, want: rule.Params{"algo": "y"}},
		{name: "gpu", decls: []*rule.ParamDecl{sm, other}, target: ir.GPU(80), want: rule.Params{rule.TargetParam: int64(80)}},
		{name: "gpu and others", decls: []*rule.ParamDecl{other, sm}, params: rule.Params{"algo": "y"}, target: ir.GPU(86),
			want: rule.Params{"algo": "y", rule.TargetParam: int64(86)}},
		{name: "cpu", decls: []*rule.ParamDecl{sm}, target: ir.CPU(), want: rule.Params{rule.TargetParam: int64(0)}},
		{name: "undeclared", decls: []*rule.ParamDecl{other}, target: ir.GPU(80), want: nil},
		{name: "alias agrees", decls: []*rule.ParamDecl{sm}, params: rule.Params{rule.TargetParam: int64(80)}, target: ir.GPU(80),
			want: rule.Params{rule.TargetParam: int64(80)}},
		{name: "alias contradicts", decls: []*rule.ParamDecl{sm}, params: rule.Params{rule.TargetParam: int64(75)}, target: ir.GPU(80),
			err: "-param sm_version=75 contradicts -target gpu:sm80, which sets sm_version=80 (give one of them)"},
		{name: "wrong kind", decls: []*rule.ParamDecl{wrongKind}, target: ir.GPU(80),
			err: "-target gpu:sm80: the parameter sm_version is declared as str at b.drr:2:1; a target sets it as an i64"},
	} {
		got, err := TargetParams(tc.decls, tc.params, tc.target)
		if tc.err != "" {
			assert.EqualError(t, err, tc.err, tc.name)
			continue
		}
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.want, got, tc.name)
	}
	// The caller's map is not changed.
	in := rule.Params{"algo": "y"}
	_, err := TargetParams([]*rule.ParamDecl{sm}, in, ir.GPU(80))
	require.NoError(t, err)
	assert.Equal(t, rule.Params{"algo": "y"}, in)
}
