package difftest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/ir/pirtext"
	"github.com/pirdrr/drr/rewriter"
)

// Archive is a golden archive of package drrtest, read for a differential run: its passes, options and input.
type Archive struct {
	Path string
	// Passes are the passes section's names ("rules" for the archive's own rules, the default).
	Passes []string
	// Options are the driver options of the options section (verify-each on unless it says otherwise).
	Options rewriter.Options
	// Unregistered is set by -unregistered.
	Unregistered bool
	// RuleFiles name the archive's .drr files.
	RuleFiles []string
	// Params are the -param NAME=VALUE assignments of the options section; Pipeline parses them against the rule
	// sets of the passes into Options.Params.
	Params []string
	ar     *txtar.Archive
}

// ReadArchive reads the archive at path.
func ReadArchive(tb testing.TB, path string) *Archive {
	tb.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	a := &Archive{Path: path, Options: rewriter.Options{VerifyEach: true}, ar: ar}
	for _, f := range ar.Files {
		switch {
		case f.Name == "passes":
			a.Passes = strings.FieldsFunc(string(f.Data), func(r rune) bool {
				return r == ',' || r == '\n' || r == ' ' || r == '\t'
			})
		case f.Name == "options":
			if err := a.options(string(f.Data)); err != nil {
				tb.Fatalf("%s: options: %v", path, err)
			}
		case strings.HasSuffix(f.Name, ".drr"):
			a.RuleFiles = append(a.RuleFiles, f.Name)
		}
	}
	if len(a.Passes) == 0 {
		a.Passes = []string{"rules"}
	}
	return a
}

// Has reports whether the archive has a section.
func (a *Archive) Has(name string) bool { return a.section(name) != nil }

func (a *Archive) section(name string) []byte {
	for _, f := range a.ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	return nil
}

// options reads the flags of drrc apply that drrtest accepts.
func (a *Archive) options(s string) error {
	o := &a.Options
	var enable, disable []string
	f := strings.Fields(s)
	for i := 0; i < len(f); i++ {
		arg := func() (string, error) {
			i++
			if i == len(f) {
				return "", fmt.Errorf("%s needs an argument", f[i-1])
			}
			return f[i], nil
		}
		var v string
		var err error
		switch f[i] {
		case "-unregistered":
			a.Unregistered = true
		case "-bottom-up":
			o.BottomUp = true
		case "-no-dce":
			o.NoDCE = true
		case "-verify-each=false":
			o.VerifyEach = false
		case "-max-iterations", "-max-rewrites", "-shuffle", "-enable", "-disable", "-param":
			if v, err = arg(); err != nil {
				return err
			}
			switch f[i-1] {
			case "-max-iterations":
				_, err = fmt.Sscan(v, &o.MaxIterations)
			case "-max-rewrites":
				_, err = fmt.Sscan(v, &o.MaxRewrites)
			case "-shuffle":
				o.Shuffle = true
				_, err = fmt.Sscan(v, &o.Seed)
			case "-enable":
				enable = append(enable, v)
			case "-disable":
				disable = append(disable, v)
			case "-param":
				a.Params = append(a.Params, v)
			}
		default:
			return fmt.Errorf("unknown option %s", f[i])
		}
		if err != nil {
			return err
		}
	}
	o.Enabled = rewriter.LabelFilter(enable, disable)
	return nil
}

// Context returns a Context for the archive's programs: with the default dialects unless -unregistered.
func (a *Archive) Context(tb testing.TB) *ir.Context {
	ctx := ir.NewContext()
	if !a.Unregistered {
		if err := ctx.LoadDefaultDialects(); err != nil {
			tb.Fatal(err)
		}
	}
	return ctx
}

// Pipeline builds the archive's passes from reg, with rules as the pass "rules".
func (a *Archive) Pipeline(tb testing.TB, ctx *ir.Context, reg *rewriter.Registry, rules rewriter.Pass) rewriter.Pipeline {
	tb.Helper()
	var pl rewriter.Pipeline
	for _, n := range a.Passes {
		if n == "rules" {
			if rules == nil {
				tb.Fatalf("%s: the passes name the archive's rules, but there are none", a.Path)
			}
			pl = append(pl, rules)
			continue
		}
		more, err := reg.Pipeline(ctx, n)
		if err != nil {
			tb.Fatal(err)
		}
		pl = append(pl, more...)
	}
	params, err := drr.ParseParams(ctx, pl.Params(), a.Params)
	if err != nil {
		tb.Fatalf("%s: options: %v", a.Path, err)
	}
	a.Options.Params = params
	return pl
}

// Input returns a function that reads the archive's input program (input.pir, input.json or the GraphNet graph
// input/) into a new program at each call.
func (a *Archive) Input(tb testing.TB, ctx *ir.Context) func() *ir.Program {
	tb.Helper()
	if src := a.section("input.pir"); src != nil {
		return func() *ir.Program {
			p, _, err := pirtext.Parse(ctx, "input.pir", src, pirtext.ReadOptions{})
			if err != nil {
				tb.Fatal(err)
			}
			return p
		}
	}
	dir := tb.TempDir()
	var input string
	for _, f := range a.ar.Files {
		if f.Name == "input.json" || strings.HasPrefix(f.Name, "input/") {
			p := filepath.Join(dir, filepath.FromSlash(f.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				tb.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				tb.Fatal(err)
			}
			input = filepath.Join(dir, strings.SplitN(f.Name, "/", 2)[0])
		}
	}
	if input == "" {
		tb.Fatalf("%s has no input", a.Path)
	}
	return func() *ir.Program {
		p, _, err := pirfile.Load(ctx, input)
		if err != nil {
			tb.Fatal(err)
		}
		return p
	}
}

// Orders are the driver orders differential tests run besides an archive's own: bottom-up and three shuffled
// worklists (top-down is the default).
var Orders = []rewriter.Options{{}, {BottomUp: true}, {Shuffle: true, Seed: 1}, {Shuffle: true, Seed: 2},
	{Shuffle: true, Seed: 3}}

// OrderName names an order for subtests.
func OrderName(o rewriter.Options) string {
	switch {
	case o.Shuffle:
		return fmt.Sprintf("shuffle%d", o.Seed)
	case o.BottomUp:
		return "bottomup"
	}
	return "topdown"
}

// WithOrder returns o with the order of order (bottom-up, shuffle and seed).
func WithOrder(o, order rewriter.Options) rewriter.Options {
	o.BottomUp, o.Shuffle, o.Seed = order.BottomUp, order.Shuffle, order.Seed
	return o
}
