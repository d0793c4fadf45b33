package lsp

import (
	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/ir"
)

// visibleFiles returns the files whose declarations the document sees: its own, then those of the files it imports
// (known once a check has read them).
func (s *snapshot) visibleFiles() []*drr.File {
	var out []*drr.File
	f, _ := s.parsed()
	if f != nil {
		out = append(out, f)
	}
	if res := s.checkedNow(); res != nil {
		for _, imp := range res.files {
			if imp != nil && imp != f {
				out = append(out, imp)
			}
		}
	}
	return out
}

// familyDecls returns the family declarations the document sees (visibleFiles).
func (s *snapshot) familyDecls() []*drr.Family {
	var out []*drr.Family
	for _, file := range s.visibleFiles() {
		out = append(out, file.Families...)
	}
	return out
}

// familyDecl returns the declaration of the named family and the file it is in, or nil.
func (s *snapshot) familyDecl(name string) (*drr.Family, *drr.File) {
	for _, file := range s.visibleFiles() {
		for _, fam := range file.Families {
			if fam.Name != nil && fam.Name.Name == name {
				return fam, file
			}
		}
	}
	return nil, nil
}

// familyMembers returns the op names of a family, in order, as the checker expands it: a list, the ops of the
// catalog with a trait, another family, or a difference.
func (s *snapshot) familyMembers(name string) []string {
	return s.familyExpand(name, map[string]bool{})
}

func (s *snapshot) familyExpand(name string, visiting map[string]bool) []string {
	if visiting[name] {
		return nil // a cycle: the checker reports it
	}
	visiting[name] = true
	defer delete(visiting, name)
	fam, _ := s.familyDecl(name)
	if fam == nil {
		return nil
	}
	return s.familySet(fam.Set, visiting)
}

func (s *snapshot) familySet(e drr.FamilyExpr, visiting map[string]bool) []string {
	switch e := e.(type) {
	case *drr.FamilyList:
		var out []string
		for _, o := range e.Ops {
			out = append(out, o.Name)
		}
		return out
	case *drr.FamilyTrait:
		t, ok := ir.TraitFromName(e.Trait.Name)
		if !ok {
			return nil
		}
		var out []string
		for _, sc := range s.doc.srv.opts.Context.Schemas() {
			if sc.Has(t) {
				out = append(out, sc.Name)
			}
		}
		return out
	case *drr.FamilyRef:
		return s.familyExpand(e.Name.Name, visiting)
	case *drr.FamilyDiff:
		drop := map[string]bool{}
		for _, n := range s.familySet(e.Y, visiting) {
			drop[n] = true
		}
		var out []string
		for _, n := range s.familySet(e.X, visiting) {
			if !drop[n] {
				out = append(out, n)
			}
		}
		return out
	}
	return nil
}

// nodeSource returns the source text of node n of file f, read back (an imported file), or "".
func (srv *Server) nodeSource(f *drr.File, n drr.Node) string {
	src, err := srv.readFile(f.Name)
	start, end := n.Pos().Offset, n.End().Offset
	if err != nil || start < 0 || end > len(src) || start > end {
		return ""
	}
	return string(src[start:end])
}

// paramDecls returns the rule-set parameters the document sees (visibleFiles).
func (s *snapshot) paramDecls() []*drr.ParamDecl {
	var out []*drr.ParamDecl
	for _, file := range s.visibleFiles() {
		out = append(out, file.Params...)
	}
	return out
}

// paramDecl returns the declaration of the named rule-set parameter and the file it is in, or nil.
func (s *snapshot) paramDecl(name string) (*drr.ParamDecl, *drr.File) {
	for _, file := range s.visibleFiles() {
		for _, p := range file.Params {
			if p.Name != nil && p.Name.Name == name {
				return p, file
			}
		}
	}
	return nil, nil
}
