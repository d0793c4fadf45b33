package editors

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/sample"
)

// nvimSession is what testdata/nvim_session.lua reports.
type nvimSession struct {
	Steps       []string `json:"steps"`
	Error       string   `json:"error"`
	Diagnostics []struct {
		Line, Col, Severity int
		Message             string
	} `json:"diagnostics"`
	Hover     string   `json:"hover"`
	Action    string   `json:"action"`
	Formatted string   `json:"formatted"`
	Lenses    []string `json:"lenses"`
	Apply     string   `json:"apply"`
	View      string   `json:"view"`
}

// TestNeovim starts headless Neovim with the configuration of nvim/ on a rule file with an error, against drrc lsp
// (this test binary), and checks what Neovim received: the diagnostics, a hover, the quick fix, formatting, and the
// code lenses "apply to…" and "view matcher automaton".
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("Neovim is not installed (Debian: apt-get install neovim; .ci/run installs it)")
	}
	self, err := os.Executable()
	require.NoError(t, err)
	config, err := filepath.Abs("nvim")
	require.NoError(t, err)
	script, err := filepath.Abs(filepath.Join("testdata", "nvim_session.lua"))
	require.NoError(t, err)

	dir := t.TempDir()
	rules := filepath.Join(dir, "rules.drr")
	require.NoError(t, os.WriteFile(rules, []byte("/// A scale without bias is a multiplication.\nrule scale_to_multiply {\n"+
		"  match {\n    %y =  pd_op.scale(%x, %s) {bias: 0.0}\n  }\n  rewrite {\n    replace %y with pd_op.multipy(%x, %s)\n  }\n}\n"), 0o644))
	program := filepath.Join(dir, "model.json")
	require.NoError(t, os.WriteFile(program, sample.JSON(), 0o644))
	outFile := filepath.Join(dir, "out.json")

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-i", "NONE",
		"--cmd", "set rtp^="+config,
		"--cmd", "lua require('drr').setup({ cmd = { os.getenv('DRR_NVIM_SERVER'), 'lsp', '-log', os.getenv('DRR_NVIM_LOG') } })",
		rules, "-c", "luafile "+script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), envServer+"=1", "DRR_NVIM_SERVER="+self, "DRR_NVIM_OUT="+outFile,
		"DRR_NVIM_PROGRAM="+program, "DRR_NVIM_PASSES=inference[before reinplace: rules]", "DRR_NVIM_LOG="+filepath.Join(dir, "lsp.log"))
	combined, err := cmd.CombinedOutput()
	logText, _ := os.ReadFile(filepath.Join(dir, "lsp.log"))
	require.NoError(t, err, "nvim: %s\nserver log:\n%s", combined, logText)
	raw, err := os.ReadFile(outFile)
	require.NoError(t, err, "nvim wrote no report: %s", combined)
	var s nvimSession
	require.NoError(t, json.Unmarshal(raw, &s))
	require.Empty(t, s.Error, "steps done: %v\nserver log:\n%s", s.Steps, logText)

	require.Len(t, s.Diagnostics, 1)
	require.Equal(t, 7, s.Diagnostics[0].Line)
	require.Equal(t, 21, s.Diagnostics[0].Col)
	require.Equal(t, "unknown op pd_op.multipy (did you mean pd_op.multiply?)", s.Diagnostics[0].Message)
	require.Contains(t, s.Hover, "pd_op.scale(x, scale: Scalar) -> (out)")
	require.Equal(t, "Change to pd_op.multiply", s.Action)
	require.Equal(t, "/// A scale without bias is a multiplication.\nrule scale_to_multiply {\n  match {\n"+
		"    %y = pd_op.scale(%x, %s) {bias: 0.0}\n  }\n  rewrite {\n    replace %y with pd_op.multiply(%x, %s)\n  }\n}\n", s.Formatted)
	require.Equal(t, []string{"apply to…", "view compiled Go (drrc gen)", "view matcher automaton", "view matcher automaton (Graphviz)"}, s.Lenses)
	require.Contains(t, s.Apply, "model.json: ")
	require.Contains(t, s.Apply, " within inference[before reinplace: rules]", "the rules ran in the pipeline asked for")
	require.Contains(t, s.Apply, "scale_to_multiply")
	require.Contains(t, s.View, "\ntree pd_op.scale:\n")
	require.Contains(t, string(logText), "started (drrc ")
}
