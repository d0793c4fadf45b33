package drr

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// requireSameParse checks that the Reparser's parse of src is exactly Parse's: tree, comments, docs, positions and
// diagnostics.
func requireSameParse(t testing.TB, rp *Reparser, src []byte) *File {
	t.Helper()
	want, wantErr := Parse("r.drr", src)
	got, gotErr := rp.Parse(src)
	if wantErr == nil {
		require.NoError(t, gotErr)
	} else {
		require.Error(t, gotErr)
		require.Equal(t, wantErr.Error(), gotErr.Error())
	}
	require.Equal(t, want, got)
	return got
}

// shippedRules returns the shipped rule files, concatenated.
func shippedRules(t testing.TB) []byte {
	files, err := filepath.Glob(filepath.Join("..", "rules", "*.drr"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var b []byte
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		b = append(b, src...)
	}
	return b
}

func TestReparseMatchesParse(t *testing.T) {
	base := string(shippedRules(t)) + string(generateRules(5)) +
		"family f = [a.b,\nrule broken {\n  match {\n    %y = a.b(%x\n  }\n  rewrite {\n    erase\n  }\n}\n"
	tests := []struct {
		name string
		edit func(s string, r *rand.Rand) string
	}{
		{"insert a character", func(s string, r *rand.Rand) string {
			i := r.IntN(len(s) + 1)
			const chars = "x%$@{}()\n /,=\""
			return s[:i] + string(chars[r.IntN(len(chars))]) + s[i:]
		}},
		{"delete a character", func(s string, r *rand.Rand) string {
			if s == "" {
				return s
			}
			i := r.IntN(len(s))
			return s[:i] + s[i+1:]
		}},
		{"insert or delete a line", func(s string, r *rand.Rand) string {
			lines := strings.SplitAfter(s, "\n")
			i := r.IntN(len(lines))
			if r.IntN(2) == 0 {
				return strings.Join(append(lines[:i:i], append([]string{"// new line\n"}, lines[i:]...)...), "")
			}
			return strings.Join(append(lines[:i:i], lines[i+1:]...), "")
		}},
		{"move a declaration", func(s string, r *rand.Rand) string {
			regs := splitRegions(s)
			k := r.IntN(len(regs))
			piece := s[regs[k].start:regs[k].end]
			rest := s[:regs[k].start] + s[regs[k].end:]
			if !strings.HasSuffix(piece, "\n") {
				piece += "\n"
			}
			return piece + rest
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			rp := NewReparser("r.drr")
			src := base
			requireSameParse(t, rp, []byte(src))
			// Every edit parses the shipped rule files (116 KB) twice; the race detector slows participle tenfold.
			edits := 40
			if raceEnabled {
				edits = 8
			}
			for i := 0; i < edits; i++ {
				src = tt.edit(src, r)
				requireSameParse(t, rp, []byte(src))
			}
		})
	}
}

// TestReparseReuses: an edit inside one rule re-parses that rule's region only; the others are reused, moved.
func TestReparseReuses(t *testing.T) {
	src := string(distinctRules(36))
	rp := NewReparser("r.drr")
	requireSameParse(t, rp, []byte(src))
	reused, parsed := rp.Stats()
	require.Equal(t, 0, reused)
	require.Equal(t, 37, parsed) // the first doc comment, then each rule with the next rule's doc comment

	// A new line inside rule 10: rule 10 is parsed again, rules 11.. are moved down one line.
	i := strings.Index(src, "rule conv2d_bn_fold_10 ")
	j := i + strings.Index(src[i:], "  where {")
	edited := src[:j] + "  // a note\n" + src[j:]
	f := requireSameParse(t, rp, []byte(edited))
	reused, parsed = rp.Stats()
	require.Equal(t, 36, reused)
	require.Equal(t, 38, parsed)
	require.Equal(t, "conv2d_bn_fold_11", f.Rules[11].Name.Name)

	// Only the regions of the last version are kept: undoing the edit parses rule 10's old text again.
	requireSameParse(t, rp, []byte(src))
	reused, parsed = rp.Stats()
	require.Equal(t, 36+36, reused)
	require.Equal(t, 39, parsed)
}

// TestReparseResultsIndependent: a tree the Reparser returned does not change when later versions are parsed (an
// editor keeps the tree of one version while the next is parsed).
func TestReparseResultsIndependent(t *testing.T) {
	v1 := []byte(string(generateRules(3)) + "/// doc\nfamily f = [pd_op.relu]\n")
	rp := NewReparser("r.drr")
	f1, err := rp.Parse(v1)
	require.NoError(t, err)
	_, err = rp.Parse(append([]byte("// a first line\n\n"), v1...))
	require.NoError(t, err)
	_, err = rp.Parse(v1)
	require.NoError(t, err)
	want, err := Parse("r.drr", v1)
	require.NoError(t, err)
	require.Equal(t, want, f1)
	require.Equal(t, "doc", f1.Families[0].Doc.Text())
}

// FuzzReparse: parsing a then b with one Reparser gives Parse's result for b (and for a).
// TestReparseOpenBlockAtRegionEnd: a declaration left open before the next one reports its errors where Parse
// does ("expected '{' after 'match', found end of line" at the newline, 1:18, not after "match"), whether the
// previous version was parsed or not.
func TestReparseOpenBlockAtRegionEnd(t *testing.T) {
	srcs := [][]byte{[]byte("rule A0{   match \nrule A"), []byte("rule A0{ match (x \nrule A {}\n"), []byte("rule A0{}\n")}
	for _, first := range srcs {
		for _, second := range srcs {
			rp := NewReparser("r.drr")
			requireSameParse(t, rp, first)
			requireSameParse(t, rp, second)
		}
	}
	_, err := NewReparser("r.drr").Parse(srcs[0])
	assert.Contains(t, err.Error(), "r.drr:1:18: error: expected '{' after 'match', found end of line")
}

func FuzzReparse(f *testing.F) {
	rules := generateRules(3)
	f.Add(rules, append([]byte("\n"), rules...))
	f.Add(rules, []byte(strings.Replace(string(rules), "benefit 3", "benefit", 1)))
	f.Add([]byte("rule a {\n}\nrule b {\n  match {\n}\n"), []byte("rule a {\n  match {\n}\nrule b {\n}\n"))
	f.Add([]byte("family f = [a.b]\n/// d\nrule r {}\n"), []byte("family f = [a.b]\n\n/// d\nrule r {}\n"))
	// A region that ends inside an open block: its end is where the next declaration starts, as in the whole file.
	f.Add([]byte("rule A0{   match \nrule A"), []byte("rule A0{ match ( \nrule A {}"))
	// Edits that cross the depth limits: one more level, and the limit's error removed again.
	seeds := depthSeeds()
	for i := 0; i+1 < len(seeds); i++ {
		f.Add(seeds[i], append(append([]byte(nil), rules...), seeds[i+1]...))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		rp := NewReparser("r.drr")
		requireSameParse(t, rp, a)
		requireSameParse(t, rp, b)
		requireSameParse(t, rp, a)
	})
}

// BenchmarkReparseEdit compares, on a 1,000-line file (36 rules), parsing each version from scratch with Parse and
// with a Reparser after a one-character edit inside one rule (the digit of its benefit, in turn through the file,
// so that every version differs from the one before):
//
//	go test ./drr -run '^$' -bench ReparseEdit -count 6 | tee bench.txt
//	go run golang.org/x/perf/cmd/benchstat@latest -col /parser bench.txt
func BenchmarkReparseEdit(b *testing.B) {
	src := []byte(string(distinctRules(36)))
	var offs []int
	for i := 0; i < len(src); {
		j := strings.Index(string(src[i:]), "benefit 3")
		if j < 0 {
			break
		}
		offs = append(offs, i+j+len("benefit "))
		i += j + 1
	}
	for _, parser := range []string{"Parse", "Reparser"} {
		b.Run("parser="+parser, func(b *testing.B) {
			rp := NewReparser("bench.drr")
			if _, err := rp.Parse(src); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				off := offs[i%len(offs)]
				src[off] = "43"[i/len(offs)%2] // 3 → 4 → 3 …
				var err error
				if parser == "Parse" {
					_, err = Parse("bench.drr", src)
				} else {
					_, err = rp.Parse(src)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestReparseMovedErrorRegion: a declaration with a syntax error whose message names a position of its own ("')' to
// close '(' at L:C") moves down a line when a line is inserted above it; the reparse must report the new position,
// as Parse does (the reused parse moved the diagnostic but not the position in its message).
func TestReparseMovedErrorRegion(t *testing.T) {
	const broken = "rule r {\n  match {\n    %y = pd_op.relu(%x)\n  }\n  where {\n    (rank(%x) > 1\n  }\n  rewrite {\n    replace %y with %x\n  }\n}\n"
	rp := NewReparser("r.drr")
	requireSameParse(t, rp, []byte(broken))
	requireSameParse(t, rp, []byte("// a new first line\n"+broken))
}
