package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/lsp/protocol"
	"github.com/pirdrr/drr/matcher"
)

func init() {
	methods[protocol.MethodExecuteCommand] = on(executeCommand)
}

// The commands the server runs (workspace/executeCommand). Each takes one argument, an object.
const (
	// CommandView shows what the document compiles to: arguments {"uri": …, "view": …} ("automaton" or
	// "automaton-dot"), result a ViewResult.
	CommandView = "drr.view"
	// CommandApply runs the document's rules on a program: arguments {"uri": …, "program": …, "passes": …} (a file
	// or a folder of programs; passes, optional, the pipeline the rules run in as drrc apply -passes spells it, with
	// "rules" for the document's: gpu_inference[before reinplace: rules]), result an applyReport. Nothing is
	// written.
	CommandApply = "drr.apply"
)

// The commands a client provides for the code lenses (VS Code's extension and the Neovim configuration define
// them): each asks what it needs — a program, a view — and runs the server's command.
const (
	clientCommandApplyTo  = "drr.applyTo"  // arguments {"uri": …}: ask for a program (and the passes), then drr.apply
	clientCommandShowView = "drr.showView" // arguments {"uri": …, "view": …}: drr.view, then show its text
)

var commands = map[string]func(s *Server, ctx context.Context, arg json.RawMessage) (any, error){
	CommandView:  viewCommand,
	CommandApply: applyCommand,
}

// commandNames lists the server's commands (for its capabilities).
func commandNames() []string { return []string{CommandApply, CommandView} }

func executeCommand(s *Server, ctx context.Context, p *protocol.ExecuteCommandParams) (any, error) {
	run, ok := commands[p.Command]
	if !ok {
		return nil, errorf("unknown command %s (the server runs %s)", p.Command, strings.Join(commandNames(), ", "))
	}
	var arg json.RawMessage
	if len(p.Arguments) > 0 {
		arg = p.Arguments[0]
	}
	return run(s, ctx, arg)
}

// view is a way to see what a rule file compiles to. A new view (the Go that drrc gen writes, say) is one more
// entry of views: drr.view and the code lenses pick it up from there (the clients list the names: editors/).
type view struct {
	Name     string // what drr.view's "view" argument names
	Title    string // for the client's tab or buffer
	Language string // the language of the text, for highlighting (a VS Code language id)
	render   func(ctx context.Context, snap *snapshot, res *checkResult) (string, error)
}

// views are the views drr.view offers, in the order the code lenses show them.
var views = []view{
	{Name: "automaton", Title: "matcher automaton", Language: "plaintext", render: renderAutomaton},
	{Name: "automaton-dot", Title: "matcher automaton (Graphviz)", Language: "dot", render: renderAutomatonDot},
	{Name: "go", Title: "compiled Go (drrc gen)", Language: "go", render: renderGo},
}

// ViewResult is the answer to drr.view.
type ViewResult struct {
	View     string `json:"view"`
	Title    string `json:"title"`
	Language string `json:"language"`
	Text     string `json:"text"`
}

// viewArgs are the arguments of drr.view.
type viewArgs struct {
	URI  protocol.DocumentURI `json:"uri"`
	View string               `json:"view"`
}

func viewCommand(s *Server, ctx context.Context, arg json.RawMessage) (any, error) {
	var a viewArgs
	if err := json.Unmarshal(arg, &a); err != nil || a.URI == "" {
		return nil, errorf("%s takes {\"uri\": …, \"view\": …}", CommandView)
	}
	var v *view
	var names []string
	for i := range views {
		names = append(names, views[i].Name)
		if views[i].Name == a.View {
			v = &views[i]
		}
	}
	if v == nil {
		return nil, errorf("unknown view %q (views: %s)", a.View, strings.Join(names, ", "))
	}
	snap, err := s.snapshot(a.URI)
	if err != nil {
		return nil, err
	}
	res, err := snap.checked(ctx)
	if err != nil {
		return nil, err
	}
	if res.set == nil {
		return nil, errorf("%s does not check (%s); fix it to see its %s", snap.doc.name, firstError(res), v.Title)
	}
	text, err := v.render(ctx, snap, res)
	if err != nil {
		return nil, errorf("%s: %v", v.Title, err)
	}
	return &ViewResult{View: v.Name, Title: v.Title, Language: v.Language, Text: text}, nil
}

// firstError returns the first error of a check.
func firstError(res *checkResult) string {
	for _, d := range res.diags {
		if d.Severity == diag.Error {
			return d.Error()
		}
	}
	return "it has errors"
}

// renderAutomaton is drrc automaton's text: the decision trees and remainders of the rules.
func renderAutomaton(ctx context.Context, snap *snapshot, res *checkResult) (string, error) {
	a, err := matcher.Compile(res.set, matcher.Options{})
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := a.Dump(&b); err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "\n%d rules, %d nodes, %d distinct tests\n", len(res.set.Rules), a.NumNodes(), a.NumQuestions())
	return b.String(), nil
}

// renderAutomatonDot is drrc automaton -dot: the automaton as a Graphviz graph.
func renderAutomatonDot(ctx context.Context, snap *snapshot, res *checkResult) (string, error) {
	a, err := matcher.Compile(res.set, matcher.Options{})
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	err = a.Dot(&b)
	return b.String(), err
}
