package interp

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestContextStopsEvaluation: an evaluation whose Options.Context is done stops before its next op with an error
// that wraps the context's cause, and Compare passes it on (not as a mismatch); a live context changes nothing.
func TestContextStopsEvaluation(t *testing.T) {
	b := graphNetLike(t)
	feed, err := RandomFeed(1, Options{}, b.P)
	require.NoError(t, err)
	want, err := Evaluate(b.P, feed, Options{})
	require.NoError(t, err)

	live, cancelLive := context.WithCancel(context.Background())
	defer cancelLive()
	got, err := Evaluate(b.P, feed, Options{Context: live})
	require.NoError(t, err)
	assert.Equal(t, want.Outputs, got.Outputs)

	budget := errors.New("the verification's time budget ran out")
	done, cancel := context.WithCancelCause(context.Background())
	cancel(budget)
	_, err = Evaluate(b.P, feed, Options{Context: done})
	require.ErrorIs(t, err, budget)
	assert.ErrorContains(t, err, "interp: stopped before ")

	_, err = Compare(b.P, b.P.Clone(), CompareOptions{Options: Options{Context: done}})
	require.ErrorIs(t, err, budget)
	assert.NotErrorIs(t, err, ErrMismatch)
}
