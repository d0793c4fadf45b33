package genplugin_test

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drrtest"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rulegen"
	"github.com/pirdrr/drr/rules"

	"github.com/pirdrr/drr/examples/genplugin"
)

var update = flag.Bool("update", false, "rewrite the golden archives and regenerate activations_rules.go")

// registry holds the shipped passes (dce, the inference pipeline) and the plugin.
func registry(t *testing.T) *rewriter.Registry {
	reg := rewriter.NewRegistry()
	require.NoError(t, rules.Register(reg))
	require.NoError(t, genplugin.Register(reg))
	return reg
}

// TestGolden runs the plugin's golden archives (testdata/*.txtar) with the compiled pass; -update rewrites their
// expected sections from what the pass produced.
func TestGolden(t *testing.T) {
	drrtest.Run(t, "testdata", drrtest.Options{Registry: registry(t), Update: *update})
}

// TestGenerated fails when activations_rules.go is not what drrc gen -rules activations.drr -pkg genplugin writes
// (activations.drr changed, or pirdrr's generator did); go generate, or -update, regenerates it.
func TestGenerated(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	code, diags := rulegen.GenerateFile(ctx, "activations.drr", rulegen.Config{Package: "genplugin"})
	require.False(t, diags.HasErrors(), "%v", diags)
	have, err := os.ReadFile("activations_rules.go")
	require.NoError(t, err)
	if bytes.Equal(have, code) {
		return
	}
	if *update {
		require.NoError(t, os.WriteFile("activations_rules.go", code, 0o644))
		return
	}
	t.Error("activations_rules.go is stale: run go generate ./examples/genplugin (or go test ./examples/genplugin -update)")
}

// TestNeedsNative: the compiled pass looks its native constraint up when it is built.
func TestNeedsNative(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	_, err = genplugin.ActivationsPass(ctx, rewriter.NewRegistry())
	require.ErrorContains(t, err, "is_one")
}
