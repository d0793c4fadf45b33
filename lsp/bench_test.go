package lsp

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/lsp/protocol"
)

// benchRule is the conv2d_bn_fold rule of drr's parser benchmark; %[1]d is the rule number and %[2]s its extra
// where clause.
const benchRule = `/// Fold an inference batch_norm into the preceding conv2d (rule %[1]d).
rule conv2d_bn_fold_%[1]d {
  benefit 3
  labels fusion, inference
  match {
    %%y = pd_op.conv2d(%%x, %%w) {strides: $s, paddings: $p, padding_algorithm: $pa, dilations: $d, groups: $g, data_format: $fmt}
    %%out, %%m, %%v, %%sm, %%sv, _ = pd_op.batch_norm_(%%y, %%mean, %%var, %%scale, %%bias) {epsilon: $eps, data_format: $fmt, is_test: true}
  }
  where {
    immutable(%%w, %%mean, %%var, %%scale, %%bias)
    unused(%%m, %%v, %%sm, %%sv)
    $fmt in ["NCHW", "NHWC"] && %[2]s
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

// benchFile returns a rule file of at least lines lines. With overlap, its rules can all match the same ops (the
// lint reports each pair, n²/2 warnings); without, each requires its own groups value.
func benchFile(lines int, overlap bool) string {
	var b strings.Builder
	for i := 0; strings.Count(b.String(), "\n") < lines; i++ {
		cond := fmt.Sprintf("$g == %d", i+1)
		if overlap {
			cond = fmt.Sprintf("$g != %d", -i-1)
		}
		fmt.Fprintf(&b, benchRule, i, cond)
	}
	return b.String()
}

// changeLatency opens a 1,000-line file and measures, for b.N changes of one character each (a rule's benefit,
// 3 ↔ 4, in turn through the file), the time from sending the change to receiving its diagnostics.
func changeLatency(b *testing.B, overlap, fullParse bool) {
	text := benchFile(1000, overlap)
	c := startServer(b, Options{}, func(s *Server) { s.testFullParse = fullParse })
	uri := c.open("bench.drr", text)
	first := c.diagnostics(uri, 1)
	if !overlap {
		require.Empty(b, first)
	}
	nrules := strings.Count(text, "\nrule ")
	li := newLineIndex(text, protocol.UTF16)
	var lat []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % nrules
		off := strings.Index(text, fmt.Sprintf("rule conv2d_bn_fold_%d {", k))
		off += strings.Index(text[off:], "benefit ") + len("benefit ")
		digit := "4"
		if text[off] == '4' {
			digit = "3"
		}
		text = text[:off] + digit + text[off+1:]
		v := int32(i + 2)
		t0 := time.Now()
		c.edit(uri, v, protocol.Range{Start: li.position(off), End: li.position(off + 1)}, digit)
		c.diagnostics(uri, v)
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[len(lat)*9/10]), "p90-ms")
	b.ReportMetric(ms(lat[len(lat)-1]), "max-ms")
	b.ReportMetric(float64(len(first)), "diagnostics")
}

// BenchmarkChangeToDiagnostics measures, through the protocol, the time from a one-character change of a
// 1,000-line rule file to its diagnostics (the debounce included), with the incremental parse and, for
// comparison, a full parse of every version; on a file whose rules overlap (the lint reports 630 warnings) and
// one whose rules do not:
//
//	go test ./lsp -run '^$' -bench ChangeToDiagnostics -count 6 | tee bench.txt
//	go run golang.org/x/perf/cmd/benchstat@latest -col /parse bench.txt
func BenchmarkChangeToDiagnostics(b *testing.B) {
	for _, overlap := range []bool{false, true} {
		for _, full := range []bool{false, true} {
			name := map[bool]string{false: "rules=disjoint", true: "rules=overlapping"}[overlap] + "/" +
				map[bool]string{false: "parse=incremental", true: "parse=full"}[full]
			b.Run(name, func(b *testing.B) { changeLatency(b, overlap, full) })
		}
	}
}

// TestIncrementalReparse: after a one-character change of a 1,000-line file, the server parses one declaration
// again, whatever the debounce and the machine's speed (the benchmark measures the time).
func TestIncrementalReparse(t *testing.T) {
	text := benchFile(1000, false)
	c := startServer(t, Options{})
	uri := c.open("r.drr", text)
	require.Empty(t, c.diagnostics(uri, 1))
	d := c.srv.document(uri)
	_, parsed0 := d.reparser.Stats()
	off := strings.Index(text, "rule conv2d_bn_fold_20 {")
	off += strings.Index(text[off:], "benefit 3") + len("benefit ")
	li := newLineIndex(text, protocol.UTF16)
	c.edit(uri, 2, protocol.Range{Start: li.position(off), End: li.position(off + 1)}, "4")
	require.Empty(t, c.diagnostics(uri, 2))
	reused, parsed := d.reparser.Stats()
	require.Equal(t, parsed0+1, parsed)
	require.Equal(t, parsed0-1, reused)
}
