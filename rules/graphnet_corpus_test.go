package rules_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/corpus"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/graphnet"
	"github.com/pirdrr/drr/ir/pirfile"
)

// TestGraphNetCorpusInference is issue 13's done-when test: for each GraphNet graph of the shared corpus (every
// tenth by default; PIRDRR_CORPUS=full runs all 811), it
//
//   - reads the graph and checks it (ir.Verify: no errors);
//   - applies the default pipeline (inference), with no failed rewrite;
//   - checks the output, finds no pd_op.v_tensor anywhere (vectors included) and no value-semantics copy, and
//     finds every fetch the graph's return made, by name and column;
//   - writes the output as PIR JSON and as a GraphNet graph and reads both back: the JSON writes again byte for
//     byte, and both are the same program (but for the attributes a GraphNet graph does not record).
//
// It logs the counts: graphs, ops in and out, fetches, rewrites (per rule), and the time.
func TestGraphNetCorpusInference(t *testing.T) {
	graphs := corpus.RequireGraphs(t, 0)
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	start := time.Now()
	var done, opsIn, opsOut, fetches, rewrites int
	perRule := map[string]int{}
	for _, g := range graphs {
		t.Run(g.Rel, func(t *testing.T) {
			p, err := graphnet.Read(ctx, g.Dir)
			require.NoError(t, err)
			require.Empty(t, ir.Verify(p).Errors(), "the graph as captured")
			want := fetchNames(p)
			require.NotEmpty(t, want, "the graph's return became fetch ops")
			in := p.NumOps()

			for _, res := range runPasses(t, p, "inference") {
				require.Empty(t, res.Warnings, "pass %s", res.Pass)
				if res.Stats == nil {
					continue
				}
				for _, rs := range res.Stats.Rules {
					require.Zerof(t, rs.Failed, "pass %s, rule %s: %s", res.Pass, rs.Name, rs.FirstFailure)
					perRule[rs.Name] += rs.Applied
				}
				rewrites += res.Stats.Rewrites
			}
			require.Empty(t, ir.Verify(p).Errors(), "the output checks")
			require.NoError(t, pirfile.Loadable(p), "no value tensor survives")
			require.Equal(t, want, fetchNames(p), "every fetch is kept")

			js, err := pirfile.Marshal(p, pirfile.PIRJSON, pirfile.Options{})
			require.NoError(t, err)
			fromJSON, _, err := pirfile.Parse(ctx, g.Rel+".json", js, pirfile.PIRJSON)
			require.NoError(t, err)
			again, err := pirfile.Marshal(fromJSON, pirfile.PIRJSON, pirfile.Options{})
			require.NoError(t, err)
			require.Equal(t, string(js), string(again), "PIR JSON read back and written again")

			src, err := graphnet.Encode(p, graphnet.WriteOptions{})
			require.NoError(t, err, "written as a GraphNet graph")
			src.Dir = g.Dir + "#fused"
			fromGraph, err := graphnet.Decode(ctx, src)
			require.NoError(t, err, "the written graph read back")
			require.Empty(t, ir.Verify(fromGraph).Errors())
			// Both read back with the tensor spelling of their format (builtin.tensor), which a program read
			// from Paddle's newest print (tensor<…>) does not have.
			require.NoError(t, ir.Equal(fromJSON, fromGraph, ir.EqualOptions{IgnoreAttrs: graphNetDropped}), "GraphNet read back")
			names := paramNames(fromJSON, nil, nil)
			renamed := map[string]bool{}
			for _, n := range names {
				renamed[n] = !isIdentifier(n)
			}
			require.Equal(t, names, paramNames(fromGraph, fromGraph.Params, renamed),
				"parameters keep their names, or record them as original_name when they are not Python identifiers")

			done++
			opsIn += in
			opsOut += p.NumOps()
			fetches += len(want)
		})
	}
	var rules []string
	for name, n := range perRule {
		if n > 0 {
			rules = append(rules, fmt.Sprintf("%s %d", name, n))
		}
	}
	sort.Strings(rules)
	t.Logf("%d of %d graphs read, checked, rewritten, checked again, written as PIR JSON and GraphNet and read back "+
		"(corpus.Full()=%v); ops %d → %d, %d fetches kept, %d rewrites (%s); %v",
		done, len(graphs), corpus.Full(), opsIn, opsOut, fetches, rewrites, strings.Join(rules, ", "), time.Since(start).Round(time.Millisecond))
}

// graphNetDropped are the attributes a GraphNet graph does not record, model.py having no place for them: the
// reader recomputes stop_gradient and gives fetches persistable, as Paddle's exporter does; struct_name (the layer
// an op came from, in Paddle's prints) is lost; parameter names are compared by paramNames; force_backend, the
// runtime attribute the conv2d fusions set, is no argument of paddle._C_ops.
var graphNetDropped = []string{"stop_gradient", "persistable", "parameter_name", "struct_name", "force_backend"}

// paramNames returns the names of p's parameter ops in order; with vars, a parameter whose name is not its
// variable's original name is named by the original name when the writer renamed it (a program name that is not a
// Python identifier, conv2d_25.b_0, became parameter_N).
func paramNames(p *ir.Program, vars map[string]*ir.Variable, renamed map[string]bool) []string {
	var out []string
	for op := range p.Walk() {
		if op.Name() != ir.ParameterOpName {
			continue
		}
		name, _ := ir.AsString(op.Attr("parameter_name"))
		if v := vars[name]; v != nil && renamed[v.OriginalName] {
			name = v.OriginalName
		}
		out = append(out, name)
	}
	return out
}

// isIdentifier reports whether s is a Python identifier (ASCII), which GraphNet's writer keeps as a name.
func isIdentifier(s string) bool {
	for i, c := range s {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return s != ""
}

// fetchNames returns the name and column of each pd_op.fetch of p, in program order.
func fetchNames(p *ir.Program) []string {
	var out []string
	for op := range p.Walk() {
		if op.Name() == "pd_op.fetch" {
			name, _ := ir.AsString(op.Attr("name"))
			col, _ := ir.AsInt(op.Attr("col"))
			out = append(out, fmt.Sprintf("%s@%d", name, col))
		}
	}
	return out
}
