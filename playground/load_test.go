package playground

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir/pirtext"
)

// TestLoad sends 50 runs at once on a transformer of about 3,000 ops, given as a file: every run is answered with
// its 42·6 = 252 fc fusions (or a clear 503 when the queue is full, which the default queue of 64 never is
// here), and the heap stays bounded: the runs kept for their stages are bounded by Limits.KeptOps. Under the race
// detector or -short it sends 8 runs.
func TestLoad(t *testing.T) {
	const layers = 42
	p, err := buildTransformer(testCtx(), layers)
	require.NoError(t, err)
	ops := p.NumOps()
	require.GreaterOrEqual(t, ops, 3000)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "big.pir"), pirtext.Print(p, pirtext.WriteOptions{}), 0o644))
	p = nil

	runs := 50
	if raceEnabled || testing.Short() {
		runs = 8
	}
	ts := newTestServer(t, []string{filepath.Join(dir, "big.pir")}, Limits{Queue: 64})
	ts.srv.opts.Logf = func(string, ...any) {}
	body, err := json.Marshal(runRequest{Rules: fcRules, Program: programRef{File: "big.pir"}})
	require.NoError(t, err)

	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()

	start := time.Now()
	var wg sync.WaitGroup
	results := make([]*runResult, runs)
	codes := make([]int, runs)
	lat := make([]time.Duration, runs)
	for i := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			resp, err := http.Post(ts.ts.URL+"/api/run", "application/json", bytes.NewReader(body))
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			codes[i] = resp.StatusCode
			lat[i] = time.Since(t0)
			var res runResult
			if json.Unmarshal(b, &res) == nil {
				results[i] = &res
			}
		}()
	}
	wg.Wait()
	total := time.Since(start)
	close(stop)
	<-sampled

	var slowest time.Duration
	for i := range runs {
		require.Equal(t, http.StatusOK, codes[i], "run %d", i)
		require.NotNil(t, results[i])
		assert.Empty(t, results[i].Error, "run %d", i)
		assert.Equal(t, ops, results[i].OpsIn)
		assert.Equal(t, layers*6, results[i].Rules[0].Matches, "six matmul + add pairs per layer")
		assert.Equal(t, ops-layers*6, results[i].OpsOut)
		slowest = max(slowest, lat[i])
	}
	grown := int64(peak.Load()) - int64(base.HeapInuse)
	t.Logf("%d concurrent runs on %d ops: all answered in %v (slowest %v); heap in use %d MiB before, peak %d MiB (+%d MiB)",
		runs, ops, total.Round(time.Millisecond), slowest.Round(time.Millisecond), base.HeapInuse>>20, peak.Load()>>20, grown>>20)
	// Each kept run holds its input and its result (two copies of the program); 50 of them, with the runs under
	// way, stay well under 400 MiB (about 110 MiB measured).
	assert.Less(t, grown, int64(400<<20), "memory bounded")
}
