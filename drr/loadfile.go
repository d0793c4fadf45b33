package drr

import (
	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// LoadFile checks a rule file that is already parsed (by a Reparser, say) as LoadSource checks source text: its
// imports are read and parsed as Load reads them, then everything is checked against ctx. It returns the rule set
// (nil when there are errors), the files that were checked — the imported ones first, in the order Check saw them,
// then f — and the diagnostics. A file with syntax errors is not given to LoadFile: LoadSource would report those
// errors alone, and so should its caller.
func LoadFile(ctx *ir.Context, opts LoadOptions, f *File) (*rule.Set, []*File, diag.Diagnostics) {
	l := &loader{opts: opts, seen: map[string]bool{f.Name: true}, loading: map[string]bool{f.Name: true}}
	for _, imp := range f.Imports {
		l.load(l.resolve(f.Name, imp.Path.Value), imp.Pos())
	}
	delete(l.loading, f.Name)
	l.files = append(l.files, f)
	if l.diags.HasErrors() {
		l.diags.Sort()
		return nil, l.files, l.diags
	}
	set, diags := Check(ctx, l.files, opts.CheckOptions)
	return set, l.files, append(l.diags, diags...)
}
