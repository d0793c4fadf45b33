package playground

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/pirdrr/drr/ir"
)

// gate admits the expensive requests (runs, verifications, drawings): Concurrent at once, Queue more waiting for
// their turn, the rest refused. With the time budgets and the op budget it bounds the server's memory: what is
// being computed is at most Concurrent programs and their copies.
type gate struct {
	slots   chan struct{}
	waiting atomic.Int64
	queue   int64
}

// errBusy refuses a request when the queue is full.
var errBusy = errors.New("the server is busy (too many runs are waiting); try again in a moment")

func newGate(concurrent, queue int) *gate {
	return &gate{slots: make(chan struct{}, concurrent), queue: int64(queue)}
}

// enter waits for a slot (or for ctx) and returns the function that gives it back; errBusy when too many wait.
func (g *gate) enter(ctx context.Context) (release func(), err error) {
	release = func() { <-g.slots }
	select {
	case g.slots <- struct{}{}:
		return release, nil
	default:
	}
	if g.waiting.Add(1) > g.queue {
		g.waiting.Add(-1)
		return nil, errBusy
	}
	defer g.waiting.Add(-1)
	select {
	case g.slots <- struct{}{}:
		return release, nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// budgetError is the cause a run is cancelled with when it exceeds a budget.
type budgetError struct{ msg string }

func (e *budgetError) Error() string { return e.msg }

// timeBudget is the cause of a run or verification stopped by its time budget.
func timeBudget(what string, limit any) error {
	return &budgetError{fmt.Sprintf("the %s took more than its time budget of %v", what, limit)}
}

// growth is a listener that records the ops a pass creates (those still there at the end: the pass's "added"
// ops) and stops the run, through cancel, when the program has grown by more than limit ops.
type growth struct {
	limit   int
	grown   *int // shared by the passes of a run
	created map[*ir.Op]bool
	cancel  context.CancelCauseFunc
}

func (g *growth) OpInserted(op *ir.Op) {
	g.created[op] = true
	if *g.grown++; *g.grown == g.limit+1 {
		g.cancel(&budgetError{fmt.Sprintf("the run grew the program by more than %d ops (its memory budget)", g.limit)})
	}
}

func (g *growth) OpModified(*ir.Op) {}

func (g *growth) OpErased(op *ir.Op) {
	delete(g.created, op)
	*g.grown--
}
