package verify

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/ir"
)

// TestInstantiateSampledAssignments: when the hole assignments are too many to enumerate, the defaults, the
// one-hole variations and a sample are tried, and the instances still cover every candidate value.
func TestInstantiateSampledAssignments(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	src := `rule bn {
  match {
    %y = pd_op.conv2d(%x, %w) {strides: $st, paddings: $pd, padding_algorithm: $pa, dilations: $dl, groups: $g, data_format: $fmt}
    %out, _, _, _, _, _ = pd_op.batch_norm_(%y, %mean, %var, %scale, %bias) {epsilon: $eps, data_format: $fmt,
        is_test: $test, use_global_stats: $global, trainable_statistics: $trainable}
  }
  where {
    $pa in ["EXPLICIT", "SAME", "VALID"]
    $global || $test && !$trainable
    immutable(%w, %mean, %var, %scale, %bias)
  }
  rewrite { replace %out with pd_op.relu(%y) }
}`
	set, diags := drr.LoadSource(ctx, drr.LoadOptions{}, "bn.drr", []byte(src))
	require.False(t, diags.HasErrors(), "%v", diags)
	saved := maxAssignments
	defer func() { maxAssignments = saved }()
	maxAssignments = 16
	insts, err := Instantiate(set, set.Rules[0], InstantiateOptions{MaxInstances: 8})
	require.NoError(t, err)
	var holes []string
	for _, in := range insts {
		holes = append(holes, in.Holes...)
	}
	all := strings.Join(holes, "; ")
	for _, want := range []string{`$pa = "SAME"`, `$pa = "VALID"`, "$g = 2", "$test = false", "$trainable = true"} {
		assert.Contains(t, all, want)
	}
}
