package stats

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/cost"
)

// Count renders a count with thousands separators: 383,830.
func Count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// si renders v with three significant digits and a decimal SI prefix: 3.67 G, 118 M, 950.
func si(v float64) string {
	prefixes := []string{"", "k", "M", "G", "T", "P", "E"}
	i := 0
	a := math.Abs(v)
	for a >= 999.5 && i < len(prefixes)-1 {
		v /= 1000
		a /= 1000
		i++
	}
	prec := 2
	switch {
	case a >= 99.95:
		prec = 0
	case a >= 9.995:
		prec = 1
	}
	if i == 0 && v == math.Trunc(v) {
		prec = 0
	}
	return strconv.FormatFloat(v, 'f', prec, 64) + " " + prefixes[i]
}

// FLOPs renders an operation count: 3.67 GFLOP.
func FLOPs(n int64) string { return si(float64(n)) + "FLOP" }

// Bytes renders a byte count in decimal units: 118 MB.
func Bytes(n int64) string { return si(float64(n)) + "B" }

// Seconds renders a duration given in seconds: 259 µs, 1.42 ms, 3.10 s.
func Seconds(s float64) string {
	a := math.Abs(s)
	switch {
	case a == 0:
		return "0 s"
	case a < 1e-6:
		return fmt.Sprintf("%.3g ns", s*1e9)
	case a < 1e-3:
		return fmt.Sprintf("%.3g µs", s*1e6)
	case a < 1:
		return fmt.Sprintf("%.3g ms", s*1e3)
	}
	return fmt.Sprintf("%.3g s", s)
}

// Time renders an estimated time: "259–285 µs", one figure when both ends round alike.
func Time(i cost.Interval) string {
	lo, hi := Seconds(i.Low), Seconds(i.High)
	if lo == hi {
		return lo
	}
	// One unit for both ends when they share it.
	lu, hu := lo[strings.LastIndexByte(lo, ' ')+1:], hi[strings.LastIndexByte(hi, ' ')+1:]
	if lu == hu {
		return strings.TrimSuffix(lo, " "+lu) + "–" + hi
	}
	return lo + " – " + hi
}

// figure is one line of the figures: its label and its value in a summary.
type figure struct {
	label string
	value func(s *cost.Summary) string
}

var figures = []figure{
	{"ops", func(s *cost.Summary) string { return Count(int64(s.Ops)) }},
	{"runtime ops", func(s *cost.Summary) string { return Count(int64(s.RuntimeOps)) }},
	{"load-time ops", func(s *cost.Summary) string { return Count(int64(s.LoadTimeOps)) }},
	{"kernels", func(s *cost.Summary) string { return Count(int64(s.Kernels)) }},
	{"FLOPs", func(s *cost.Summary) string { return FLOPs(s.FLOPs) }},
	{"bytes moved", func(s *cost.Summary) string { return Bytes(s.Bytes()) }},
	{"est. time", func(s *cost.Summary) string { return Time(s.Time) }},
}

// Heading says what the figures are: "cost per inference on a100 (dynamic dims as 1)".
func Heading(s *cost.Summary) string {
	return fmt.Sprintf("cost per inference on %s (dynamic dims as %d)", s.Device, s.DynamicDim)
}

// WriteFigures writes a summary's figures, one per line after indent, with the uncosted ops if any.
func WriteFigures(w io.Writer, indent string, s *cost.Summary) {
	width := labelWidth()
	for _, f := range figures {
		fmt.Fprintf(w, "%s%-*s  %s\n", indent, width, f.label, f.value(s))
	}
	writeUncosted(w, indent, s, nil)
}

// WriteChange writes the figures of before and after side by side ("runtime ops  38 → 13"), one per line after
// indent, with the uncosted ops if any.
func WriteChange(w io.Writer, indent string, before, after *cost.Summary) {
	width := labelWidth()
	left := 0
	for _, f := range figures {
		left = max(left, len([]rune(f.value(before))))
	}
	for _, f := range figures {
		b := f.value(before)
		pad := strings.Repeat(" ", left-len([]rune(b)))
		fmt.Fprintf(w, "%s%-*s  %s%s → %s\n", indent, width, f.label, pad, b, f.value(after))
	}
	writeUncosted(w, indent, after, before)
}

func labelWidth() int {
	n := 0
	for _, f := range figures {
		n = max(n, len(f.label))
	}
	return n
}

// writeUncosted says which ops could not be costed (their figures are missing from the sums).
func writeUncosted(w io.Writer, indent string, s, other *cost.Summary) {
	names := s.UncostedOps
	n := s.Uncosted
	if other != nil {
		names = mergeSorted(names, other.UncostedOps)
		n = max(n, other.Uncosted)
	}
	if n == 0 {
		return
	}
	fmt.Fprintf(w, "%suncosted: %d op(s) the model has no formula for, left out of the sums: %s\n", indent, n, strings.Join(names, ", "))
}

func mergeSorted(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, x := range b {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// ChangeLine is the one-line account of what a pass changed in the figures ("runtime ops 38 → 13, kernels 30 → 11,
// est. time 41–52 → 12–20 µs"), listing only the figures that changed; "" when none did.
func ChangeLine(before, after *cost.Summary) string {
	if before == nil || after == nil {
		return ""
	}
	var parts []string
	for _, f := range figures[1:] { // ops: the pass line says it
		if f.value(before) != f.value(after) {
			parts = append(parts, fmt.Sprintf("%s %s → %s", f.label, f.value(before), f.value(after)))
		}
	}
	return strings.Join(parts, ", ")
}
