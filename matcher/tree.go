package matcher

import (
	"sort"
)

// The decision tree follows MLIR's PDL→PDLInterp predicate tree (PredicateTree.cpp):
//
//  1. Every rule contributes its predicates: (question at a position, expected answer) pairs, one per check the
//     tree can make before any choice (at fixed positions). Questions and positions are hash-consed, so the same
//     check in two rules is the same question.
//  2. Each question gets a primary score, the number of rules asking it, and a secondary score, the sum over those
//     rules of the squares of the primary scores of all their questions. Questions are ordered by primary then
//     secondary score (descending), then by position depth, position kind, question kind and first appearance
//     (ascending): shared checks come first, and the order is deterministic.
//  3. Each rule, in set order, is propagated through the tree along its predicates in that order: at a node asking
//     the rule's next question it descends into (or creates) the child for its answer; at a node asking something
//     else it moves on to the node's next sibling (MLIR's failure edge). After its last predicate it adds a
//     success node.
//
// Evaluation at an op visits a node, asks its question once, descends into the child for the answer, and then
// always continues with the next sibling (matches are collected, not searched for). A switch over n answers (op
// names, attribute literals) is a map lookup, so n rules differing in one literal cost one lookup.
//
// Finally (collapse), a switch whose only child is a lone success node becomes that success node, so each success
// node is reached by the questions that tell its rule apart from others, and its remainder (finish) makes the
// rule's other checks inline, which costs less than a tree node each.

// node is a tree node: a switch on a question, or (q == nil) a success node for a rule.
type node struct {
	q     *question
	kids  []edge
	index map[answer]*node // for switches with many children
	rule  *crule           // success nodes
	leaf  *program         // success nodes: the rule's remainder after the questions on the path
	next  *node
	id    int
}

type edge struct {
	a     answer
	child *node
}

// mapThreshold is the number of children from which a switch uses a map.
const mapThreshold = 8

func (n *node) child(a answer) *node {
	if n.index != nil {
		return n.index[a]
	}
	for i := range n.kids {
		if n.kids[i].a == a {
			return n.kids[i].child
		}
	}
	return nil
}

// childSlot returns the slot of the child for answer a, creating an empty one.
func (n *node) childSlot(a answer) **node {
	for i := range n.kids {
		if n.kids[i].a == a {
			return &n.kids[i].child
		}
	}
	n.kids = append(n.kids, edge{a: a})
	return &n.kids[len(n.kids)-1].child
}

// buildTree builds the decision tree of rules (in set order).
func buildTree(rules []*crule) *node {
	type score struct {
		primary, secondary int
		first              int
	}
	scores := map[*question]*score{}
	var order []*question
	for _, r := range rules {
		if r.never {
			continue
		}
		for _, p := range r.preds {
			s := scores[p.q]
			if s == nil {
				s = &score{first: len(order)}
				scores[p.q] = s
				order = append(order, p.q)
			}
			s.primary++
		}
	}
	for _, r := range rules {
		if r.never {
			continue
		}
		sum := 0
		for _, p := range r.preds {
			pr := scores[p.q].primary
			sum += pr * pr
		}
		for _, p := range r.preds {
			scores[p.q].secondary += sum
		}
	}
	less := func(a, b *question) bool {
		sa, sb := scores[a], scores[b]
		switch {
		case sa.primary != sb.primary:
			return sa.primary > sb.primary
		case sa.secondary != sb.secondary:
			return sa.secondary > sb.secondary
		case a.pos.depth != b.pos.depth:
			return a.pos.depth < b.pos.depth
		case a.pos.kind != b.pos.kind:
			return a.pos.kind < b.pos.kind
		case a.kind != b.kind:
			return a.kind < b.kind
		}
		return sa.first < sb.first
	}
	sort.SliceStable(order, func(i, j int) bool { return less(order[i], order[j]) })
	rank := make(map[*question]int, len(order))
	for i, q := range order {
		rank[q] = i
	}

	var root *node
	for _, r := range rules {
		if r.never {
			continue
		}
		preds := append([]pred(nil), r.preds...)
		sort.SliceStable(preds, func(i, j int) bool { return rank[preds[i].q] < rank[preds[j].q] })
		slot := &root
		for _, p := range preds {
			for *slot != nil && (*slot).q != p.q {
				slot = &(*slot).next
			}
			if *slot == nil {
				*slot = &node{q: p.q}
			}
			slot = (*slot).childSlot(p.a)
		}
		*slot = &node{rule: r, next: *slot}
	}
	root = collapse(root)
	finish(root, map[*question]bool{})
	return root
}

// collapse replaces every switch whose only child is a lone success node by that success node (bottom-up, so
// whole single-rule chains collapse): a question that serves one rule is cheaper as an inline check of the rule's
// remainder than as a tree node. What remains in the tree are the questions shared by several rules and the
// switches that tell rules apart.
func collapse(n *node) *node {
	if n == nil {
		return nil
	}
	n.next = collapse(n.next)
	if n.q == nil {
		return n
	}
	for i := range n.kids {
		n.kids[i].child = collapse(n.kids[i].child)
	}
	if len(n.kids) == 1 {
		if s := n.kids[0].child; s.q == nil && s.next == nil {
			s.next = n.next
			return s
		}
	}
	return n
}

// finish gives success nodes their remainder programs (skipping the checks of the questions on their path) and
// builds the maps of wide switches.
func finish(n *node, path map[*question]bool) {
	for ; n != nil; n = n.next {
		if n.q == nil {
			n.leaf = n.rule.leaf(path)
			continue
		}
		if len(n.kids) >= mapThreshold {
			n.index = make(map[answer]*node, len(n.kids))
			for _, e := range n.kids {
				n.index[e.a] = e.child
			}
		}
		path[n.q] = true
		for _, e := range n.kids {
			finish(e.child, path)
		}
		delete(path, n.q)
	}
}
