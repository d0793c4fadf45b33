package rules_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/rules"
)

// TestShippedRulesAreFormatted: the shipped rule files are what drrc fmt prints, so that users who copy them and
// run drrc fmt see no diff.
func TestShippedRulesAreFormatted(t *testing.T) {
	for _, name := range rules.Sets() {
		src, err := rules.Source(name)
		require.NoError(t, err)
		f, err := drr.Parse(name+".drr", src)
		require.NoError(t, err)
		require.Equal(t, string(src), string(drr.Format(f)), "%s.drr is not formatted: run drrc fmt -w rules/%s.drr", name, name)
	}
}
