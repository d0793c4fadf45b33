package drrcli

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/graphview"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/matcher"
	"github.com/pirdrr/drr/rewriter"
)

func init() {
	register(&command{
		name:    "graph",
		usage:   "graph [flags] PROGRAM",
		summary: "draw a program: an HTML page to pan, zoom and search, SVG, or Graphviz DOT",
		help: `
Graph draws a program: ops are boxes (their results and name), values are edges from their definition to each
use (with the value and its type), ops inside the regions of pd_op.if and pd_op.while are boxed with their op.
-format html writes one self-contained page (no network), drawn on a canvas, to pan (drag), zoom (wheel, + and -,
fit) and search (op names, value ids, attributes, the ops of collapsed blocks too; Enter goes to the next hit),
with the details of a clicked op; zoomed out, where labels would be too small to read, repeated blocks show what
they hold instead ("× 12: matmul 6, add 4, …"). -format svg writes a picture; -format dot Graphviz DOT (the
default; render it with dot -Tsvg). The format follows -o's extension (.html, .svg, .dot) when -format is not
given. The html and svg drawings use pirdrr's own layered layout.

Real models are large, so by default repeated blocks are collapsed: a run of consecutive blocks with the same ops
and the same wiring (the layers of a transformer, the residual blocks of a ResNet) is drawn once, in a box that
says how many times it repeats (-collapse=false draws every op). Parameters are left out unless -params.

A folder that is not a program (a GraphNet sample) draws each of its programs (its subgraph_N graphs), one
after the other in the same drawing, each titled by its name in the folder.

-focus %N draws only the neighbourhood of the op that defines %N (or of the op on line N of the file, @N):
the ops within -depth edges of it, producers and users; ops with neighbours left out have a dashed border.

-rule R draws what rule R (of the -rules files or the -set rule sets; by default every registered rule set) does
to the program: before, the ops it matches and their neighbourhood (-depth); after, the program rewritten by R
alone, the ops R created and their neighbourhood.

With -diff BEFORE, PROGRAM is drawn as the result of rewriting BEFORE: ops that are new are green, and the ops of
BEFORE that are gone are drawn red, boxed apart. Ops are matched by name, attributes, and operand and result types.

Examples:
  drrc graph -o model.html inference.json
  drrc graph -o fcos.html GraphNet/paddle_samples/PaddleX/FCOS-ResNet50
  drrc graph -focus %120 -depth 3 -o around.html inference.json
  drrc graph -set conv_bn_relu -rule conv2d_bn_fold -o fold.html model.pir
  drrc graph model.pir | dot -Tsvg > model.svg
  drrc apply model.pir -o fused.pir && drrc graph -diff model.pir -o diff.html fused.pir`,
		setup: func(fs *flag.FlagSet) func(*CLI, []string) int {
			gf := &graphFlags{}
			gf.register(fs)
			return gf.run
		},
	})
}

type graphFlags struct {
	cf          contextFlags
	diff        string
	params      bool
	format, out string
	focus       listFlag
	depth       int
	collapse    bool
	ruleName    string
	ruleFiles   listFlag
	sets        listFlag
}

func (gf *graphFlags) register(fs *flag.FlagSet) {
	gf.cf.register(fs)
	fs.StringVar(&gf.format, "format", "", "output `dot|svg|html` (default: -o's extension, else dot)")
	fs.StringVar(&gf.out, "o", "-", "write the drawing to `file`")
	fs.StringVar(&gf.diff, "diff", "", "color what changed since the program in `file`")
	fs.BoolVar(&gf.params, "params", false, "draw parameter ops too")
	fs.Var(&gf.focus, "focus", "draw only the neighbourhood of the op defining `%N` (or on line @N; repeatable)")
	fs.IntVar(&gf.depth, "depth", 2, "with -focus or -rule: how many edges away from the ops the drawing reaches")
	fs.BoolVar(&gf.collapse, "collapse", true, "draw each run of repeated blocks once, with its count")
	fs.StringVar(&gf.ruleName, "rule", "", "draw what rule `name` matches and what it makes of it")
	fs.Var(&gf.ruleFiles, "rules", "with -rule: the rules of `file.drr` (repeatable)")
	fs.Var(&gf.sets, "set", "with -rule: the rules of the registered rule set `name` (repeatable)")
}

// graphFormat returns the drawing format the flags ask for.
func (gf *graphFlags) graphFormat() (string, error) {
	f := gf.format
	if f == "" {
		switch strings.ToLower(filepath.Ext(gf.out)) {
		case ".html", ".htm":
			f = "html"
		case ".svg":
			f = "svg"
		default:
			f = "dot"
		}
	}
	switch f {
	case "dot", "svg", "html":
		return f, nil
	}
	return "", fmt.Errorf("-format: unknown drawing format %q (dot, svg or html)", f)
}

func (gf *graphFlags) run(c *CLI, args []string) int {
	if len(args) != 1 {
		return c.usageErrorf("graph", "need one program")
	}
	format, err := gf.graphFormat()
	if err != nil {
		return c.usageErrorf("graph", "%v", err)
	}
	if gf.depth < 0 {
		return c.usageErrorf("graph", "-depth %d: a number of edges cannot be negative", gf.depth)
	}
	if gf.ruleName != "" && (gf.diff != "" || len(gf.focus) > 0) {
		return c.usageErrorf("graph", "-rule draws its own before and after: it does not go with -diff or -focus")
	}
	if gf.ruleName == "" && (len(gf.ruleFiles) > 0 || len(gf.sets) > 0) {
		return c.usageErrorf("graph", "-rules and -set choose the rule of -rule, which is not given")
	}
	ctx, err := gf.cf.context(c)
	if err != nil {
		return c.errorf("graph", "%v", err)
	}
	progs, err := c.programsOf(args[0])
	if err != nil {
		return c.errorf("graph", "%v", err)
	}
	opts := graphview.Options{Params: gf.params, Collapse: gf.collapse, Depth: gf.depth}
	if len(progs) > 1 || progs[0] != args[0] {
		if gf.ruleName != "" || gf.diff != "" || len(gf.focus) > 0 {
			return c.usageErrorf("graph", "%s holds %s: -rule, -diff and -focus draw one program (name one of them)", args[0], nouns(len(progs), "program"))
		}
		return gf.write(c, args[0], format, gf.folderGraphs(c, ctx, args[0], progs, opts))
	}
	p, ok := c.loadProgram("graph", ctx, args[0])
	if !ok {
		return exitFailure
	}
	if info, err := os.Stat(args[0]); err == nil && info.IsDir() {
		opts.Title = args[0] // a program folder (a GraphNet graph) is named by the folder, not by its model.py
	}
	var graphs []*graphview.Graph
	switch {
	case gf.ruleName != "":
		graphs, ok = gf.ruleGraphs(c, ctx, p, opts)
		if !ok {
			return exitFailure
		}
	default:
		if len(gf.focus) > 0 {
			num := ir.NumberValues(p.Body())
			for _, ref := range gf.focus {
				op, err := findOp(p, num, ref)
				if err != nil {
					return c.errorf("graph", "-focus: %s: %v", args[0], err)
				}
				opts.Focus = append(opts.Focus, op)
			}
		}
		var removed []*ir.Op
		var before *ir.Program
		if gf.diff != "" {
			if before, ok = c.loadProgram("graph", ctx, gf.diff); !ok {
				return exitFailure
			}
			var added map[*ir.Op]bool
			added, removed = graphview.DiffOps(before, p)
			opts.Classes = map[*ir.Op][]string{}
			for op := range added {
				opts.Classes[op] = []string{"added"}
			}
		}
		g := graphview.Build(p, opts)
		g.AddDetached(before, removed, "removed")
		graphs = []*graphview.Graph{g}
	}
	title := p.File
	if title == "" || opts.Title != "" {
		title = args[0]
	}
	return gf.write(c, title, format, graphs)
}

// folderGraphs draws each program of a folder (the graphs of a GraphNet sample), titled by its name in the folder;
// nil if one cannot be read (its errors are printed).
func (gf *graphFlags) folderGraphs(c *CLI, ctx *ir.Context, dir string, progs []string, opts graphview.Options) []*graphview.Graph {
	var graphs []*graphview.Graph
	for _, path := range progs {
		p, ok := c.loadProgram("graph", ctx, path)
		if !ok {
			return nil
		}
		o := opts
		o.Title = programName(dir, path)
		graphs = append(graphs, graphview.Build(p, o))
	}
	return graphs
}

// write writes the drawing of graphs in format to -o, and says what was drawn.
func (gf *graphFlags) write(c *CLI, title, format string, graphs []*graphview.Graph) int {
	if graphs == nil {
		return exitFailure
	}
	var err error
	write := func(w io.Writer) error {
		switch format {
		case "html":
			for _, g := range graphs {
				g.Layout()
			}
			return graphview.WriteHTML(w, title, graphs...)
		case "svg":
			for _, g := range graphs {
				g.Layout()
			}
			return graphview.WriteSVG(w, title, graphs...)
		}
		return graphview.WriteDOT(w, title, graphs...)
	}
	if gf.out == "-" {
		bw := bufio.NewWriter(c.Stdout)
		err = write(bw)
		if err == nil {
			err = bw.Flush()
		}
	} else {
		err = pirfile.WriteFileFunc(gf.out, write)
	}
	if err != nil {
		return c.errorf("graph", "%v", err)
	}
	if gf.out != "-" {
		for _, g := range graphs {
			fmt.Fprintf(c.Stderr, "%s: %d ops drawn, %d not drawn, %d repeated %s collapsed, %s × %s px\n", g.Title, len(g.Nodes),
				g.Hidden, repeatedGroups(g), pluralWord(repeatedGroups(g), "block"), strconv.Itoa(int(g.Width)), strconv.Itoa(int(g.Height)))
		}
	}
	return exitOK
}

func repeatedGroups(g *graphview.Graph) int {
	n := 0
	for _, grp := range g.Groups {
		if grp.Count > 0 {
			n++
		}
	}
	return n
}

// pluralWord returns the word for n things: one, or (with forms[0]) its plural, by default one+"s".
func pluralWord(n int, one string, forms ...string) string {
	switch {
	case n == 1:
		return one
	case len(forms) > 0:
		return forms[0]
	}
	return one + "s"
}

// ruleGraphs draws what a rule does: the ops it matches in p (before), and the ops it creates in a copy of p
// rewritten by it alone (after), each with its neighbourhood.
func (gf *graphFlags) ruleGraphs(c *CLI, ctx *ir.Context, p *ir.Program, opts graphview.Options) ([]*graphview.Graph, bool) {
	set, ok := c.ruleSets("graph", ctx, gf.ruleFiles, gf.sets, gf.cf.unregistered)
	if !ok {
		return nil, false
	}
	if err := checkRuleName(set, gf.ruleName); err != nil {
		c.errorf("graph", "%v", err)
		return nil, false
	}
	only := &rule.Set{Ctx: set.Ctx, Natives: set.Natives}
	for _, r := range set.Rules {
		if r.Name == gf.ruleName {
			only.Rules = append(only.Rules, r)
		}
	}
	for i, r := range only.Rules {
		r.Index = i
	}
	reg, err := c.registry()
	if err != nil {
		c.errorf("graph", "%v", err)
		return nil, false
	}
	auto, err := matcher.Compile(only, matcher.Options{})
	if err != nil {
		c.errorf("graph", "%v", err)
		return nil, false
	}
	m := auto.NewMatcher()
	oracle := rewriter.NewOracle(p, reg)
	matched := map[*ir.Op][]string{}
	var roots []*ir.Op
	for op := range p.Walk() {
		for _, mt := range m.Match(op, oracle) {
			for _, mo := range mt.Ops {
				if mo != nil {
					matched[mo] = []string{"matched"}
				}
			}
			roots = append(roots, op)
		}
	}
	if len(roots) == 0 {
		c.errorf("graph", "rule %s matches no op of %s (drrc explain -rule %s says why at an op)", gf.ruleName, p.File, gf.ruleName)
		return nil, false
	}
	var focus []*ir.Op
	for op := range p.Walk() {
		if matched[op] != nil {
			focus = append(focus, op)
		}
	}
	before := opts
	before.Focus, before.Classes, before.Title = focus, matched, "before: "+strconv.Itoa(len(roots))+" "+pluralWord(len(roots), "match", "matches")+" of "+gf.ruleName

	q := p.Clone()
	created := &createdOps{ops: map[*ir.Op]bool{}}
	pass := rewriter.NewRulePass(gf.ruleName, only)
	res, err := rewriter.Pipeline{pass}.Run(q, &rewriter.Env{Registry: reg, Listeners: []ir.Listener{created}})
	if err != nil {
		c.errorf("graph", "%v", err)
		return nil, false
	}
	classes := map[*ir.Op][]string{}
	var made []*ir.Op
	for op := range q.Walk() {
		if created.ops[op] {
			classes[op] = []string{"added"}
			made = append(made, op)
		}
	}
	after := opts
	after.Focus, after.Classes = made, classes
	rewrites := 0
	if res[0].Stats != nil {
		rewrites = res[0].Stats.Rewrites
	}
	after.Title = "after: " + strconv.Itoa(rewrites) + " " + pluralWord(rewrites, "rewrite") + ", " + strconv.Itoa(len(made)) + " new " + pluralWord(len(made), "op")
	if len(made) == 0 {
		after.Focus = nil // the rule only erased ops: there is nothing to centre on, so the whole result is drawn
	}
	return []*graphview.Graph{graphview.Build(p, before), graphview.Build(q, after)}, true
}

// createdOps records the ops a rewrite inserts.
type createdOps struct{ ops map[*ir.Op]bool }

func (c *createdOps) OpInserted(op *ir.Op) { c.ops[op] = true }
func (c *createdOps) OpModified(*ir.Op)    {}
func (c *createdOps) OpErased(op *ir.Op)   { delete(c.ops, op) }
