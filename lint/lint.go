package lint

import (
	"fmt"
	"sort"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
)

// Finding is one problem the lint found, at a position in a rule file.
type Finding struct {
	Pos diag.Position
	// Rule is the name of the rule the finding is about (family rules: the rule's name, not one instance's).
	Rule    string
	Message string
}

// String formats the finding as file:line:col: rule R: message.
func (f Finding) String() string { return f.Pos.String() + ": rule " + f.Rule + ": " + f.Message }

// Analyzer is one check of a rule set.
type Analyzer struct {
	// Name identifies the analyzer (lower case, no spaces).
	Name string
	// Doc says what the analyzer reports.
	Doc string
	// Run reports the analyzer's findings through Pass.Report.
	Run func(*Pass)
}

func (a *Analyzer) String() string { return a.Name }

// Pass is what an Analyzer sees: the rule set and a way to report findings.
type Pass struct {
	Analyzer *Analyzer
	Set      *rule.Set
	report   func(Finding)
	facts    *lintFacts
}

// Report records a finding.
func (p *Pass) Report(f Finding) { p.report(f) }

// Reportf records a finding with a formatted message.
func (p *Pass) Reportf(pos diag.Position, ruleName, format string, args ...any) {
	p.report(Finding{Pos: pos, Rule: ruleName, Message: fmt.Sprintf(format, args...)})
}

// Analyzers lists the analyzers Run runs.
var Analyzers = []*Analyzer{Overlap, Loop, NeverFires}

// Run runs every analyzer of Analyzers on set and returns the findings sorted by position, rule and
// message.
func Run(set *rule.Set) []Finding { return RunAnalyzers(set, Analyzers...) }

// RunAnalyzers runs the given analyzers on set and returns their findings sorted by position, rule and
// message, without duplicates.
func RunAnalyzers(set *rule.Set, analyzers ...*Analyzer) []Finding {
	if set == nil {
		return nil
	}
	facts := newLintFacts(set)
	var out []Finding
	seen := map[Finding]bool{}
	for _, a := range analyzers {
		pass := &Pass{Analyzer: a, Set: set, facts: facts, report: func(f Finding) {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}}
		a.Run(pass)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Pos.Filename != b.Pos.Filename {
			return a.Pos.Filename < b.Pos.Filename
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Column != b.Pos.Column {
			return a.Pos.Column < b.Pos.Column
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Message < b.Message
	})
	return out
}

// Overlap reports rules that compete for the same op at the same benefit.
var Overlap = &Analyzer{
	Name: "overlap",
	Doc: "two rules with the same root op and the same benefit whose patterns can match the same op: which one " +
		"rewrites it depends on their order in the set",
	Run: runOverlap,
}

// Loop reports rules whose results match their own patterns, and pairs of rules that undo each other.
var Loop = &Analyzer{
	Name: "loop",
	Doc: "a rule whose result matches its own pattern again, or two rules each matching what the other creates: the " +
		"driver can rewrite forever",
	Run: runLoop,
}

// NeverFires reports rules no program can make fire.
var NeverFires = &Analyzer{
	Name: "neverfires",
	Doc: "a rule that can never fire: a where clause that is always false, where clauses that contradict each " +
		"other, or an op its dialect does not have",
	Run: runNeverFires,
}

// Diagnostic is the finding as a rule-file diagnostic: a warning at its position, "rule R: message". drrc check
// and the language server show lint findings this way, beside the checker's errors.
func (f Finding) Diagnostic() diag.Diagnostic {
	return diag.Diagnostic{
		Pos:      diag.Position{Filename: f.Pos.Filename, Line: f.Pos.Line, Column: f.Pos.Column},
		Severity: diag.Warning,
		Message:  "rule " + f.Rule + ": " + f.Message,
	}
}

// Diagnostics runs the default analyzers on set (Run) and returns their findings as diagnostics (Finding.Diagnostic).
func Diagnostics(set *rule.Set) diag.Diagnostics {
	var out diag.Diagnostics
	for _, f := range Run(set) {
		out = append(out, f.Diagnostic())
	}
	return out
}
