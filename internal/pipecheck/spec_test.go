package pipecheck

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
)

func TestParseSpec(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"inplace, dce", "inplace, dce"},
		{"inplace\ndce\n", "inplace, dce"},
		{"gpu_inference[after conv_bn_relu: rules]", "gpu_inference[after conv_bn_relu: rules]"},
		{" inference [ before reinplace : rules , dce ; after value_semantics#2: x[before y: z] ] , fold_constants",
			"inference[before reinplace: rules, dce; after value_semantics#2: x[before y: z]], fold_constants"},
		{"inference[\n  after conv_bn_relu: rules\n]", "inference[after conv_bn_relu: rules]"},
	} {
		items, err := ParseSpec(tc.in, "-passes")
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, SpecString(items), tc.in)
	}
	for _, tc := range []struct{ in, err string }{
		{"inference[after conv_bn_relu rules]", `-passes: expected ':' after "after conv_bn_relu" at column 30 of "inference[after conv_bn_relu rules]"`},
		{"inference[at dce: rules]", `-passes: expected before or after in the edits of inference, found at at column 11`},
		{"inference[after dce: ]", `-passes: expected the passes to insert at column 22`},
		{"inference[after dce: rules", `-passes: expected ';' or ']' in the edits of inference at column 27`},
		{"inference[after dce#0: rules]", `-passes: expected an occurrence number (1, 2, …) after # at column 22`},
		{"inplace dce", `-passes: expected ',' after inplace at column 9`},
		{"inplace,,dce", `-passes: expected a pass name, found "," at column 9`},
	} {
		_, err := ParseSpec(tc.in, "-passes")
		if assert.Error(t, err, tc.in) {
			assert.Contains(t, err.Error(), tc.err, tc.in)
		}
	}
}

// namedPass is a pass that only has a name.
type namedPass string

func (p namedPass) Name() string { return string(p) }
func (p namedPass) Run(*ir.Program, *rewriter.Env) (*rewriter.PassResult, error) {
	return &rewriter.PassResult{Pass: string(p)}, nil
}

func TestBuildSpec(t *testing.T) {
	reg := rewriter.NewRegistry()
	for _, name := range []string{"inplace", "dce", "conv_bn_relu", "value_semantics", "reinplace", "fold"} {
		n := name
		require.NoError(t, reg.RegisterPass(n, "", func(*ir.Context, *rewriter.Registry) (rewriter.Pass, error) { return namedPass(n), nil }))
	}
	require.NoError(t, reg.RegisterPipeline("cleanup", "", "value_semantics", "dce"))
	require.NoError(t, reg.RegisterPipeline("inference", "", "inplace", "value_semantics", "conv_bn_relu", "cleanup", "reinplace"))
	build := func(name string) (rewriter.Pipeline, error) { return reg.Pipeline(ir.NewContext(), name) }
	local := map[string]rewriter.Pass{"rules": namedPass("rules")}
	run := func(spec string) (string, error) {
		items, err := ParseSpec(spec, "-passes")
		require.NoError(t, err)
		require.NoError(t, Passes(reg, Names(items), true, "-passes"))
		pl, err := Build(reg, build, local, items)
		if err != nil {
			return "", err
		}
		var names []string
		for _, p := range pl {
			names = append(names, p.Name())
		}
		return strings.Join(names, " "), nil
	}
	for _, tc := range []struct{ spec, want string }{
		{"inference", "inplace value_semantics conv_bn_relu value_semantics dce reinplace"},
		{"inference[after conv_bn_relu: rules]", "inplace value_semantics conv_bn_relu rules value_semantics dce reinplace"},
		{"inference[before reinplace: rules, fold]", "inplace value_semantics conv_bn_relu value_semantics dce rules fold reinplace"},
		{"inference[after cleanup: rules]", "inplace value_semantics conv_bn_relu value_semantics dce rules reinplace"},
		{"inference[before cleanup: rules]", "inplace value_semantics conv_bn_relu rules value_semantics dce reinplace"},
		{"inference[after dce: rules; before inplace: fold]", "fold inplace value_semantics conv_bn_relu value_semantics dce rules reinplace"},
		{"inference[after value_semantics#2: rules]", "inplace value_semantics conv_bn_relu value_semantics rules dce reinplace"},
		{"inference[before conv_bn_relu: cleanup[after dce: rules]]", "inplace value_semantics value_semantics dce rules conv_bn_relu value_semantics dce reinplace"},
		{"rules, inference[after conv_bn_relu: dce]", "rules inplace value_semantics conv_bn_relu dce value_semantics dce reinplace"},
	} {
		got, err := run(tc.spec)
		require.NoError(t, err, tc.spec)
		assert.Equal(t, tc.want, got, tc.spec)
	}
	for _, tc := range []struct{ spec, err string }{
		{"inference[after conv_bn_reul: rules]", "inference has no pass conv_bn_reul (did you mean conv_bn_relu?)"},
		{"inference[after value_semantics: rules]", "inference runs value_semantics twice: say which, value_semantics#1 to value_semantics#2"},
		{"inference[after value_semantics#3: rules]", "inference runs value_semantics twice, not 3"},
		{"dce[after dce: rules]", "dce has no pass dce (it is a single pass, not a pipeline)"},
		{"inference[after zzzzzzzzzz: rules]", "inference has no pass zzzzzzzzzz (its passes: inplace, value_semantics, conv_bn_relu, cleanup, dce, reinplace)"},
	} {
		_, err := run(tc.spec)
		assert.EqualError(t, err, tc.err, tc.spec)
	}
}
