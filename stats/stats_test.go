package stats_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/internal/sample"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rules"
	"github.com/pirdrr/drr/stats"
)

// inference returns the sample model, the registry and the inference pipeline to run on it, and the A100 model.
func inference(t *testing.T) (*ir.Program, *rewriter.Registry, rewriter.Pipeline, *cost.Model) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	p, err := sample.Load(ctx)
	require.NoError(t, err)
	reg := rewriter.NewRegistry()
	require.NoError(t, rules.Register(reg))
	pl, err := reg.Pipeline(ctx, "inference")
	require.NoError(t, err)
	m, err := cost.NewModel("a100")
	require.NoError(t, err)
	return p, reg, pl, m
}

// run runs the inference pipeline on the sample model, instrumented, and returns its record.
func run(t *testing.T) stats.Program {
	p, reg, pl, m := inference(t)
	wrapped, rec := stats.Instrument(pl, m)
	results, err := wrapped.Run(p, &rewriter.Env{Registry: reg})
	require.NoError(t, err)
	return rec.Program(sample.Name, results, p)
}

// TestProgramRecord: the figures before the first pass and after each; a family rule's counts are its instances'
// sums, and each instance is listed.
func TestProgramRecord(t *testing.T) {
	r := run(t)
	require.NotNil(t, r.Before)
	require.NotNil(t, r.After)
	require.Equal(t, 51, r.Before.Ops)
	require.Equal(t, r.Passes[len(r.Passes)-1].After, r.After)
	var fold *stats.Rule
	for i, p := range r.Passes {
		require.NotNil(t, p.After, "pass %d %s", i, p.Pass)
		for j := range p.Rules {
			if p.Rules[j].Rule == "conv2d_bn_fold" {
				fold = &p.Rules[j]
			}
		}
	}
	require.NotNil(t, fold, "conv_bn_relu ran conv2d_bn_fold")
	require.Equal(t, 5, fold.Applied, "TinyResNet's five batch norms")
	require.NotEmpty(t, fold.Instances, "conv2d_bn_fold is a family rule")
	var sum stats.Counts
	for _, inst := range fold.Instances {
		require.Contains(t, inst.ID, "conv2d_bn_fold[")
		sum.Tried += inst.Tried
		sum.Matched += inst.Matched
		sum.Applied += inst.Applied
		sum.Failed += inst.Failed
	}
	require.Equal(t, fold.Counts, sum)
	require.LessOrEqual(t, fold.Applied+fold.Failed, fold.Matched)
	require.LessOrEqual(t, fold.Matched, fold.Tried)

	// The record round-trips through JSON.
	data, err := json.Marshal(r)
	require.NoError(t, err)
	var back stats.Program
	require.NoError(t, json.Unmarshal(data, &back))
	require.Equal(t, r, back)
}

// TestSum: a sample's record sums its subgraphs' figures and counts, and lists them.
func TestSum(t *testing.T) {
	a, b := run(t), run(t)
	s := stats.Sum("sample", []stats.Program{a, b})
	require.Len(t, s.Subgraphs, 2)
	require.Equal(t, 2*a.Before.Ops, s.Before.Ops)
	require.Equal(t, 2*a.After.RuntimeOps, s.After.RuntimeOps)
	require.InDelta(t, 2*a.After.Time.High, s.After.Time.High, 1e-15)
	require.Len(t, s.Passes, len(a.Passes))
	for i, p := range s.Passes {
		require.Equal(t, 2*a.Passes[i].Rewrites, p.Rewrites, p.Pass)
		for j, r := range p.Rules {
			require.Equal(t, 2*a.Passes[i].Rules[j].Applied, r.Applied)
			for k, inst := range r.Instances {
				require.Equal(t, 2*a.Passes[i].Rules[j].Instances[k].Tried, inst.Tried)
			}
		}
	}
}

// TestText: the units and the side-by-side lines.
func TestText(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{stats.Count(383830), "383,830"},
		{stats.Count(-1234), "-1,234"},
		{stats.Count(12), "12"},
		{stats.FLOPs(3668547686), "3.67 GFLOP"},
		{stats.FLOPs(950), "950 FLOP"},
		{stats.Bytes(118411669), "118 MB"},
		{stats.Bytes(12_345), "12.3 kB"},
		{stats.Seconds(284.5e-6), "284 µs"},
		{stats.Seconds(1.4236e-3), "1.42 ms"},
		{stats.Time(cost.Interval{Low: 259e-6, High: 285e-6}), "259–285 µs"},
		{stats.Time(cost.Interval{Low: 900e-6, High: 1.2e-3}), "900 µs – 1.2 ms"},
		{stats.Time(cost.Interval{Low: 5e-6, High: 5e-6}), "5 µs"},
	} {
		require.Equal(t, tc.want, tc.got)
	}
	before := &cost.Summary{Device: "a100", DynamicDim: 1, Ops: 51, RuntimeOps: 38, Kernels: 30, FLOPs: 12_000_000,
		BytesRead: 2_000_000, BytesWritten: 1_100_000, Time: cost.Interval{Low: 41e-6, High: 52e-6}}
	after := &cost.Summary{Device: "a100", DynamicDim: 1, Ops: 27, RuntimeOps: 13, Kernels: 11, FLOPs: 12_000_000,
		BytesRead: 800_000, BytesWritten: 400_000, Time: cost.Interval{Low: 12e-6, High: 20e-6}, Uncosted: 1, UncostedOps: []string{"x.y"}}
	var buf bytes.Buffer
	stats.WriteChange(&buf, "  ", before, after)
	require.Equal(t, `  ops                    51 → 27
  runtime ops            38 → 13
  load-time ops           0 → 0
  kernels                30 → 11
  FLOPs          12.0 MFLOP → 12.0 MFLOP
  bytes moved       3.10 MB → 1.20 MB
  est. time        41–52 µs → 12–20 µs
  uncosted: 1 op(s) the model has no formula for, left out of the sums: x.y
`, buf.String())
	require.Equal(t, "runtime ops 38 → 13, kernels 30 → 11, bytes moved 3.10 MB → 1.20 MB, est. time 41–52 µs → 12–20 µs",
		stats.ChangeLine(before, after))
	require.Empty(t, stats.ChangeLine(before, before))
}

// TestMeasuredAroundTheCaller: the figures measured on another goroutine (StartBefore while the program is checked)
// and after the result is checked and printed (MeasureLastAtEnd), as drrc apply does, are the figures measured in
// line; run with -race, it also shows the measurements only read the program.
func TestMeasuredAroundTheCaller(t *testing.T) {
	want := run(t)
	p, reg, pl, m := inference(t)
	rec := stats.NewRecorder(m)
	rec.StartBefore(p)
	require.Empty(t, ir.Verify(p).Errors())
	rec.Wait()
	rec.MeasureLastAtEnd()
	results, err := rec.Instrument(pl).Run(p, &rewriter.Env{Registry: reg})
	require.NoError(t, err)
	require.Empty(t, ir.Verify(p).Errors())
	var out bytes.Buffer
	require.NoError(t, pirtext.Write(&out, p, pirtext.WriteOptions{}))
	got := rec.Program(sample.Name, results, p)
	require.Equal(t, want.Before, got.Before)
	require.Equal(t, want.After, got.After)
	require.Len(t, got.Passes, len(want.Passes))
	for i := range want.Passes {
		require.Equal(t, want.Passes[i].After, got.Passes[i].After, "after pass %s", want.Passes[i].Pass)
	}
}
