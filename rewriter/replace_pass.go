package rewriter

import "fmt"

// ReplacePass gives a registered pass another factory, keeping its name and documentation, and returns the
// factory it had: for a faster implementation of the same pass that falls back on the old one where it cannot
// serve, such as a shipped rule set compiled to Go by drrc gen (package rules/compiled), so that the pipelines
// naming the pass run the new one. Replacing a pass that is not registered (or a pipeline) is an error.
func (r *Registry) ReplacePass(name string, f PassFactory) (PassFactory, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.passes[name]
	if !ok {
		return nil, fmt.Errorf("pass %s is not registered", name)
	}
	old := e.factory
	e.factory = f
	r.passes[name] = e
	return old, nil
}
