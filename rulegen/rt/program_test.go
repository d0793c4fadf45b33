package rt_test

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rulegen/rt"
)

const relu = `native constraint keep(%v: value)

rule relu_twice {
  match {
    %y = pd_op.relu(%x)
    %z = pd_op.relu(%y)
  }
  where {
    !keep(%z)
  }
  rewrite {
    replace %z with %y
  }
}
`

// fingerprint is the fingerprint of relu checked against ctx (natives accepted, as drrc gen checks them).
func fingerprint(t *testing.T, ctx *ir.Context) string {
	set, diags := drr.Load(ctx, drr.LoadOptions{FS: fstest.MapFS{"relu.drr": {Data: []byte(relu)}}}, "relu.drr")
	require.False(t, diags.HasErrors(), "%v", diags)
	return rt.Fingerprint(set)
}

// TestProgramPass: a program's pass is built only for a Context where its rules check to the set the code was
// generated from, and a registry holding its natives; it is built once per Context and registry.
func TestProgramPass(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	fp := fingerprint(t, ctx)
	withNative := rewriter.NewRegistry()
	require.NoError(t, withNative.RegisterConstraint("keep", func([]any) (bool, error) { return false, nil }))
	files := []rt.File{{Name: "relu.drr", Text: relu}}
	for _, tc := range []struct {
		name string
		prog *rt.Program
		ctx  *ir.Context
		reg  *rewriter.Registry
		err  string
	}{
		{"built", &rt.Program{Name: "relu", Paths: []string{"relu.drr"}, Files: files, Fingerprint: fp}, ctx, withNative, ""},
		{"stale", &rt.Program{Name: "relu", Paths: []string{"relu.drr"}, Files: files, Fingerprint: "0123"}, ctx, withNative,
			"rule pass relu: the rules check differently here than where their Go code was generated"},
		{"no native", &rt.Program{Name: "relu", Paths: []string{"relu.drr"}, Files: files, Fingerprint: fp}, ctx, rewriter.NewRegistry(),
			"keep"},
		{"other catalog", &rt.Program{Name: "relu", Paths: []string{"relu.drr"}, Files: files, Fingerprint: fp}, ir.NewContext(), withNative,
			"relu.drr:5:10"},
		{"no files", &rt.Program{Name: "relu", Fingerprint: fp}, ctx, withNative, "rule pass relu: no rule files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pass, err := tc.prog.Pass(tc.ctx, tc.reg)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, "relu", pass.Name())
			again, err := tc.prog.Pass(tc.ctx, tc.reg)
			require.NoError(t, err)
			require.Same(t, pass, again, "built once per Context and registry")
		})
	}
}
