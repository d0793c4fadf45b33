package playground

import (
	"net/http"
	"regexp"
	"strings"

	"github.com/pirdrr/drr/rules"
)

// infoResult is the answer to GET /api/info: what the page offers.
type infoResult struct {
	Version string           `json:"version"`
	Samples []*sampleProgram `json:"samples"`
	// Files are the rule files and programs the server may read (given on the command line), by catalogue name,
	// then the shipped rule sets (shipped/NAME.drr).
	Files []fileInfo `json:"files"`
	// Passes are the registered passes and pipelines, for the list of passes to run.
	Passes []passInfo `json:"passes"`
	Limits limitsInfo `json:"limits"`
}

type fileInfo struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Format string `json:"format,omitempty"`
}

type passInfo struct {
	Name     string   `json:"name"`
	Doc      string   `json:"doc"`
	Pipeline []string `json:"pipeline,omitempty"`
}

type limitsInfo struct {
	RunSeconds    float64 `json:"runSeconds"`
	VerifySeconds float64 `json:"verifySeconds"`
	MaxUpload     int64   `json:"maxUpload"`
	GrowOps       int     `json:"growOps"`
	// VerifyRuns, VerifyBatch and VerifySize are the largest runs, batch and dynamic size a verification may ask
	// for.
	VerifyRuns  int `json:"verifyRuns"`
	VerifyBatch int `json:"verifyBatch"`
	VerifySize  int `json:"verifySize"`
}

// info answers GET /api/info.
func (s *Server) info(w http.ResponseWriter, r *http.Request) {
	res := infoResult{Version: s.opts.Version, Samples: s.samples, Files: []fileInfo{}, Passes: []passInfo{},
		Limits: limitsInfo{RunSeconds: s.lim.RunTime.Seconds(), VerifySeconds: s.lim.VerifyTime.Seconds(),
			MaxUpload: s.lim.MaxUpload, GrowOps: s.lim.GrowOps, VerifyRuns: verifyMaxRuns, VerifyBatch: verifyMaxBatch,
			VerifySize: verifyMaxSize}}
	for _, e := range s.files.all() {
		res.Files = append(res.Files, fileInfo{Name: e.Name, Kind: e.Kind, Format: e.Format})
	}
	for _, name := range rules.Sets() {
		res.Files = append(res.Files, fileInfo{Name: shippedPrefix + name + ".drr", Kind: kindRules})
	}
	for _, p := range s.opts.Registry.Passes() {
		res.Passes = append(res.Passes, passInfo{Name: p.Name, Doc: p.Doc, Pipeline: p.Pipeline})
	}
	writeJSON(w, http.StatusOK, res)
}

// source answers GET /api/source?name=N: the text of a rule file of the catalogue or a shipped set, to load into
// the editor.
func (s *Server) source(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("name")
	var src []byte
	var err error
	if rest, ok := strings.CutPrefix(name, shippedPrefix); ok {
		src, err = rules.Source(strings.TrimSuffix(rest, ".drr"))
		if err != nil {
			err = notFoundf("no shipped rule set %q", rest)
		} else {
			src = shippedImports(src)
		}
	} else {
		src, err = s.files.readRules(name)
	}
	if err != nil {
		writeError(w, statusOf(err), "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"name": name, "text": string(src)})
}

// siblingImport is an import of a rule file beside the importing one: import "conv2d_bn_fuse.drr".
var siblingImport = regexp.MustCompile(`(?m)^(\s*import\s+")([^"/]+\.drr)(")`)

// shippedImports rewrites the imports of a shipped set's siblings (import "conv2d_bn_fuse.drr") to the names the
// editor's rules import shipped sets by (import "shipped/conv2d_bn_fuse.drr"): in the editor the set is rules.drr,
// beside the files of the command line, not beside its siblings, and would not load.
func shippedImports(src []byte) []byte {
	return siblingImport.ReplaceAllFunc(src, func(m []byte) []byte {
		g := siblingImport.FindSubmatch(m)
		name := strings.TrimSuffix(string(g[2]), ".drr")
		if _, err := rules.Source(name); err != nil {
			return m // not a shipped set: left as it is (the run will say it cannot read it)
		}
		return []byte(string(g[1]) + shippedPrefix + string(g[2]) + string(g[3]))
	})
}
