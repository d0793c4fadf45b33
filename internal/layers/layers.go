// Package layers states the architecture of pirdrr as data: the packages of the module in layers, lowest first,
// and which imports between them are allowed. Its test runs `go list` over the module and fails on any import
// that goes the wrong way, naming the edge, so that the map in docs/architecture.md cannot rot.
//
// The rule is simple: a package may import packages of lower layers, and packages of its own layer only if the
// layer allows peers. A package of the module that no layer lists is an error too: a new package takes its place
// in the table when it is added.
package layers

import (
	"fmt"
	"sort"
	"strings"
)

// Module is the import path of the module the table describes.
const Module = "github.com/pirdrr/drr"

// Layer is one level of the architecture.
type Layer struct {
	// Name says what the layer is for.
	Name string
	// Packages lists the packages of the layer, relative to Module.
	Packages []string
	// Peers allows the packages of the layer to import each other (the formats build on each other; the
	// analyses, the language and the matcher must not).
	Peers bool
}

// Table is pirdrr's architecture, lowest layer first.
var Table = []Layer{
	{Name: "leaves", Peers: true, Packages: []string{
		"internal/bgwrite", "internal/corpus", "internal/fileio", "internal/golden", "internal/hostile", "internal/layers", "internal/mapfile", "internal/shard", "internal/smaps", "internal/suggest", "internal/textdiff",
		"diag", "interp/tensor", "lsp/jsonrpc2", "lsp/protocol",
	}},
	{Name: "program model", Packages: []string{"ir"}},
	{Name: "cost model", Packages: []string{"cost"}},
	{Name: "program formats and views", Peers: true, Packages: []string{
		"ir/pirtext", "ir/pirjson", "ir/mlirtext", "ir/graphnet", "ir/pirfile", "ir/pdiparams", "ir/kernels",
		"graphview", "internal/sample", "internal/progtest",
	}},
	{Name: "rules as data", Packages: []string{"drr/rule"}},
	{Name: "analyses, language, matcher", Packages: []string{"analysis", "drr", "matcher"}},
	{Name: "rule-set lint", Packages: []string{"lint"}},
	{Name: "rewriting", Peers: true, Packages: []string{"rewriter", "internal/pipecheck", "rulegen/rt", "stats", "mine"}},
	{Name: "interpreter", Packages: []string{"interp"}},
	{Name: "random feeds", Packages: []string{"feeds"}},
	{Name: "comparison", Packages: []string{"compare"}},
	{Name: "verification", Packages: []string{"verify"}},
	{Name: "shipped rules", Packages: []string{"rules"}},
	{Name: "compiled rules and their generator", Peers: true, Packages: []string{
		"rulegen", "rulegen/paddle", "rules/compiled", "internal/difftest",
	}},
	{Name: "golden tests, language server", Packages: []string{"drrtest", "lsp"}},
	{Name: "playground, generated-code tests", Packages: []string{"playground", "rulegen/internal/gentest"}},
	{Name: "command line", Packages: []string{"drrcli"}},
	{Name: "programs", Peers: true, Packages: []string{
		"cmd/drrc", "examples/plugin", "examples/genplugin", "editors", "internal/sample/gen", "ir/pirtext/internal/benchcmd",
	}},
}

// Violation is an import the table forbids, or a package it does not place.
type Violation struct {
	// From and To are the importing and the imported package, relative to Module; To is "" for a package no
	// layer lists.
	From, To string
	// Why says which rule the import breaks.
	Why string
}

func (v Violation) String() string {
	if v.To == "" {
		return v.From + ": " + v.Why
	}
	return v.From + " imports " + v.To + ": " + v.Why
}

// Index maps each package of the table to its layer's position in Table. It reports a package listed twice.
func Index(table []Layer) (map[string]int, error) {
	at := map[string]int{}
	for i, l := range table {
		for _, p := range l.Packages {
			if j, dup := at[p]; dup {
				return nil, fmt.Errorf("layers: %s is in layer %q and in layer %q", p, table[j].Name, l.Name)
			}
			at[p] = i
		}
	}
	return at, nil
}

// Check returns the violations of table in imports, which maps each package of the module (relative to Module)
// to the packages of the module it imports. Violations are sorted.
func Check(table []Layer, imports map[string][]string) ([]Violation, error) {
	at, err := Index(table)
	if err != nil {
		return nil, err
	}
	var out []Violation
	for from, tos := range imports {
		i, ok := at[from]
		if !ok {
			out = append(out, Violation{From: from, Why: "in no layer of internal/layers.Table"})
			continue
		}
		for _, to := range tos {
			j, ok := at[to]
			switch {
			case !ok:
				// Reported as its own violation when it is a package of the module.
			case j > i:
				out = append(out, Violation{From: from, To: to, Why: fmt.Sprintf(
					"layer %q may not import the higher layer %q", table[i].Name, table[j].Name)})
			case j == i && !table[i].Peers:
				out = append(out, Violation{From: from, To: to, Why: fmt.Sprintf(
					"the packages of layer %q may not import each other", table[i].Name)})
			}
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].From != out[b].From {
			return out[a].From < out[b].From
		}
		return out[a].To < out[b].To
	})
	return out, nil
}

// Relative returns path relative to Module, and whether it is a package of the module.
func Relative(path string) (string, bool) {
	if path == Module {
		return ".", true
	}
	rel, ok := strings.CutPrefix(path, Module+"/")
	return rel, ok
}
