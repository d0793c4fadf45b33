package lsp

import (
	"strings"
	"sync"

	"github.com/pirdrr/drr/drr/rule"
)

// builtinInfo is what the server shows of a builtin function of the constraint language.
type builtinInfo struct {
	Name   string
	Params []string // the parameters' kinds: value, int, string, …; "value..." for more of the last kind
	Result string
	Doc    string
	// Program: the builtin looks at the whole program (aliasing, mutation, parameters), not just its arguments.
	Program bool
}

// builtins returns every builtin function, sorted by name, from the registry rule.Builtins: the one place the
// server reads the builtins from.
func builtins() []builtinInfo {
	out := make([]builtinInfo, len(rule.Builtins))
	for i, b := range rule.Builtins {
		out[i] = builtinInfo{Name: b.Name, Params: b.Params, Result: b.Result, Doc: b.Doc, Program: b.Program}
	}
	return out
}

// builtinIndex is builtins() by name (semantic tokens look up every bare call name).
var builtinIndex = sync.OnceValue(func() map[string]builtinInfo {
	m := map[string]builtinInfo{}
	for _, b := range builtins() {
		m[b.Name] = b
	}
	return m
})

// lookupBuiltin returns the builtin with the given name.
func lookupBuiltin(name string) (builtinInfo, bool) {
	b, ok := builtinIndex()[name]
	return b, ok
}

// signature returns the builtin's signature, dim(value, int) -> int, and the [start, end) byte ranges of its
// parameters in it.
func (b builtinInfo) signature() (string, [][2]int) {
	var sb strings.Builder
	sb.WriteString(b.Name + "(")
	var ranges [][2]int
	for i, p := range b.Params {
		if i > 0 {
			sb.WriteString(", ")
		}
		start := sb.Len()
		sb.WriteString(p)
		ranges = append(ranges, [2]int{start, sb.Len()})
	}
	sb.WriteString(") -> " + b.Result)
	return sb.String(), ranges
}

// markdown documents the builtin.
func (b builtinInfo) markdown() string {
	sig, _ := b.signature()
	s := "```drr\n" + sig + "\n```\n\n" + b.Doc
	if b.Program {
		s += "\n\n*Looks at the whole program (its buffers, parameters and users), not only at its arguments.*"
	}
	return s
}
