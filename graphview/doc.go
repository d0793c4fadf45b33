// Package graphview draws programs as graphs that people can read: the graph model (ops as nodes, values as
// edges), a layered layout of our own (Sugiyama's method: layers, crossing reduction, coordinates), the laid-out
// graph as data (Drawing: boxes, edges as routed polylines, groups), and its renderings — a canvas renderer
// (assets/canvas.js, RendererScript) that drrc graph's self-contained HTML page and the playground of drrc serve
// share (pan, zoom, semantic zoom, search, details), SVG, and Graphviz DOT.
//
// Real models have thousands of ops; drawn whole they make pictures no one can read. A Graph can be cut to the
// neighbourhood of some ops (Options.Focus, Options.Depth), marked with classes (ops a rule matched, ops it
// created, ops a rewrite added or removed), and its repeated blocks collapsed: consecutive runs of ops that repeat
// with the same structure (the identical layers of a transformer, the residual blocks of a ResNet) are drawn once,
// in a box that says how many times they repeat (Collapse).
//
//	g := graphview.Build(p, graphview.Options{Collapse: true})
//	g.Layout()
//	err := graphview.WriteHTML(w, "model", g)
//
// drrc graph is its command line; the browser playground (drrc serve) reuses the model, the layout and the page.
//
// # The layout
//
// Nodes are ops in program order, and every edge goes from an op to a later one (definitions come before uses;
// a block argument is drawn as an edge from the op that owns the region), so the graph is acyclic. Layout assigns
// layers by longest path (an op without operands sits just above its first user), replaces edges that cross layers
// by chains of dummy nodes, orders each layer by barycenters of the neighbouring layer (sweeping down and up,
// keeping the order with the fewest crossings), and places nodes at the median of their neighbours by isotonic
// regression under the minimum spacing, so that chains run straight. Edges are drawn through their dummies as
// smooth curves. The edges from one value share their dummies: a value used far below runs down as one trunk that
// its uses branch off, and weighs more in the placement the more uses it has. Many ops that only use one value stand
// in rows below it. The result is deterministic.
//
// An op with regions (pd_op.if, pd_op.while) is a box around the op and the ops inside; each region of an op with
// several (an if's true and false blocks) a box inside it. The layout keeps each box free of other ops: the op above
// its regions' ops, the users of its results below them; on every layer a box spans, its nodes stand together
// between two walls (zero-width layout nodes, one chain down each side, moved as one piece); edges into a region run
// inside its box from the top, edges out of it inside until its bottom (regions.go).
//
// # Semantic zoom
//
// Export gives each group a kind and a summary of what it holds (opSummary: "× 12: matmul 6, add 4, softmax 1"): a
// collapsed block ("repeat"), each repetition of a repeated block of a graph drawn whole ("block", Graph.Blocks),
// an op with regions and the ops inside ("region", nested by depth), the removed ops of a diff ("set"). The
// renderer draws a label only when it is legible on the screen (7 px); below that, a small block is drawn closed,
// as its summary.
package graphview
