package cost_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/ir"
	"github.com/stretchr/testify/require"
)

// FuzzDeviceProfile: a device profile file is either rejected with an error naming the file or accepted with every
// figure positive and sourced; nothing panics.
func FuzzDeviceProfile(f *testing.F) {
	f.Add(`{"name": "toy", "kind": "gpu", "memory_bandwidth": {"value": 1e9, "source": "s"}, "launch_overhead": {"value": 1e-6, "source": "s"}, "vector": {"float32": {"value": 1e9, "source": "s"}}, "matrix": {"float16": {"value": 1e12, "source": "s"}}}`)
	f.Add(`{"devices": [{"name": "a", "kind": "cpu"}]}`)
	f.Add(`{"name": 3}`)
	f.Add(``)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, src string) {
		path := filepath.Join(dir, "p.json")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := cost.LookupDevice(path)
		if err != nil {
			return
		}
		if !(d.MemoryBandwidth.Value > 0) || d.MemoryBandwidth.Source == "" || !(d.LaunchOverhead.Value > 0) {
			t.Fatalf("accepted a profile with a bad figure: %+v", d)
		}
		if r := d.Rate(cost.Matrix, ir.DTypeBFloat16); !(r > 0) {
			t.Fatalf("rate %g", r)
		}
	})
}

// FuzzEinsum: any equation on einsum over two operands is costed or reported uncosted, without a panic, and a
// costed one has non-negative work.
func FuzzEinsum(f *testing.F) {
	for _, eq := range []string{"ij,jk->ik", "...ij,jk->...ik", "bij,bjk->bik", "i,i->", "...,...", "ii->i", "a...b,b...c", ""} {
		f.Add(eq)
	}
	ctx, err := ir.NewDefaultContext()
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, eq string) {
		g := newBuilderIn(t, ctx)
		x, y := g.data("x", g.f32(2, 3, 4)), g.data("y", g.f32(4, 5))
		vec := g.val("builtin.combine", []*ir.Value{x, y}, g.ctx.Vector(x.Type(), y.Type()))
		op := g.op("pd_op.einsum", []*ir.Value{vec}, []ir.Type{g.f32(2, 3, 5)}, "equation", g.ctx.Str(eq))
		c := g.costOf(op)
		if c.Err == nil && (c.Work.FLOPs < 0 || c.Work.Read < 0) {
			t.Fatalf("%q: negative work %+v", eq, c.Work)
		}
	})
}
