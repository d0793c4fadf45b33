package cost_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/ir"
)

// TestDevicesSourced: the built-in profiles hold the devices the docs name, every figure positive and sourced.
func TestDevicesSourced(t *testing.T) {
	var names []string
	for _, d := range cost.Devices() {
		names = append(names, d.Name)
		require.NotEmpty(t, d.Title)
		for _, f := range []cost.Figure{d.MemoryBandwidth, d.LaunchOverhead} {
			require.Positive(t, f.Value)
			require.NotEmpty(t, f.Source)
		}
		for _, rates := range []map[string]cost.Figure{d.Vector, d.Matrix} {
			for dt, f := range rates {
				require.Positive(t, f.Value, "%s %s", d.Name, dt)
				require.NotEmpty(t, f.Source, "%s %s", d.Name, dt)
			}
		}
	}
	require.Equal(t, []string{"a100", "cpu-avx2", "h100", "t4", "v100"}, names)
}

// TestDeviceRate: matrix work in a type with tensor cores runs at their rate; otherwise the vector rate of the type,
// else float32's.
func TestDeviceRate(t *testing.T) {
	d, err := cost.LookupDevice("a100")
	require.NoError(t, err)
	require.Equal(t, 312e12, d.Rate(cost.Matrix, ir.DTypeFloat16))
	require.Equal(t, 19.5e12, d.Rate(cost.Matrix, ir.DTypeFloat32), "float32 GEMMs are not counted at the TF32 rate")
	require.Equal(t, 78e12, d.Rate(cost.Vector, ir.DTypeFloat16))
	require.Equal(t, 19.5e12, d.Rate(cost.Vector, ir.DTypeInt64), "integer work at the float32 rate")
	_, err = cost.LookupDevice("a200")
	require.ErrorContains(t, err, "unknown device \"a200\" (known: a100, cpu-avx2, h100, t4, v100")
}

// TestDeviceFile: a profile read from a file is checked like the built-in ones: an unsourced figure is an error.
func TestDeviceFile(t *testing.T) {
	dir := t.TempDir()
	good := `{"name": "toy", "title": "a toy", "kind": "gpu",
  "memory_bandwidth": {"value": 1e9, "source": "made up for the test"},
  "launch_overhead": {"value": 1e-6, "source": "made up"},
  "vector": {"float32": {"value": 1e9, "source": "made up"}}, "matrix": {}}`
	path := filepath.Join(dir, "toy.json")
	require.NoError(t, os.WriteFile(path, []byte(good), 0o644))
	d, err := cost.LookupDevice(path)
	require.NoError(t, err)
	require.Equal(t, "toy", d.Name)
	for name, bad := range map[string]string{
		"unsourced": `{"name": "x", "kind": "gpu", "memory_bandwidth": {"value": 1e9}, "launch_overhead": {"value": 1e-6, "source": "s"}, "vector": {"float32": {"value": 1, "source": "s"}}}`,
		"no_fp32":   `{"name": "x", "kind": "gpu", "memory_bandwidth": {"value": 1e9, "source": "s"}, "launch_overhead": {"value": 1e-6, "source": "s"}, "vector": {}}`,
		"bad_type":  `{"name": "x", "kind": "gpu", "memory_bandwidth": {"value": 1e9, "source": "s"}, "launch_overhead": {"value": 1e-6, "source": "s"}, "vector": {"float32": {"value": 1, "source": "s"}, "fp99": {"value": 1, "source": "s"}}}`,
		"negative":  `{"name": "x", "kind": "gpu", "memory_bandwidth": {"value": -1, "source": "s"}, "launch_overhead": {"value": 1e-6, "source": "s"}, "vector": {"float32": {"value": 1, "source": "s"}}}`,
		"unknown":   `{"name": "x", "kind": "gpu", "bandwidth": 3}`,
	} {
		p := filepath.Join(dir, name+".json")
		require.NoError(t, os.WriteFile(p, []byte(bad), 0o644))
		_, err := cost.LookupDevice(p)
		require.Error(t, err, name)
		require.Contains(t, err.Error(), p, name)
	}
}

// TestTimeInterval: on a toy device (1 GB/s, 1 GFLOP/s, 1 µs per launch), two chained relus on 1000 floats:
// each reads and writes 4000 bytes (8 µs) and computes 1 µs, so 9 µs each at the upper end; at the lower end the
// first must read the input (4 µs) and the second write the output (4 µs), 5 µs each. One relu doing the same
// (a fusion of the two) is 9 µs at both ends: fusing saved 1 µs (the launch) at the lower end and 9 µs (the
// launch and 8000 bytes) at the upper one.
func TestTimeInterval(t *testing.T) {
	dir := t.TempDir()
	toy := `{"name": "toy", "kind": "gpu",
  "memory_bandwidth": {"value": 1e9, "source": "test"}, "launch_overhead": {"value": 1e-6, "source": "test"},
  "vector": {"float32": {"value": 1e9, "source": "test"}}, "matrix": {}}`
	path := filepath.Join(dir, "toy.json")
	require.NoError(t, os.WriteFile(path, []byte(toy), 0o644))
	m, err := cost.NewModel(path)
	require.NoError(t, err)

	two := newBuilder(t)
	x := two.data("x", two.f32(1000))
	a := two.val("pd_op.relu", []*ir.Value{x}, two.f32(1000))
	b := two.val("pd_op.relu", []*ir.Value{a}, two.f32(1000))
	two.fetch(b)
	before := m.Summarize(two.p)
	require.InDelta(t, 10e-6, before.Time.Low, 1e-12)
	require.InDelta(t, 18e-6, before.Time.High, 1e-12)

	one := newBuilder(t)
	x = one.data("x", one.f32(1000))
	one.fetch(one.val("pd_op.relu", []*ir.Value{x}, one.f32(1000)))
	after := m.Summarize(one.p)
	require.InDelta(t, 9e-6, after.Time.Low, 1e-12)
	require.InDelta(t, 9e-6, after.Time.High, 1e-12)

	saved := before.Time.Sub(after.Time)
	require.InDelta(t, 1e-6, saved.Low, 1e-12, "the launch alone")
	require.InDelta(t, 9e-6, saved.High, 1e-12, "the launch and the 8000 bytes")
}

// TestSummaryAdd: a sample's figures are the sum of its subgraphs'.
func TestSummaryAdd(t *testing.T) {
	a := cost.Summary{Device: "a100", DynamicDim: 1, Ops: 3, RuntimeOps: 2, Kernels: 2, FLOPs: 10, BytesRead: 5,
		Time: cost.Interval{Low: 1, High: 2}, Uncosted: 1, UncostedOps: []string{"b.op"}}
	b := cost.Summary{Device: "a100", DynamicDim: 1, Ops: 4, LoadTimeOps: 1, Kernels: 1, FLOPs: 7, BytesWritten: 3,
		Time: cost.Interval{Low: 0.5, High: 1}, Uncosted: 2, UncostedOps: []string{"a.op", "b.op"}}
	s := a.Add(b)
	require.Equal(t, cost.Summary{Device: "a100", DynamicDim: 1, Ops: 7, RuntimeOps: 2, LoadTimeOps: 1, Kernels: 3, FLOPs: 17,
		BytesRead: 5, BytesWritten: 3, Time: cost.Interval{Low: 1.5, High: 3}, Uncosted: 3, UncostedOps: []string{"a.op", "b.op"}}, s)
	require.Equal(t, s, cost.Summary{}.Add(a).Add(b))
}
