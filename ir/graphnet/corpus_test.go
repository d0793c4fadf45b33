package graphnet

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
)

// fromProgramDesc are the corpus folders that are not captures, whose graph_net.json carries the program:
// squeezenet1_1's model.py wraps paddle.vision.models.squeezenet1_1 in a forward(*args, **kwargs).
var fromProgramDesc = map[string]bool{"PaddleX/squeezenet1_1": true}

// TestCorpus reads the GraphNet graphs of the shared corpus (every tenth by default, all with
// PIRDRR_CORPUS=full) and checks, for each:
//   - every op agrees with the catalog: Verify finds nothing (operand and result counts, attribute kinds; the
//     reader has already matched each call's arguments to the catalog's argument order);
//   - writing it as a graph folder and reading that back gives an equal program, with equal parameters and feeds;
//   - the model.py written reproduces the op sequence: the same signature comments, in the same order.
//
// The graphs read from graph_net.json's program_desc are always checked (they are few, and the sample would miss
// them): their model.py has no signature comments to compare, and their parameters, whose names are not Python
// identifiers, come back renamed with the original name recorded (TestProgramDescCorpus).
func TestCorpus(t *testing.T) {
	graphs := corpus.RequireGraphs(t, 0)
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	var read, ops, statements int
	for _, g := range graphs {
		t.Run(g.Rel, func(t *testing.T) {
			if fromProgramDesc[g.Rel] {
				t.Skip("read from program_desc: TestProgramDescCorpus")
			}
			p, err := Read(ctx, g.Dir)
			require.NoError(t, err)
			read++
			ops += p.NumOps()
			assert.Empty(t, ir.Verify(p), "the catalog must describe every op as captured")

			src, err := Encode(p, WriteOptions{})
			require.NoError(t, err)
			src.Dir = g.Dir + "#written"
			q, err := Decode(ctx, src)
			require.NoError(t, err, "reading the written graph back")
			require.NoError(t, ir.Equal(p, q, ir.EqualOptions{AttrOrder: true}))
			assertSameVariables(t, p.Params, q.Params)
			assertSameVariables(t, p.Feeds, q.Feeds)

			orig, err := os.ReadFile(filepath.Join(g.Dir, ModelFile))
			require.NoError(t, err)
			want, got := signatureLines(orig), signatureLines(src.Model)
			statements += len(want)
			assert.Equal(t, want, got, "the written model.py must reproduce the op sequence")
		})
	}
	t.Logf("%d of %d graphs read (%d ops, %d statements); corpus.Full()=%v", read, len(graphs), ops, statements, corpus.Full())
}

// assertSameVariables compares two tables of variables field by field (statistics by their printed form, so that
// NaN equals NaN: GraphNet records std = float("nan") for some inputs).
func assertSameVariables(t *testing.T, want, got map[string]*ir.Variable) {
	t.Helper()
	require.Equal(t, len(want), len(got))
	for name, w := range want {
		g := got[name]
		require.NotNil(t, g, name)
		assert.Equal(t, w.Name, g.Name)
		assert.Same(t, w.Type, g.Type, name)
		assert.Equal(t, w.Data, g.Data, name)
		assert.Equal(t, w.OriginalName, g.OriginalName, name)
		assert.Equal(t, w.Mutable, g.Mutable, name)
		assert.Equal(t, fmt.Sprintf("%+v", w.Stats), fmt.Sprintf("%+v", g.Stats), name)
	}
}

// signatureLines returns the signature comments of a model.py, in order.
func signatureLines(src []byte) []string {
	var out []string
	for _, l := range bytes.Split(src, []byte("\n")) {
		s := strings.TrimSpace(string(l))
		if strings.HasPrefix(s, "# ") && strings.Contains(s, ": (") && strings.Contains(s, ") <- (") {
			out = append(out, s)
		}
	}
	return out
}

// TestProgramDescCorpus reads the corpus graphs whose graph_net.json carries the program: each reads and verifies,
// has its sinks fetched, and comes back from a written graph folder as the same ops, with the parameters renamed
// parameter_N and their names kept as original names.
func TestProgramDescCorpus(t *testing.T) {
	root := corpus.Require(t)
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	for rel := range fromProgramDesc {
		t.Run(rel, func(t *testing.T) {
			dir := filepath.Join(root, "graphnet_samples", filepath.FromSlash(rel))
			p, err := Read(ctx, dir)
			require.NoError(t, err)
			assert.Empty(t, ir.Verify(p))
			assert.Equal(t, filepath.Join(dir, GraphNetJSON)+programDescSuffix, p.File)
			fetches := 0
			for op := range p.Body().Ops() {
				if op.Name() == opFetch {
					fetches++
					assert.Equal(t, "pd_op.squeeze", op.Operand(0).DefiningOp().Name(), "the classifier's output")
				}
			}
			assert.Equal(t, 1, fetches, "the dropout mask, unused, is not an output: dropout's first result is used")
			assert.Contains(t, p.Feeds, "image", "input_meta.py's class describes the program's data op")

			src, err := Encode(p, WriteOptions{})
			require.NoError(t, err)
			assert.Contains(t, string(src.JSON), `"model_name": "squeezenet1_1"`)
			src.Dir = dir + "#written"
			q, err := Decode(ctx, src)
			require.NoError(t, err, "reading the written graph back")
			require.Equal(t, len(p.Params), len(q.Params))
			for _, v := range q.Params {
				require.NotNil(t, p.Params[v.OriginalName], "%s keeps its name %q as original_name", v.Name, v.OriginalName)
			}
			var want, got []string
			for op := range p.Body().Ops() {
				want = append(want, op.Name())
			}
			for op := range q.Body().Ops() {
				got = append(got, op.Name())
			}
			assert.Equal(t, want, got)
		})
	}
}
