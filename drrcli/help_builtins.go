package drrcli

import (
	"fmt"
	"strings"

	"github.com/pirdrr/drr/drr/rule"
)

// helpTopics are the help pages that are not commands, by name: `drrc help builtins`.
var helpTopics = map[string]func() string{"builtins": builtinsHelp}

// builtinsHelp lists the builtin functions of the constraint language from their registry, rule.Builtins: each
// signature, then its doc.
func builtinsHelp() string {
	var b strings.Builder
	b.WriteString("The builtin functions of where clauses and computed attributes:\n\n")
	for _, f := range rule.Builtins {
		fmt.Fprintf(&b, "  %s(%s) -> %s\n    \t%s", f.Name, strings.Join(f.Params, ", "), f.Result, f.Doc)
		if f.Program {
			b.WriteString(" (asks the whole program)")
		}
		b.WriteString("\n")
	}
	return b.String()
}
