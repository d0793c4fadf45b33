package rewriter

import (
	"slices"

	"github.com/pirdrr/drr/drr/rule"
	"github.com/pirdrr/drr/ir"
)

// rulePlan is what applying a rule needs that depends only on the rule.
type rulePlan struct {
	// replaced maps a new value index to the pattern value it replaces (first Replace wins).
	replaced map[int]int
	// paths holds, for a rule whose rewrite calls bound(…), the rule with its actions decided for each path through
	// its alternatives a match took (by rule.PathName); nil for other rules.
	paths map[string]*rule.Rule
}

func (a *Applier) rulePlan(r *rule.Rule) *rulePlan {
	if p, ok := a.rulePlans[r]; ok {
		return p
	}
	p := &rulePlan{replaced: replacedBy(r)}
	if rule.RewriteCallsBound(r) {
		p.paths = map[string]*rule.Rule{}
	}
	if a.rulePlans == nil {
		a.rulePlans = map[*rule.Rule]*rulePlan{}
	}
	a.rulePlans[r] = p
	return p
}

// createPlan is what a Create action needs that does not depend on the match: the op's schema, the type of each
// attribute the rule sets and the attributes its literal values convert to, and where each attribute of the
// built op comes from. Applying the same rule a hundred thousand times works these out once.
type createPlan struct {
	schema *ir.OpSchema
	types  []ir.AttrType  // per AttrSet: its type in the schema (any if unknown)
	lits   []ir.Attribute // per AttrSet: the converted literal, or nil
	holes  []int          // per AttrSet: the hole it is (a HoleRef), or -1
	anyOK  []bool         // per AttrSet: its type accepts any attribute
	// sg says where the stop_gradient flags of the op's results come from (see stopGradient), once sgDone.
	sg     []sgSource
	sgDone bool
	// layout lists the built op's attributes in their final order (schema order, then the others in rule
	// order), for rules that copy no matched attributes (RestAttrs < 0): the order is then the same every time.
	layout []attrSlot
	// last is the attribute list of the op built last. Ops never change their attribute slice in place, so the
	// ops a rule builds with equal attributes (the common case) share one slice.
	last []ir.NamedAttr
}

// attrSlot is an attribute of a built op: the value of the rule's AttrSet set (the last one with its name), or,
// when set is negative, the schema default def.
type attrSlot struct {
	name string
	set  int
	def  ir.Attribute
}

// share returns the plan's last attribute list if it equals attrs (attributes are interned: equal means the same
// names and the same pointers), else a copy of attrs, which becomes the last one. attrs may be scratch space.
func (p *createPlan) share(attrs []ir.NamedAttr) []ir.NamedAttr {
	if len(attrs) == 0 {
		return nil
	}
	if !slices.Equal(p.last, attrs) {
		p.last = slices.Clone(attrs)
	}
	return p.last
}

func (a *Applier) plan(c *rule.Create) *createPlan {
	if p, ok := a.plans[c]; ok {
		return p
	}
	ctx := a.Rewriter.Ctx
	n := len(c.Attrs)
	p := &createPlan{schema: ctx.Schema(c.Op), types: make([]ir.AttrType, n), lits: make([]ir.Attribute, n),
		holes: make([]int, n), anyOK: make([]bool, n)}
	for i, set := range c.Attrs {
		p.types[i] = ir.AttrType{Kind: ir.KindAny}
		if p.schema != nil {
			if spec := p.schema.Attr(set.Name); spec != nil {
				p.types[i] = spec.Type
			}
		}
		p.anyOK[i] = p.types[i] == ir.AttrType{Kind: ir.KindAny}
		p.holes[i] = -1
		if h, ok := set.Value.(*rule.HoleRef); ok {
			p.holes[i] = h.Hole
		}
		if lit, ok := set.Value.(*rule.Lit); ok {
			if attr, err := rule.ToAttr(ctx, p.types[i], lit.Value); err == nil {
				p.lits[i] = attr
			}
		}
	}
	if c.RestAttrs < 0 {
		// The general construction (Applier.attrs and orderAttrs) run on names only: where each value goes.
		layout := []attrSlot{}
		for i, set := range c.Attrs {
			if k := slices.IndexFunc(layout, func(sl attrSlot) bool { return sl.name == set.Name }); k >= 0 {
				layout[k].set = i
			} else {
				// The Context's copy of the name, so that matching the built op compares data pointers.
				layout = append(layout, attrSlot{name: ctx.AttrName(set.Name), set: i})
			}
		}
		if p.schema != nil {
			for _, spec := range p.schema.Attrs {
				if spec.Default != nil && !slices.ContainsFunc(layout, func(sl attrSlot) bool { return sl.name == spec.Name }) {
					layout = append(layout, attrSlot{name: spec.Name, set: -1, def: spec.Default})
				}
			}
			sortBySchema(layout, func(sl attrSlot) string { return sl.name }, p.schema)
		}
		p.layout = layout
	}
	if a.plans == nil {
		a.plans = map[*rule.Create]*createPlan{}
	}
	a.plans[c] = p
	return p
}

// replacedBy maps a new value index to the pattern value it replaces (first Replace wins).
func replacedBy(r *rule.Rule) map[int]int {
	out := map[int]int{}
	for _, act := range r.Actions {
		if rep, ok := act.(*rule.Replace); ok && rep.With.New && !rep.Value.New && !rep.Later && !rep.Each {
			if _, seen := out[rep.With.Index]; !seen {
				out[rep.With.Index] = rep.Value.Index
			}
		}
	}
	return out
}

// onPath returns match m with its rule's rewrite decided for the path through the alternatives m took (language.md
// §6.1, rewrites per alternative), or m itself when the rewrite calls no bound(…).
func (a *Applier) onPath(m *rule.Match) *rule.Match {
	rp := a.rulePlan(m.Rule)
	if rp.paths == nil {
		return m
	}
	r := m.Rule
	choice := r.Pattern.PathOf(m)
	key := rule.PathName(&rule.Rule{Path: choice})
	pr, ok := rp.paths[key]
	if !ok {
		c := *r
		c.Actions = rule.ActionsOnPath(r, rule.BindsOnPath(r.Pattern, choice))
		pr = &c
		rp.paths[key] = pr
	}
	mm := *m
	mm.Rule = pr
	return &mm
}
