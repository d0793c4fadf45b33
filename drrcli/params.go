package drrcli

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/rewriter"
)

// paramFlag is what the rule sets that run are told: -param NAME=VALUE, repeatable (a value for a parameter a
// .drr file declares, `param NAME: KIND = DEFAULT`), and -target, which sets the parameter sm_version of the sets
// that declare it.
type paramFlag struct {
	assigns listFlag
	target  targetFlag
}

func (p *paramFlag) register(fs *flag.FlagSet) {
	fs.Var(&p.assigns, "param", "set the rule-set parameter `name=value` (repeatable; drrc apply -list shows the parameters of the shipped sets)")
	p.target.register(fs)
}

// resolve parses the assignments against the parameters the pipeline's rule sets declare: an unknown name or a
// value of the wrong kind is an error. The target's sm_version joins them.
func (p *paramFlag) resolve(c *CLI, cmd string, ctx *ir.Context, pl rewriter.Pipeline) (rule.Params, bool) {
	return p.resolveDecls(c, cmd, ctx, pl.Params())
}

// resolveDecls parses the assignments against decls, and adds the target's sm_version.
func (p *paramFlag) resolveDecls(c *CLI, cmd string, ctx *ir.Context, decls []*rule.ParamDecl) (rule.Params, bool) {
	params, err := drr.ParseParams(ctx, decls, p.assigns)
	if err == nil {
		params, err = drr.TargetParams(decls, params, p.target.t)
	}
	if err != nil {
		c.errorf(cmd, "%v", err)
		return nil, false
	}
	return params, true
}

// printParams lists the rule-set parameters of the registered pass name (none for Go passes and sets without
// parameters), for drrc apply -list: the flag that sets it with the default, its kind and its doc on one line.
func printParams(w io.Writer, reg *rewriter.Registry, ctx *ir.Context, name string) {
	pl, err := reg.Pipeline(ctx, name)
	if err != nil {
		return
	}
	for _, d := range pl.Params() {
		doc := strings.Join(strings.Fields(d.Doc), " ")
		fmt.Fprintf(w, "%-24s   -param %s=%s (%s)", "", d.Name, rule.FormatVal(d.Default), d.Type)
		if doc != "" {
			fmt.Fprintf(w, ": %s", doc)
		}
		fmt.Fprintln(w)
	}
}
