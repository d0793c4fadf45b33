package ir

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// requireOrdered checks that the block's order numbers grow strictly along it (the block must be numbered).
func requireOrdered(t *testing.T, b *Block) {
	t.Helper()
	require.True(t, b.orderValid)
	var prev *Op
	for op := b.first; op != nil; op = op.next {
		if prev != nil {
			require.Less(t, prev.order, op.order, "order numbers along the block")
		}
		prev = op
	}
}

// TestOrderRespacesLocally inserts hundreds of ops at one place of a large block: the gaps there run out many
// times, and each time the ops around the place are spread again instead of the block being renumbered.
func TestOrderRespacesLocally(t *testing.T) {
	tests := []struct {
		name  string
		n     int // ops in the block
		at    int // the op the insertions go before
		count int
	}{
		{"middle of 40k", 40_000, 20_000, 300},
		{"before the first", 1_000, 0, 300},
		{"before the last", 1_000, 999, 300},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			ops := make([]*Op, tt.n)
			for i := range ops {
				ops[i] = f.op("x.src")
			}
			body := f.p.Body()
			require.True(t, ops[0].IsBefore(ops[1])) // numbered (appends past orderStride's room need a renumber)
			requireOrdered(t, body)
			at := ops[tt.at]
			for range tt.count {
				f.b.SetInsertionPointBefore(at)
				op := f.op("x.src")
				require.True(t, body.orderValid, "a local respacing, not a renumbering")
				require.True(t, op.IsBefore(at))
				if prev := op.Prev(); prev != nil {
					require.True(t, prev.IsBefore(op))
				}
			}
			requireOrdered(t, body)
		})
	}
}

// TestOrderAfterRenumberLeavesRoomToAppend checks that a renumbered block can take as many ops again at its end
// before it must be renumbered again, and that IsBefore is right across the renumbering that follows.
func TestOrderAfterRenumberLeavesRoomToAppend(t *testing.T) {
	f := newFixture(t)
	const n = 70_000 // more than orderStride's gaps allow: the appends ran out and the block awaits renumbering
	for range n {
		f.op("x.src")
	}
	body := f.p.Body()
	require.False(t, body.orderValid)
	require.True(t, body.First().IsBefore(body.Last()))
	require.Less(t, body.gap, uint32(orderStride))
	for range n {
		f.op("x.src")
	}
	require.True(t, body.orderValid, "room for as many ops again")
	requireOrdered(t, body)
	f.op("x.src")
	f.op("x.src")
	require.True(t, body.First().IsBefore(body.Last()))
	requireOrdered(t, body)
}

// TestOrderRandomInsertions inserts ops at random places of a block, erasing some, and checks after each step
// that IsBefore agrees with the list.
func TestOrderRandomInsertions(t *testing.T) {
	f := newFixture(t)
	rng := rand.New(rand.NewPCG(1, 2))
	var ops []*Op // in block order
	for range 100 {
		ops = append(ops, f.op("x.src"))
	}
	rw := NewRewriter(f.c, nil)
	for step := range 5_000 {
		if len(ops) > 10 && rng.IntN(4) == 0 {
			i := rng.IntN(len(ops))
			require.NoError(t, rw.Erase(ops[i]))
			ops = append(ops[:i], ops[i+1:]...)
			continue
		}
		// Insertions cluster: most go near the previous one, as a rewrite's new ops do.
		i := rng.IntN(len(ops))
		if step%50 != 0 {
			i = min(len(ops)-1, max(0, i%8+len(ops)/2))
		}
		f.b.SetInsertionPointBefore(ops[i])
		op := f.op("x.src")
		ops = append(ops[:i], append([]*Op{op}, ops[i:]...)...)
		j, k := rng.IntN(len(ops)), rng.IntN(len(ops))
		require.Equal(t, j < k, ops[j].IsBefore(ops[k]), "step %d: ops %d and %d", step, j, k)
	}
	require.True(t, ops[0].IsBefore(ops[len(ops)-1]))
	requireOrdered(t, f.p.Body())
}
