package pirjson

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

// chain returns a program of n relu ops in a chain, read from PIR text: about 190 bytes of JSON an op. With
// kernel set, the last op's result has a kernel tensor type, which PIR JSON cannot encode.
func chain(t *testing.T, n int, kernel bool) *ir.Program {
	t.Helper()
	var src strings.Builder
	src.WriteString("{\n    (%0) = \"pd_op.data\" () {name:\"x\",stop_gradient:[true]} : () -> tensor<2x3xf32>\n")
	for i := 1; i <= n; i++ {
		typ := "tensor<2x3xf32>"
		if kernel && i == n {
			typ = "gpu_tensor<2x3xf32>"
		}
		fmt.Fprintf(&src, "    (%%%d) = \"pd_op.relu\" (%%%d) {stop_gradient:[false]} : (tensor<2x3xf32>) -> %s\n", i, i-1, typ)
	}
	src.WriteString("}\n")
	p, _, err := pirtext.Parse(ir.NewContext(), "chain.pir", []byte(src.String()), pirtext.ReadOptions{})
	require.NoError(t, err)
	return p
}

// countingWriter records the sizes of the writes it gets.
type countingWriter struct {
	bytes.Buffer
	writes int
	fail   bool
}

func (w *countingWriter) Write(b []byte) (int, error) {
	if w.fail {
		return 0, errors.New("disk full")
	}
	w.writes++
	return w.Buffer.Write(b)
}

// TestWriteStreams writes programs of several MiB of JSON with streaming from the first chunk, from the third, and
// never (Write's threshold): the bytes are Marshal's each time.
func TestWriteStreams(t *testing.T) {
	p := chain(t, 30_000, false)
	want, err := Marshal(p, WriteOptions{})
	require.NoError(t, err)
	require.Greater(t, len(want), 4*chunkSize, "the program must fill several chunks")
	for _, from := range []int{1, 3 * chunkSize, streamFrom} {
		t.Run(fmt.Sprint(from), func(t *testing.T) {
			var out countingWriter
			require.NoError(t, write(&out, p, WriteOptions{}, from))
			assert.Equal(t, string(want), out.String())
			if from < len(want) {
				assert.Greater(t, out.writes, 4, "written a chunk at a time")
			}
		})
	}
}

// TestWriteStreamErrors checks the errors of a streamed write: an encoding error after streaming began is
// returned (part of the output written), one before it leaves nothing written, and a writer's error is returned.
func TestWriteStreamErrors(t *testing.T) {
	bad := chain(t, 30_000, true)
	const want = "pirjson: pd_op.relu: result 0: type gpu_tensor<2x3xf32> has no PIR JSON encoding"

	var out countingWriter
	assert.EqualError(t, write(&out, bad, WriteOptions{}, 1), want)
	assert.NotZero(t, out.Len(), "streamed before the error")

	out.Reset()
	assert.EqualError(t, write(&out, bad, WriteOptions{}, streamFrom), want)
	assert.Zero(t, out.Len(), "nothing is written when the error comes before streaming")

	failing := countingWriter{fail: true}
	assert.EqualError(t, write(&failing, chain(t, 30_000, false), WriteOptions{}, 1), "disk full")
}

// TestWriteNumbersOpsWithoutIDs writes a program whose ops come from its allocator (numbered: their ids are kept
// by number) and from Context.NewOp (not numbered: kept in a map), each reading the other's result: it reads back
// with the same uses and writes the same bytes.
func TestWriteNumbersOpsWithoutIDs(t *testing.T) {
	p := chain(t, 3, false)
	c := p.Ctx
	last := p.Body().Last()
	typ := last.Result(0).Type()
	loose := c.NewOp(ir.OpSpec{Name: "pd_op.relu", Operands: []*ir.Value{last.Result(0)}, Results: []ir.Type{typ}})
	b := ir.NewBuilder(c)
	b.SetInsertionPointToEnd(p.Body())
	b.Insert(loose)
	b.Alloc = p.Allocator()
	b.Create(ir.OpSpec{Name: "pd_op.relu", Operands: []*ir.Value{loose.Result(0)}, Results: []ir.Type{typ}})

	out, err := Marshal(p, WriteOptions{})
	require.NoError(t, err)
	q, err := Read(ir.NewContext(), "q.json", out, ReadOptions{})
	require.NoError(t, err)
	again, err := Marshal(q, WriteOptions{})
	require.NoError(t, err)
	assert.Equal(t, string(out), string(again))
	qLast := q.Body().Last()
	require.Equal(t, 6, q.NumOps())
	assert.Same(t, qLast.Prev(), qLast.Operand(0).DefiningOp())
	assert.Same(t, qLast.Prev().Prev(), qLast.Prev().Operand(0).DefiningOp())
}
