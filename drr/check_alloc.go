package drr

import "github.com/pirdrr/drr/drr/rule"

// ruleNodes holds the slabs the checker allocates the checked model's nodes from. A large rule file has hundreds of
// thousands of them; allocating them one by one made allocation and garbage collection half the cost of checking.
type ruleNodes struct {
	lit       slab[rule.Lit]
	holeRef   slab[rule.HoleRef]
	valueRef  slab[rule.ValueRef]
	binary    slab[rule.Binary]
	unary     slab[rule.Unary]
	call      slab[rule.Call]
	list      slab[rule.List]
	cond      slab[rule.Cond]
	index     slab[rule.Index]
	create    slab[rule.Create]
	valueHole slab[rule.ValueHole]
	newValue  slab[rule.NewValue]
	opPattern slab[rule.OpPattern]
	hole      slab[rule.Hole]
}

// newNode returns a pointer to a copy of v allocated from s.
func newNode[T any](s *slab[T], v T) *T {
	p := s.new()
	*p = v
	return p
}
