package compare

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/feeds"
	"github.com/pirdrr/drr/internal/progtest"
	"github.com/pirdrr/drr/ir"
)

// TestRebatchesBakedInBatch: a graph whose types bake in the recorded sample's batch of 128 (its input declared
// [-1, 3] but read by a relu typed [128, 3]) is fed at batch 1, at which it cannot be evaluated as declared.
func TestRebatchesBakedInBatch(t *testing.T) {
	c := progtest.New(t)
	img := c.OpT("pd_op.data", nil, []ir.Type{c.TensorT(ir.DTypeFloat32, -1, 3)}, progtest.Attr("name", c.Ctx.Str("img")),
		progtest.Attr("shape", c.Ctx.IntArray([]int64{128, 3})), progtest.Attr("dtype", c.Ctx.DataType(ir.DTypeFloat32)),
		progtest.Attr("place", c.Ctx.Place(ir.Place{Type: ir.PlaceCPU}))).Result(0)
	c.P.Feeds = map[string]*ir.Variable{"img": {Name: "img", Type: c.TensorT(ir.DTypeFloat32, 128, 3), Stats: &ir.TensorStats{Min: -1, Max: 1, Std: 0.5}}}
	c.Fetch(img, "img", 0)

	// A graph whose types bake in the sample's batch cannot be evaluated at batch 1 as declared: Programs evaluates
	// it rebatched (declared shapes not checked), or, without rebatching, at the recorded shapes.
	c.Fetch(c.OpT("pd_op.relu", []*ir.Value{img}, []ir.Type{c.TensorT(ir.DTypeFloat32, 128, 3)}).Result(0), "relu", 1)
	h, err := feeds.Random(1, feeds.Options{}, c.P)
	require.NoError(t, err)
	assert.Equal(t, []int{1, 3}, h.Inputs["img"].Shape)
	rep, err := Programs(c.P, c.P.Clone(), Options{Runs: 1})
	require.NoError(t, err)
	assert.Equal(t, &feeds.Rebatch{From: 128, To: 1, Inputs: 1}, rep.Rebatched)
	assert.Equal(t, []int{1, 3}, rep.Outputs[1].Shape)
	rep, err = Programs(c.P, c.P.Clone(), Options{Runs: 1, NoRebatch: true})
	require.NoError(t, err)
	assert.True(t, rep.RecordedBatch)
	assert.Equal(t, []int{128, 3}, rep.Outputs[1].Shape)
}

// A dynamic dim 0 that is no batch (Faster R-CNN's proposals, of which topk takes 1,000): the programs cannot be
// evaluated at Options.Batch, so Programs evaluates them at the recorded sample's shapes and says so.
func TestCompareFallsBackToTheRecordedShapes(t *testing.T) {
	b := progtest.New(t)
	x := b.OpT("pd_op.data", nil, []ir.Type{b.TensorT(ir.DTypeFloat32, -1)}, progtest.Attr("name", b.Ctx.Str("scores")),
		progtest.Attr("shape", b.Ctx.IntArray([]int64{-1})), progtest.Attr("dtype", b.Ctx.DataType(ir.DTypeFloat32)),
		progtest.Attr("place", b.Ctx.Place(ir.Place{Type: ir.PlaceCPU}))).Result(0)
	b.P.Feeds = map[string]*ir.Variable{"scores": {Name: "scores", Type: b.TensorT(ir.DTypeFloat32, 5),
		Stats: &ir.TensorStats{Min: 0, Max: 1, Mean: 0.5, Std: 0.2}}}
	top := b.OpT("pd_op.topk", []*ir.Value{x, b.Full([]int64{1}, 3, ir.DTypeInt32)},
		[]ir.Type{b.TensorT(ir.DTypeFloat32, 3), b.TensorT(ir.DTypeInt64, 3)})
	b.Fetch(top.Result(0), "top", 0)

	rep, err := Programs(b.P, b.P.Clone(), Options{Runs: 1})
	require.NoError(t, err)
	assert.True(t, rep.RecordedBatch)
	require.Len(t, rep.Outputs, 1)
	assert.Equal(t, []int{3}, rep.Outputs[0].Shape)

	// Where the batch of one works, it is used.
	rep, err = Programs(b.P, b.P.Clone(), Options{Runs: 1, Options: feeds.Options{Batch: 4}})
	require.NoError(t, err)
	assert.False(t, rep.RecordedBatch)
	// An input shape given by the user is never second-guessed.
	_, err = Programs(b.P, b.P.Clone(), Options{Runs: 1, Options: feeds.Options{InputShapes: map[string][]int{"scores": {2}}}})
	require.ErrorContains(t, err, "out of range")
}
