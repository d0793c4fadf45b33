package rulegen

import (
	"bytes"
	"fmt"
	"go/format"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/matcher"
	"github.com/pirdrr/drr/rulegen/rt"
)

// Config says what to generate.
type Config struct {
	// Package is the Go package of the generated file.
	Package string
	// Name is the pass name (default: the main rule file's name without .drr).
	Name string
	// Func is the name of the exported rewriter.PassFactory (default: Name in CamelCase followed by Pass:
	// conv_bn_relu → ConvBnReluPass).
	Func string
	// FS, if set, is a Go function returning the fs.FS the pass reads its rule files from at run time, named by
	// its package's import path ("github.com/pirdrr/drr/rules.FS"): for rule files a package embeds already.
	// Otherwise the generated file embeds them.
	FS string
	// Unregistered checks the rules as drrc's -unregistered does (drr.CheckOptions.Unregistered).
	Unregistered bool
	// Command is the command line recorded in the file's header (default: drrc gen).
	Command string
	// MaxFileSize is the size limit of each rule file read (drr.LoadOptions.MaxFileSize; 0: the default).
	MaxFileSize int64
	// Shared, if set, is shared with the other passes generated into the same package: the pass names the
	// functions they wrote for the rules it imports from their files instead of writing its own (see Shared).
	Shared *Shared
}

// GenerateFile generates the Go code of the rule file at path (and the files it imports), read from the
// operating system; diagnostics name the files as path does.
func GenerateFile(ctx *ir.Context, file string, cfg Config) ([]byte, diag.Diagnostics) {
	dir, base := filepath.Split(file)
	dir = filepath.Clean(dir)
	code, diags := Generate(ctx, dirFS(dir), []string{base}, cfg)
	return code, relocate(diags, dir)
}

// Generate generates the Go code of one rule pass: the rule files at paths, read with their imports from fsys, are
// loaded and checked against ctx as drr.Load does, planned by the matcher (whose errors it reports), and written
// out as a gofmt'ed Go file. The diagnostics are the checker's (warnings too) and the generator's; the code is
// nil when there are errors.
func Generate(ctx *ir.Context, fsys fs.FS, paths []string, cfg Config) ([]byte, diag.Diagnostics) {
	if len(paths) == 0 {
		return nil, diag.Diagnostics{diag.Errorf(diag.Position{}, "no rule file given")}
	}
	main := paths[0]
	rec := &recordFS{fsys: fsys, files: map[string]string{}, limit: cfg.MaxFileSize}
	set, diags := drr.Load(ctx, drr.LoadOptions{FS: rec, CheckOptions: drr.CheckOptions{Unregistered: cfg.Unregistered},
		MaxFileSize: cfg.MaxFileSize}, paths...)
	if diags.HasErrors() {
		return nil, diags
	}
	at := diag.Position{Filename: main, Line: 1, Column: 1}
	if cfg.Package == "" {
		return nil, append(diags, diag.Errorf(at, "no Go package name given"))
	}
	if err := CheckPackageName(cfg.Package); err != nil {
		return nil, append(diags, diag.Errorf(at, "%v", err))
	}
	if cfg.Name == "" {
		cfg.Name = strings.TrimSuffix(path.Base(main), ".drr")
	}
	if cfg.Func == "" {
		cfg.Func = DefaultFunc(cfg.Name)
	}
	if !isIdent(cfg.Func) || !token.IsExported(cfg.Func) {
		return nil, append(diags, diag.Errorf(at, "%q is not an exported Go identifier", cfg.Func))
	}
	var fsPkg, fsFunc string
	if cfg.FS != "" {
		i := strings.LastIndex(cfg.FS, ".")
		if i < 0 || !isIdent(cfg.FS[i+1:]) || !token.IsExported(cfg.FS[i+1:]) || path.Base(cfg.FS[:i]) == "." {
			return nil, append(diags, diag.Errorf(at, "%q is not an import path followed by an exported function name "+
				"(github.com/pirdrr/drr/rules.FS)", cfg.FS))
		}
		fsPkg, fsFunc = cfg.FS[:i], cfg.FS[i+1:]
	}
	if cfg.Command == "" {
		cfg.Command = "drrc gen"
	}
	f := &fileGen{cfg: cfg, set: set, fsPkg: fsPkg, fsFunc: fsFunc, paths: paths, files: rec.sorted(paths),
		prefix: lowerFirst(strings.TrimSuffix(cfg.Func, "Pass")), globals: names{}}
	if f.prefix == "" {
		f.prefix = lowerFirst(cfg.Func)
	}
	for _, r := range set.Rules {
		pl, err := matcher.NewPlan(r)
		if err != nil {
			f.errorf(r.Pos, "rule %s: %v", r.ID(), err)
			continue
		}
		f.instance(r, pl)
	}
	if len(f.errs) > 0 {
		return nil, append(diags, f.errs...)
	}
	src := f.file()
	code, err := format.Source(src)
	if err != nil {
		return nil, append(diags, diag.Errorf(at, "internal error: the generated code does not parse: %v\n%s", err, src))
	}
	cfg.Shared.record(main, f.funcs)
	return code, diags
}

// isIdent reports whether s is an ASCII Go identifier other than a keyword and the blank identifier.
func isIdent(s string) bool { return token.IsIdentifier(s) && ident(s) == s && s != "_" }

// CheckPackageName returns an error saying why name cannot be the package name of generated code (an ASCII Go
// identifier that is not a keyword nor _), nil if it can.
func CheckPackageName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("no Go package name given")
	case token.IsKeyword(name):
		return fmt.Errorf("%q is a Go keyword, not a package name", name)
	case !isIdent(name):
		return fmt.Errorf("%q is not a Go package name (an ASCII identifier: letters, digits and _, not a digit first)", name)
	}
	return nil
}

// fileGen generates one file: the program with its rule table, and a function per group of rule instances that
// print to the same code.
type fileGen struct {
	cfg           Config
	set           *rule.Set
	fsPkg, fsFunc string
	paths         []string
	files         []rt.File
	prefix        string // Func without Pass, lowerCamel: before every package-level identifier
	errs          diag.Diagnostics
	globals       names
	funcs         []*genFunc
	never         map[string][]string // instances that cannot match in this catalog, by rule name
	neverOrder    []string
}

// genFunc is a generated function and the instances it matches.
type genFunc struct {
	name, rule, body string
	r                *rule.Rule // the first instance
	members          []string   // Rule.Instance of each instance (nil for a rule without a family)
	family           bool
	external         bool // written by another pass of the package (Config.Shared): named, not written here
}

func (f *fileGen) errorf(p diag.Position, format string, args ...any) {
	f.errs = append(f.errs, diag.Errorf(p, format, args...))
}

// instance prints the plan of rule instance r, and files it with the instances of the same rule that print to
// the same function.
func (f *fileGen) instance(r *rule.Rule, pl *matcher.Plan) {
	g := f.newFnGen(r, pl)
	body := g.body()
	if g.never {
		if _, ok := f.never[r.Name]; !ok {
			if f.never == nil {
				f.never = map[string][]string{}
			}
			f.neverOrder = append(f.neverOrder, r.Name)
		}
		f.never[r.Name] = append(f.never[r.Name], r.Instance)
		return
	}
	for _, fn := range f.funcs {
		if fn.rule == r.Name && fn.body == body {
			fn.members = append(fn.members, r.Instance)
			return
		}
	}
	fn := &genFunc{rule: r.Name, body: body, r: r, family: r.Instance != ""}
	if name, ok := f.cfg.Shared.lookup(r, body); ok && r.Pos.Filename != f.paths[0] {
		fn.name, fn.external = name, true
	} else {
		fn.name = f.globals.fresh(f.prefix + "_" + ident(r.Name))
	}
	if fn.family {
		fn.members = []string{r.Instance}
	}
	f.funcs = append(f.funcs, fn)
}

// file assembles the generated file.
func (f *fileGen) file() []byte {
	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }

	var fns bytes.Buffer
	for _, fn := range f.funcs {
		if !fn.external {
			f.function(&fns, fn)
		}
	}
	p("// Code generated by %s; DO NOT EDIT.", f.cfg.Command)
	p("")
	p("package %s", f.cfg.Package)
	p("")
	p("import (")
	if bytes.Contains(fns.Bytes(), []byte("rule.")) {
		p("%q", "github.com/pirdrr/drr/drr/rule")
	}
	if fns.Len() > 0 {
		p("%q", "github.com/pirdrr/drr/ir")
	}
	p("%q", "github.com/pirdrr/drr/rulegen/rt")
	if f.fsPkg != "" {
		p("%q", f.fsPkg)
	}
	p(")")
	p("")
	what := fmt.Sprintf("%s is the rule pass %s: %s compiled by drrc gen (rt.Program).", f.cfg.Func, f.cfg.Name,
		strings.Join(f.paths, ", "))
	if len(f.paths) == 1 && f.paths[0] == f.cfg.Name+".drr" { // the pass is named by its file
		what = fmt.Sprintf("%s is %s compiled by drrc gen (rt.Program).", f.cfg.Func, f.paths[0])
	}
	for _, line := range wrapComment(what) {
		p("%s", line)
	}
	var quoted []string
	for _, path := range f.paths {
		quoted = append(quoted, strconv.Quote(path))
	}
	var sources []string
	files := "Files: []rt.File{"
	if f.fsPkg != "" {
		files = fmt.Sprintf("FS: %s.%s()", path.Base(f.fsPkg), f.fsFunc)
	} else {
		for i, file := range f.files {
			src := f.globals.fresh(f.prefix + "Source")
			sources = append(sources, src)
			if i > 0 {
				files += ", "
			}
			files += fmt.Sprintf("{Name: %q, Text: %s}", file.Name, src)
		}
		files += "}"
	}
	p("var %s = (&rt.Program{Name: %q, Paths: []string{%s}, %s,", f.cfg.Func, f.cfg.Name, strings.Join(quoted, ", "), files)
	if f.cfg.Unregistered {
		p("Unregistered: true,")
	}
	p("Fingerprint: %q,", rt.Fingerprint(f.set))
	var entries []string
	var plain []string
	for _, fn := range f.funcs {
		if !fn.family {
			plain = append(plain, fmt.Sprintf("{Name: %q, Match: %s},", fn.rule, fn.name))
			continue
		}
		var quoted []string
		for _, m := range fn.members {
			quoted = append(quoted, strconv.Quote(m))
		}
		entry := fmt.Sprintf("{Name: %q, Match: %s, Members: []string{%s}},", fn.rule, fn.name, strings.Join(quoted, ", "))
		if len(entry) <= commentWidth-8 {
			plain = append(plain, entry)
			continue
		}
		entries = append(entries, wrap(plain)...)
		plain = nil
		if members := fmt.Sprintf("Members: []string{%s}},", strings.Join(quoted, ", ")); len(members) <= commentWidth-8 {
			// The members on a line of their own.
			entries = append(entries, fmt.Sprintf("{Name: %q, Match: %s,", fn.rule, fn.name), members)
			continue
		}
		entries = append(entries, fmt.Sprintf("{Name: %q, Match: %s, Members: []string{", fn.rule, fn.name))
		for i := range quoted {
			quoted[i] += ","
		}
		entries = append(entries, wrap(quoted)...)
		entries = append(entries, "}},")
	}
	entries = append(entries, wrap(plain)...)
	if len(entries) == 1 && len(entries[0]) < commentWidth-30 {
		p("Rules: []rt.Rule{%s}}).Pass", strings.TrimSuffix(entries[0], ","))
	} else {
		p("Rules: []rt.Rule{")
		for _, e := range entries {
			p("%s", e)
		}
		p("}}).Pass")
	}
	for _, name := range f.neverOrder {
		p("")
		for _, line := range wrapComment(fmt.Sprintf("Rule %s cannot match in this catalog for %s: a constraint "+
			"it decides is false.", name, strings.Join(f.never[name], ", "))) {
			p("%s", line)
		}
	}
	for i, file := range f.files {
		if f.fsPkg != "" {
			break
		}
		p("")
		p("// %s is %s.", sources[i], file.Name)
		p("const %s = %s", sources[i], goString(file.Text))
	}
	p("")
	b.Write(fns.Bytes())
	return b.Bytes()
}

// function writes a generated function.
func (f *fileGen) function(w *bytes.Buffer, fn *genFunc) {
	r := fn.r
	root := opVarName(r.Pattern.Root)
	kind := r.Pattern.Ops[r.Pattern.Root].Name
	if kind == "" {
		kind = "any op"
	}
	// One line: the rule and where it is written, the root, and the instances a family's function serves (their op
	// kinds and constants come in its rt.Instance; the file's rt.Rule lists them).
	what := fmt.Sprintf("Rule %s (%s) at %s, a %s.", r.Name, r.Pos, root, kind)
	if fn.family {
		which := fmt.Sprintf("its %d instances", len(fn.members))
		if len(fn.members) == 1 {
			which = "instance " + fn.members[0]
		}
		what = fmt.Sprintf("Rule %s (%s) at %s, for %s.", r.Name, r.Pos, root, which)
	}
	for _, line := range wrapComment(what) {
		fmt.Fprintln(w, line)
	}
	fmt.Fprintf(w, "func %s(m *rt.Matcher, in *rt.Instance, %s *ir.Op) bool {\n", fn.name, root)
	w.WriteString(fn.body)
	w.WriteString("}\n\n")
}

// wrap writes the elements of a composite literal several a line.
func wrap(xs []string) []string {
	var out []string
	line := ""
	for _, q := range xs {
		if line != "" && len(line)+1+len(q) > commentWidth-8 {
			out = append(out, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += q
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

func joinPrefixed(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return ", " + strings.Join(xs, ", ")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// goString returns a Go string literal for s: a raw literal when s has no backquote or carriage return.
func goString(s string) string {
	if !strings.ContainsAny(s, "`\r") {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}
