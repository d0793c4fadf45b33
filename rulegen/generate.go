package rulegen

import (
	"bytes"
	"fmt"
	"go/format"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

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
	// Unregistered checks the rules as drrc's -unregistered does (drr.CheckOptions.Unregistered).
	Unregistered bool
	// Command is the command line recorded in the file's header (default: drrc gen).
	Command string
	// MaxFileSize is the size limit of each rule file read (drr.LoadOptions.MaxFileSize; 0: the default).
	MaxFileSize int64
}

// GenerateFile generates the Go code of the rule file at path (and the files it imports), read from the
// operating system; diagnostics name the files as path does.
func GenerateFile(ctx *ir.Context, file string, cfg Config) ([]byte, drr.Diagnostics) {
	dir, base := filepath.Split(file)
	dir = filepath.Clean(dir)
	code, diags := Generate(ctx, dirFS(dir), []string{base}, cfg)
	return code, relocate(diags, dir)
}

// Generate generates the Go code of one rule pass: the rule files at paths, read with their imports from fsys, are
// loaded and checked against ctx as drr.Load does, compiled by the matcher (whose errors it reports), and written
// out as a gofmt'ed Go file that embeds them. The diagnostics are the checker's (warnings too) and the
// generator's; the code is nil when there are errors.
func Generate(ctx *ir.Context, fsys fs.FS, paths []string, cfg Config) ([]byte, drr.Diagnostics) {
	if len(paths) == 0 {
		return nil, drr.Diagnostics{errorAt(drr.Position{}, "no rule file given")}
	}
	main := paths[0]
	rec := &recordFS{fsys: fsys, files: map[string]string{}, limit: cfg.MaxFileSize}
	set, diags := drr.Load(ctx, drr.LoadOptions{FS: rec, CheckOptions: drr.CheckOptions{Unregistered: cfg.Unregistered},
		MaxFileSize: cfg.MaxFileSize}, paths...)
	if diags.HasErrors() {
		return nil, diags
	}
	at := drr.Position{Filename: main, Line: 1, Column: 1}
	if cfg.Package == "" {
		return nil, append(diags, errorAt(at, "no Go package name given"))
	}
	if err := CheckPackageName(cfg.Package); err != nil {
		return nil, append(diags, errorAt(at, "%v", err))
	}
	if cfg.Name == "" {
		cfg.Name = strings.TrimSuffix(path.Base(main), ".drr")
	}
	if cfg.Func == "" {
		cfg.Func = DefaultFunc(cfg.Name)
	}
	if !isIdent(cfg.Func) || !token_IsExported(cfg.Func) {
		return nil, append(diags, errorAt(at, "%q is not an exported Go identifier", cfg.Func))
	}
	if cfg.Command == "" {
		cfg.Command = "drrc gen"
	}
	// The automaton's compiler validates patterns (connectivity, hole kinds): a set it rejects is rejected here.
	if _, err := matcher.Compile(set, matcher.Options{}); err != nil {
		return nil, append(diags, errorAt(at, "%v", err))
	}
	f := newFileGen(cfg, set, paths, rec.sorted(paths))
	for _, r := range set.Rules {
		f.rule(r)
	}
	if len(f.errs) > 0 {
		return nil, append(diags, f.errs...)
	}
	src := f.file()
	code, err := format.Source(src)
	if err != nil {
		return nil, append(diags, errorAt(at, "internal error: the generated code does not parse: %v\n%s", err, src))
	}
	return code, diags
}

func errorAt(pos drr.Position, format string, args ...any) *drr.Diagnostic {
	return &drr.Diagnostic{Pos: pos, Severity: drr.Error, Message: fmt.Sprintf(format, args...)}
}

func posOf(p rule.Pos) drr.Position {
	return drr.Position{Filename: p.File, Line: p.Line, Column: p.Col}
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

func token_IsExported(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }

// fileGen generates one file: the program, the static state bound per Context, the matcher and its methods.
type fileGen struct {
	cfg    Config
	set    *rule.Set
	paths  []string
	files  []rt.File
	prefix string // Func without Pass, lowerCamel: before every package-level identifier
	errs   drr.Diagnostics

	// fields of the static struct, in order, with their bind statements.
	fieldNames  names
	fields      []field
	opInfo      map[string]string // op name → field
	defaults    map[string]string // op name NUL attribute name → field
	pure        map[string]string // builtin → field
	natives     map[string]string // native constraint → field
	globals     []string          // package-level declarations (shared literal lists)
	lists       map[string]string // code of a constant list → its variable
	globalNames names

	methodNames names
	kindFunc    map[string]string // root op name → method
	ruleFunc    []string          // by rule index
	methods     bytes.Buffer
}

// field is a field of the static struct: its name, type and comment, and the statements of the bind function that
// set it.
type field struct {
	name, typ, comment, init string
}

func newFileGen(cfg Config, set *rule.Set, paths []string, files []rt.File) *fileGen {
	prefix := strings.TrimSuffix(cfg.Func, "Pass")
	if prefix == "" {
		prefix = cfg.Func
	}
	f := &fileGen{cfg: cfg, set: set, paths: paths, files: files, prefix: lowerFirst(prefix), fieldNames: names{},
		opInfo: map[string]string{}, defaults: map[string]string{}, pure: map[string]string{}, natives: map[string]string{}, globalNames: names{}, lists: map[string]string{},
		methodNames: names{"match": true}, kindFunc: map[string]string{}, ruleFunc: make([]string, len(set.Rules))}
	f.fieldNames["rules"] = true
	f.fieldNames["dispatch"] = true
	return f
}

func (f *fileGen) errorf(p rule.Pos, format string, args ...any) {
	f.errs = append(f.errs, errorAt(posOf(p), format, args...))
}

// field adds a field to the static struct, set to the Go expression init, and returns its name.
func (f *fileGen) field(base, typ, comment, init string) string {
	name := f.fieldNames.fresh(base)
	f.fields = append(f.fields, field{name: name, typ: typ, comment: comment, init: "s." + name + " = " + init})
	return name
}

// opInfoField returns the field holding the OpInfo of an op name.
func (f *fileGen) opInfoField(name string) string {
	if fld, ok := f.opInfo[name]; ok {
		return fld
	}
	fld := f.field("op_"+ident(name), "*ir.OpInfo", name, "ctx.OpInfo("+strconv.Quote(name)+")")
	f.opInfo[name] = fld
	return fld
}

// defaultField returns the field holding the schema default of an op's attribute (nil if it has none).
func (f *fileGen) defaultField(op, attr string) string {
	key := op + "\x00" + attr
	if fld, ok := f.defaults[key]; ok {
		return fld
	}
	fld := f.field("def_"+ident(op)+"_"+ident(attr), "ir.Attribute", "the default of "+op+" "+attr+" (nil: none)",
		fmt.Sprintf("rt.AttrDefault(ctx, %q, %q)", op, attr))
	f.defaults[key] = fld
	return fld
}

// pureField returns the field holding a pure builtin's implementation.
func (f *fileGen) pureField(name string) string {
	if fld, ok := f.pure[name]; ok {
		return fld
	}
	fld := f.field("builtin_"+ident(name), "func([]rule.Val) (rule.Val, error)", "the builtin "+name,
		fmt.Sprintf("rule.PureBuiltin(%q)", name))
	f.fields[len(f.fields)-1].init += fmt.Sprintf("\nif s.%s == nil {\nreturn nil, fmt.Errorf(%q)\n}", fld,
		"the builtin "+name+" is not a pure builtin in this version of pirdrr: run drrc gen again")
	f.pure[name] = fld
	return fld
}

// nativeField returns the field holding a native constraint, looked up in the registry when the pass is built.
func (f *fileGen) nativeField(name string) string {
	if fld, ok := f.natives[name]; ok {
		return fld
	}
	fld := f.fieldNames.fresh("native_" + ident(name))
	f.fields = append(f.fields, field{name: fld, typ: "rewriter.NativeConstraint", comment: "the native constraint " + name,
		init: fmt.Sprintf("if reg != nil {\ns.%s, _ = reg.Constraint(%q)\n}\n"+
			"if s.%s == nil {\nreturn nil, fmt.Errorf(\"%%w: %%s\", rt.ErrNoNative, %q)\n}", fld, name, fld, name)})
	f.natives[name] = fld
	return fld
}

// rootName returns the name of a rule's root op ("" for a rule rooted at any op).
func rootName(r *rule.Rule) string { return r.Pattern.Ops[r.Pattern.Root].Name }

// file assembles the generated file.
func (f *fileGen) file() []byte {
	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	pre := f.prefix
	matcherT, staticT, program := pre+"Matcher", pre+"Static", pre+"Program"

	p("// Code generated by %s; DO NOT EDIT.", f.cfg.Command)
	p("")
	p("package %s", f.cfg.Package)
	p("")
	p("import (")
	if len(f.natives) > 0 || len(f.pure) > 0 {
		p("%q", "fmt")
	}
	p("")
	p("%q", "github.com/pirdrr/drr/drr/rule")
	p("%q", "github.com/pirdrr/drr/ir")
	p("%q", "github.com/pirdrr/drr/rewriter")
	p("%q", "github.com/pirdrr/drr/rulegen/rt")
	p(")")
	p("")
	files := strings.Join(f.paths, ", ")
	for _, line := range wrapComment(fmt.Sprintf("%s is the rewriter.PassFactory of the rule pass %q: the rules of %s, "+
		"compiled to Go by drrc gen. The pass checks the rules against the programs' Context, as the interpreted pass "+
		"does, refuses them if they check differently than where this file was generated, and runs them with "+
		"rewriter's Driver and Applier.", f.cfg.Func, f.cfg.Name, files)) {
		p("%s", line)
	}
	p("func %s(ctx *ir.Context, reg *rewriter.Registry) (rewriter.Pass, error) {", f.cfg.Func)
	p("return %s.Pass(ctx, reg)", program)
	p("}")
	p("")
	p("var %s = &rt.Program{", program)
	p("Name: %q,", f.cfg.Name)
	var quotedPaths []string
	for _, path := range f.paths {
		quotedPaths = append(quotedPaths, strconv.Quote(path))
	}
	p("Paths: []string{%s},", strings.Join(quotedPaths, ", "))
	p("Files: []rt.File{")
	for i, file := range f.files {
		p("{Name: %q, Text: %sSource%d},", file.Name, pre, i)
	}
	p("},")
	if f.cfg.Unregistered {
		p("Unregistered: true,")
	}
	p("Fingerprint: %q,", rt.Fingerprint(f.set))
	p("Bind: %sBind,", pre)
	p("}")
	p("")
	for i, file := range f.files {
		p("// %sSource%d is %s.", pre, i, file.Name)
		p("const %sSource%d = %s", pre, i, goString(file.Text))
		p("")
	}
	for _, g := range f.globals {
		p("%s", g)
		p("")
	}

	// The static state.
	p("// %s is what the matcher needs of the rule set checked against one Context.", staticT)
	p("type %s struct {", staticT)
	p("rules []*rule.Rule")
	p("dispatch *rt.Dispatch")
	for _, fl := range f.fields {
		if fl.comment != "" {
			p("%s %s // %s", fl.name, fl.typ, oneLine(fl.comment))
		} else {
			p("%s %s", fl.name, fl.typ)
		}
	}
	p("}")
	p("")
	roots := f.roots()
	p("// %sBind binds the matcher to a checked rule set, once per Context.", pre)
	p("func %sBind(set *rule.Set, reg *rewriter.Registry) (rewriter.MatcherFactory, error) {", pre)
	p("ctx := set.Ctx")
	p("s := &%s{rules: set.Rules}", staticT)
	var quoted []string
	for _, name := range roots {
		quoted = append(quoted, strconv.Quote(name))
	}
	p("s.dispatch = rt.NewDispatch(ctx%s)", joinPrefixed(quoted))
	for _, fl := range f.fields {
		p("%s", fl.init)
	}
	p("return func(_ *rule.Set, o rewriter.Oracle) (rewriter.MatchFunc, error) {")
	p("m := &%s{%s: s}", matcherT, staticT)
	p("m.Oracle = o")
	p("return m.match, nil")
	p("}, nil")
	p("}")
	p("")

	// The matcher and its dispatch.
	p("// %s matches the rules at one op at a time, in one pass run.", matcherT)
	p("type %s struct {", matcherT)
	p("*%s", staticT)
	p("rt.Matcher")
	p("}")
	p("")
	p("// match returns the matches at op, at most one per rule, best first (benefit, then rule order).")
	p("func (m *%s) match(dst []*rule.Match, op *ir.Op) []*rule.Match {", matcherT)
	p("m.Begin(dst)")
	anyRules := f.rulesAt("")
	if len(roots) > 0 {
		p("switch m.dispatch.Kind(op) {")
		for i, name := range roots {
			p("case %d: // %s", i+1, name)
			f.callRules(&b, f.rulesAt(name))
		}
		if len(anyRules) > 0 {
			p("default:")
			f.callRules(&b, anyRules)
		}
		p("}")
	} else {
		f.callRules(&b, anyRules)
	}
	p("return m.End()")
	p("}")
	p("")
	b.Write(f.methods.Bytes())
	return b.Bytes()
}

// roots returns the root op names the rules dispatch on, sorted.
func (f *fileGen) roots() []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range f.set.Rules {
		if name := rootName(r); name != "" && !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// rulesAt returns the rules tried at an op named name (those rooted at it and those rooted at any op; "" for only
// the latter), in the order their matches come out: benefit, higher first, then rule order.
func (f *fileGen) rulesAt(name string) []*rule.Rule {
	var out []*rule.Rule
	for _, r := range f.set.Rules {
		if rn := rootName(r); rn == "" || rn == name && name != "" {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Benefit != out[j].Benefit {
			return out[i].Benefit > out[j].Benefit
		}
		return out[i].Index < out[j].Index
	})
	return out
}

func (f *fileGen) callRules(b *bytes.Buffer, rules []*rule.Rule) {
	for _, r := range rules {
		fmt.Fprintf(b, "m.%s(op)\n", f.ruleFunc[r.Index])
	}
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
