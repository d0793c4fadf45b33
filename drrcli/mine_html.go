package drrcli

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"

	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/stats"
)

// mineHTMLHeader starts every page drrc mine -html writes: a file that does not start with it is not drrc's to
// replace.
const mineHTMLHeader = "<!DOCTYPE html>\n<!-- Written by drrc mine -->"

// mineSiteView is a site as the page shows it: where, and the commands that draw it.
type mineSiteView struct {
	Program, Value, Op, Family string
	// Commands run the pipeline and draw the site's neighbourhood with drrc graph.
	Commands string
}

// mineCandidateView is a candidate as the page shows it.
type mineCandidateView struct {
	mineCandidate
	Time, Bytes, Kernels string
	SiteViews            []mineSiteView
	SkeletonText         string
	VerifyText           string
}

// mineHTMLTemplate is the page after its header (html/template drops comments, so the header is written first).
var mineHTMLTemplate = template.Must(template.New("mine").Parse(`
<html lang="en"><head><meta charset="utf-8"><title>drrc mine: {{.Title}}</title>
<style>
body{font-family:system-ui,sans-serif;margin:2em;max-width:110em}
table{border-collapse:collapse}td,th{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:right}
td.l,th.l{text-align:left}code,pre{font-family:ui-monospace,monospace;font-size:90%}
pre{background:#f6f6f6;padding:.6em;overflow-x:auto}details{margin:.6em 0}summary{cursor:pointer}
</style></head><body>
<h1>drrc mine</h1>
<p>{{.Summary}}</p>
<table><tr><th>rank</th><th>est. time saved</th><th>kernels</th><th>bytes</th><th>occ.</th><th>programs</th><th>families</th><th class="l">chain</th><th class="l">fused op (rule)</th></tr>
{{range .Candidates}}<tr><td><a href="#c{{.Rank}}">{{.Rank}}</a></td><td>{{.Time}}</td><td>{{.Kernels}}</td><td>{{.Bytes}}</td><td>{{.Occurrences}}</td><td>{{.Programs}}</td><td>{{len .Families}}</td><td class="l">{{.Chain}}</td><td class="l">{{range .Fused}}{{.Op}} ({{.Rule}}) {{else}}-{{end}}</td></tr>
{{end}}</table>
{{range .Candidates}}<h2 id="c{{.Rank}}">{{.Rank}}. {{.Chain}}</h2>
<p><code>{{.Key}}</code></p>
<p>{{.Occurrences}} occurrences in {{.Programs}} programs; families: {{range .Families}}{{.}} {{end}}</p>
{{range .Fused}}<p>Fused op {{.Op}}: rule {{.Rule}} of {{.Set}} ({{.Pos}}){{if .Refused}}, which {{.Refused}}{{else if .Constrained}}, whose constraints refused these sites or whose set did not run{{end}}.</p>{{end}}
{{if .VerifyText}}<p>{{.VerifyText}}</p>{{end}}
{{if .SkeletonError}}<p>No skeleton: {{.SkeletonError}}</p>{{end}}
<details><summary>sites ({{len .SiteViews}} kept)</summary><ul>
{{range .SiteViews}}<li><code>{{.Program}}</code> {{.Value}} ({{.Op}}): draw it with<pre>{{.Commands}}</pre></li>
{{end}}</ul></details>
{{if .SkeletonText}}<details><summary>skeleton{{if .Skeleton}} ({{.Skeleton}}){{end}}</summary><pre>{{.SkeletonText}}</pre></details>{{end}}
{{end}}</body></html>
`))

// writeMineHTML writes the report as a page: the table, and per candidate its chain, fused op, verification, sites
// (with the drrc apply and drrc graph commands that draw each) and skeleton.
func writeMineHTML(path string, r *mineResult, programs int) error {
	if err := replaceableOutput(path, mineHTMLHeader, "drrc mine"); err != nil {
		return err
	}
	passes := r.Passes
	var views []mineCandidateView
	for _, c := range r.Candidates {
		v := mineCandidateView{mineCandidate: c, Time: savedTime(c.Saving.Time), Bytes: stats.Bytes(c.Saving.Bytes),
			Kernels: stats.Count(c.Saving.Kernels)}
		for i, s := range c.Sites {
			out := fmt.Sprintf("site%d_%d", c.Rank, i+1)
			cmds := fmt.Sprintf("drrc graph -focus %s -o %s.html %s", s.Value, out, shellQuote(s.Program))
			if passes != "none" {
				cmds = fmt.Sprintf("drrc apply -passes %s -o %s.pir %s\ndrrc graph -focus %s -o %s.html %s.pir",
					passes, out, shellQuote(s.Program), s.Value, out, out)
			}
			v.SiteViews = append(v.SiteViews, mineSiteView{Program: s.Program, Value: s.Value, Op: s.Op, Family: s.Family, Commands: cmds})
		}
		if c.skeleton != nil && c.skeleton.Err == nil {
			v.SkeletonText = string(c.skeleton.Source)
		}
		if c.Verify != nil {
			v.VerifyText = verificationLine(c.Verify)
		}
		views = append(views, v)
	}
	var buf bytes.Buffer
	buf.WriteString(mineHTMLHeader)
	s := r.Stats
	err := mineHTMLTemplate.Execute(&buf, map[string]any{
		"Title": fmt.Sprintf("%d chains of %s", r.Keys, nouns(s.Programs, "program")),
		"Summary": fmt.Sprintf("%s (%s) mined after %s; savings estimated on %s. %s from %s; %s save something; %d of %d programs not mined.",
			nouns(s.Programs, "program"), nouns(s.Ops, "op"), passes, r.Device, nouns(s.Subgraphs, "subgraph"), nouns(s.Roots, "root"),
			nouns(r.Keys, "chain"), r.Failed, programs),
		"Candidates": views,
	})
	if err != nil {
		return err
	}
	return pirfile.WriteFile(path, buf.Bytes())
}

// shellQuote quotes a path for a shell command line when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/+=:,%@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
