package analysis

import (
	"fmt"
	"sort"

	"github.com/pirdrr/drr/drr/rule"
)

// The rule-set lint (drrc check): analyzers over checked rule sets, in the style of the program analyzers above,
// that find what the checker cannot call an error but a rule author wants to know before a program shows it:
//
//   - RuleOverlap: two rules with the same root op and the same benefit whose patterns can match the same op — which
//     one rewrites it depends on their order in the set alone;
//   - RuleLoop: a rule whose result matches its own pattern again (or two rules each matching what the other
//     creates) — the driver can rewrite forever;
//   - RuleNeverFires: a rule no program can make fire (a where clause that is always false, where clauses that
//     contradict each other, an op name its dialect does not have).
//
// Everything is decided statically and conservatively: patterns are compared structurally (op names along shared
// structure, attribute literals, the literal values where clauses allow an attribute), and whatever depends on a
// program (types of inputs, uses, immutability, native constraints) is assumed to be satisfiable. So RuleOverlap
// and RuleLoop report what may happen; RuleNeverFires reports only what cannot.
//
// A rule over an op family is checked instance by instance. Instances that can never fire are expected (a family
// over every inplace op, narrowed by a where clause, leaves many), so RuleNeverFires reports a family rule only when
// none of its instances can fire, and the other analyzers skip dead instances.

// Finding is one problem the lint found, at a position in a rule file.
type Finding struct {
	Pos rule.Pos
	// Rule is the name of the rule the finding is about (family rules: the rule's name, not one instance's).
	Rule    string
	Message string
}

// String formats the finding as file:line:col: rule R: message.
func (f Finding) String() string { return f.Pos.String() + ": rule " + f.Rule + ": " + f.Message }

// RuleAnalyzer is a check of a rule set, the rule-set counterpart of Analyzer.
type RuleAnalyzer struct {
	// Name identifies the analyzer (lower case, no spaces).
	Name string
	// Doc says what the analyzer reports.
	Doc string
	// Run reports the analyzer's findings through RulePass.Report.
	Run func(*RulePass)
}

func (a *RuleAnalyzer) String() string { return a.Name }

// RulePass is what a RuleAnalyzer sees: the rule set and a way to report findings.
type RulePass struct {
	Analyzer *RuleAnalyzer
	Set      *rule.Set
	report   func(Finding)
	facts    *lintFacts
}

// Report records a finding.
func (p *RulePass) Report(f Finding) { p.report(f) }

// Reportf records a finding with a formatted message.
func (p *RulePass) Reportf(pos rule.Pos, ruleName, format string, args ...any) {
	p.report(Finding{Pos: pos, Rule: ruleName, Message: fmt.Sprintf(format, args...)})
}

// RuleAnalyzers lists the analyzers RuleLint runs.
var RuleAnalyzers = []*RuleAnalyzer{RuleOverlap, RuleLoop, RuleNeverFires}

// RuleLint runs every analyzer of RuleAnalyzers on set and returns the findings sorted by position, rule and
// message.
func RuleLint(set *rule.Set) []Finding { return RunRuleAnalyzers(set, RuleAnalyzers...) }

// RunRuleAnalyzers runs the given analyzers on set and returns their findings sorted by position, rule and
// message, without duplicates.
func RunRuleAnalyzers(set *rule.Set, analyzers ...*RuleAnalyzer) []Finding {
	if set == nil {
		return nil
	}
	facts := newLintFacts(set)
	var out []Finding
	seen := map[Finding]bool{}
	for _, a := range analyzers {
		pass := &RulePass{Analyzer: a, Set: set, facts: facts, report: func(f Finding) {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}}
		a.Run(pass)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Pos.File != b.Pos.File {
			return a.Pos.File < b.Pos.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Col != b.Pos.Col {
			return a.Pos.Col < b.Pos.Col
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Message < b.Message
	})
	return out
}

// RuleOverlap reports rules that compete for the same op at the same benefit.
var RuleOverlap = &RuleAnalyzer{
	Name: "overlap",
	Doc: "two rules with the same root op and the same benefit whose patterns can match the same op: which one " +
		"rewrites it depends on their order in the set",
	Run: runOverlap,
}

// RuleLoop reports rules whose results match their own patterns, and pairs of rules that undo each other.
var RuleLoop = &RuleAnalyzer{
	Name: "loop",
	Doc: "a rule whose result matches its own pattern again, or two rules each matching what the other creates: the " +
		"driver can rewrite forever",
	Run: runLoop,
}

// RuleNeverFires reports rules no program can make fire.
var RuleNeverFires = &RuleAnalyzer{
	Name: "neverfires",
	Doc: "a rule that can never fire: a where clause that is always false, where clauses that contradict each " +
		"other, or an op its dialect does not have",
	Run: runNeverFires,
}
