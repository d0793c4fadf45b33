package interp_test

import (
	"context"
	"errors"
	"testing"

	"github.com/pirdrr/drr/compare"
	"github.com/pirdrr/drr/feeds"
	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/interp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestContextStopsEvaluation: an evaluation whose Options.Context is done stops before its next op with an error
// that wraps the context's cause, and a comparison passes it on (not as a mismatch); a live context changes nothing.
func TestContextStopsEvaluation(t *testing.T) {
	b := progtest.GraphNetLike(t)
	feed, err := feeds.Random(1, feeds.Options{}, b.P)
	require.NoError(t, err)
	want, err := interp.Evaluate(b.P, feed, interp.Options{})
	require.NoError(t, err)

	live, cancelLive := context.WithCancel(context.Background())
	defer cancelLive()
	got, err := interp.Evaluate(b.P, feed, interp.Options{Context: live})
	require.NoError(t, err)
	assert.Equal(t, want.Outputs, got.Outputs)

	budget := errors.New("the verification's time budget ran out")
	done, cancel := context.WithCancelCause(context.Background())
	cancel(budget)
	_, err = interp.Evaluate(b.P, feed, interp.Options{Context: done})
	require.ErrorIs(t, err, budget)
	assert.ErrorContains(t, err, "interp: stopped before ")

	_, err = compare.Programs(b.P, b.P.Clone(), compare.Options{Options: feeds.Options{Options: interp.Options{Context: done}}})
	require.ErrorIs(t, err, budget)
	assert.NotErrorIs(t, err, compare.ErrMismatch)
}
