package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/pirdrr/drr/internal/pipecheck"
	"github.com/pirdrr/drr/lsp/protocol"
	"github.com/pirdrr/drr/rewriter"
)

func init() {
	methods[protocol.MethodCodeLens] = on(codeLenses)
}

// applyArgs are the arguments of drr.apply.
type applyArgs struct {
	URI     protocol.DocumentURI `json:"uri"`
	Program string               `json:"program"`
	// Passes is the pipeline the rules run in, as drrc apply -passes spells it, "rules" standing for the
	// document's rules: gpu_inference[before reinplace: rules] runs them where they see the program as that
	// pipeline leaves it there. Empty means "rules" alone.
	Passes string `json:"passes,omitempty"`
}

// applyReport is the answer to drr.apply: what the document's rules did to each program.
type applyReport struct {
	Program  string          `json:"program"` // as given (a file or a folder)
	Passes   string          `json:"passes,omitempty"`
	Programs []programReport `json:"programs"`
	Rewrites int             `json:"rewrites"` // over all programs
	// Rules counts the rewrites of each rule over all programs, in the file's rule order.
	Rules   []ruleCount `json:"rules"`
	Summary string      `json:"summary"` // the report as text, for people
}

// programReport is what the rules did to one program.
type programReport struct {
	Path     string `json:"path"`
	OpsIn    int    `json:"opsIn"`
	OpsOut   int    `json:"opsOut"`
	Rewrites int    `json:"rewrites"`
	Stop     string `json:"stop,omitempty"` // why the driver stopped ("converged", …)
	Error    string `json:"error,omitempty"`
}

// ruleCount is one rule's rewrites.
type ruleCount struct {
	Rule    string `json:"rule"`
	Applied int    `json:"applied"`
	Matched int    `json:"matched"`
	Failed  int    `json:"failed"`
}

// applyCommand runs the rules of the document, as they are in the editor, on a program (a PIR text or JSON file, a
// GraphNet folder, or a folder of programs), as drrc apply -rules does, and reports the rewrites per rule. The
// programs are read and rewritten in memory; nothing is written. A cancelled request stops before the next
// program.
func applyCommand(s *Server, ctx context.Context, arg json.RawMessage) (any, error) {
	var a applyArgs
	if err := json.Unmarshal(arg, &a); err != nil || a.URI == "" || a.Program == "" {
		return nil, errorf("%s takes {\"uri\": …, \"program\": …, \"passes\": …}", CommandApply)
	}
	if s.opts.FS != nil {
		return nil, errorf("%s reads programs from disk, which this server's host does not allow", CommandApply)
	}
	snap, err := s.snapshot(a.URI)
	if err != nil {
		return nil, err
	}
	program := a.Program
	if !filepath.IsAbs(program) {
		if dir, ok := uriToPath(a.URI); ok {
			program = filepath.Join(filepath.Dir(dir), program)
		}
	}
	if _, err := os.Stat(program); err != nil {
		return nil, errorf("cannot read %s: %v", a.Program, err)
	}
	res, err := snap.checked(ctx)
	if err != nil {
		return nil, err
	}
	if res.set == nil {
		return nil, errorf("%s does not check (%s); fix it before applying it", snap.doc.name, firstError(res))
	}
	progs, err := s.opts.Formats.Expand(program)
	if err != nil {
		return nil, errorf("%v", err)
	}
	if len(progs) == 0 {
		return nil, errorf("no programs under %s (files of the formats %s, or program folders)", a.Program, s.opts.Formats.Names(true))
	}
	items, err := pipecheck.ParseSpec(a.Passes, "passes")
	if err != nil {
		return nil, errorf("%v", err)
	}
	if len(items) == 0 {
		items = []pipecheck.Item{{Name: pipecheck.Rules}}
	}
	if err := pipecheck.Passes(s.opts.Registry, pipecheck.Names(items), true, "passes"); err != nil {
		return nil, errorf("%v", err)
	}
	rep := &applyReport{Program: a.Program, Passes: a.Passes}
	counts := map[string]*ruleCount{}
	for _, r := range res.set.Rules {
		if _, ok := counts[r.Name]; !ok {
			counts[r.Name] = &ruleCount{Rule: r.Name}
			rep.Rules = append(rep.Rules, ruleCount{Rule: r.Name})
		}
	}
	for _, path := range progs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pr := programReport{Path: path}
		p, _, err := s.opts.Formats.Load(s.opts.Context, path)
		if err != nil {
			pr.Error = err.Error()
			rep.Programs = append(rep.Programs, pr)
			continue
		}
		pr.OpsIn = p.NumOps()
		pass := rewriter.NewRulePass(pipecheck.Rules, res.set)
		pl, err := pipecheck.Build(s.opts.Registry, func(n string) (rewriter.Pipeline, error) {
			return s.opts.Registry.Pipeline(s.opts.Context, n)
		}, map[string]rewriter.Pass{pipecheck.Rules: pass}, items)
		if err != nil {
			return nil, errorf("passes: %v", err)
		}
		if !slices.Contains(pl, rewriter.Pass(pass)) {
			pl = append(rewriter.Pipeline{pass}, pl...) // the document's rules run first when the passes do not name them
		}
		results, err := pl.Run(p, &rewriter.Env{Registry: s.opts.Registry})
		pr.OpsOut = p.NumOps()
		if err == nil {
			err = rewriter.CheckLimits(results) // the rules did not converge (drrc apply fails so)
		}
		if err != nil {
			pr.Error = err.Error()
		}
		for _, r := range results {
			if r.Stats == nil || r.Pass != pipecheck.Rules {
				continue // the counts are the document's rules'
			}
			pr.Stop = r.Stats.StopReason
			pr.Rewrites += r.Stats.Rewrites
			for _, rs := range r.Stats.Rules {
				if c := counts[rs.Name]; c != nil {
					c.Applied += rs.Applied
					c.Matched += rs.Matched
					c.Failed += rs.Failed
				}
			}
		}
		rep.Rewrites += pr.Rewrites
		rep.Programs = append(rep.Programs, pr)
	}
	for i := range rep.Rules {
		rep.Rules[i] = *counts[rep.Rules[i].Rule]
	}
	rep.Summary = rep.text()
	s.mu.Lock()
	s.lastApplied[a.URI] = rep
	s.mu.Unlock()
	s.notify(protocol.MethodShowMessage, &protocol.ShowMessageParams{Type: protocol.MessageInfo, Message: rep.headline()})
	go s.refreshLenses()
	return rep, nil
}

// headline is the report in one line.
func (r *applyReport) headline() string {
	var parts []string
	for _, c := range r.Rules {
		if c.Applied > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", c.Rule, c.Applied))
		}
	}
	s := fmt.Sprintf("%s: %s in %s", filepath.Base(r.Program), count(r.Rewrites, "rewrite"), count(len(r.Programs), "program"))
	if len(r.Programs) == 1 {
		s = fmt.Sprintf("%s: %s", filepath.Base(r.Program), count(r.Rewrites, "rewrite"))
	}
	if r.Passes != "" {
		s += " within " + r.Passes
	}
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s
}

// count is "1 rewrite", "2 rewrites": n and the noun, plural unless n is 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// lensTitle is the code lens above a rule after a run on program: how often the rule rewrote it.
func (c ruleCount) lensTitle(program string) string {
	title := count(c.Applied, "rewrite") + " in " + filepath.Base(program)
	if c.Failed > 0 {
		title += fmt.Sprintf(" (%d failed)", c.Failed)
	}
	return title
}

// text is the report as a table.
func (r *applyReport) text() string {
	var b strings.Builder
	b.WriteString(r.headline() + "\n\n")
	rules := append([]ruleCount(nil), r.Rules...)
	sort.SliceStable(rules, func(i, j int) bool { return rules[i].Applied > rules[j].Applied })
	fmt.Fprintf(&b, "%-32s %8s %8s %8s\n", "rule", "applied", "matched", "failed")
	for _, c := range rules {
		fmt.Fprintf(&b, "%-32s %8d %8d %8d\n", c.Rule, c.Applied, c.Matched, c.Failed)
	}
	b.WriteString("\n")
	for _, p := range r.Programs {
		if p.Error != "" {
			fmt.Fprintf(&b, "%s: error: %s\n", p.Path, p.Error)
			continue
		}
		fmt.Fprintf(&b, "%s: %d → %d ops, %s, %s\n", p.Path, p.OpsIn, p.OpsOut, count(p.Rewrites, "rewrite"), p.Stop)
	}
	return b.String()
}

// refreshLenses asks the client to ask for code lenses again (the lenses show the last report). A client that
// does not support the request answers with an error, which is of no consequence.
func (s *Server) refreshLenses() {
	ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
	defer cancel()
	_ = s.conn.Call(ctx, protocol.MethodCodeLensRefresh, nil, nil)
}

// codeLenses puts, above the first line, one lens per view ("view matcher automaton"), and above each rule an
// "apply to…" lens and, once the file was applied to a program, how often that rule rewrote it.
func codeLenses(s *Server, ctx context.Context, p *protocol.DocumentSymbolParams) (any, error) {
	snap, err := s.snapshot(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	f, _ := snap.parsed()
	out := []protocol.CodeLens{}
	if len(f.Rules) == 0 {
		return out, nil
	}
	top := snap.lines.rng(f.Decls[0].Pos().Offset, f.Decls[0].Pos().Offset)
	for _, v := range views {
		out = append(out, protocol.CodeLens{Range: top, Command: &protocol.Command{Title: "view " + v.Title,
			Command: clientCommandShowView, Arguments: []any{viewArgs{URI: snap.doc.uri, View: v.Name}}}})
	}
	s.mu.Lock()
	last := s.lastApplied[snap.doc.uri]
	s.mu.Unlock()
	for _, r := range f.Rules {
		if r.Name == nil {
			continue
		}
		at := snap.lines.rng(r.Pos().Offset, r.Pos().Offset)
		out = append(out, protocol.CodeLens{Range: at, Command: &protocol.Command{Title: "apply to…",
			Command: clientCommandApplyTo, Arguments: []any{applyArgs{URI: snap.doc.uri}}}})
		if last == nil {
			continue
		}
		for _, c := range last.Rules {
			if c.Rule != r.Name.Name {
				continue
			}
			out = append(out, protocol.CodeLens{Range: at, Command: &protocol.Command{Title: c.lensTitle(last.Program),
				Command: clientCommandApplyTo, Arguments: []any{applyArgs{URI: snap.doc.uri, Program: last.Program, Passes: last.Passes}}}})
		}
	}
	return out, nil
}
