package rewriter

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

func TestReplacePass(t *testing.T) {
	reg := NewRegistry()
	mk := func(name string) PassFactory {
		return func(*ir.Context, *Registry) (Pass, error) { return &GoPass{PassName: name}, nil }
	}
	require.NoError(t, reg.RegisterPass("p", "the doc", mk("old")))
	require.NoError(t, reg.RegisterPipeline("pl", "a pipeline", "p"))
	old, err := reg.ReplacePass("p", mk("new"))
	require.NoError(t, err)
	oldPass, err := old(ir.NewContext(), reg)
	require.NoError(t, err)
	require.Equal(t, "old", oldPass.Name(), "the factory it had")
	pl, err := reg.Pipeline(ir.NewContext(), "pl")
	require.NoError(t, err)
	require.Len(t, pl, 1)
	require.Equal(t, "new", pl[0].Name())
	require.Equal(t, []PassInfo{{Name: "p", Doc: "the doc"}, {Name: "pl", Doc: "a pipeline", Pipeline: []string{"p"}}}, reg.Passes())
	_, err = reg.ReplacePass("missing", mk("x"))
	require.EqualError(t, err, "pass missing is not registered")
	_, err = reg.ReplacePass("pl", mk("x"))
	require.EqualError(t, err, "pass pl is not registered")
}
