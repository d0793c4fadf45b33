package golden

import (
	"flag"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRegisterAndUpdate(t *testing.T) {
	Register()
	f := flag.Lookup(Name)
	require.NotNil(t, f)
	Register() // a second call, or a package that defined the flag itself, changes nothing
	assert.Same(t, f, flag.Lookup(Name))
	old := f.Value.String()
	t.Cleanup(func() { f.Value.Set(old) })
	require.NoError(t, f.Value.Set("true"))
	assert.True(t, Update())
	require.NoError(t, f.Value.Set("false"))
	assert.False(t, Update())
}
