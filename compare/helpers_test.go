package compare

import (
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

var (
	testCtxOnce sync.Once
	testCtx     *ir.Context
)

// kctx is a context shared by the tests (building one loads the op catalog).
func kctx(t testing.TB) *ir.Context {
	testCtxOnce.Do(func() {
		var err error
		testCtx, err = ir.NewDefaultContext()
		require.NoError(t, err)
	})
	return testCtx
}

// readCorpus parses a program of the shared corpus, skipping the test when it is absent.
func readCorpus(t testing.TB, rel string) *ir.Program {
	t.Helper()
	path := corpus.Path(t, rel)
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	p, _, err := pirtext.Parse(kctx(t), path, src, pirtext.ReadOptions{})
	require.NoError(t, err)
	return p
}

// prod is the product of dims.
func prod(dims []int) int {
	n := 1
	for _, d := range dims {
		n *= d
	}
	return n
}
