package playground

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/graphview"
	"github.com/pirdrr/drr/internal/sample"
	"github.com/pirdrr/drr/interp"
	"github.com/pirdrr/drr/ir/pirtext"
	"github.com/pirdrr/drr/rules"
	"github.com/pirdrr/drr/stats"
)

// fcRules is the transformer sample's rule: twelve matches.
var fcRules = transformerRules

func TestInfo(t *testing.T) {
	ts := newTestServer(t, nil, Limits{})
	var info infoResult
	ts.call("GET", "/api/info", nil, http.StatusOK, &info)
	require.Len(t, info.Samples, 2)
	assert.Equal(t, "tinyresnet", info.Samples[0].Name)
	assert.Equal(t, "tinytransformer", info.Samples[1].Name)
	assert.NotEmpty(t, info.Passes)
	assert.Equal(t, 10.0, info.Limits.RunSeconds)
	var shipped int
	for _, f := range info.Files {
		if strings.HasPrefix(f.Name, shippedPrefix) {
			shipped++
		}
	}
	assert.Positive(t, shipped, "the shipped rule sets are listed")
}

func TestPage(t *testing.T) {
	ts := newTestServer(t, nil, Limits{})
	code, body := ts.do("GET", "/", nil)
	require.Equal(t, http.StatusOK, code)
	page := string(body)
	assert.Contains(t, page, `<script src="/assets/app.js">`)
	assert.Contains(t, page, `<script src="/assets/graphview.js">`, "the graph's renderer")
	assert.NotRegexp(t, `(src|href)="(https?:)?//`, page, "the page loads nothing from the network")
	code, body = ts.do("GET", "/assets/graphview.js", nil)
	require.Equal(t, http.StatusOK, code)
	assert.Equal(t, graphview.RendererScript(), string(body), "graphview's renderer, the one drrc graph's page inlines")
	for _, a := range []string{"app.js", "app.css", "lsp.js", "editor.js", "state.js"} {
		code, body := ts.do("GET", "/assets/"+a, nil)
		assert.Equal(t, http.StatusOK, code, a)
		assert.NotEmpty(t, body, a)
	}
	code, _ = ts.do("GET", "/assets/../server.go", nil)
	assert.NotEqual(t, http.StatusOK, code)
	code, _ = ts.do("GET", "/nothing", nil)
	assert.Equal(t, http.StatusNotFound, code)
}

func TestRunOnSamples(t *testing.T) {
	ts := newTestServer(t, nil, Limits{})
	res := ts.runOn("tinytransformer", fcRules, "")
	assert.Empty(t, res.Error)
	assert.Equal(t, 162, res.OpsIn)
	assert.Equal(t, 150, res.OpsOut)
	assert.Equal(t, 0, res.MatchStage)
	require.Len(t, res.Rules, 1)
	assert.Equal(t, 12, res.Rules[0].Matches)
	assert.Len(t, res.Matches, 12)
	require.Len(t, res.Passes, 1)
	assert.Equal(t, "rules", res.Passes[0].Kind)
	assert.Equal(t, 12, res.Passes[0].Rewrites)
	require.Len(t, res.Passes[0].Rules, 1)
	assert.Equal(t, 12, res.Passes[0].Rules[0].Applied)
	for _, m := range res.Matches {
		require.Len(t, m.Ops, 2, "matmul and add")
		assert.Equal(t, 7, m.Ops[0].Line, "the matmul's pattern line")
		assert.Equal(t, 8, m.Ops[1].Line, "the add's pattern line")
	}

	// The cost figures: per stage and after each pass; twelve matmul + add pairs became fc ops.
	require.NotNil(t, res.Before)
	require.NotNil(t, res.After)
	assert.Equal(t, res.After, res.Passes[0].After)
	assert.Equal(t, res.Before, res.Stages[0].Cost)
	assert.Equal(t, res.After, res.Stages[1].Cost)
	assert.Equal(t, res.Before.RuntimeOps-12, res.After.RuntimeOps)
	assert.Equal(t, res.Before.Kernels-12, res.After.Kernels)
	assert.Less(t, res.After.Time.High, res.Before.Time.High)

	res = ts.runOn("tinyresnet", resnetRules, "")
	assert.Empty(t, res.Error)
	assert.Equal(t, 1, res.Rules[0].Matches)
	assert.Equal(t, res.OpsIn+2, res.OpsOut, "relu6 became full, full and clip")
}

// TestRunFamilyCounts: one source of counts (issue 35 point 3). For a family rule the pass lists each instance's
// tried/matched/applied, which sum to the rule's; the editor's list says how many matches each instance has in the
// program the pass starts from, a different quantity under its own name: conv2d_add matches nothing in TinyResNet
// as read (its convolutions feed batch norms) and fires on what conv2d_bn_fold builds.
func TestRunFamilyCounts(t *testing.T) {
	ts := newTestServer(t, nil, Limits{})
	// conv_bn_relu imports Paddle's three convolution passes, which the editor (one file) holds inline.
	var src []byte
	for _, set := range []string{"conv2d_bn_fuse", "conv2d_add_act_fuse", "conv2d_add_fuse", "conv_bn_relu"} {
		s, err := rules.Source(set)
		require.NoError(t, err)
		src = append(src, regexp.MustCompile(`(?m)^import .*$`).ReplaceAll(s, nil)...)
	}
	res := ts.runOn("tinyresnet", string(src), "inplace,rules")
	require.Empty(t, res.Error)
	var pass *passResult
	for i := range res.Passes {
		if res.Passes[i].Pass.Pass == "rules" {
			pass = &res.Passes[i]
		}
	}
	require.NotNil(t, pass)
	inInput := map[string]int{}
	for _, r := range res.Rules {
		inInput[r.ID] = r.Matches
	}
	byName := map[string]stats.Rule{}
	for _, r := range pass.Rules {
		byName[r.Rule] = r
	}
	add := byName["conv2d_add"]
	assert.Equal(t, 4, add.Applied, "conv2d_add fires on what the folds build")
	assert.Zero(t, inInput["conv2d_add"], "and matches nothing in the input")
	fold := byName["conv2d_bn_fold"]
	assert.Equal(t, 5, fold.Applied)
	require.NotEmpty(t, fold.Instances, "conv2d_bn_fold is a family rule")
	var applied, matched, tried int
	for _, inst := range fold.Instances {
		applied += inst.Applied
		matched += inst.Matched
		tried += inst.Tried
		assert.Equal(t, inst.Applied, inInput[inst.ID], "%s: each match in the input is applied", inst.ID)
	}
	assert.Equal(t, fold.Counts, stats.Counts{Tried: tried, Matched: matched, Applied: applied})
	data, err := json.Marshal(res.Rules[0])
	require.NoError(t, err)
	assert.Contains(t, string(data), `"matchesInInput":`)
}

func TestRunBadInput(t *testing.T) {
	ts := newTestServer(t, nil, Limits{MaxRequest: 4096})
	tests := []struct {
		name   string
		body   any
		status int
		want   string
	}{
		{"no program", runRequest{Rules: fcRules}, http.StatusBadRequest, "program"},
		{"unknown sample", runRequest{Program: programRef{Sample: "nope"}}, http.StatusNotFound, "nope"},
		{"unknown file", runRequest{Program: programRef{File: "../../etc/passwd"}}, http.StatusNotFound, "no file"},
		{"unknown upload", runRequest{Program: programRef{Upload: "u999"}}, http.StatusNotFound, "u999"},
		{"bad pass", runRequest{Rules: fcRules, Program: programRef{Sample: "tinyresnet"}, Passes: "no_such_pass"}, http.StatusBadRequest, "no_such_pass"},
		{"unknown field", map[string]any{"rulez": ""}, http.StatusBadRequest, "rulez"},
		{"too large", runRequest{Rules: strings.Repeat("// x\n", 2000), Program: programRef{Sample: "tinyresnet"}}, http.StatusRequestEntityTooLarge, "larger than 4 KiB"},
		{"junk program text", runRequest{Program: programRef{Text: "{ junk", Name: "junk.pir"}}, http.StatusBadRequest, "junk.pir:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Contains(t, ts.errorOf("POST", "/api/run", tt.body, tt.status), tt.want)
		})
	}
	code, _ := ts.do("POST", "/api/run", nil)
	assert.Equal(t, http.StatusUnsupportedMediaType, code, "a body that is not JSON")

	// Rules that do not check: the diagnostics, with their positions, and nothing runs.
	res := ts.runOn("tinyresnet", strings.Replace(resnetRules, "pd_op.relu6(", "pd_op.relu7(", 1), "")
	require.NotEmpty(t, res.Diagnostics)
	assert.Equal(t, RulesFile, res.Diagnostics[0].File)
	assert.Equal(t, 7, res.Diagnostics[0].Line)
	assert.Equal(t, "error", res.Diagnostics[0].Severity)
	assert.Contains(t, res.Error, "rules.drr:7:10: error: unknown op pd_op.relu7")
	assert.Empty(t, res.Passes)
}

// growRule makes a relu of every relu's input, forever: the run stops at its memory budget.
const growRule = `rule grow {
  match {
    %y = pd_op.relu(%x)
  }
  rewrite {
    %a = pd_op.relu(%x)
    replace %y with pd_op.relu(%a)
  }
}
`

func TestRunBudgets(t *testing.T) {
	ts := newTestServer(t, nil, Limits{GrowOps: 200})
	res := ts.runOn("tinyresnet", growRule, "")
	require.NotEmpty(t, res.Stopped, "a rule set that never ends is stopped: %+v", res.Passes)
	assert.Contains(t, res.Stopped, "more than 200 ops")
	require.Len(t, res.Passes, 1)
	assert.NotEmpty(t, res.Passes[0].StopReason, "the driver's stop reason")
	// The server lives on.
	ok := ts.runOn("tinyresnet", resnetRules, "")
	assert.Empty(t, ok.Error)

	// Within the budgets, the driver's own limit stops the rule set: its stop reason is the pass's.
	free := newTestServer(t, nil, Limits{})
	res = free.runOn("tinyresnet", growRule, "")
	assert.Empty(t, res.Stopped)
	require.Len(t, res.Passes, 1)
	assert.NotEqual(t, "converged", res.Passes[0].StopReason)
	assert.Contains(t, res.Passes[0].StopReason, "max rewrites")

	slow := newTestServer(t, nil, Limits{RunTime: time.Millisecond, GrowOps: 10_000_000})
	res = slow.runOn("tinyresnet", growRule, "")
	require.NotEmpty(t, res.Stopped)
	assert.Contains(t, res.Stopped, "time budget of 1ms")
}

func TestRunPipeline(t *testing.T) {
	ts := newTestServer(t, nil, Limits{})
	res := ts.runOn("tinyresnet", resnetRules, "rules,dce")
	assert.Empty(t, res.Error)
	require.Len(t, res.Passes, 2)
	assert.Equal(t, "rules", res.Passes[0].Pass.Pass)
	assert.Equal(t, "dce", res.Passes[1].Pass.Pass)
	assert.Equal(t, "go", res.Passes[1].Kind)
	require.Len(t, res.Stages, 3)
	assert.Equal(t, 0, res.MatchStage)
	assert.Equal(t, res.Stages[2].Ops, res.OpsOut)

	// Only Go passes: nothing of the editor's runs, and no matches are listed.
	res = ts.runOn("tinyresnet", "", "dce")
	assert.Equal(t, -1, res.MatchStage)
	assert.Empty(t, res.Matches)
	assert.Contains(t, ts.errorOf("POST", "/api/run", runRequest{Program: programRef{Sample: "tinyresnet"}, Passes: "rules"}, http.StatusBadRequest),
		"the editor is empty")

	// A pipeline extended at a named point, as drrc apply -passes extends it: the editor's rules run inside it.
	res = ts.runOn("tinytransformer", fcRules, "inference[before reinplace: rules]")
	require.Empty(t, res.Error)
	var names []string
	for _, p := range res.Passes {
		names = append(names, p.Pass.Pass)
	}
	require.GreaterOrEqual(t, len(names), 4)
	assert.Equal(t, []string{"rules", "reinplace", "fold_constants"}, names[len(names)-3:])
	assert.Contains(t, ts.errorOf("POST", "/api/run", runRequest{Rules: fcRules, Program: programRef{Sample: "tinyresnet"},
		Passes: "inference[before reinplac: rules]"}, http.StatusBadRequest), "inference has no pass reinplac (did you mean reinplace?)")
}

func TestStagesGraphExplainVerify(t *testing.T) {
	ts := newTestServer(t, nil, Limits{})
	res := ts.runOn("tinytransformer", fcRules, "")
	base := "/api/runs/" + res.ID

	var st stageResult
	ts.call("GET", base+"/stages/1", nil, http.StatusOK, &st)
	assert.Equal(t, "rules", st.Pass)
	assert.Equal(t, 12, st.Added, "twelve fc ops")
	assert.Equal(t, 24, st.Removed, "twelve matmul and add pairs")
	assert.Contains(t, st.Text, "pd_op.fc")
	ts.call("GET", base+"/stages/0", nil, http.StatusOK, &st)
	assert.Equal(t, -1, st.From)
	assert.Empty(t, st.Diff)
	assert.Contains(t, ts.errorOf("GET", base+"/stages/2", nil, http.StatusBadRequest), "stages 0 to 1")
	assert.Contains(t, ts.errorOf("GET", base+"/stages/x", nil, http.StatusBadRequest), "stages 0 to 1")
	assert.Contains(t, ts.errorOf("GET", "/api/runs/r999/stages/0", nil, http.StatusNotFound), "r999")

	var g struct {
		Nodes []struct {
			Classes []string `json:"classes"`
			Keys    []string `json:"keys"`
		} `json:"nodes"`
	}
	ts.call("GET", base+"/graph?stage=0&collapse=0", nil, http.StatusOK, &g)
	matched := 0
	for _, n := range g.Nodes {
		if len(n.Classes) > 0 && n.Classes[0] == "matched" {
			matched++
		}
	}
	assert.Equal(t, 24, matched, "every op a match bound, drawn uncollapsed")
	ts.call("GET", base+"/graph?stage=1&view=diff&collapse=0", nil, http.StatusOK, &g)
	classes := map[string]int{}
	for _, n := range g.Nodes {
		for _, c := range n.Classes {
			classes[c]++
		}
	}
	assert.Equal(t, 12, classes["added"])
	assert.Equal(t, 24, classes["removed"])
	assert.Contains(t, ts.errorOf("GET", base+"/graph?stage=0&view=odd", nil, http.StatusBadRequest), "view")

	var ex explainResult
	ts.call("POST", base+"/explain", explainRequest{Stage: 0, Op: res.Matches[0].Root}, http.StatusOK, &ex)
	require.Len(t, ex.Rules, 1)
	assert.True(t, ex.Rules[0].Match)
	assert.Len(t, ex.Rules[0].Bound, 2)
	assert.Contains(t, ts.errorOf("POST", base+"/explain", explainRequest{Stage: 0, Op: "o99999"}, http.StatusNotFound), "o99999")
	assert.Contains(t, ts.errorOf("POST", base+"/explain", explainRequest{Stage: 7, Op: "o1"}, http.StatusBadRequest), "stage 7")

	var v verifyResult
	ts.call("POST", base+"/verify", map[string]any{}, http.StatusOK, &v)
	assert.True(t, v.OK, v.Error)
	require.NotEmpty(t, v.Outputs)
	assert.True(t, v.Outputs[0].OK)
	kernels, _ := interp.Kernels()
	assert.Equal(t, kernels, v.Kernels, "the answer names the kernel path")
	assert.Contains(t, ts.errorOf("POST", base+"/verify", verifyRequest{Runs: 99}, http.StatusBadRequest), "runs 1–10")
}

func TestProgramEndpoint(t *testing.T) {
	ts := newTestServer(t, nil, Limits{})
	var info programInfo
	ts.call("POST", "/api/program", programRef{Sample: "tinyresnet"}, http.StatusOK, &info)
	assert.Equal(t, 51, info.Ops)
	// The text round-trips: a share link carries it.
	var again programInfo
	ts.call("POST", "/api/program", programRef{Text: info.Text, Name: "shared.pir"}, http.StatusOK, &again)
	assert.Equal(t, 51, again.Ops)
	assert.Contains(t, ts.errorOf("POST", "/api/program", programRef{Sample: "tinyresnet", File: "x"}, http.StatusBadRequest), "one")
}

// files makes a folder with a rule file, a program, a symbolic link out of the folder and a secret beside it.
func files(t *testing.T) (dir, secret string) {
	t.Helper()
	top := t.TempDir()
	dir = filepath.Join(top, "work")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	secret = filepath.Join(top, "secret.drr")
	require.NoError(t, os.WriteFile(secret, []byte("// the secret\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "mine.drr"), []byte(resnetRules), 0o644))
	ctx := testCtx()
	p, err := sample.Load(ctx)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sub", "tiny.pir"), pirtext.Print(p, pirtext.WriteOptions{}), 0o644))
	require.NoError(t, os.Symlink(secret, filepath.Join(dir, "leak.drr")))
	require.NoError(t, os.Symlink(top, filepath.Join(dir, "up")))
	return dir, secret
}

func TestFilesStayInside(t *testing.T) {
	dir, secret := files(t)
	ts := newTestServer(t, []string{dir}, Limits{})
	var info infoResult
	ts.call("GET", "/api/info", nil, http.StatusOK, &info)
	var names []string
	for _, f := range info.Files {
		if !strings.HasPrefix(f.Name, shippedPrefix) {
			names = append(names, f.Kind+" "+f.Name)
		}
	}
	assert.Equal(t, []string{"rules work/mine.drr", "program work/sub/tiny.pir"}, names,
		"the links out of the folder are not listed")

	var src map[string]string
	ts.call("GET", "/api/source?name=work/mine.drr", nil, http.StatusOK, &src)
	assert.Equal(t, resnetRules, src["text"])
	for _, name := range []string{"work/leak.drr", "work/up/secret.drr", "work/../secret.drr", "../secret.drr", secret,
		"work/sub/../../secret.drr", "shipped/../../secret"} {
		msg := ts.errorOf("GET", "/api/source?name="+name, nil, http.StatusNotFound)
		assert.NotContains(t, msg, "the secret", name)
	}
	assert.Contains(t, ts.errorOf("GET", "/api/source?name=work/sub/tiny.pir", nil, http.StatusBadRequest), "not a rule file")

	// A program file runs; imports reach catalogue rule files and shipped sets only.
	var out runResult
	ts.call("POST", "/api/run", runRequest{Rules: resnetRules, Program: programRef{File: "work/sub/tiny.pir"}}, http.StatusOK, &out)
	assert.Empty(t, out.Error)
	assert.Equal(t, 1, out.Rules[0].Matches)
	ts.call("POST", "/api/run", runRequest{Rules: `import "work/leak.drr"` + "\n", Program: programRef{Sample: "tinyresnet"}}, http.StatusOK, &out)
	assert.NotEmpty(t, out.Diagnostics, "an import through a link out of the folder fails")
	ts.call("POST", "/api/run", runRequest{Rules: `import "../secret.drr"` + "\n", Program: programRef{Sample: "tinyresnet"}}, http.StatusOK, &out)
	assert.NotEmpty(t, out.Diagnostics)

	// A link changed after the listing to lead out is refused at the read.
	require.NoError(t, os.Remove(filepath.Join(dir, "mine.drr")))
	require.NoError(t, os.Symlink(secret, filepath.Join(dir, "mine.drr")))
	msg := ts.errorOf("GET", "/api/source?name=work/mine.drr", nil, http.StatusBadRequest)
	assert.Contains(t, msg, "leads out of the folder")
}

func TestHostAndOrigin(t *testing.T) {
	ts := newTestServer(t, nil, Limits{})
	req, err := http.NewRequest("GET", ts.ts.URL+"/api/info", nil)
	require.NoError(t, err)
	req.Host = "evil.example:8080"
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusMisdirectedRequest, resp.StatusCode, "a DNS-rebound name is refused")

	req, err = http.NewRequest("POST", ts.ts.URL+"/api/run", strings.NewReader(`{}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "http://evil.example")
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode, "a cross-origin POST is refused")
}

// wrongRule changes what the model computes: relu6 is not sigmoid.
const wrongRule = `rule wrong {
  match {
    %y = pd_op.relu6(%x)
  }
  rewrite {
    replace %y with pd_op.sigmoid(%x)
  }
}
`

func TestVerifyFinds(t *testing.T) {
	ts := newTestServer(t, nil, Limits{})
	res := ts.runOn("tinyresnet", wrongRule, "")
	require.Equal(t, 1, res.Rules[0].Matches)
	var v verifyResult
	ts.call("POST", "/api/runs/"+res.ID+"/verify", map[string]any{}, http.StatusOK, &v)
	assert.False(t, v.OK, "relu6 → sigmoid changes the outputs")
	assert.NotEmpty(t, v.Error)
	var bad int
	for _, o := range v.Outputs {
		if !o.OK {
			bad++
			require.NotNil(t, o.Worst, "%+v", o)
			assert.NotEqual(t, o.Worst.Before, o.Worst.After, "the worst element differs: %+v", o.Worst)
		}
	}
	assert.Positive(t, bad)
}

// deadWeightProgram fetches relu(x) and has a weight nothing reads, which add_shadow_output_after_dead_parameter
// publishes.
const deadWeightProgram = `{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[2,3],stop_gradient:[true]} : () -> builtin.tensor<2x3xf32>
    (%1) = "builtin.parameter" () {parameter_name:"pooler_weight"} : () -> builtin.tensor<3x3xf32>
    (%2) = "pd_op.relu" (%0) {} : (builtin.tensor<2x3xf32>) -> builtin.tensor<2x3xf32>
    (%3) = "pd_op.fetch" (%2) {col:(Int32)0,name:"out"} : (builtin.tensor<2x3xf32>) -> builtin.tensor<2x3xf32>
}`

// TestVerifyPublished: the keep-alive shadow output gpu_inference's first pass adds is listed as not compared, and
// the verification passes.
func TestVerifyPublished(t *testing.T) {
	ts := newTestServer(t, nil, Limits{})
	var res runResult
	ts.call("POST", "/api/run", runRequest{Program: programRef{Text: deadWeightProgram, Name: "dead.pir"},
		Passes: "add_shadow_output_after_dead_parameter"}, http.StatusOK, &res)
	var v verifyResult
	ts.call("POST", "/api/runs/"+res.ID+"/verify", map[string]any{}, http.StatusOK, &v)
	assert.True(t, v.OK, v.Error)
	assert.Equal(t, []string{`shadow_output "pooler_weight" publishes parameter "pooler_weight" unchanged`}, v.Published)
	require.Len(t, v.Outputs, 1)
	assert.Equal(t, "out", v.Outputs[0].Name)
}

// targetRules turn relu into tanh for an sm 80 GPU target only.
const targetRules = `param sm_version: i64 = 0

rule relu_to_tanh {
  match { %y = pd_op.relu(%x) }
  where { $sm_version == 80 }
  rewrite { replace %y with pd_op.tanh(%x) }
}
`

// TestRunTarget: the run request's target sets sm_version for the rules, as drrc's -target does; explain sees the
// value the run had; a bad target is a 400 that says how to write one.
func TestRunTarget(t *testing.T) {
	ts := newTestServer(t, nil, Limits{})
	prog := programRef{Sample: "tinyresnet"}
	applied := func(target string) (int, *runResult) {
		var res runResult
		ts.call("POST", "/api/run", runRequest{Rules: targetRules, Program: prog, Target: target}, http.StatusOK, &res)
		require.Empty(t, res.Error)
		require.Len(t, res.Passes, 1)
		return res.Passes[0].Rewrites, &res
	}
	n, _ := applied("")
	assert.Equal(t, 0, n, "no target: sm_version is 0")
	n, _ = applied("gpu:sm75")
	assert.Equal(t, 0, n)
	n, res := applied("gpu:sm80")
	assert.Positive(t, n)
	require.NotEmpty(t, res.Matches)
	var ex explainResult
	ts.call("POST", "/api/runs/"+res.ID+"/explain", explainRequest{Stage: 0, Op: res.Matches[0].Root}, http.StatusOK, &ex)
	require.NotEmpty(t, ex.Rules)
	assert.True(t, ex.Rules[0].Match, "explain evaluates the where clause with the run's sm_version: %s", ex.Rules[0].Text)
	assert.Contains(t, ts.errorOf("POST", "/api/run", runRequest{Rules: targetRules, Program: prog, Target: "gpu:sm81"}, http.StatusBadRequest),
		`target: target "gpu:sm81": sm81 is not the compute capability of an NVIDIA GPU`)
}
