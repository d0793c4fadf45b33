package drrcli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/internal/hostile"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/lsp/jsonrpc2"
	"github.com/pirdrr/drr/playground"
	"github.com/pirdrr/drr/rewriter"
)

// outcome is what the commands must make of a hostile input.
type outcome int

const (
	// broken: every command that reads it fails (exit 1 or 2) and writes nothing.
	broken outcome = iota
	// unchecked: the file parses (drrc fmt formats it) but does not check: every other command fails.
	unchecked
	// misbehaves: valid rules that must not be applied: drrc apply fails (rewrite limit, cycle, failed rewrites).
	misbehaves
	// valid: hostile-looking but valid; every command succeeds.
	valid
	// survives: a fuzz input: any outcome but a crash or an internal error.
	survives
)

// hostileInput is one input of the regression corpus: a rule file, or a program (a file or a GraphNet folder).
type hostileInput struct {
	name    string
	path    string // in the test's copy of testdata/hostile
	program bool
	want    outcome
	// pos says that the errors name the line and column of the input (file:line:col).
	pos bool
	// text is what the language server and the playground are sent for a rule file ("" for the file's bytes).
	text string
}

// TestHostileInputs runs every input of the hostile-input regression corpus (testdata/hostile, the generated ones
// of internal/hostile, the fuzz corpora) through every command in-process, drrc lsp over pipes and drrc serve's
// playground behind httptest, and checks that nothing panics, that each bad input is an error (positioned where
// the input has a position), that valid ones work, and that no file changes (issue 26).
func TestHostileInputs(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("FIFOs and /dev/zero are Unix")
	}
	work := t.TempDir()
	require.NoError(t, os.CopyFS(work, os.DirFS(filepath.Join("..", "testdata", "hostile"))))
	inputs := hostileCorpus(t, work)
	prog := filepath.Join(work, "programs", "relu.pir")
	out := filepath.Join(t.TempDir(), "out") // an empty folder before each command
	reg, err := (&CLI{}).registry()          // built once: each command would build the same
	require.NoError(t, err)

	t.Run("commands", func(t *testing.T) {
		for _, in := range inputs {
			for i, args := range hostileCommands(in, prog, out) {
				if raceEnabled && i >= 4 {
					// Under the race detector the commands take five times as long; the first four (check, fmt,
					// automaton and apply of a rule file; check, two converts and apply of a program) keep every
					// input's read, parse and check under it, and the language server and playground below run
					// every input concurrently with their own goroutines.
					break
				}
				require.NoError(t, os.RemoveAll(out))
				require.NoError(t, os.Mkdir(out, 0o755))
				before := snapshot(t, work)
				code, stdout, errs := runWith(reg, args...)
				what := fmt.Sprintf("%s: drrc %s", in.name, strings.Join(args, " "))
				assertSurvived(t, what, code, stdout+errs)
				assert.Equal(t, before, snapshot(t, work), "%s changed files", what)
				want := expectedCode(in, args[0])
				switch {
				case want == exitOK:
					assert.Equal(t, exitOK, code, "%s: %s", what, errs)
				case want == exitFailure:
					assert.Contains(t, []int{exitFailure, exitUsage}, code, "%s must fail: %s", what, errs)
					assert.Empty(t, mustReadDir(t, out), "%s wrote outputs", what)
					switch {
					case in.pos: // in the file, or in a file of the folder (model.py of a graph)
						assert.Regexp(t, regexp.QuoteMeta(filepath.Base(in.path))+`(/[^:]+)?:\d+:\d+`, errs, "%s: no position", what)
					case in.want != misbehaves: // those name the program and the rules
						assert.Contains(t, errs, filepath.Base(in.path), "%s: the error does not name the input", what)
					}
				}
			}
		}
	})

	t.Run("flags", func(t *testing.T) {
		for _, args := range hostileCommandLines(work, prog, out) {
			require.NoError(t, os.RemoveAll(out))
			before := snapshot(t, work)
			code, stdout, errs := runWith(reg, args...)
			what := "drrc " + strings.Join(args, " ")
			assertSurvived(t, what, code, stdout+errs)
			assert.Contains(t, []int{exitFailure, exitUsage}, code, "%s must fail: %s", what, errs)
			assert.Equal(t, before, snapshot(t, work), "%s changed files", what)
			assert.NoDirExists(t, out, "%s wrote outputs", what)
			assert.NoFileExists(t, filepath.Join(work, "out.pir"), what)
		}
	})

	t.Run("lsp", func(t *testing.T) { hostileLSP(t, work, inputs) })
	t.Run("serve", func(t *testing.T) { hostileServe(t, work, inputs) })
}

// runWith runs drrc in-process as run does, with the registry of shipped passes built already.
func runWith(reg *rewriter.Registry, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	c := &CLI{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, reg: reg}
	code := c.Run(args)
	return code, out.String(), errb.String()
}

// assertSurvived fails on a crash: exit status 3 (a recovered panic) or an internal error in the output.
func assertSurvived(t *testing.T, what string, code int, output string) {
	t.Helper()
	assert.NotEqual(t, exitInternal, code, "%s: internal error: %s", what, output)
	for _, bad := range []string{"internal error", "goroutine ", "panic:", "stack overflow"} {
		assert.NotContains(t, output, bad, what)
	}
}

// expectedCode is the exit status a command must give for an input: exitOK, exitFailure (1 or 2), or -1 for any
// that is not a crash.
func expectedCode(in hostileInput, cmd string) int {
	switch in.want {
	case broken:
		return exitFailure
	case unchecked:
		if cmd == "fmt" {
			return exitOK
		}
		return exitFailure
	case misbehaves:
		switch cmd {
		case "apply":
			return exitFailure
		case "check", "fmt", "automaton", "gen":
			return exitOK
		}
		return -1 // explain and graph name a rule the file may not have; verify may find the rules wrong
	case valid:
		if cmd == "verify" || cmd == "graph" && !in.program {
			// Rule mode: the rules are hostile in form, not right in what they compute (verify says so), and
			// may match no op of the program drawn.
			return -1
		}
		return exitOK
	}
	return -1
}

// hostileCommands are the command lines that read an input: every command that takes rule files for a rule file,
// every command that takes programs for a program. Outputs go below out.
func hostileCommands(in hostileInput, prog, out string) [][]string {
	o := func(name string) string { return filepath.Join(out, name) }
	if in.program {
		return [][]string{
			{"check", in.path},
			{"convert", in.path, "-o", o("c.pir")},
			{"convert", "-format", "json", in.path, "-o", o("c.json")},
			{"apply", in.path, "-o", o("a.pir")},
			{"graph", in.path, "-o", o("g.svg")},
			{"explain", "-set", "conv_bn_relu", "-op", "%1", in.path},
			{"verify", "-runs", "1", in.path},
			{"mine", "-o", o("mined"), "-html", o("mined.html"), in.path},
		}
	}
	return [][]string{
		{"check", in.path},
		{"fmt", in.path},
		{"automaton", in.path},
		{"apply", "-rules", in.path, prog, "-o", o("a.pir")},
		{"explain", "-rules", in.path, "-op", "%1", prog},
		{"graph", "-rules", in.path, "-rule", "r", prog, "-o", o("g.html")},
		{"gen", "-rules", in.path, "-pkg", "p", "-o", o("g.go")},
		{"verify", "-variants", "1", in.path},
	}
}

// hostileCommandLines are bad command lines (issue 26 items 2, 6, 7, 8, 10): usage errors or failures that write
// nothing.
func hostileCommandLines(work, prog, out string) [][]string {
	rules := filepath.Join(work, "rules", "grow.drr")
	o := filepath.Join(work, "out.pir")
	return [][]string{
		{"apply", "-max-rewrites", "-5", prog, "-o", o},
		{"apply", "-max-iterations", "-1", prog, "-o", o},
		{"apply", "-j", "-3", prog, "-o", o},
		{"apply", "-rules", rules, prog, "-o", o},
		{"apply", "-rules", rules, "-max-rewrites", "50", prog, "-o", o},
		{"apply", "-print-ir-after-all", "-print-ir-dir", "/proc/nodir", prog, "-o", o},
		{"apply", prog, "-o", prog},
		{"convert", prog, "-o", prog},
		{"graph", "-depth", "-5", "-focus", "%1", prog},
		{"mine", "-min", "1", "-o", out, prog},
		{"mine", "-o", prog, prog},
		{"mine", "-html", prog, prog},
		{"verify", "-input", "nosuch=1x30", prog},
		{"verify", "-batch", "0", prog},
		{"verify", "-batch", "-5", prog},
		{"gen", "-rules", rules, "-pkg", "func", "-o", filepath.Join(out, "g.go")},
		{"gen", "-rules", rules, "-pkg", "my-pass", "-o", filepath.Join(out, "g.go")},
		{"check", "-max-file-size", "-1", rules},
		{"check", "-max-file-size", "12Q", rules},
		{"serve", "-run-time", "0s"},
		{"lsp", "extra"},
		// Shards and result files (issue 34): a program is not a results file, and a results file in a folder that
		// does not exist is not created.
		{"verify", "-shard", "2/1", prog},
		{"apply", "-shard", "x/y", prog, "-o", o},
		{"verify", "-results", prog, prog},
		{"verify", "-balance", prog, "-shard", "1/2", prog},
		{"verify", "-results", filepath.Join(out, "r.jsonl"), prog},
		{"apply", "-results", prog, prog, "-o", o},
		{"report", prog},
		{"report", "-expect", out, prog},
	}
}

// hostileCorpus lays out the inputs in work (a copy of testdata/hostile) and returns them.
func hostileCorpus(t *testing.T, work string) []hostileInput {
	t.Helper()
	rules := func(name string) string { return filepath.Join(work, "rules", name) }
	programs := func(name string) string { return filepath.Join(work, "programs", name) }
	var ins []hostileInput
	add := func(in hostileInput) { ins = append(ins, in) }

	// The committed rule files.
	for name, want := range map[string]outcome{
		"invalid_utf8.drr": broken, "nul_bytes.drr": broken, "unterminated_string.drr": broken, "unbalanced.drr": broken,
		"huge_numbers.drr": unchecked, "import_dev_zero.drr": unchecked, "import_self.drr": unchecked,
		"import_missing.drr": unchecked, "import_folder.drr": unchecked, "unknown_op.drr": unchecked,
		"grow.drr": misbehaves, "cycle.drr": misbehaves, "attr_overflow.drr": misbehaves, "deep_tensor_type.drr": valid,
	} {
		add(hostileInput{name: name, path: rules(name), want: want, pos: want == broken || want == unchecked})
	}
	// Rules nested and chained past the limits, at the sizes that overflowed the stack (issue 26 item 1) for the
	// language server and the playground, a tenth of them for the commands (the same error, sooner).
	const nest = drr.MaxNesting - 2 // the rule's block and the where block
	for _, g := range []struct {
		name  string
		expr  func(int) string
		limit int
		issue int // the size of the issue's reproduction
	}{
		{"chain", hostile.ChainExpr, rule.MaxExprDepth, 150000},
		{"parentheses", hostile.ParenExpr, nest, 200000},
		{"conditionals", hostile.CondExpr, nest, 50000},
		{"lists", hostile.ListExpr, nest, 50000},
		{"negations", hostile.NotExpr, rule.MaxExprDepth, 200000},
		{"calls", hostile.CallExpr, nest, 50000},
	} {
		path := rules("deep_" + g.name + ".drr")
		require.NoError(t, os.WriteFile(path, []byte(hostile.Rule(g.expr(g.issue/10))), 0o644))
		add(hostileInput{name: "deep " + g.name, path: path, want: broken, pos: true, text: hostile.Rule(g.expr(g.issue))})
		at := rules("limit_" + g.name + ".drr")
		require.NoError(t, os.WriteFile(at, []byte(hostile.Rule(g.expr(g.limit-4))), 0o644))
		add(hostileInput{name: g.name + " at the limit", path: at, want: valid})
	}
	// Files no reader may take: past the size limit (sparse: no disk), a FIFO (reading would block), a device.
	big := rules("big.drr")
	require.NoError(t, os.WriteFile(big, []byte(hostile.Rule("true")), 0o644))
	require.NoError(t, os.Truncate(big, drr.DefaultMaxFileSize+1))
	add(hostileInput{name: "rule file past the size limit", path: big, want: broken})
	fifo := rules("fifo.drr")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	add(hostileInput{name: "rule file that is a FIFO", path: fifo, want: broken})
	zero := rules("zero.drr")
	require.NoError(t, os.Symlink("/dev/zero", zero))
	add(hostileInput{name: "rule file that is /dev/zero", path: zero, want: broken})
	importsFIFO := rules("import_fifo.drr")
	require.NoError(t, os.WriteFile(importsFIFO, []byte("import \"fifo.drr\"\n"+hostile.Rule("true")), 0o644))
	add(hostileInput{name: "import of a FIFO", path: importsFIFO, want: unchecked, pos: true})

	// The committed programs.
	for name, want := range map[string]outcome{
		"dim_minus_7.json": broken, "truncated.json": broken, "garbage.pir": broken, "empty.pir": broken,
		"blank.pir": broken, "unknown_value.pir": broken, "invalid_utf8.pir": valid, "relu.pir": valid,
	} {
		add(hostileInput{name: name, path: programs(name), program: true, want: want, pos: want == broken})
	}
	// Programs nested past their readers' limits, past the size limit, a FIFO, a device; GraphNet folders.
	for name, text := range map[string]string{"deep.json": hostile.DeepJSON(20000), "deep.pir": hostile.DeepPIRText(20000)} {
		require.NoError(t, os.WriteFile(programs(name), []byte(text), 0o644))
		add(hostileInput{name: "deeply nested " + name, path: programs(name), program: true, want: broken, pos: true})
	}
	deepGraph := programs("deep_graph")
	for name, text := range hostile.GraphMeta {
		write(t, deepGraph, name, text)
	}
	write(t, deepGraph, "model.py", hostile.DeepPython(20000))
	add(hostileInput{name: "GraphNet model.py nested deeply", path: deepGraph, program: true, want: broken, pos: true})
	fifoGraph := programs("fifo_graph")
	write(t, fifoGraph, "model.py", hostile.DeepPython(1))
	write(t, fifoGraph, "input_meta.py", hostile.GraphMeta["input_meta.py"])
	require.NoError(t, syscall.Mkfifo(filepath.Join(fifoGraph, "weight_meta.py"), 0o644))
	add(hostileInput{name: "GraphNet folder with a FIFO", path: fifoGraph, program: true, want: broken})
	bigProg := programs("big.pir")
	require.NoError(t, os.WriteFile(bigProg, []byte("{\n}\n"), 0o644))
	require.NoError(t, os.Truncate(bigProg, pirfile.DefaultMaxFileSize+1))
	add(hostileInput{name: "program past the size limit", path: bigProg, program: true, want: broken})
	fifoProg := programs("fifo.pir")
	require.NoError(t, syscall.Mkfifo(fifoProg, 0o644))
	add(hostileInput{name: "program that is a FIFO", path: fifoProg, program: true, want: broken})
	zeroProg := programs("zero.json")
	require.NoError(t, os.Symlink("/dev/zero", zeroProg))
	add(hostileInput{name: "program that is /dev/zero", path: zeroProg, program: true, want: broken})

	// The fuzz corpora, as rule files and programs: anything but a crash.
	for dir, program := range map[string]bool{filepath.Join("..", "drr", "testdata", "fuzz", "FuzzParse"): false,
		filepath.Join("..", "ir", "pirtext", "testdata", "fuzz", "FuzzParse"): true} {
		corpus, err := hostile.FuzzCorpus(dir)
		require.NoError(t, err)
		for _, name := range hostile.Names(corpus) {
			path := rules("fuzz_" + name + ".drr")
			if program {
				path = programs("fuzz_" + name + ".pir")
			}
			require.NoError(t, os.WriteFile(path, corpus[name], 0o644))
			add(hostileInput{name: "fuzz corpus " + name, path: path, program: program, want: survives})
		}
	}
	return ins
}

// hostileLSP sends every rule file to drrc lsp, run in-process over pipes, and checks that an error diagnostic with
// a range comes back for each bad one and none for a valid one, and that the server still answers at the end.
func hostileLSP(t *testing.T, work string, inputs []hostileInput) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errOut bytes.Buffer
	code := make(chan int, 1)
	go func() {
		c := &CLI{Stdin: inR, Stdout: outW, Stderr: &errOut}
		code <- c.Run([]string{"lsp", "-debounce", "1ms"})
		outW.Close()
	}()
	r := bufio.NewReader(outR)
	send := func(v any) {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		require.NoError(t, jsonrpc2.WriteMessage(inW, b))
	}
	type message struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			URI         string `json:"uri"`
			Version     int    `json:"version"`
			Diagnostics []struct {
				Severity int `json:"severity"`
				Range    struct {
					Start struct{ Line, Character int } `json:"start"`
				} `json:"range"`
				Message string `json:"message"`
			} `json:"diagnostics"`
		} `json:"params"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	// The server's messages are read as they come (it must never wait for the test to read them: a pipe holds
	// nothing), and recv takes them in order.
	msgs := make(chan *message, 1024)
	go func() {
		defer close(msgs)
		for {
			body, err := jsonrpc2.ReadMessage(r)
			if err != nil {
				return
			}
			var m message
			if json.Unmarshal(body, &m) == nil {
				msgs <- &m
			}
		}
	}()
	recv := func(match func(*message) bool) *message {
		timeout := time.After(2 * time.Minute) // a generous margin for a loaded machine
		for {
			select {
			case m, ok := <-msgs:
				require.True(t, ok, "the language server died: %s", errOut.String())
				if match(m) {
					return m
				}
			case <-timeout:
				t.Fatal("no answer from the language server")
			}
		}
	}
	send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{"capabilities": map[string]any{}}})
	recv(func(m *message) bool { return string(m.ID) == "1" })
	send(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
	for i, in := range inputs {
		if in.program {
			continue
		}
		text := in.text
		if text == "" {
			data, err := documentText(in.path)
			if err != nil {
				continue // a FIFO, a device or a huge file cannot be a document; importing one is a case of its own
			}
			text = string(data)
		}
		uri := "file://" + filepath.Join(work, "rules", fmt.Sprintf("doc%d.drr", i))
		send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
			"textDocument": map[string]any{"uri": uri, "languageId": "drr", "version": 1, "text": text}}})
		m := recv(func(m *message) bool { return m.Method == "textDocument/publishDiagnostics" && m.Params.URI == uri })
		errors := 0
		for _, d := range m.Params.Diagnostics {
			if d.Severity == 1 {
				errors++
			}
		}
		switch in.want {
		case broken, unchecked:
			assert.NotZero(t, errors, "%s: no error diagnostic from the language server", in.name)
		case misbehaves, valid:
			assert.Zero(t, errors, "%s: %v", in.name, m.Params.Diagnostics)
		}
		send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didClose", "params": map[string]any{
			"textDocument": map[string]any{"uri": uri}}})
	}
	send(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
	m := recv(func(m *message) bool { return string(m.ID) == "2" })
	assert.Empty(t, m.Error)
	send(map[string]any{"jsonrpc": "2.0", "method": "exit"})
	assert.Equal(t, exitOK, <-code, errOut.String())
	inW.Close()
	assertSurvived(t, "drrc lsp", exitOK, errOut.String())
}

// documentText reads a committed or generated input as a document's text: regular files of ordinary size only.
func documentText(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() || info.Size() > drr.DefaultMaxFileSize {
		return nil, fmt.Errorf("%s: not a document", path)
	}
	return os.ReadFile(path)
}

// hostileServe runs every rule file against the playground's program, and every program through it, on the
// playground of drrc serve behind httptest: each bad input is an error answer, never a crash, and the server
// answers afterwards.
func hostileServe(t *testing.T, work string, inputs []hostileInput) {
	c := &CLI{}
	reg, err := c.registry()
	require.NoError(t, err)
	ctx, err := (&contextFlags{}).context(c)
	require.NoError(t, err)
	prog := filepath.Join(work, "programs", "relu.pir")
	srv, err := playground.New(playground.Options{Context: ctx, Registry: reg, Formats: c.formats(), Files: []string{prog},
		Limits: playground.DefaultLimits(), Version: "test", Logf: t.Logf})
	require.NoError(t, err)
	ts := httptest.NewServer(srv)
	defer func() {
		srv.Close()
		ts.Close()
	}()
	post := func(body any) (int, string) {
		b, err := json.Marshal(body)
		require.NoError(t, err)
		resp, err := http.Post(ts.URL+"/api/run", "application/json", bytes.NewReader(b))
		require.NoError(t, err, "the playground died")
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(data)
	}
	for _, in := range inputs {
		text := in.text
		if text == "" {
			data, err := documentText(in.path)
			if err != nil {
				continue
			}
			text = string(data)
		}
		var status int
		var body string
		if in.program {
			status, body = post(map[string]any{"program": map[string]any{"text": text, "name": filepath.Base(in.path)}, "passes": "inference"})
		} else {
			status, body = post(map[string]any{"rules": text, "program": map[string]any{"file": "relu.pir"}})
		}
		assert.Less(t, status, 500, "%s: %s", in.name, body)
		assertSurvived(t, in.name+" on drrc serve", 0, body)
		switch in.want {
		case broken, unchecked:
			if in.program {
				assert.Equal(t, http.StatusBadRequest, status, "%s: %s", in.name, body)
			} else {
				assert.Contains(t, body, `"severity":"error"`, in.name)
				assert.Regexp(t, `"line":[1-9]`, body, "%s: the error has no position", in.name)
			}
		case valid:
			assert.Equal(t, http.StatusOK, status, "%s: %s", in.name, body)
			assert.NotContains(t, body, `"severity":"error"`, in.name)
		}
	}
	resp, err := http.Get(ts.URL + "/api/info")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode, "the playground answers after every input")
}
