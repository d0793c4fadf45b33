package graphview

import (
	"cmp"
	"math"
	"slices"
)

// Regions in the layout. An op with regions (pd_op.if, pd_op.while) is drawn as a box around the op and the ops
// inside it, and no other op may fall inside that box; the regions of an op with several (the true and false
// blocks of pd_op.if) are boxes of their own inside it, side by side. The layout keeps a box's x-range for it on
// every layer the box spans, with two walls: a chain of zero-width layout nodes down each side of the box, one per
// layer. The ordering keeps a box's nodes together between its walls on each layer (boxes stand in the same order
// relative to each other on every layer), and the coordinate assignment moves each wall as one piece, so that the
// box is a rectangle that holds its nodes and nothing else. The layering puts the op above its regions' ops, the
// users of its results below them, and the producers of values read inside above the op; the dummies of an edge
// into a region run inside its box from its top, those of an edge out of it inside until its bottom.

// Wall kinds of a layout node.
const (
	noWall = iota
	leftWall
	rightWall
)

// lregion is a region's box in the layout.
type lregion struct {
	key     boxKey
	parent  int   // index in layering.regs, -1 for a region of the program's body
	path    []int // the regions around it and itself, outermost first
	members []int // the nodes inside, the op's own node first when drawn, at any depth
	owner   int   // the op's node, -1 when not drawn
	top     int
	bot     int
	walls   [2][]int // left and right walls: a layout node per layer from top to bot
	deepest int      // the levels of regions nested inside it
	ckey    float64  // where the region sits among its siblings, for the ordering
}

// setupRegions finds the region boxes of the graph and each node's innermost one (assignLayers calls it first).
func (l *layering) setupRegions() {
	g := l.g
	l.clusterOf = make([]int, len(g.Nodes))
	for i := range l.clusterOf {
		l.clusterOf[i] = -1
	}
	detached := map[int]bool{}
	for _, grp := range g.Groups {
		if grp.Count == 0 {
			for _, v := range grp.Nodes {
				detached[v] = true
			}
		}
	}
	for _, r := range g.regions() {
		lr := &lregion{key: r.key, parent: r.parent, owner: r.owner, top: math.MaxInt, bot: -1}
		if r.owner >= 0 && !detached[r.owner] {
			lr.members = append(lr.members, r.owner)
		} else {
			lr.owner = -1
		}
		for _, v := range r.nodes {
			if !detached[v] {
				lr.members = append(lr.members, v)
			}
		}
		if lr.parent >= 0 {
			lr.path = append(slices.Clone(l.regs[lr.parent].path), len(l.regs))
		} else {
			lr.path = []int{len(l.regs)}
		}
		l.regs = append(l.regs, lr) // outer regions come first: a region's path is its parent's and itself
	}
	for i, lr := range l.regs {
		for _, v := range lr.members {
			if c := l.clusterOf[v]; c < 0 || len(l.regs[c].path) < len(lr.path) {
				l.clusterOf[v] = i
			}
		}
	}
	for i := len(l.regs) - 1; i >= 0; i-- {
		if p := l.regs[i].parent; p >= 0 {
			l.regs[p].deepest = max(l.regs[p].deepest, l.regs[i].deepest+1)
		}
	}
}

// inRegion reports whether node v is inside region r (at any depth; the op of r is inside r).
func (l *layering) inRegion(v, r int) bool {
	c := l.clusterOf[v]
	return c >= 0 && len(l.regs[c].path) > len(l.regs[r].path) && l.regs[c].path[len(l.regs[r].path)-1] == r ||
		c == r
}

// regionEdges adds to preds and succs the constraints that regions put on the layering: the op of a region above
// its ops, a value read inside a region produced above the region's op, the users of the op's results below every
// op of the region (in preds only: assignLayers moves an op down towards its successors, and the region's ops
// need not move down towards the users of its results). Each is an edge from an earlier node to a later one, so
// the graph stays acyclic.
func (l *layering) regionEdges(preds, succs [][]int) {
	add := func(from, to int) {
		if from < to {
			preds[to] = append(preds[to], from)
			succs[from] = append(succs[from], to)
		}
	}
	for _, lr := range l.regs {
		if lr.owner >= 0 {
			for _, m := range lr.members[1:] {
				add(lr.owner, m)
			}
		}
	}
	for _, e := range l.g.Edges {
		u, v := min(e.From, e.To), max(e.From, e.To)
		if r := l.outermost(v, u); r >= 0 && l.regs[r].owner >= 0 && l.regs[r].owner != u {
			add(u, l.regs[r].owner)
		}
		if s := l.outermost(u, v); s >= 0 {
			for _, m := range l.regs[s].members {
				if m < v { // only below: as a successor, it pulled the last ops of every region down to v
					preds[v] = append(preds[v], m)
				}
			}
		}
	}
}

// outermost returns the outermost region that holds node in but not node out, or -1.
func (l *layering) outermost(in, out int) int {
	c := l.clusterOf[in]
	if c < 0 {
		return -1
	}
	for _, r := range l.regs[c].path {
		if !l.inRegion(out, r) {
			return r
		}
	}
	return -1
}

// spans sets each region's first and last layer.
func (l *layering) spans() {
	for _, lr := range l.regs {
		for _, v := range lr.members {
			lr.top = min(lr.top, l.nodes[v].layer)
			lr.bot = max(lr.bot, l.nodes[v].layer)
		}
	}
}

// dummyCluster returns the region a dummy at layer k of an edge from u to v sits in: inside the innermost region
// the edge leaves while k is not below that region's last layer, else inside the innermost region it enters once k
// reaches that region's first layer, else in the innermost region holding both ends (-1 for none).
func (l *layering) dummyCluster(u, v, k int) int {
	if cu := l.clusterOf[u]; cu >= 0 {
		path := l.regs[cu].path
		for i := len(path) - 1; i >= 0; i-- {
			if r := path[i]; !l.inRegion(v, r) && k <= l.regs[r].bot {
				return r
			}
		}
	}
	if cv := l.clusterOf[v]; cv >= 0 {
		path := l.regs[cv].path
		for i := len(path) - 1; i >= 0; i-- {
			r := path[i]
			if l.inRegion(u, r) {
				return r
			}
			if k >= l.regs[r].top {
				return r
			}
		}
	}
	return -1
}

// addWalls adds the walls of each region's box: two zero-width nodes on each layer it spans.
func (l *layering) addWalls() {
	for i, lr := range l.regs {
		if lr.bot < lr.top {
			continue
		}
		for side := range 2 {
			for k := lr.top; k <= lr.bot; k++ {
				l.nodes = append(l.nodes, &layoutNode{real: -1, layer: k, cluster: i, wall: leftWall + side})
				lr.walls[side] = append(lr.walls[side], len(l.nodes)-1)
				l.layers[k] = append(l.layers[k], len(l.nodes)-1)
			}
		}
	}
}

// orderKey is what the ordering compares at one level of nesting: a region's key and index, or at the node's own
// level its key and -1.
func (l *layering) orderKey(v, level int) (float64, int) {
	n := l.nodes[v]
	var path []int
	if n.cluster >= 0 {
		path = l.regs[n.cluster].path
	}
	if level < len(path) {
		return l.regs[path[level]].ckey, path[level]
	}
	switch n.wall {
	case leftWall:
		return math.Inf(-1), -1
	case rightWall:
		return math.Inf(1), -1
	}
	return n.key, -1
}

// compareNested orders two nodes of a layer with regions: by the keys of their outermost regions (a node outside
// every region by its own key), then inside a common region by the next level's, so that each region's nodes
// stand together between its walls, and two regions stand in the same order on every layer.
func (l *layering) compareNested(a, b int) int {
	for level := 0; ; level++ {
		ka, ia := l.orderKey(a, level)
		kb, ib := l.orderKey(b, level)
		if c := cmp.Compare(ka, kb); c != 0 {
			return c
		}
		if c := cmp.Compare(ia, ib); c != 0 || ia < 0 {
			return c
		}
	}
}

// regionKeys sets the key of each region present on a layer, before the layer is sorted by the barycenters of its
// neighbours on the layer before it in the sweep (prev): where the region stood on that layer (the middle of its
// walls' positions), or where its nodes' keys put it on the first of its layers. A node whose neighbour was left
// of a region's box stays left of it (an edge passing a box does not cross it between two layers), and two regions
// keep their order from layer to layer.
func (l *layering) regionKeys(layer []int, prev int) {
	sum := make(map[int]float64)
	cnt := make(map[int]int)
	for _, v := range layer {
		n := l.nodes[v]
		if n.cluster < 0 {
			continue
		}
		for _, r := range l.regs[n.cluster].path {
			lr := l.regs[r]
			if prev >= lr.top && prev <= lr.bot {
				cnt[r] = -1
				continue
			}
			if n.wall == noWall && cnt[r] >= 0 {
				sum[r] += n.key
				cnt[r]++
			}
		}
	}
	for r, c := range cnt {
		lr := l.regs[r]
		switch {
		case c < 0:
			lr.ckey = float64(l.nodes[lr.walls[0][prev-lr.top]].pos+l.nodes[lr.walls[1][prev-lr.top]].pos) / 2
		case c > 0:
			lr.ckey = sum[r] / float64(c)
		}
	}
}

// keepSides moves, layer by layer from the top, each dummy that passes a box on the other side from its dummy or
// node above it back to that side, next to the box's wall: a route that switched sides between two layers of a box
// crossed the box. The ordering leaves such switches where a sweep up sorted a trunk's dummy by the several
// neighbours below it (on TestRegionBoxesRandom's programs, 117 edges passed through boxes they have no end in
// without it, 96 with it).
func (l *layering) keepSides() {
	for li := 1; li < len(l.layers); li++ {
		layer := l.layers[li]
		for i := 0; i < len(layer); i++ {
			d := l.nodes[layer[i]]
			if d.real >= 0 || d.wall != noWall || len(d.ups) != 1 {
				continue
			}
			u := l.nodes[d.ups[0]]
			for _, b := range l.regs {
				if b.parent != d.cluster || b.top > li-1 || b.bot < li || u.cluster >= 0 && l.inBox(u.cluster, b) {
					continue
				}
				was := side(u.pos, l.nodes[b.walls[0][li-1-b.top]].pos, l.nodes[b.walls[1][li-1-b.top]].pos)
				left, right := l.nodes[b.walls[0][li-b.top]].pos, l.nodes[b.walls[1][li-b.top]].pos
				is := side(d.pos, left, right)
				if was == 0 || is == 0 || was == is {
					continue
				}
				v := layer[i]
				layer = slices.Delete(layer, i, i+1)
				at := left // before the left wall (which moved left by one if the dummy was on the right)
				if was > 0 {
					at = right // after the right wall: the dummy was on the left, so the wall moved left by one
				}
				layer = slices.Insert(layer, at, v)
				for p, w := range layer {
					l.nodes[w].pos = p
				}
				i = -1 // positions changed: look at the layer again
				break
			}
		}
		l.layers[li] = layer
	}
}

// inBox reports whether region c is region b or inside it.
func (l *layering) inBox(c int, b *lregion) bool {
	for _, r := range l.regs[c].path {
		if l.regs[r] == b {
			return true
		}
	}
	return false
}

// side is -1 for a position left of a box's walls, 1 for one right of them, 0 between them.
func side(pos, left, right int) int {
	switch {
	case pos < left:
		return -1
	case pos > right:
		return 1
	}
	return 0
}

// gap is the space between the edges of two neighbours of a layer, a and b (a on the left), when one is a wall:
// regionPad inside a box, the rest of a nodeGap between a box and what is outside it (so that two nodes with a
// wall between them are a nodeGap apart as without one), a nodeGap between two boxes.
func gap(a, b *layoutNode) float64 {
	switch {
	case a.wall == rightWall && b.wall == leftWall:
		return nodeGap
	case a.wall == leftWall && b.wall == rightWall:
		return 2 * regionPad
	case a.wall == leftWall || b.wall == rightWall:
		return regionPad
	default: // a right wall, then something outside; something outside, then a left wall
		return nodeGap - regionPad
	}
}

// legalize makes the walls of each region straight and keeps every layer's spacing: each wall moves as one piece
// to the mean of its nodes, then every node and wall is pushed right as little as the spacing needs (in the order
// the layers give), and also pushed left; the placement is the mean of the two, which keeps the spacing as both do.
// It reports false, leaving the placement, if the layers' orders contradict each other (they do not: the ordering
// keeps regions in the same order on every layer).
func (l *layering) legalize() bool {
	// Variables: a node each, a wall one for all its nodes.
	vars := make([]int, len(l.nodes))
	for i := range vars {
		vars[i] = i
	}
	for _, lr := range l.regs {
		for _, w := range lr.walls {
			for _, v := range w {
				vars[v] = w[0]
			}
		}
	}
	want := make([]float64, len(l.nodes))
	count := make([]float64, len(l.nodes))
	for i, n := range l.nodes {
		want[vars[i]] += n.x
		count[vars[i]]++
	}
	type arc struct {
		to  int
		sep float64
	}
	out := make([][]arc, len(l.nodes))
	in := make([][]arc, len(l.nodes))
	indeg := make([]int, len(l.nodes))
	for _, layer := range l.layers {
		for i := 1; i < len(layer); i++ {
			a, b := vars[layer[i-1]], vars[layer[i]]
			sep := l.spacing(layer[i-1], layer[i])
			out[a] = append(out[a], arc{b, sep})
			in[b] = append(in[b], arc{a, sep})
			indeg[b]++
		}
	}
	var topo []int
	for v := range l.nodes {
		if count[v] > 0 {
			want[v] /= count[v]
			if indeg[v] == 0 {
				topo = append(topo, v)
			}
		}
	}
	for i := 0; i < len(topo); i++ {
		for _, a := range out[topo[i]] {
			if indeg[a.to]--; indeg[a.to] == 0 {
				topo = append(topo, a.to)
			}
		}
	}
	vcount := 0
	for v := range l.nodes {
		if count[v] > 0 {
			vcount++
		}
	}
	if len(topo) != vcount {
		return false
	}
	right := slices.Clone(want)
	for _, v := range topo {
		for _, a := range in[v] {
			right[v] = max(right[v], right[a.to]+a.sep)
		}
	}
	left := slices.Clone(want)
	for i := len(topo) - 1; i >= 0; i-- {
		v := topo[i]
		for _, a := range out[v] {
			left[v] = min(left[v], left[a.to]-a.sep)
		}
	}
	for i, n := range l.nodes {
		n.x = (left[vars[i]] + right[vars[i]]) / 2
	}
	return true
}

// wallTargets sets, before a round of placement, where each wall's nodes aim: the wall's mean x.
func (l *layering) wallTargets() {
	for _, lr := range l.regs {
		for _, w := range lr.walls {
			if len(w) == 0 {
				continue
			}
			sum := 0.0
			for _, v := range w {
				sum += l.nodes[v].x
			}
			for _, v := range w {
				l.nodes[v].key = sum / float64(len(w))
			}
		}
	}
}

// regionRows returns how far down each layer moves to make room for the margins of region boxes: above a layer
// where boxes begin, their titles and top padding; above the layer after one where boxes end, their bottom padding.
// Without it, a box's margins filled half the gap between two layers, where edges curve sideways: an edge passing
// beside a box clipped the corner of its title.
func (l *layering) regionRows() []float64 {
	extra := make([]float64, len(l.layers)+1)
	if len(l.regs) == 0 {
		return extra
	}
	above := make([]float64, len(l.layers)+1)
	below := make([]float64, len(l.layers)+1)
	for _, lr := range l.regs {
		if lr.bot < lr.top {
			continue
		}
		pad := regionPad * float64(lr.deepest+1)
		above[lr.top] = max(above[lr.top], pad+regionTitle)
		below[lr.bot+1] = max(below[lr.bot+1], pad)
	}
	sum := 0.0
	for k := range extra {
		sum += above[k] + below[k]
		extra[k] = sum
	}
	return extra
}

// aroundBoxes adds to a route that reaches q (on layer k) from the last point of pts (on layer k-1) a bend that
// keeps its sideways run out of the margins of the region boxes between the two: a box whose top lies between
// them, that q is beside, is passed above its top (then straight down to q); a box whose bottom lies between them,
// that the last point is beside, below its bottom. The renderer draws each step as a curve with vertical ends that
// runs sideways at mid-height, which is inside a box's title when the box begins on layer k.
func (l *layering) aroundBoxes(pts []Point, q Point, k int) []Point {
	p := pts[len(pts)-1]
	lo, hi := min(p.X, q.X), max(p.X, q.X)
	bend := func(r regionRect) bool { return r.X < hi && r.X+r.W > lo }
	below := math.Inf(-1) // the lowest bottom of a box p is beside, between p and q
	above := math.Inf(1)  // the highest top of a box q is beside, between p and q
	for _, lr := range l.regs {
		r, ok := l.g.regionBoxes[lr.key]
		if !ok {
			continue
		}
		if lr.bot == k-1 && r.Y+r.H > p.Y && r.Y+r.H < q.Y && (p.X < r.X || p.X > r.X+r.W) && bend(r) {
			below = max(below, r.Y+r.H)
		}
		if lr.top == k && r.Y > p.Y && r.Y < q.Y && (q.X < r.X || q.X > r.X+r.W) && bend(r) {
			above = min(above, r.Y)
		}
	}
	if !math.IsInf(below, -1) {
		pts = append(pts, Point{p.X, below + 2})
	}
	if !math.IsInf(above, 1) && (math.IsInf(below, -1) || above-2 > below+2) {
		pts = append(pts, Point{q.X, above - 2})
	}
	return pts
}

// regionRect is a region's box in the drawing.
type regionRect struct{ X, Y, W, H float64 }

// writeRegions sets the boxes of the regions (after the shift of write): between the walls, from above the first
// layer (its title) to below the last, padded by regionPad per level of regions nested inside.
func (l *layering) writeRegions(rowY func(int) float64) {
	if len(l.regs) == 0 {
		return
	}
	l.g.regionBoxes = map[boxKey]regionRect{}
	for _, lr := range l.regs {
		if len(lr.walls[0]) == 0 {
			continue
		}
		pad := regionPad * float64(lr.deepest+1)
		x0, x1 := l.nodes[lr.walls[0][0]].x, l.nodes[lr.walls[1][0]].x
		y0 := rowY(lr.top) - nodeHeight/2 - pad - regionTitle
		y1 := rowY(lr.bot) + nodeHeight/2 + pad
		l.g.regionBoxes[lr.key] = regionRect{round1(x0), y0, round1(x1) - round1(x0), y1 - y0}
	}
}
