package rulegen

import (
	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
)

// Shared lets the passes generated into one Go package share the functions of the rules they have in common: a
// rule file that several sets import (conv2d_bn_fuse.drr, imported by conv_bn_relu.drr) has its rules' functions
// written once, in the file of the pass generated from it, and the passes importing it name them in their tables.
//
// Generate records in it the functions of the rules its main rule file declares, and uses a recorded function
// instead of writing its own when a rule it imports prints to the same code (same declaration, same body). A pass
// generated before the pass that records the functions it could share writes its own copies, so a folder is
// generated twice, the first time to record (drrc gen does: GenerateFile for every file, then again).
type Shared struct {
	funcs map[sharedKey]string
}

// sharedKey is a function's identity: where its rule is declared, and the code printed for it.
type sharedKey struct {
	decl diag.Position
	body string
}

// NewShared returns an empty Shared.
func NewShared() *Shared { return &Shared{funcs: map[sharedKey]string{}} }

// lookup returns the name of the function recorded for rule r's declaration printing to body.
func (s *Shared) lookup(r *rule.Rule, body string) (string, bool) {
	if s == nil {
		return "", false
	}
	name, ok := s.funcs[sharedKey{r.Pos, body}]
	return name, ok
}

// record files the functions a pass wrote for the rules its main file declares.
func (s *Shared) record(main string, funcs []*genFunc) {
	if s == nil {
		return
	}
	for _, fn := range funcs {
		if !fn.external && fn.r.Pos.Filename == main {
			s.funcs[sharedKey{fn.r.Pos, fn.body}] = fn.name
		}
	}
}
