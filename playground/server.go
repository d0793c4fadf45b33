package playground

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/pirdrr/drr/cost"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/rewriter"
)

// Options configure a Server.
type Options struct {
	// Context holds the op catalogs rules are checked against and programs are read into (required). It is shared
	// by every run and language-server session.
	Context *ir.Context
	// Unregistered checks rules as drrc check -unregistered does (every op unregistered).
	Unregistered bool
	// Registry holds the rule sets, Go passes, pipelines and natives runs can use (required): the shipped ones and
	// the plugins'.
	Registry *rewriter.Registry
	// Formats are the program formats files and uploads are read in (nil: pirfile.Standard()).
	Formats *pirfile.Registry
	// Files are the files and folders given on the command line: the only paths of the machine the server reads.
	// Folders are listed (rule files and programs below them; symbolic links leading out of a folder are not).
	Files []string
	// Public says that the server listens on an address other machines reach (drrc serve -addr 0.0.0.0:8080): then
	// requests may name it by any host name. By default only loopback names (localhost, 127.0.0.1, [::1]) are
	// accepted, so that a web page elsewhere cannot reach the server through a DNS name it rebinds to 127.0.0.1.
	Public bool
	// Limits bound what one request may cost; zero fields take the defaults of DefaultLimits.
	Limits Limits
	// Cost is the model the cost figures of runs are estimated with (nil: the A100 profile, cost.DefaultDevice).
	Cost *cost.Model
	// Version is shown on the page and reported by the language server.
	Version string
	// Logf receives what the server logs (failed requests, internal errors); nil discards it.
	Logf func(format string, args ...any)
}

// Limits bound the work and memory of the server. A run or verification past its time budget is stopped and
// reported; a request past a size limit is refused with the limit named.
type Limits struct {
	// RunTime is the time budget of a run: the passes stop when it is spent, with the stop reason "cancelled: the
	// run took more than …".
	RunTime time.Duration
	// VerifyTime is the time budget of a verification (the interpreter runs both programs).
	VerifyTime time.Duration
	// GrowOps is how many ops a run may add to its program (beyond what it erases) before it is stopped: the memory
	// budget of a run. A rule set that keeps growing the program hits it.
	GrowOps int
	// MaxProgramOps is the size of the largest program the server loads.
	MaxProgramOps int
	// MaxUpload is the size of the largest upload in bytes; MaxUnpacked bounds what a zip unpacks to and
	// MaxZipFiles the entries it may have.
	MaxUpload   int64
	MaxUnpacked int64
	MaxZipFiles int
	// MaxRequest is the size of the largest JSON request body (rules, a program given as text).
	MaxRequest int64
	// Concurrent is the number of runs, verifications and drawings done at once; Queue the number that may wait for
	// their turn (more are refused with 503).
	Concurrent int
	Queue      int
	// KeptOps bounds the ops of the runs kept for their stages, graphs and explanations (oldest runs go first; the
	// newest is always kept). Uploads is the number of uploaded programs kept.
	KeptOps int
	Uploads int
	// Sessions is the number of language-server sessions (editor tabs) at once.
	Sessions int
	// MaxDrawnOps is the most ops a graph may draw; a larger one must be collapsed.
	MaxDrawnOps int
}

// DefaultLimits are the limits of a Server whose Options leave them zero.
func DefaultLimits() Limits {
	return Limits{
		RunTime:       10 * time.Second,
		VerifyTime:    60 * time.Second,
		GrowOps:       100_000,
		MaxProgramOps: 500_000,
		MaxUpload:     64 << 20,
		MaxUnpacked:   256 << 20,
		MaxZipFiles:   2000,
		MaxRequest:    16 << 20,
		Concurrent:    max(1, min(runtime.NumCPU(), 4)),
		Queue:         64,
		KeptOps:       2_000_000,
		Uploads:       16,
		Sessions:      16,
		MaxDrawnOps:   8000,
	}
}

// withDefaults fills the zero fields of l from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	set := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	set(&l.GrowOps, d.GrowOps)
	set(&l.MaxProgramOps, d.MaxProgramOps)
	set(&l.MaxZipFiles, d.MaxZipFiles)
	set(&l.Concurrent, d.Concurrent)
	set(&l.Queue, d.Queue)
	set(&l.KeptOps, d.KeptOps)
	set(&l.Uploads, d.Uploads)
	set(&l.Sessions, d.Sessions)
	set(&l.MaxDrawnOps, d.MaxDrawnOps)
	if l.RunTime <= 0 {
		l.RunTime = d.RunTime
	}
	if l.VerifyTime <= 0 {
		l.VerifyTime = d.VerifyTime
	}
	if l.MaxUpload <= 0 {
		l.MaxUpload = d.MaxUpload
	}
	if l.MaxUnpacked <= 0 {
		l.MaxUnpacked = d.MaxUnpacked
	}
	if l.MaxRequest <= 0 {
		l.MaxRequest = d.MaxRequest
	}
	return l
}

// Server is the playground: an http.Handler serving the page and its API. Create one with New; Close ends its
// language-server sessions.
type Server struct {
	opts     Options
	lim      Limits
	formats  *pirfile.Registry
	files    *catalog
	samples  []*sampleProgram
	programs *programCache
	uploads  *uploadStore
	runs     *runStore
	gate     *gate
	sessions *sessions
	mux      *http.ServeMux
	seq      atomic.Int64 // ids of runs and uploads
}

// New returns a playground for the given options. The files are listed now (an unreadable one is an error).
func New(opts Options) (*Server, error) {
	if opts.Context == nil || opts.Registry == nil {
		return nil, errors.New("playground: Options.Context and Options.Registry are required")
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	s := &Server{opts: opts, lim: opts.Limits.withDefaults(), formats: opts.Formats}
	if s.formats == nil {
		s.formats = pirfile.Standard()
	}
	files, err := newCatalog(s.formats, opts.Files)
	if err != nil {
		return nil, err
	}
	s.files = files
	s.samples = samples()
	s.programs = newProgramCache()
	s.uploads = newUploadStore(s.lim.Uploads)
	s.runs = newRunStore(s.lim.KeptOps)
	s.gate = newGate(s.lim.Concurrent, s.lim.Queue)
	s.sessions = newSessions(s)
	s.routes()
	return s, nil
}

// Close ends the language-server sessions. Runs under way finish on their own (within their budgets).
func (s *Server) Close() { s.sessions.closeAll() }

// routes registers the page and the API.
func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", s.page)
	m.Handle("GET /assets/", assetHandler())
	m.HandleFunc("GET /api/info", s.info)
	m.HandleFunc("GET /api/source", s.source)
	m.HandleFunc("POST /api/program", s.program)
	m.HandleFunc("POST /api/upload", s.upload)
	m.HandleFunc("POST /api/run", s.run)
	m.HandleFunc("GET /api/runs/{id}/stages/{k}", s.stage)
	m.HandleFunc("GET /api/runs/{id}/graph", s.graph)
	m.HandleFunc("POST /api/runs/{id}/explain", s.explain)
	m.HandleFunc("POST /api/runs/{id}/verify", s.verify)
	m.HandleFunc("POST /api/lsp", s.lspOpen)
	m.HandleFunc("GET /api/lsp/{id}", s.lspEvents)
	m.HandleFunc("POST /api/lsp/{id}", s.lspSend)
	m.HandleFunc("DELETE /api/lsp/{id}", s.lspClose)
	s.mux = m
}

// ServeHTTP serves the page and the API, to loopback host names only unless Options.Public is set, and refuses
// requests that change state from pages of other origins.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.hostAllowed(r.Host) {
		http.Error(w, "drrc serve answers requests for localhost only (start it with -addr to serve other names)", http.StatusMisdirectedRequest)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		if o := r.Header.Get("Origin"); o != "" && !sameOrigin(o, r.Host) {
			http.Error(w, "cross-origin request refused", http.StatusForbidden)
			return
		}
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.opts.Logf("internal error in %s %s: %v", r.Method, r.URL.Path, v)
			writeError(w, http.StatusInternalServerError, "internal error in drrc serve (a bug): %v", v)
		}
	}()
	s.mux.ServeHTTP(w, r)
}

// hostAllowed reports whether a request's Host names this server: any name when it is public, else a loopback
// name or address.
func (s *Server) hostAllowed(host string) bool {
	if s.opts.Public {
		return true
	}
	h := host
	if hh, _, err := net.SplitHostPort(host); err == nil {
		h = hh
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// sameOrigin reports whether an Origin header names the host the request was sent to.
func sameOrigin(origin, host string) bool {
	_, rest, ok := strings.Cut(origin, "://")
	return ok && strings.EqualFold(rest, host)
}

// apiError is the body of every failed API request.
type apiError struct {
	Error string `json:"error"`
}

// writeJSON writes v as the JSON response.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// writeError writes an API error.
func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	writeJSON(w, status, apiError{Error: fmt.Sprintf(format, args...)})
}

// readJSON decodes a JSON request body of at most limit bytes into v, answering the request with an error (and
// returning false) when it is not JSON, too large or has unknown fields.
func readJSON(w http.ResponseWriter, r *http.Request, limit int64, v any) bool {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		writeError(w, http.StatusUnsupportedMediaType, "the request body must be JSON (Content-Type: application/json)")
		return false
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, limit))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, "the request is larger than %s", bytesText(limit))
		} else {
			writeError(w, http.StatusBadRequest, "bad request: %v", err)
		}
		return false
	}
	return true
}

// bytesText renders a size: 64 MiB, 512 KiB, 100 bytes.
func bytesText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// nextID returns a new id with the given prefix (r12, u3).
func (s *Server) nextID(prefix string) string {
	return fmt.Sprintf("%s%d", prefix, s.seq.Add(1))
}
