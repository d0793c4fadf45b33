// Command benchcmd compares pirtext's reader and printer with MLIR's on the bench workload
// (shared/bench/gen.py): it runs its own parse+print and mlir-opt's, interleaved (A B A B …), each in a fresh
// process under /usr/bin/time -v, and reports medians and pairwise ratios for parse and print separately, peak RSS,
// and the time per op at two sizes.
//
//	go run ./ir/pirtext/internal/benchcmd -n 100000 -small 1000 -pairs 7
//
// The workloads are generated into -dir with gen.py (--format=pir and --format=mlir) unless they exist. mlir-opt
// runs as the bench does, with --allow-unregistered-dialect, and reports its phases with --mlir-timing; its
// "Parser" phase includes the verifier it runs after parsing, so the table also shows pirtext's parse followed by
// ir.Verify. Both sides write their output to /dev/null.
//
// The measured child inherits the environment, so GOGC=400 benchcmd … measures pirtext with that collector
// setting (mlir-opt ignores it).
//
// With -once FILE the command is the measured child: it reads FILE, parses it with no dialects registered (every
// op unregistered), verifies, prints, and writes its phase times as JSON.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

// phases lists the child's phases; a profiler can subtract runs with fewer phases to isolate one.
var phases string

type result struct {
	Parse  float64 `json:"parse"`
	Verify float64 `json:"verify"`
	Print  float64 `json:"print"`
	Ops    int     `json:"ops"`
	Bytes  int     `json:"bytes"`
	RSSMiB float64 `json:"rss_mib"`
	Wall   float64 `json:"wall"`
}

func main() {
	once := flag.String("once", "", "measured child: parse, verify and print this PIR file, report JSON")
	flag.StringVar(&phases, "phases", "parse,verify,print", "child: the phases to run (for profiling one phase)")
	n := flag.Int("n", 100000, "bench workload size (blocks)")
	small := flag.Int("small", 1000, "small workload size, for the per-op scaling")
	pairs := flag.Int("pairs", 7, "interleaved pirtext/mlir-opt pairs per size")
	dir := flag.String("dir", "/tmp", "where the workloads are (generated if absent)")
	mlirOpt := flag.String("mlir-opt", "/usr/lib/llvm-22/bin/mlir-opt", "mlir-opt binary")
	gen := flag.String("gen", "", "gen.py (default: shared/bench/gen.py next to the repository)")
	flag.Parse()
	if *once != "" {
		if err := child(*once); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if err := driver(*n, *small, *pairs, *dir, *mlirOpt, *gen); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func child(path string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	t0 := time.Now()
	if !strings.Contains(phases, "parse") {
		return nil
	}
	p, _, err := pirtext.Parse(ir.NewContext(), path, src, pirtext.ReadOptions{})
	if err != nil {
		return err
	}
	t1 := time.Now()
	if strings.Contains(phases, "verify") {
		if errs := ir.Verify(p).Errors(); len(errs) > 0 {
			return errs
		}
	}
	t2 := time.Now()
	if strings.Contains(phases, "print") {
		out, err := os.Create(os.DevNull)
		if err != nil {
			return err
		}
		if err := pirtext.Write(out, p, pirtext.WriteOptions{}); err != nil {
			return err
		}
	}
	t3 := time.Now()
	return json.NewEncoder(os.Stdout).Encode(result{Parse: t1.Sub(t0).Seconds(), Verify: t2.Sub(t1).Seconds(),
		Print: t3.Sub(t2).Seconds(), Ops: p.NumOps(), Bytes: len(src)})
}

var rssRE = regexp.MustCompile(`Maximum resident set size \(kbytes\): (\d+)`)

// timed runs cmd under /usr/bin/time -v and returns its stdout, stderr, peak RSS and wall time.
func timed(cmd []string) (stdout, stderr []byte, rssMiB, wall float64, err error) {
	tf, err := os.CreateTemp("", "benchcmd-time-*")
	if err != nil {
		return nil, nil, 0, 0, err
	}
	tf.Close()
	defer os.Remove(tf.Name())
	c := exec.Command("/usr/bin/time", append([]string{"-v", "-o", tf.Name()}, cmd...)...)
	var o, e bytes.Buffer
	c.Stdout, c.Stderr = &o, &e
	t0 := time.Now()
	err = c.Run()
	wall = time.Since(t0).Seconds()
	if err != nil {
		return nil, nil, 0, 0, fmt.Errorf("%s: %v\n%s", strings.Join(cmd, " "), err, e.Bytes())
	}
	tv, err := os.ReadFile(tf.Name())
	if err != nil {
		return nil, nil, 0, 0, err
	}
	m := rssRE.FindSubmatch(tv)
	if m == nil {
		return nil, nil, 0, 0, fmt.Errorf("no RSS in /usr/bin/time output:\n%s", tv)
	}
	kb, _ := strconv.ParseFloat(string(m[1]), 64)
	return o.Bytes(), e.Bytes(), kb / 1024, wall, nil
}

func runOurs(self, path string) (result, error) {
	out, _, rss, wall, err := timed([]string{self, "-once", path})
	if err != nil {
		return result{}, err
	}
	var r result
	if err := json.Unmarshal(out, &r); err != nil {
		return r, fmt.Errorf("child output %q: %v", out, err)
	}
	r.RSSMiB, r.Wall = rss, wall
	return r, nil
}

func runMLIR(mlirOpt, path string) (result, error) {
	_, errOut, rss, wall, err := timed([]string{mlirOpt, "--allow-unregistered-dialect", "--mlir-timing",
		"--mlir-output-format=json", "-o", os.DevNull, path})
	if err != nil {
		return result{}, err
	}
	i := bytes.IndexByte(errOut, '[')
	if i < 0 {
		return result{}, fmt.Errorf("no --mlir-timing JSON in mlir-opt's output:\n%s", errOut)
	}
	var phases []struct {
		Name string `json:"name"`
		Wall struct {
			Duration float64 `json:"duration"`
		} `json:"wall"`
	}
	if err := json.Unmarshal(errOut[i:], &phases); err != nil {
		return result{}, fmt.Errorf("mlir-opt timing: %v", err)
	}
	r := result{RSSMiB: rss, Wall: wall}
	for _, ph := range phases {
		switch ph.Name {
		case "Parser":
			r.Parse = ph.Wall.Duration
		case "Output":
			r.Print = ph.Wall.Duration
		}
	}
	return r, nil
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func pick(rs []result, f func(result) float64) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = f(r)
	}
	return out
}

func workload(dir, gen string, n int, format string) (string, error) {
	path := filepath.Join(dir, fmt.Sprintf("w%d.%s", n, format))
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	out, err := exec.Command("python3", gen, strconv.Itoa(n), "--format="+format, "-o", path).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("gen.py: %v\n%s", err, out)
	}
	return path, nil
}

type sizeResult struct {
	n          int
	ours, mlir []result
}

func driver(n, small, pairs int, dir, mlirOpt, gen string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	if gen == "" {
		gen = findGen()
	}
	var sizes []sizeResult
	for _, size := range []int{small, n} {
		pir, err := workload(dir, gen, size, "pir")
		if err != nil {
			return err
		}
		mlir, err := workload(dir, gen, size, "mlir")
		if err != nil {
			return err
		}
		sr := sizeResult{n: size}
		// One warm-up run of each (page cache, CPU frequency), not counted.
		if _, err := runOurs(self, pir); err != nil {
			return err
		}
		if _, err := runMLIR(mlirOpt, mlir); err != nil {
			return err
		}
		for i := 0; i < pairs; i++ {
			a, err := runOurs(self, pir)
			if err != nil {
				return err
			}
			b, err := runMLIR(mlirOpt, mlir)
			if err != nil {
				return err
			}
			sr.ours, sr.mlir = append(sr.ours, a), append(sr.mlir, b)
			fmt.Fprintf(os.Stderr, "N=%d pair %d: pirtext parse %.3fs print %.3fs RSS %.0f MiB | mlir-opt parse %.3fs print %.3fs RSS %.0f MiB\n",
				size, i+1, a.Parse, a.Print, a.RSSMiB, b.Parse, b.Print, b.RSSMiB)
		}
		sizes = append(sizes, sr)
	}
	report(os.Stdout, sizes, pairs)
	return nil
}

func report(w io.Writer, sizes []sizeResult, pairs int) {
	parse := func(r result) float64 { return r.Parse }
	parseVerify := func(r result) float64 { return r.Parse + r.Verify }
	print := func(r result) float64 { return r.Print }
	rss := func(r result) float64 { return r.RSSMiB }
	wall := func(r result) float64 { return r.Wall }
	gogc := os.Getenv("GOGC")
	if gogc == "" {
		gogc = "100 (default)"
	}
	fmt.Fprintf(w, "Medians of %d interleaved pairs (pirtext: every op unregistered, GOGC=%s; mlir-opt --allow-unregistered-dialect).\n\n", pairs, gogc)
	fmt.Fprintln(w, "| N | ops | phase | pirtext ms | mlir-opt ms | ratio (median of pairs) | pirtext ops/s | pirtext ns/op |")
	fmt.Fprintln(w, "|---:|---:|---|---:|---:|---:|---:|---:|")
	for _, s := range sizes {
		ops := s.ours[0].Ops
		for _, ph := range []struct {
			name string
			f, g func(result) float64
		}{
			{"parse", parse, parse},
			{"parse+verify (vs MLIR parse, which verifies)", parseVerify, parse},
			{"print", print, print},
			{"process wall", wall, wall},
		} {
			m := median(pick(s.ours, ph.f))
			rs := make([]float64, len(s.ours))
			for i := range s.ours {
				rs[i] = ph.f(s.ours[i]) / ph.g(s.mlir[i])
			}
			fmt.Fprintf(w, "| %d | %d | %s | %.1f | %.1f | %.2f | %.2f M | %.0f |\n", s.n, ops, ph.name, m*1e3,
				median(pick(s.mlir, ph.g))*1e3, median(rs), float64(ops)/m/1e6, m*1e9/float64(ops))
		}
		rr := make([]float64, len(s.ours))
		for i := range s.ours {
			rr[i] = s.ours[i].RSSMiB / s.mlir[i].RSSMiB
		}
		fmt.Fprintf(w, "| %d | %d | peak RSS (MiB) | %.0f | %.0f | %.2f | | |\n", s.n, ops, median(pick(s.ours, rss)),
			median(pick(s.mlir, rss)), median(rr))
	}
	if len(sizes) == 2 {
		a, b := sizes[0], sizes[1]
		perOp := func(s sizeResult, f func(result) float64) float64 {
			return median(pick(s.ours, f)) * 1e9 / float64(s.ours[0].Ops)
		}
		fmt.Fprintf(w, "\nTime per op, N=%d vs N=%d: parse %.0f vs %.0f ns (%+.0f%%), print %.0f vs %.0f ns (%+.0f%%).\n",
			a.n, b.n, perOp(a, parse), perOp(b, parse), 100*(perOp(b, parse)/perOp(a, parse)-1),
			perOp(a, print), perOp(b, print), 100*(perOp(b, print)/perOp(a, print)-1))
	}
}

// findGen locates shared/bench/gen.py from the working directory upwards.
func findGen() string {
	d, _ := os.Getwd()
	for {
		p := filepath.Join(d, "shared", "bench", "gen.py")
		if _, err := os.Stat(p); err == nil {
			return p
		}
		p = filepath.Join(d, "..", "shared", "bench", "gen.py")
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "gen.py"
		}
		d = parent
	}
}
