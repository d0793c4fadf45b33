package pirtext

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"testing"

	"github.com/pirdrr/drr/ir"
)

// benchWorkload returns the bench workload of n blocks (/tmp/w<n>.pir), generating it with gen.py when python3
// is available; it skips the benchmark otherwise.
func benchWorkload(b *testing.B, n int) []byte {
	b.Helper()
	path := fmt.Sprintf("/tmp/w%d.pir", n)
	if _, err := os.Stat(path); err != nil {
		py, perr := exec.LookPath("python3")
		if perr != nil {
			b.Skipf("%s is absent and python3 is not installed to generate it", path)
		}
		if _, err := os.Stat(benchGen); err != nil {
			b.Skipf("%s is absent and so is %s", path, benchGen)
		}
		if out, err := exec.Command(py, benchGen, fmt.Sprint(n), "--format=pir", "-o", path).CombinedOutput(); err != nil {
			b.Skipf("gen.py failed: %v\n%s", err, out)
		}
	}
	src, err := os.ReadFile(path)
	if err != nil {
		b.Skipf("cannot read the workload: %v", err)
	}
	return src
}

// BenchmarkParse parses the bench workload with no dialects registered (every op unregistered).
func BenchmarkParse(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			src := benchWorkload(b, n)
			p, _, err := Parse(ir.NewContext(), "w.pir", src, ReadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			ops := p.NumOps()
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := Parse(ir.NewContext(), "w.pir", src, ReadOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(float64(ops)/sec, "ops/s")
			b.ReportMetric(sec*1e9/float64(ops), "ns/op-ir")
		})
	}
}

// BenchmarkPrint prints the bench workload (tagged) to io.Discard.
func BenchmarkPrint(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			src := benchWorkload(b, n)
			p, _, err := Parse(ir.NewContext(), "w.pir", src, ReadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			ops := p.NumOps()
			b.SetBytes(int64(len(Print(p, WriteOptions{}))))
			b.ReportAllocs()
			for b.Loop() {
				if err := Write(io.Discard, p, WriteOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(float64(ops)/sec, "ops/s")
			b.ReportMetric(sec*1e9/float64(ops), "ns/op-ir")
		})
	}
}
