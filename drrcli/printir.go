package drrcli

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pirdrr/drr/internal/pipecheck"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/ir/pirtext"
	"github.com/pirdrr/drr/rewriter"
)

// printIRFlags are mlir-opt's IR printing flags: the program before or after passes, to standard error or to a
// folder of numbered files.
type printIRFlags struct {
	afterAll, afterChange bool
	after, before         string
	dir                   string
}

func (f *printIRFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&f.afterAll, "print-ir-after-all", false, "print the program after every pass")
	fs.StringVar(&f.after, "print-ir-after", "", "print the program after the passes `names` (comma-separated)")
	fs.StringVar(&f.before, "print-ir-before", "", "print the program before the passes `names` (comma-separated)")
	fs.BoolVar(&f.afterChange, "print-ir-after-change", false, "print the program after a pass only if the pass changed it\n(alone: after every pass that changed it)")
	fs.StringVar(&f.dir, "print-ir-dir", "", "write the printed programs to numbered files in `dir` instead of standard error")
}

func splitNames(s string) []string {
	var out []string
	for _, n := range strings.Split(s, ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// enabled reports whether any program is to be printed.
func (f *printIRFlags) enabled() bool {
	return f.afterAll || f.afterChange || f.after != "" || f.before != ""
}

// check checks the pass names against the pipeline.
func (f *printIRFlags) check(pl rewriter.Pipeline) error {
	if f.dir != "" && !f.enabled() {
		return fmt.Errorf("-print-ir-dir needs -print-ir-after-all, -print-ir-after, -print-ir-before or -print-ir-after-change")
	}
	if err := pipecheck.PassesOf(pl, splitNames(f.after), "-print-ir-after"); err != nil {
		return err
	}
	return pipecheck.PassesOf(pl, splitNames(f.before), "-print-ir-before")
}

// irDump is one printed program: a numbered file name and the text with its header.
type irDump struct {
	file string
	text []byte
}

// irPrinter prints the program around the passes of one program's pipeline; the dumps are kept in order and
// written when the program is done (programs run in parallel, and their dumps must not interleave).
type irPrinter struct {
	flags    *printIRFlags
	after    map[string]bool
	before   map[string]bool
	untagged bool
	dumps    []irDump
	// sub is the program's subfolder of -print-ir-dir when a batch runs several programs ("" for one).
	sub string
}

func (f *printIRFlags) printer(untagged bool) *irPrinter {
	ip := &irPrinter{flags: f, after: map[string]bool{}, before: map[string]bool{}, untagged: untagged}
	for _, n := range splitNames(f.after) {
		ip.after[n] = true
	}
	for _, n := range splitNames(f.before) {
		ip.before[n] = true
	}
	return ip
}

// wrap returns the pipeline with each pass wrapped so that it prints as the flags ask.
func (ip *irPrinter) wrap(pl rewriter.Pipeline) rewriter.Pipeline {
	out := make(rewriter.Pipeline, len(pl))
	for i, p := range pl {
		out[i] = &printingPass{Pass: p, ip: ip, index: i + 1, total: len(pl)}
	}
	return out
}

// printingPass runs a pass and prints the program before and after it.
type printingPass struct {
	rewriter.Pass
	ip           *irPrinter
	index, total int
}

// Run runs the pass, printing the program around it.
func (pp *printingPass) Run(p *ir.Program, env *rewriter.Env) (*rewriter.PassResult, error) {
	ip, name := pp.ip, pp.Name()
	f := ip.flags
	printAfter := f.afterAll || ip.after[name] || f.afterChange && f.after == "" && !f.afterAll
	var before []byte
	if ip.before[name] || printAfter && f.afterChange {
		before = ip.print(p)
	}
	if ip.before[name] {
		ip.add("before", name, pp.index, pp.total, "", before)
	}
	res, err := pp.Pass.Run(p, env)
	if !printAfter {
		return res, err
	}
	after := ip.print(p)
	if f.afterChange && err == nil && bytes.Equal(before, after) {
		return res, err
	}
	note := ""
	if err != nil {
		note = " Failed"
	}
	ip.add("after", name, pp.index, pp.total, note, after)
	return res, err
}

func (ip *irPrinter) print(p *ir.Program) []byte {
	return pirtext.Print(p, pirtext.WriteOptions{Untagged: ip.untagged})
}

// add records a dump with mlir-opt's header: // -----// IR Dump After conv_bn_relu (2/5) //----- //
func (ip *irPrinter) add(when, pass string, index, total int, note string, text []byte) {
	var b bytes.Buffer
	title := "After"
	if when == "before" {
		title = "Before"
	}
	fmt.Fprintf(&b, "// -----// IR Dump %s %s%s (pass %d of %d) //----- //\n", title, pass, note, index, total)
	b.Write(text)
	file := fmt.Sprintf("%02d-%s-%s.pir", len(ip.dumps)+1, when, safeFileName(pass))
	ip.dumps = append(ip.dumps, irDump{file: file, text: b.Bytes()})
}

// flushStderr writes the dumps to standard error, unless -print-ir-dir takes them (writeFiles).
func (ip *irPrinter) flushStderr(c *CLI) {
	if ip.flags.dir != "" {
		return
	}
	for _, d := range ip.dumps {
		c.Stderr.Write(d.text)
	}
}

// writeFiles writes the dumps into the folder -print-ir-dir (into the program's subfolder when a batch runs several
// programs), before the program itself is written: a dump that cannot be written fails the program.
func (ip *irPrinter) writeFiles() error {
	if ip.flags.dir == "" || len(ip.dumps) == 0 {
		return nil
	}
	dir := filepath.Join(ip.flags.dir, ip.sub)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("-print-ir-dir: %w", err)
	}
	for _, d := range ip.dumps {
		if err := pirfile.WriteFile(filepath.Join(dir, d.file), d.text); err != nil {
			return fmt.Errorf("-print-ir-dir: %w", err)
		}
	}
	return nil
}

// safeFileName keeps letters, digits, '_', '-' and '.' of a pass name.
func safeFileName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, s)
}
