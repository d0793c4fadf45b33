package graphview

import (
	"cmp"
	"math"
	"slices"
	"unicode/utf8"
)

// Sizes of the drawing, in pixels.
const (
	nodeHeight  = 26.0
	charWidth   = 6.8 // of the 11px label font
	nodePadding = 18.0
	layerGap    = 44.0 // vertical space between two layers of boxes
	nodeGap     = 18.0 // horizontal space between two boxes of a layer
	dummyWidth  = 4.0
	margin      = 24.0
	groupPad    = 12.0
	groupHeader = 18.0
	blockPad    = 6.0 // around a repetition of a graph drawn whole (its box shows when zoomed out)
	regionPad   = 6.0 // around an op with regions and its ops, per level of nesting inside
	regionTitle = 16.0
	combLeaves  = 8  // more leaves of one producer than this stand in rows of about √n (assignLayers)
	sweeps      = 24 // crossing-reduction sweeps (alternately down and up), at most
	placements  = 12 // coordinate-assignment rounds, at most
	// workBudget bounds sweeps × layout nodes: a graph with many long edges (hundreds of thousands of dummies) gets
	// fewer sweeps rather than minutes of layout.
	workBudget = 3_000_000
)

// rounds returns how many passes over n layout nodes fit the budget, between 2 and most.
func rounds(most, n int) int {
	return max(2, min(most, workBudget/max(n, 1)))
}

// layoutNode is a node of the layered graph: a real node, or a dummy on an edge that spans several layers.
type layoutNode struct {
	real       int // index in Graph.Nodes, -1 for a dummy
	w          float64
	layer, pos int
	x          float64
	ups, downs []int // neighbours in the layer above and below
	key        float64
	cluster    int // the innermost region (index in layering.regs) the node is in, -1 for none
	wall       int // noWall, or the side of its region's box the node is a wall of
	fanout     int // for a dummy, the number of edges from its source (they share its trunk)
}

// Layout places the nodes (X, Y, W, H, Layer), routes the edges (Points) and sizes the groups and the drawing.
func (g *Graph) Layout() {
	for _, n := range g.Nodes {
		n.W = math.Round(float64(utf8.RuneCountInString(n.Label))*charWidth + nodePadding)
		n.H = nodeHeight
	}
	if len(g.Nodes) == 0 {
		g.Width, g.Height = 2*margin, 2*margin
		return
	}
	lay := &layering{g: g}
	lay.assignLayers()
	lay.addDummies()
	lay.order()
	lay.place()
	lay.write()
}

type layering struct {
	g      *Graph
	nodes  []*layoutNode
	layers [][]int
	chains [][]int // per edge: the layout nodes it passes through, source and target included
	// detached are the nodes of groups without edges (the ops a rewrite removed): a column of their own.
	detached []int
	scratch  placeScratch
	// regs are the boxes of the ops with regions, outer ones first; clusterOf is each real node's innermost one
	// (-1 for none).
	regs      []*lregion
	clusterOf []int
}

// assignLayers puts each node one layer below its lowest producer (longest path), then as low as its users allow.
// With regions, the op of a region stands above its ops and the users of its results below them (regionEdges).
func (l *layering) assignLayers() {
	l.setupRegions()
	g := l.g
	n := len(g.Nodes)
	preds := make([][]int, n)
	succs := make([][]int, n)
	for _, e := range g.Edges {
		from, to := e.From, e.To
		if from > to { // never in a program (definitions precede uses), but keep the layout acyclic anyway
			from, to = to, from
		}
		preds[to] = append(preds[to], from)
		succs[from] = append(succs[from], to)
	}
	l.regionEdges(preds, succs)
	layer := make([]int, n)
	for v := 0; v < n; v++ {
		for _, u := range preds[v] {
			layer[v] = max(layer[v], layer[u]+1)
		}
	}
	// Then each node moves down to just above its first user, users first: side branches (a constant, the reshape
	// of a parameter that feeds a late add) sit beside where they are used instead of at the top. Nodes on the
	// longest paths do not move.
	for v := n - 1; v >= 0; v-- {
		if len(succs[v]) == 0 {
			continue
		}
		lowest := math.MaxInt
		for _, s := range succs[v] {
			lowest = min(lowest, layer[s])
		}
		layer[v] = max(layer[v], lowest-1)
	}
	// Many leaves of one producer (ops whose only neighbour it is: SegFormer-B5's 256 assigns of one value) stand
	// in rows of about √n below it rather than in one row: in one row they made the drawing 50,000 px wide, and the
	// median placement pulled the ops of neighbouring layers across it (flat edges of 17,000 px between two layers).
	leaves := make([][]int, n)
	for v := 0; v < n; v++ {
		if len(succs[v]) == 0 && len(preds[v]) == 1 && l.clusterOf[v] < 0 && l.clusterOf[preds[v][0]] < 0 {
			leaves[preds[v][0]] = append(leaves[preds[v][0]], v)
		}
	}
	for u, vs := range leaves {
		if len(vs) <= combLeaves {
			continue
		}
		row := int(math.Ceil(math.Sqrt(float64(len(vs)))))
		for k, v := range vs {
			layer[v] = layer[u] + 1 + k/row
		}
	}
	// The nodes of a group without edges (the ops a rewrite removed) stand in a column rather than a long row.
	for _, grp := range g.Groups {
		if grp.Count > 0 {
			continue
		}
		for k, v := range grp.Nodes {
			if len(preds[v]) == 0 && len(succs[v]) == 0 {
				layer[v] = k
				l.detached = append(l.detached, v)
			}
		}
	}
	for v, nd := range g.Nodes {
		nd.Layer = layer[v]
		l.nodes = append(l.nodes, &layoutNode{real: v, w: nd.W, layer: layer[v], key: float64(v), cluster: l.clusterOf[v]})
	}
	l.spans()
}

// addDummies replaces each edge that spans several layers by a chain through one dummy per layer crossed. The
// edges from one source share their dummies (edge concentration): a value used by many ops far below runs down as
// one trunk that its uses branch off, rather than as many parallel lines (SegFormer-B5 drawn whole was a grey hatch
// of them; TestSharedTrunks).
func (l *layering) addDummies() {
	link := func(a, b int) {
		l.nodes[a].downs = append(l.nodes[a].downs, b)
		l.nodes[b].ups = append(l.nodes[b].ups, a)
	}
	// source and region → its dummies in that region, one per layer below the source (-1 where it has none)
	type trunkKey struct{ from, cluster int }
	trunks := map[trunkKey][]int{}
	fanout := make([]int, len(l.g.Nodes))
	for _, e := range l.g.Edges {
		fanout[min(e.From, e.To)]++
	}
	for _, e := range l.g.Edges {
		from, to := e.From, e.To
		if from > to {
			from, to = to, from
		}
		chain := []int{from}
		top := l.nodes[from].layer + 1
		k := trunkKey{from, -2}
		var trunk []int
		for layer := top; layer < l.nodes[to].layer; layer++ {
			c := -1
			if len(l.regs) > 0 {
				c = l.dummyCluster(from, to, layer)
			}
			if c != k.cluster { // the map only when the route enters another region: SegFormer has 400,000 steps
				if k.cluster != -2 {
					trunks[k] = trunk
				}
				k = trunkKey{from, c}
				trunk = trunks[k]
			}
			for len(trunk) <= layer-top {
				trunk = append(trunk, -1)
			}
			d := trunk[layer-top]
			if prev := chain[len(chain)-1]; d < 0 {
				l.nodes = append(l.nodes, &layoutNode{real: -1, w: dummyWidth, layer: layer, key: float64(from) + 0.5,
					cluster: c, fanout: fanout[from]})
				d = len(l.nodes) - 1
				trunk[layer-top] = d
				link(prev, d)
			} else if len(l.regs) > 0 && !slices.Contains(l.nodes[d].ups, prev) {
				// Without regions, a trunk's dummy was linked from the one above it when it was made; with them, a
				// trunk can move into a region and back.
				link(prev, d)
			}
			chain = append(chain, d)
		}
		if k.cluster != -2 {
			trunks[k] = trunk
		}
		chain = append(chain, to)
		link(chain[len(chain)-2], to)
		if e.From > e.To {
			for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
				chain[i], chain[j] = chain[j], chain[i]
			}
		}
		l.chains = append(l.chains, chain)
	}
	top := 0
	for _, n := range l.nodes {
		top = max(top, n.layer)
	}
	l.layers = make([][]int, top+1)
	for i, n := range l.nodes {
		l.layers[n.layer] = append(l.layers[n.layer], i)
	}
	l.addWalls()
	for _, lr := range l.regs {
		lr.ckey = math.Inf(1)
		for _, v := range lr.members {
			lr.ckey = min(lr.ckey, l.nodes[v].key)
		}
	}
	for _, layer := range l.layers {
		l.sortLayer(layer)
	}
}

// sortLayer orders a layer by key (stable: ties keep their order) and records positions.
// With regions, a region's nodes stand together between its walls (compareNested).
func (l *layering) sortLayer(layer []int) {
	if len(l.regs) > 0 {
		slices.SortStableFunc(layer, l.compareNested)
	} else {
		slices.SortStableFunc(layer, func(a, b int) int { return cmp.Compare(l.nodes[a].key, l.nodes[b].key) })
	}
	for p, v := range layer {
		l.nodes[v].pos = p
	}
}

// order reduces crossings by the barycenter heuristic, keeping the best order seen.
func (l *layering) order() {
	best := l.crossings()
	saved := l.snapshot()
	for it := 0; it < rounds(sweeps, len(l.nodes)) && best > 0; it++ {
		down := it%2 == 0
		for k := range l.layers {
			li := k
			if !down {
				li = len(l.layers) - 1 - k
			}
			layer := l.layers[li]
			for _, v := range layer {
				n := l.nodes[v]
				nb := n.ups
				if !down {
					nb = n.downs
				}
				if len(nb) == 0 {
					n.key = float64(n.pos)
					continue
				}
				sum := 0.0
				for _, u := range nb {
					sum += float64(l.nodes[u].pos)
				}
				n.key = sum / float64(len(nb))
			}
			if len(l.regs) > 0 {
				prev := li - 1
				if !down {
					prev = li + 1
				}
				l.regionKeys(layer, prev)
			}
			l.sortLayer(layer)
		}
		if c := l.crossings(); c < best {
			best, saved = c, l.snapshot()
		}
	}
	l.restore(saved)
	if len(l.regs) > 0 {
		l.keepSides()
	}
}

func (l *layering) snapshot() [][]int {
	out := make([][]int, len(l.layers))
	for i, layer := range l.layers {
		out[i] = append([]int(nil), layer...)
	}
	return out
}

func (l *layering) restore(s [][]int) {
	l.layers = s
	for _, layer := range l.layers {
		for p, v := range layer {
			l.nodes[v].pos = p
		}
	}
}

// crossings counts the edge crossings between consecutive layers (inversions, with a Fenwick tree).
func (l *layering) crossings() int {
	total := 0
	var pairs [][2]int
	var tree []int
	for li := 0; li+1 < len(l.layers); li++ {
		pairs = pairs[:0]
		for _, v := range l.layers[li] {
			for _, w := range l.nodes[v].downs {
				pairs = append(pairs, [2]int{l.nodes[v].pos, l.nodes[w].pos})
			}
		}
		slices.SortFunc(pairs, func(a, b [2]int) int {
			if c := cmp.Compare(a[0], b[0]); c != 0 {
				return c
			}
			return cmp.Compare(a[1], b[1])
		})
		size := len(l.layers[li+1]) + 1
		tree = slices.Grow(tree[:0], size+1)[:size+1]
		clear(tree)
		for seen, p := range pairs {
			// count earlier edges whose target is to the right of this one's
			le := 0
			for i := p[1] + 1; i > 0; i -= i & -i {
				le += tree[i]
			}
			total += seen - le
			for i := p[1] + 1; i <= size; i += i & -i {
				tree[i]++
			}
		}
	}
	return total
}

// place assigns x coordinates: each layer packed, then moved towards the medians of its neighbours while keeping
// the order and the spacing (isotonic regression), alternately from above and from below.
func (l *layering) place() {
	for _, layer := range l.layers {
		x := 0.0
		for i, v := range layer {
			n := l.nodes[v]
			if i > 0 {
				x += l.spacing(layer[i-1], v)
			}
			n.x = x
		}
	}
	for round := 0; round < rounds(placements, len(l.nodes)); round++ {
		down := round%2 == 0
		l.wallTargets()
		for k := range l.layers {
			li := k
			if !down {
				li = len(l.layers) - 1 - k
			}
			l.placeLayer(l.layers[li], down)
		}
	}
	// Both directions at once for the last round, so that nodes sit between their producers and users.
	l.wallTargets()
	for _, layer := range l.layers {
		l.placeLayer(layer, true)
	}
	if len(l.regs) > 0 {
		l.legalize()
	}
	l.placeDetached()
}

// placeDetached stands the detached nodes in a column right of the others, so that their group's box holds
// nothing else (placed among the others, the box of the removed ops spanned the graph).
func (l *layering) placeDetached() {
	if len(l.detached) == 0 {
		return
	}
	apart := make(map[int]bool, len(l.detached))
	widest := 0.0
	for _, v := range l.detached {
		apart[v] = true
		widest = max(widest, l.nodes[v].w)
	}
	right := math.Inf(-1)
	for i, n := range l.nodes {
		if !apart[i] {
			right = max(right, n.x+n.w/2)
		}
	}
	if math.IsInf(right, -1) {
		return
	}
	for _, v := range l.detached {
		l.nodes[v].x = right + 2*groupPad + 2*nodeGap + widest/2
	}
}

// spacing is the least distance between the centres of a and b, neighbours on a layer (a on the left).
func (l *layering) spacing(a, b int) float64 {
	na, nb := l.nodes[a], l.nodes[b]
	if na.wall != noWall || nb.wall != noWall {
		return (na.w+nb.w)/2 + gap(na, nb)
	}
	return (na.w+nb.w)/2 + nodeGap
}

// placeLayer moves a layer's nodes to the medians of their neighbours (above when down, below otherwise), as
// close as the spacing allows (pool adjacent violators on x_i - offset_i).
func (l *layering) placeLayer(layer []int, down bool) {
	m := len(layer)
	if m == 0 {
		return
	}
	sc := &l.scratch
	sc.target = slices.Grow(sc.target[:0], m)[:m]
	sc.weight = slices.Grow(sc.weight[:0], m)[:m]
	sc.offset = slices.Grow(sc.offset[:0], m)[:m]
	target, weight, offset := sc.target, sc.weight, sc.offset
	for i, v := range layer {
		n := l.nodes[v]
		offset[i] = 0
		if i > 0 {
			offset[i] = offset[i-1] + l.spacing(layer[i-1], v)
		}
		weight[i] = 1
		if n.real < 0 {
			// Dummies keep long edges straight; a trunk shared by many edges straighter (SegFormer-B5's constants
			// used in every block: their trunks' sideways steps counted once per edge).
			weight[i] = 4 * math.Sqrt(float64(max(n.fanout, 1)))
		}
		if n.wall != noWall { // the walls of a region's box stay straight (wallTargets)
			target[i] = n.key - offset[i]
			continue
		}
		sc.xs = sc.xs[:0]
		nb := n.ups
		if !down {
			nb = n.downs
		}
		if len(nb) == 0 {
			for _, u := range n.ups {
				sc.xs = append(sc.xs, l.nodes[u].x)
			}
			for _, u := range n.downs {
				sc.xs = append(sc.xs, l.nodes[u].x)
			}
		} else {
			for _, u := range nb {
				sc.xs = append(sc.xs, l.nodes[u].x)
			}
		}
		if len(sc.xs) == 0 {
			target[i] = n.x - offset[i]
			weight[i] = 0.01
			continue
		}
		target[i] = median(sc.xs) - offset[i]
	}
	// Pool adjacent violators: blocks of equal y, nondecreasing.
	blocks := sc.blocks[:0]
	for i := 0; i < m; i++ {
		blocks = append(blocks, pavBlock{target[i] * weight[i], weight[i], 1})
		for len(blocks) > 1 {
			a, b := blocks[len(blocks)-2], blocks[len(blocks)-1]
			if a.sum/a.w <= b.sum/b.w {
				break
			}
			blocks = blocks[:len(blocks)-2]
			blocks = append(blocks, pavBlock{a.sum + b.sum, a.w + b.w, a.n + b.n})
		}
	}
	sc.blocks = blocks
	i := 0
	for _, b := range blocks {
		y := b.sum / b.w
		for k := 0; k < b.n; k++ {
			l.nodes[layer[i]].x = y + offset[i]
			i++
		}
	}
}

// pavBlock is a run of nodes placed together by pool adjacent violators: the weighted sum of their targets, the
// sum of their weights, their number.
type pavBlock struct {
	sum, w float64
	n      int
}

// placeScratch is placeLayer's reusable memory.
type placeScratch struct {
	target, weight, offset, xs []float64
	blocks                     []pavBlock
}

// median returns the median of xs (reordering xs).
func median(xs []float64) float64 {
	if len(xs) == 1 {
		return xs[0]
	}
	slices.Sort(xs)
	if len(xs)%2 == 1 {
		return xs[len(xs)/2]
	}
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
}

// write copies the placement into the graph: node boxes, edge routes, group boxes, the size of the drawing.
func (l *layering) write() {
	g := l.g
	minX := math.Inf(1)
	for _, n := range l.nodes {
		minX = min(minX, n.x-n.w/2)
	}
	if len(g.Groups) > 0 {
		minX -= groupPad
	}
	shift := margin - minX
	extra := l.regionRows()
	rowY := func(layer int) float64 {
		return margin + groupHeader + float64(layer)*(nodeHeight+layerGap) + nodeHeight/2 + extra[layer]
	}
	for _, n := range l.nodes {
		n.x += shift
	}
	for _, n := range l.nodes {
		if n.real >= 0 {
			nd := g.Nodes[n.real]
			nd.X, nd.Y = round1(n.x), rowY(n.layer)
		}
	}
	l.writeRegions(rowY)
	for i, e := range g.Edges {
		chain := l.chains[i]
		var pts []Point
		for k, v := range chain {
			n := l.nodes[v]
			y := rowY(n.layer)
			switch {
			case k == 0:
				y += nodeHeight / 2
			case k == len(chain)-1:
				y -= nodeHeight / 2
			}
			p := Point{round1(n.x), y}
			if k > 0 && len(l.regs) > 0 {
				pts = l.aroundBoxes(pts, p, n.layer)
			}
			pts = append(pts, p)
		}
		e.Points = pts
	}
	for _, grp := range g.Groups {
		g.box(grp, groupPad, groupHeader)
	}
	for _, grp := range g.Blocks {
		g.box(grp, blockPad, 0)
	}
	maxX, maxY := 0.0, 0.0
	for _, n := range l.nodes {
		maxX = max(maxX, n.x+n.w/2)
		maxY = max(maxY, rowY(n.layer)+nodeHeight/2)
	}
	for _, grp := range g.Groups {
		maxX = max(maxX, grp.X+grp.W)
		maxY = max(maxY, grp.Y+grp.H)
	}
	for _, r := range g.regionBoxes {
		maxY = max(maxY, r.Y+r.H)
	}
	g.Width, g.Height = math.Ceil(maxX+margin), math.Ceil(maxY+margin)
}

// box sets a group's box: around its nodes, pad on each side and header more at the top.
func (g *Graph) box(grp *Group, pad, header float64) {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, v := range grp.Nodes {
		n := g.Nodes[v]
		x0, x1 = min(x0, n.X-n.W/2), max(x1, n.X+n.W/2)
		y0, y1 = min(y0, n.Y-n.H/2), max(y1, n.Y+n.H/2)
	}
	grp.X, grp.Y = x0-pad, y0-pad-header
	grp.W, grp.H = x1-x0+2*pad, y1-y0+2*pad+header
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }
