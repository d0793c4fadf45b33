package drr

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// benchRule is the conv2d_bn_fold rule of the language spec; %d is replaced
// by the rule number.
const benchRule = `/// Fold an inference batch_norm into the preceding conv2d (rule %d).
rule conv2d_bn_fold_%d {
  benefit 3
  labels fusion, inference
  match {
    %%y = pd_op.conv2d(%%x, %%w) {strides: $s, paddings: $p, padding_algorithm: $pa, dilations: $d, groups: $g, data_format: $fmt}
    %%out, %%m, %%v, %%sm, %%sv, _ = pd_op.batch_norm_(%%y, %%mean, %%var, %%scale, %%bias) {epsilon: $eps, data_format: $fmt, is_test: true}
  }
  where {
    immutable(%%w, %%mean, %%var, %%scale, %%bias)
    unused(%%m, %%v, %%sm, %%sv)
    $fmt in ["NCHW", "NHWC"]
  }
  rewrite {
    %%std = pd_op.sqrt(pd_op.add(%%var, pd_op.full() {shape: [1], value: $eps, dtype: dtype(%%var)}))
    %%alpha = pd_op.divide(%%scale, %%std)
    %%w2 = pd_op.multiply(%%w, pd_op.reshape(%%alpha, pd_op.full_int_array() {value: [-1, 1, 1, 1]}))
    %%c = pd_op.conv2d(%%x, %%w2) {strides: $s, paddings: $p, padding_algorithm: $pa, dilations: $d, groups: $g, data_format: $fmt}
    %%b2 = pd_op.subtract(%%bias, pd_op.multiply(%%mean, %%alpha))
    %%bshape = pd_op.full_int_array() {value: $fmt == "NCHW" ? [1, -1, 1, 1] : [1, 1, 1, -1]}
    replace %%out with pd_op.add(%%c, pd_op.reshape(%%b2, %%bshape))
  }
}

`

// generateRules returns a file of n rules like conv2d_bn_fold.
func generateRules(n int) []byte {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, benchRule, i, i)
	}
	return []byte(b.String())
}

// BenchmarkParse2000 parses a file of 2,000 conv2d_bn_fold-like rules.
func BenchmarkParse2000(b *testing.B) {
	src := generateRules(2000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		f, err := Parse("bench.drr", src)
		if err != nil || len(f.Rules) != 2000 {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/2000rules")
}

// BenchmarkParsers compares the parsers on the shipped rule files
// (../rules/*.drr, each parsed, or parsed and checked, on its own) and on
// 2,000 generated rules (distinct, so that the checker accepts them all):
//
//	go test ./drr -run XXX -bench Parsers -count 10 | tee bench.txt
//	go run golang.org/x/perf/cmd/benchstat@latest -col /parser bench.txt
//
// The hand-written recursive-descent parser that preceded the participle
// grammar was deleted after commit "drr: BenchmarkParsers compares
// participle with the hand parser…": check that commit out to compare
// (sub-benchmarks parser=participle and parser=hand).
func BenchmarkParsers(b *testing.B) {
	shipped, _ := filepath.Glob(filepath.Join("..", "rules", "*.drr"))
	if len(shipped) == 0 {
		b.Fatal("no shipped rule files in ../rules")
	}
	inputs := []struct {
		name  string
		files map[string][]byte
		rules int
	}{
		{name: "shipped", files: map[string][]byte{}},
		{name: "generated2000", files: map[string][]byte{"bench.drr": distinctRules(2000)}, rules: 2000},
	}
	for _, path := range shipped {
		src, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		inputs[0].files[filepath.Base(path)] = src
	}
	parsers := []struct {
		name  string
		parse func(string, []byte) (*File, error)
	}{{"participle", Parse}}
	ctx := defaultCtx(b)
	for _, in := range inputs {
		size := 0
		for _, src := range in.files {
			size += len(src)
		}
		for _, step := range []string{"parse", "parse+check"} {
			for _, p := range parsers {
				b.Run("input="+in.name+"/step="+step+"/parser="+p.name, func(b *testing.B) {
					b.SetBytes(int64(size))
					b.ReportAllocs()
					for b.Loop() {
						for name, src := range in.files {
							f, err := p.parse(name, src)
							if err != nil {
								b.Fatal(err)
							}
							if step == "parse" {
								continue
							}
							set, diags := Check(ctx, []*File{f}, CheckOptions{})
							if diags.HasErrors() || in.rules > 0 && len(set.Rules) != in.rules {
								b.Fatal(diags)
							}
						}
					}
				})
			}
		}
	}
}

// distinctRules returns n rules like conv2d_bn_fold whose constraints
// differ, so that no rule shadows another and all of them check.
func distinctRules(n int) []byte {
	var sb strings.Builder
	for i := 0; i < n; i++ {
		r := strings.Replace(fmt.Sprintf(benchRule, i, i), `$fmt in ["NCHW", "NHWC"]`, fmt.Sprintf(`$fmt in ["NCHW", "NHWC"] && $g != %d`, -i-1), 1)
		sb.WriteString(r)
	}
	return []byte(sb.String())
}

// BenchmarkParse2000Cold is BenchmarkParse2000 starting each parse from a
// collected heap, as a one-shot `drrc check` does (the heap grows from
// nothing, so the garbage collector runs several cycles during the parse).
// Run with -cpu 1,2 to see the effect of parsing regions concurrently.
func BenchmarkParse2000Cold(b *testing.B) {
	src := generateRules(2000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		runtime.GC()
		b.StartTimer()
		f, err := Parse("bench.drr", src)
		if err != nil || len(f.Rules) != 2000 {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/2000rules")
}

// BenchmarkScan2000 measures the lexer alone on the same input.
func BenchmarkScan2000(b *testing.B) {
	src := string(generateRules(2000))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		s := newScanner("bench.drr", src)
		for {
			if c := s.nextChunk(); c[len(c)-1].kind == tEOF {
				break
			}
		}
	}
}

// BenchmarkFormat2000 formats the parsed 2,000-rule file.
func BenchmarkFormat2000(b *testing.B) {
	f, err := Parse("bench.drr", generateRules(2000))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		Format(f)
	}
}

// TestParse2000CPUTime reports the CPU time (user+system, whole process) of
// parsing the 2,000-rule file with GOMAXPROCS=1, as the minimum of 20 cold
// runs. On a shared machine wall-clock benchmarks are noisy; CPU time is
// less so. Run with DRR_TIMING=1 go test -run CPUTime -v.
func TestParse2000CPUTime(t *testing.T) {
	if os.Getenv("DRR_TIMING") == "" {
		t.Skip("set DRR_TIMING=1")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	src := generateRules(2000)
	cpu := func() time.Duration {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	bestParse, bestScan := time.Hour, time.Hour
	for i := 0; i < 20; i++ {
		runtime.GC()
		c0 := cpu()
		s := newScanner("bench.drr", string(src))
		for c := s.nextChunk(); c[len(c)-1].kind != tEOF; c = s.nextChunk() {
		}
		bestScan = min(bestScan, cpu()-c0)
		runtime.GC()
		c0 = cpu()
		if _, err := Parse("bench.drr", src); err != nil {
			t.Fatal(err)
		}
		bestParse = min(bestParse, cpu()-c0)
	}
	t.Logf("2,000 rules, %d bytes: parse %v CPU (lexing alone %v), GOMAXPROCS=1, min of 20 cold runs",
		len(src), bestParse, bestScan)
}
