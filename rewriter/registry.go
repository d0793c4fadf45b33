package rewriter

import (
	"fmt"
	"maps"
	"sort"
	"sync"

	"github.com/pirdrr/drr/ir"
)

// NativeConstraint is a constraint written in Go and called by name from a rule's where clause. It gets the
// evaluated arguments (values as *ir.Value, attributes as plain Go values: int64, float64, string, bool, []any, …)
// and says whether the match may proceed.
type NativeConstraint func(args []any) (bool, error)

// PassFactory builds a pass for programs of ctx; reg is the registry the pass was found in (for natives).
type PassFactory func(ctx *ir.Context, reg *Registry) (Pass, error)

// PassInfo describes a registered pass.
type PassInfo struct {
	Name string
	Doc  string
	// Pipeline lists the passes of a registered pipeline (empty for single passes).
	Pipeline []string
}

// Registry holds what plugins register by name: native constraints, native rewrites, passes (rule sets and Go
// passes) and pipelines. It is an explicit value; Default is the one registry plugins register into from their
// init functions, as database/sql drivers do.
type Registry struct {
	mu          sync.RWMutex
	constraints map[string]NativeConstraint
	rewrites    map[string]NativeRewrite
	passes      map[string]passEntry
	pipelines   map[string]PassInfo
}

type passEntry struct {
	info    PassInfo
	factory PassFactory
}

// Default is the process-wide registry for plugins.
var Default = NewRegistry()

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{constraints: map[string]NativeConstraint{}, rewrites: map[string]NativeRewrite{},
		passes: map[string]passEntry{}, pipelines: map[string]PassInfo{}}
}

// RegisterConstraint registers a native constraint; names are unique per registry.
func (r *Registry) RegisterConstraint(name string, f NativeConstraint) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.constraints[name]; dup {
		return fmt.Errorf("native constraint %s is already registered", name)
	}
	r.constraints[name] = f
	return nil
}

// RegisterRewrite registers a native rewrite; names are unique per registry.
func (r *Registry) RegisterRewrite(name string, f NativeRewrite) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.rewrites[name]; dup {
		return fmt.Errorf("native rewrite %s is already registered", name)
	}
	r.rewrites[name] = f
	return nil
}

// RegisterPass registers a pass under a name (a rule set or a Go pass); names are shared with pipelines.
func (r *Registry) RegisterPass(name, doc string, f PassFactory) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.taken(name) {
		return fmt.Errorf("pass %s is already registered", name)
	}
	r.passes[name] = passEntry{info: PassInfo{Name: name, Doc: doc}, factory: f}
	return nil
}

// RegisterPipeline registers a named sequence of passes (or other pipelines).
func (r *Registry) RegisterPipeline(name, doc string, passes ...string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.taken(name) {
		return fmt.Errorf("pass %s is already registered", name)
	}
	r.pipelines[name] = PassInfo{Name: name, Doc: doc, Pipeline: append([]string(nil), passes...)}
	return nil
}

// Merge adds everything registered in from to r (natives, passes and pipelines); a name registered in both is an
// error, and r is left unchanged then.
func (r *Registry) Merge(from *Registry) error {
	if from == r {
		return nil
	}
	from.mu.RLock()
	defer from.mu.RUnlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	for name := range from.constraints {
		if _, dup := r.constraints[name]; dup {
			return fmt.Errorf("native constraint %s is already registered", name)
		}
	}
	for name := range from.rewrites {
		if _, dup := r.rewrites[name]; dup {
			return fmt.Errorf("native rewrite %s is already registered", name)
		}
	}
	for name := range from.passes {
		if r.taken(name) {
			return fmt.Errorf("pass %s is already registered", name)
		}
	}
	for name := range from.pipelines {
		if r.taken(name) {
			return fmt.Errorf("pass %s is already registered", name)
		}
	}
	maps.Copy(r.constraints, from.constraints)
	maps.Copy(r.rewrites, from.rewrites)
	maps.Copy(r.passes, from.passes)
	maps.Copy(r.pipelines, from.pipelines)
	return nil
}

func (r *Registry) taken(name string) bool {
	_, p := r.passes[name]
	_, q := r.pipelines[name]
	return p || q
}

// Constraint returns the named native constraint.
func (r *Registry) Constraint(name string) (NativeConstraint, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	f, ok := r.constraints[name]
	return f, ok
}

// Rewrites returns a copy of the native rewrites.
func (r *Registry) Rewrites() map[string]NativeRewrite {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make(map[string]NativeRewrite, len(r.rewrites))
	for k, v := range r.rewrites {
		out[k] = v
	}
	return out
}

// HasNative reports whether a native constraint (rewrite=false) or rewrite (rewrite=true) is registered.
func (r *Registry) HasNative(name string, rewrite bool) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if rewrite {
		_, ok := r.rewrites[name]
		return ok
	}
	_, ok := r.constraints[name]
	return ok
}

// Passes lists the registered passes and pipelines, sorted by name.
func (r *Registry) Passes() []PassInfo {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []PassInfo
	for _, e := range r.passes {
		out = append(out, e.info)
	}
	for _, p := range r.pipelines {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Pipeline builds the passes named (pipelines expand to their passes, recursively) for programs of ctx.
func (r *Registry) Pipeline(ctx *ir.Context, names ...string) (Pipeline, error) {
	var out Pipeline
	var expand func(name string, depth int) error
	expand = func(name string, depth int) error {
		if depth > 16 {
			return fmt.Errorf("pipeline %s nests too deeply (a cycle?)", name)
		}
		r.mu.RLock()
		e, isPass := r.passes[name]
		pl, isPipeline := r.pipelines[name]
		r.mu.RUnlock()
		switch {
		case isPass:
			p, err := e.factory(ctx, r)
			if err != nil {
				return fmt.Errorf("pass %s: %w", name, err)
			}
			out = append(out, p)
		case isPipeline:
			for _, n := range pl.Pipeline {
				if err := expand(n, depth+1); err != nil {
					return err
				}
			}
		default:
			return fmt.Errorf("unknown pass %q (registered: %s)", name, r.names())
		}
		return nil
	}
	for _, n := range names {
		if err := expand(n, 0); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (r *Registry) names() string {
	s := ""
	for i, p := range r.Passes() {
		if i > 0 {
			s += ", "
		}
		s += p.Name
	}
	return s
}
