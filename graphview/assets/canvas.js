// graphview's renderer: draws a Drawing (graphview.Export: boxes, edges as routed polylines, groups and regions,
// all laid out by the server) on a 2D canvas, with pan (drag), zoom (wheel, + and −, fit), semantic zoom, search
// marks and click. drrc graph's HTML page and the playground of drrc serve both use this one file.
//
// Semantic zoom: a box's label is drawn only when it is at least minLabelPx high on the screen. Below that, a
// collapsed repeated block (and, in a graph drawn whole, each repetition of a repeated block) that is small on the
// screen is drawn as one closed box that names what it holds ("× 12: matmul 6, add 4, softmax 1"), in a legible
// font; a larger one stays open (its boxes show the structure) with its summary kept in view at its top; zooming
// in to legible labels opens every block.
// Regions of pd_op.if and pd_op.while are drawn as boxes nested in the order of the program's nesting.
//
// Every frame draws only what is in view, in a few batched paths: thousands of boxes pan and zoom in a few
// milliseconds (the SVG page it replaces took seconds on SegFormer-B5's 4,376 ops). A 2D canvas suffices: the
// frame is bounded by the number of boxes in view, and labels (text) would need a glyph atlas under WebGL.
(function () {
  "use strict";

  const labelPx = 11;        // the label font at scale 1
  const minLabelPx = 7;      // the smallest label drawn, on the screen
  const summaryPx = 11;      // the font of a closed block's summary, on the screen
  const titlePx = 12;        // a group's title at scale 1
  const font = "ui-sans-serif, system-ui, sans-serif";

  // The colours of graphview's SVG style (svg.go), by node class.
  const fills = { "": "#fff", region: "#f3f3ff", matched: "#fff1c2", added: "#d6f5d6", removed: "#fddcdc" };
  const strokes = { "": "#56606e", region: "#56606e", matched: "#b7791f", added: "#1e7b1e", removed: "#c0262d" };
  // Marks the page sets (search hits, the current hit, the selection, a match's ops), drawn over the boxes, in
  // this order (the last on top).
  const markStyles = [
    ["hit", "#1f5fbf", 2.5], ["bound", "#d6336c", 3], ["current", "#f08c00", 4], ["selected", "#000", 2.5],
  ];

  // kindOf returns the class that colours a node: the first of removed, added, matched, region it has.
  function kindOf(classes) {
    for (const c of ["removed", "added", "matched", "region"]) if (classes.indexOf(c) >= 0) return c;
    return "";
  }

  // searchPattern turns a search into a test of a text: case-insensitive, and a query that names a value (%12,
  // %x) matches that value only, not %120 or %x2.
  function searchPattern(q) {
    q = String(q || "").trim();
    if (!q) return null;
    let src = q.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    if (/^%[\w.]+$/.test(q)) src += "(?![\\w.])";
    const re = new RegExp(src, "i");
    return function (text) { return re.test(text); };
  }

  // Node is a box of the drawing as the page sees it: its data (a DrawingNode), its index, the key of its op.
  function Node(d, i) {
    this.data = d;
    this.index = i;
    this.key = d.keys && d.keys.length ? d.keys[0] : "";
    this.classes = d.classes || [];
  }

  // Canvas draws into viewport (an element it fills with a canvas); hooks.click(node, event) is called when a box is
  // clicked (not dragged).
  function Canvas(viewport, hooks) {
    this.viewport = viewport;
    this.hooks = hooks || {};
    this.canvas = document.createElement("canvas");
    this.canvas.className = "gv-canvas";
    viewport.appendChild(this.canvas);
    this.ctx = this.canvas.getContext("2d", { alpha: false });
    this.drawing = null;
    this.nodes = [];
    this.byKey = new Map();
    this.marks = new Map();   // mark → Set of node indices
    this.hits = [];
    this.hit = -1;
    this.t = { x: 0, y: 0, k: 1 };
    this.frames = [];         // the last 200 frames' times in ms, for tests and the curious
    this.frameCount = 0;      // the frames drawn so far
    this.firstFrameAt = 0;    // when the first frame of a drawing was done (performance.now(): since the page's start)
    this.last = null;         // what the last frame drew: {boxes, labels, edges, summaries}
    this.pending = 0;
    this.width = 0;
    this.height = 0;
    this.listen();
  }

  Canvas.prototype.listen = function () {
    const self = this;
    let drag = null;
    this.canvas.addEventListener("pointerdown", function (e) {
      if (e.button !== 0) return;
      drag = { x: e.clientX, y: e.clientY, tx: self.t.x, ty: self.t.y, moved: false, id: e.pointerId };
      if (self.canvas.setPointerCapture) {
        try { self.canvas.setPointerCapture(e.pointerId); } catch (_) { /* a synthetic pointer */ }
      }
    });
    this.canvas.addEventListener("pointermove", function (e) {
      if (!drag) return;
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
      drag.moved = true;
      self.viewport.classList.add("dragging");
      self.t.x = drag.tx + dx;
      self.t.y = drag.ty + dy;
      self.apply();
    });
    const end = function (e) {
      if (!drag) return;
      const moved = drag.moved;
      drag = null;
      self.viewport.classList.remove("dragging");
      if (moved || e.type !== "pointerup") return;
      const n = self.nodeAt(e.clientX, e.clientY);
      if (n && self.hooks.click) self.hooks.click(n, e);
    };
    this.canvas.addEventListener("pointerup", end);
    this.canvas.addEventListener("pointercancel", end);
    this.canvas.addEventListener("wheel", function (e) {
      e.preventDefault();
      const r = self.canvas.getBoundingClientRect();
      self.zoomAt(Math.exp(-e.deltaY * 0.0015), e.clientX - r.left, e.clientY - r.top);
    }, { passive: false });
    this.canvas.addEventListener("mousemove", function (e) {
      if (drag) return;
      const n = self.nodeAt(e.clientX, e.clientY);
      self.canvas.title = n ? n.data.detail || n.data.label : self.groupTitleAt(e.clientX, e.clientY);
      self.canvas.style.cursor = n ? "pointer" : "";
    });
    if (window.ResizeObserver) new ResizeObserver(function () { self.apply(); }).observe(this.viewport);
  };

  // size returns the viewport's size in CSS pixels.
  Canvas.prototype.size = function () {
    const r = this.viewport.getBoundingClientRect();
    return { w: r.width, h: r.height };
  };

  // apply asks for a frame (one per animation frame, however many changes came before it).
  Canvas.prototype.apply = function () {
    if (this.pending) return;
    const self = this;
    this.pending = requestAnimationFrame(function () { self.pending = 0; self.render(); });
  };

  // zoomAt scales by f around the viewport point (x, y).
  Canvas.prototype.zoomAt = function (f, x, y) {
    const k = Math.min(8, Math.max(0.002, this.t.k * f));
    f = k / this.t.k;
    this.t.x = x - (x - this.t.x) * f;
    this.t.y = y - (y - this.t.y) * f;
    this.t.k = k;
    this.apply();
  };

  Canvas.prototype.zoom = function (f) {
    const s = this.size();
    this.zoomAt(f, s.w / 2, s.h / 2);
  };

  // fit shows the whole drawing, no larger than life; a drawing too tall to show whole at a readable width (a real
  // model is a long chain) is shown at the width of the view from its top.
  Canvas.prototype.fit = function () {
    if (!this.drawing) return;
    const s = this.size();
    const w = Math.max(this.drawing.width, 1), h = Math.max(this.drawing.height, 1);
    const k = Math.min(1, (s.w - 20) / w, (s.h - 20) / h);
    this.t = { k: k > 0 ? k : 1, x: (s.w - w * k) / 2, y: Math.max(10, (s.h - h * k) / 2) };
    this.apply();
  };

  // start shows a new drawing: whole when its labels are legible so, else its top at a legible scale, centred on
  // its first op (real models are long chains: the whole of one is a thread; zoom out for its blocks' summaries).
  Canvas.prototype.start = function () {
    const d = this.drawing;
    if (!d) return;
    const s = this.size();
    const whole = Math.min((s.w - 20) / Math.max(d.width, 1), (s.h - 20) / Math.max(d.height, 1));
    const legible = minLabelPx / labelPx;
    if (whole >= legible || !(d.nodes || []).length || s.w === 0) { this.fit(); return; }
    const k = Math.max(legible, Math.min(1, s.w / d.width));
    const first = d.nodes.reduce(function (a, n) { return n.y < a.y ? n : a; }, d.nodes[0]);
    const x = d.width * k <= s.w ? (s.w - d.width * k) / 2 : Math.min(0, Math.max(s.w - d.width * k, s.w / 2 - first.x * k));
    this.t = { k: k, x: x, y: 0 };
    this.apply();
  };

  // center brings a box to the middle of the view, at a scale where its label is readable.
  Canvas.prototype.center = function (n) {
    if (!n) return;
    const s = this.size();
    this.t.k = Math.max(this.t.k, 0.8);
    this.t.x = s.w / 2 - n.data.x * this.t.k;
    this.t.y = s.h / 2 - n.data.y * this.t.k;
    this.apply();
  };

  // screenPoint returns where a box's centre is on the screen (client coordinates).
  Canvas.prototype.screenPoint = function (n) {
    const r = this.canvas.getBoundingClientRect();
    return { x: r.left + this.t.x + n.data.x * this.t.k, y: r.top + this.t.y + n.data.y * this.t.k };
  };

  // draw replaces the drawing; message, when given instead, is shown in its place.
  Canvas.prototype.draw = function (d, message) {
    const old = this.viewport.querySelector(".empty");
    if (old) old.remove();
    this.drawing = d || null;
    this.nodes = [];
    this.byKey = new Map();
    this.marks = new Map();
    this.hits = [];
    this.hit = -1;
    if (!d) {
      const p = document.createElement("div");
      p.className = "empty";
      p.textContent = message || "";
      this.viewport.appendChild(p);
      this.apply();
      return;
    }
    const self = this;
    (d.nodes || []).forEach(function (nd, i) {
      const n = new Node(nd, i);
      n.kind = kindOf(n.classes);
      n.cut = n.classes.indexOf("cut") >= 0;
      self.nodes.push(n);
      (nd.keys || []).forEach(function (k) { if (k) self.byKey.set(k, n); });
    });
    const byId = new Map();
    this.nodes.forEach(function (n) { byId.set(n.data.id, n); });
    // Edges: their ends and their bounding boxes (to draw only those in view).
    this.edges = (d.edges || []).map(function (e) {
      const p = e.points || [];
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (let i = 0; i + 1 < p.length; i += 2) {
        x0 = Math.min(x0, p[i]); x1 = Math.max(x1, p[i]);
        y0 = Math.min(y0, p[i + 1]); y1 = Math.max(y1, p[i + 1]);
      }
      const from = byId.get(e.from), to = byId.get(e.to);
      return { e: e, p: p, from: from ? from.index : -1, to: to ? to.index : -1, x0: x0, y0: y0, x1: x1, y1: y1 };
    });
    // Blocks that close when zoomed out: collapsed repeats and the repetitions of a graph drawn whole.
    this.groups = (d.groups || []).map(function (g, i) {
      return { g: g, index: i, closes: g.kind === "repeat" || g.kind === "block", depth: g.depth || 0 };
    });
    this.groupOf = new Int32Array(this.nodes.length).fill(-1); // the closing group a node is in
    this.groups.forEach(function (gr) {
      if (!gr.closes) return;
      (gr.g.nodes || []).forEach(function (i) { if (i >= 0 && i < self.nodes.length) self.groupOf[i] = gr.index; });
    });
    this.apply();
  };

  // node returns the box drawing the op with key k (a collapsed block draws several ops in one box), or null.
  Canvas.prototype.node = function (k) { return this.byKey.get(k) || null; };

  // has reports whether a box has a class (of the drawing: matched, added, …) or a mark (of the page).
  Canvas.prototype.has = function (n, cls) {
    if (!n) return false;
    const m = this.marks.get(cls);
    return n.classes.indexOf(cls) >= 0 || !!(m && m.has(n.index));
  };

  // all returns the boxes with a class or a mark, in drawing order.
  Canvas.prototype.all = function (cls) {
    const self = this;
    return this.nodes.filter(function (n) { return self.has(n, cls); });
  };

  // setMark gives the boxes the mark cls, and takes it from every other box.
  Canvas.prototype.setMark = function (cls, nodes) {
    const s = new Set();
    (nodes || []).forEach(function (n) { if (n) s.add(n.index); });
    this.marks.set(cls, s);
    this.apply();
    return s.size;
  };

  // mark gives the boxes of the ops with the given keys the mark cls (and takes it from every other box); it
  // returns how many boxes it marked.
  Canvas.prototype.mark = function (keys, cls) {
    const self = this;
    return this.setMark(cls, (keys || []).map(function (k) { return self.byKey.get(k); }));
  };

  // search marks the hits: the boxes of the ops with the given keys (the ops whose text matched, drawn or in a
  // collapsed block), and the boxes without keys (the removed ops of the result) whose text matches q; without
  // keys, every box whose label, detail or collapsed ops' labels match. It returns the hit boxes.
  Canvas.prototype.search = function (q, keys) {
    this.hits = [];
    this.hit = -1;
    this.marks.delete("current");
    const test = searchPattern(q);
    const seen = new Set();
    const self = this;
    if (test) {
      (keys || []).forEach(function (k) {
        const n = self.byKey.get(k);
        if (n && !seen.has(n.index)) { seen.add(n.index); self.hits.push(n); }
      });
      this.nodes.forEach(function (n) {
        if (keys && n.key) return; // the ops' texts decided
        if (!seen.has(n.index) && self.matches(n, test)) { seen.add(n.index); self.hits.push(n); }
      });
    }
    this.marks.set("hit", seen);
    this.apply();
    return this.hits;
  };

  // matches reports whether a box's text (its label and detail, and the labels of the ops of a collapsed block it
  // stands for) passes test.
  Canvas.prototype.matches = function (n, test) {
    if (test(n.data.label + "\n" + n.data.detail)) return true;
    return (n.data.also || []).some(test);
  };

  // opHits returns, for a search, every op that matches (a box of a collapsed block stands for several): pairs of
  // the box and the op's label.
  Canvas.prototype.opHits = function (q) {
    const test = searchPattern(q);
    const out = [];
    if (!test) return out;
    this.nodes.forEach(function (n) {
      if (test(n.data.label + "\n" + n.data.detail)) out.push({ node: n, label: n.data.label });
      (n.data.also || []).forEach(function (l) { if (test(l)) out.push({ node: n, label: l }); });
    });
    return out;
  };

  // current marks one box as the current hit (and unmarks the previous one), and centres it.
  Canvas.prototype.current = function (n) {
    this.setMark("current", n ? [n] : []);
    if (n) this.center(n);
  };

  // nextHit centres the next search hit, marks it current and returns its number (1-based), or 0.
  Canvas.prototype.nextHit = function () {
    if (this.hits.length === 0) return 0;
    this.hit = (this.hit + 1) % this.hits.length;
    this.current(this.hits[this.hit]);
    return this.hit + 1;
  };

  // world returns the drawing's point under a client point.
  Canvas.prototype.world = function (cx, cy) {
    const r = this.canvas.getBoundingClientRect();
    return { x: (cx - r.left - this.t.x) / this.t.k, y: (cy - r.top - this.t.y) / this.t.k };
  };

  // nodeAt returns the box under a client point, or null (a box inside a closed block is not clickable: the
  // block's summary is drawn over it).
  Canvas.prototype.nodeAt = function (cx, cy) {
    if (!this.drawing) return null;
    const p = this.world(cx, cy);
    const closed = this.closedGroups();
    for (let i = this.nodes.length - 1; i >= 0; i--) {
      const d = this.nodes[i].data;
      if (Math.abs(p.x - d.x) <= d.w / 2 && Math.abs(p.y - d.y) <= d.h / 2) {
        if (closed.has(this.groupOf[i])) return null;
        return this.nodes[i];
      }
    }
    return null;
  };

  // groupTitleAt returns the note of the innermost group under a client point, or "".
  Canvas.prototype.groupTitleAt = function (cx, cy) {
    if (!this.drawing) return "";
    const p = this.world(cx, cy);
    let best = null;
    (this.groups || []).forEach(function (gr) {
      const g = gr.g;
      if (p.x >= g.x && p.x <= g.x + g.w && p.y >= g.y && p.y <= g.y + g.h && (!best || g.w * g.h < best.w * best.h)) best = g;
    });
    return best ? (best.summary || best.title) + (best.note ? "\n" + best.note : "") : "";
  };

  // legible reports whether labels are drawn at the current scale: whether they are at least minLabelPx high.
  Canvas.prototype.legible = function () { return this.t.k * labelPx >= minLabelPx; };

  // closedGroups returns the indices of the blocks drawn closed (as their summaries) at the current scale: when
  // labels are not legible, the blocks less than half the view high and wide.
  Canvas.prototype.closedGroups = function () {
    const out = new Set();
    if (this.legible() || !this.groups) return out;
    const s = this.size(), k = this.t.k;
    for (const gr of this.groups) {
      if (gr.closes && gr.g.h * k < s.h / 2 && gr.g.w * k < s.w / 2) out.add(gr.index);
    }
    return out;
  };

  // render draws a frame: what is in view, batched by style.
  Canvas.prototype.render = function () {
    const t0 = performance.now();
    const s = this.size();
    const dpr = window.devicePixelRatio || 1;
    const cw = Math.max(1, Math.round(s.w * dpr)), ch = Math.max(1, Math.round(s.h * dpr));
    if (this.canvas.width !== cw || this.canvas.height !== ch) {
      this.canvas.width = cw;
      this.canvas.height = ch;
    }
    const ctx = this.ctx;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = "#fbfcfd";
    ctx.fillRect(0, 0, cw, ch);
    const d = this.drawing;
    if (!d || s.w === 0) return;
    const k = this.t.k;
    ctx.setTransform(dpr * k, 0, 0, dpr * k, dpr * this.t.x, dpr * this.t.y);
    // The view in drawing coordinates, a little larger (strokes, arrowheads).
    const pad = 8 / k;
    const vx0 = -this.t.x / k - pad, vy0 = -this.t.y / k - pad, vx1 = (s.w - this.t.x) / k + pad, vy1 = (s.h - this.t.y) / k + pad;
    const inView = function (x0, y0, x1, y1) { return x1 >= vx0 && x0 <= vx1 && y1 >= vy0 && y0 <= vy1; };
    const closedSet = this.closedGroups();
    const closed = closedSet.size > 0;
    const legible = this.legible();
    const px = 1 / k; // one screen pixel
    const groupOf = this.groupOf;
    const groups = this.groups;

    // Groups: regions and removed ops (open), blocks (open, or closed with their summaries), outer ones first.
    const order = groups.slice().sort(function (a, b) { return a.depth - b.depth; });
    for (const gr of order) {
      const g = gr.g;
      if (!inView(g.x, g.y, g.x + g.w, g.y + g.h)) continue;
      if (closedSet.has(gr.index)) continue; // drawn last, over the edges
      ctx.beginPath();
      ctx.rect(g.x, g.y, g.w, g.h);
      ctx.fillStyle = g.kind === "region" ? "rgba(226,230,250,0.45)" : g.kind === "block" ? "rgba(240,243,247,0.6)" : "#f5f7fa";
      ctx.fill();
      ctx.setLineDash(g.kind === "region" ? [] : [6 * px, 4 * px]);
      ctx.lineWidth = px;
      ctx.strokeStyle = g.kind === "region" ? "#6a71b8" : "#7b8494";
      ctx.stroke();
      ctx.setLineDash([]);
      if (titlePx * k >= minLabelPx) {
        ctx.font = "bold " + titlePx + "px " + font;
        ctx.fillStyle = "#4a5361";
        ctx.textBaseline = "alphabetic";
        ctx.textAlign = "left";
        this.clippedText(g.summary || g.title, g.x + 10, g.y + 14, g.w - 14);
      }
    }

    // Edges: one path; those of the selection over them. Inside a closed block they are not drawn.
    const selected = this.marks.get("selected") || new Set();
    const curves = k >= 0.35;
    const arrows = k >= 0.5;
    const heads = [];
    const hot = [];
    let drawnEdges = 0;
    ctx.beginPath();
    for (const ed of this.edges) {
      if (!inView(ed.x0, ed.y0, ed.x1, ed.y1) || ed.p.length < 4) continue;
      if (closed && ed.from >= 0 && closedSet.has(groupOf[ed.from]) && groupOf[ed.from] === groupOf[ed.to]) continue;
      drawnEdges++;
      if (selected.has(ed.from) || selected.has(ed.to)) { hot.push(ed); continue; }
      this.route(ed.p, curves);
      if (arrows) heads.push(ed.p);
    }
    ctx.lineWidth = Math.max(1, 0.6 * px);
    ctx.strokeStyle = "#8a94a3";
    ctx.stroke();
    if (arrows) this.arrowheads(heads, "#8a94a3");
    if (hot.length) {
      ctx.beginPath();
      for (const ed of hot) this.route(ed.p, curves);
      ctx.lineWidth = Math.max(2, 1.5 * px);
      ctx.strokeStyle = "#000";
      ctx.stroke();
      this.arrowheads(hot.map(function (ed) { return ed.p; }), "#000");
    }

    // Boxes, batched by colour; labels when legible.
    const visible = [];
    for (const n of this.nodes) {
      const nd = n.data;
      if (closed && closedSet.has(groupOf[n.index])) continue;
      if (!inView(nd.x - nd.w / 2, nd.y - nd.h / 2, nd.x + nd.w / 2, nd.y + nd.h / 2)) continue;
      visible.push(n);
    }
    const rounded = k >= 0.5 && ctx.roundRect;
    for (const kind of ["", "region", "matched", "added", "removed"]) {
      ctx.beginPath();
      let any = false;
      for (const n of visible) {
        if (n.kind !== kind) continue;
        const nd = n.data;
        if (rounded) ctx.roundRect(nd.x - nd.w / 2, nd.y - nd.h / 2, nd.w, nd.h, 5);
        else ctx.rect(nd.x - nd.w / 2, nd.y - nd.h / 2, nd.w, nd.h);
        any = true;
      }
      if (!any) continue;
      ctx.fillStyle = fills[kind];
      ctx.fill();
      ctx.lineWidth = Math.max(kind === "" || kind === "region" ? 1 : 1.5, 0.75 * px);
      ctx.strokeStyle = strokes[kind];
      ctx.stroke();
    }
    // Boxes with neighbours outside the focus: dashed.
    const cut = visible.filter(function (n) { return n.cut; });
    if (cut.length) {
      ctx.beginPath();
      for (const n of cut) ctx.rect(n.data.x - n.data.w / 2 - 2, n.data.y - n.data.h / 2 - 2, n.data.w + 4, n.data.h + 4);
      ctx.setLineDash([4, 3]);
      ctx.lineWidth = 1;
      ctx.strokeStyle = "#56606e";
      ctx.stroke();
      ctx.setLineDash([]);
    }
    // Marks.
    for (const [cls, color, width] of markStyles) {
      const m = this.marks.get(cls);
      if (!m || m.size === 0) continue;
      ctx.beginPath();
      let any = false;
      for (const n of visible) {
        if (!m.has(n.index)) continue;
        const nd = n.data;
        ctx.rect(nd.x - nd.w / 2, nd.y - nd.h / 2, nd.w, nd.h);
        any = true;
      }
      // A mark stays visible when the box is a few pixels: at least its stroke on the screen.
      if (!any) continue;
      if (cls === "current") { ctx.fillStyle = "#ffd8b5"; ctx.fill(); }
      ctx.lineWidth = Math.max(width, width * px);
      ctx.strokeStyle = color;
      ctx.stroke();
    }
    let labels = 0, summaries = 0;
    if (legible) {
      labels = visible.length;
      ctx.fillStyle = "#1b1f24";
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      const cur = this.marks.get("current") || new Set();
      ctx.font = labelPx + "px " + font;
      for (const n of visible) {
        if (cur.has(n.index)) ctx.font = "bold " + labelPx + "px " + font;
        ctx.fillText(n.data.label, n.data.x, n.data.y + 0.5);
        if (cur.has(n.index)) ctx.font = labelPx + "px " + font;
      }
    }

    // Closed blocks: a box with the block's summary in a legible font, over what it holds. Open blocks whose labels
    // are not legible keep their summary in view at their top.
    if (!legible) {
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.font = summaryPx + "px " + font;
      ctx.textAlign = "left";
      ctx.textBaseline = "middle";
      for (const gr of order) {
        if (!gr.closes) continue;
        if (!closedSet.has(gr.index)) {
          const g = gr.g;
          if (!inView(g.x, g.y, g.x + g.w, g.y + g.h)) continue;
          const x = Math.max(this.t.x + g.x * k, 0), y = Math.max(this.t.y + g.y * k, 0);
          // The summary may reach past a narrow block's right edge, to a third of the view.
          const w = Math.min(Math.max(this.t.x + (g.x + g.w) * k, x + s.w / 3), s.w) - x;
          if (w < 40) continue;
          const text = g.summary || g.title;
          const tw = Math.min(ctx.measureText(text).width + 12, w);
          ctx.fillStyle = "rgba(223,231,243,0.92)";
          ctx.fillRect(x, y, tw, summaryPx + 8);
          ctx.fillStyle = "#1b1f24";
          this.clippedText(text, x + 6, y + (summaryPx + 8) / 2, tw - 10);
          summaries++;
          continue;
        }
        const g = gr.g;
        if (!inView(g.x, g.y, g.x + g.w, g.y + g.h)) continue;
        const x = this.t.x + g.x * k, y = this.t.y + g.y * k, w = g.w * k, h = g.h * k;
        ctx.fillStyle = g.kind === "repeat" ? "#dfe7f3" : "#eef1f5";
        ctx.fillRect(x, y, w, h);
        ctx.lineWidth = 1;
        ctx.strokeStyle = g.kind === "repeat" ? "#3d5a80" : "#7b8494";
        ctx.strokeRect(x + 0.5, y + 0.5, Math.max(w - 1, 1), Math.max(h - 1, 1));
        // Marked boxes inside stay visible: a stripe at the block's edge.
        const marked = this.markedIn(g);
        if (marked) {
          ctx.fillStyle = marked;
          ctx.fillRect(x, y, Math.min(4, w), h);
        }
        if (h >= summaryPx + 2 && w >= 24) {
          summaries++;
          ctx.fillStyle = "#1b1f24";
          const lines = Math.max(1, Math.min(8, Math.floor((h - 2) / (summaryPx + 3))));
          this.wrappedText(g.summary || g.title, x + 6, y + h / 2, w - 10, lines, summaryPx + 3);
        }
      }
    }
    this.last = { boxes: visible.length, labels: labels, edges: drawnEdges, summaries: summaries };
    const ms = performance.now() - t0;
    this.frames.push(ms);
    this.frameCount++;
    if (!this.firstFrameAt) this.firstFrameAt = performance.now();
    if (this.frames.length > 200) this.frames.splice(0, this.frames.length - 200);
  };

  // markedIn returns the colour of the strongest mark of a box inside group g, or "".
  Canvas.prototype.markedIn = function (g) {
    for (let i = markStyles.length - 1; i >= 0; i--) {
      const m = this.marks.get(markStyles[i][0]);
      if (!m || m.size === 0) continue;
      if ((g.nodes || []).some(function (n) { return m.has(n); })) return markStyles[i][1];
    }
    return "";
  };

  // route adds an edge's route to the current path: through its points, with vertical tangents at each (as the
  // SVG's cubic Béziers) when curves, else straight segments (zoomed out, where the difference is below a pixel).
  Canvas.prototype.route = function (p, curves) {
    const ctx = this.ctx;
    ctx.moveTo(p[0], p[1]);
    for (let i = 2; i + 1 < p.length; i += 2) {
      if (curves) {
        const dy = (p[i + 1] - p[i - 1]) / 2;
        ctx.bezierCurveTo(p[i - 2], p[i - 1] + dy, p[i], p[i + 1] - dy, p[i], p[i + 1]);
      } else {
        ctx.lineTo(p[i], p[i + 1]);
      }
    }
  };

  // arrowheads draws an arrowhead at the end of each route (they end at the top of their target, going down).
  Canvas.prototype.arrowheads = function (routes, color) {
    const ctx = this.ctx;
    ctx.beginPath();
    for (const p of routes) {
      const x = p[p.length - 2], y = p[p.length - 1];
      ctx.moveTo(x, y);
      ctx.lineTo(x - 3.5, y - 7);
      ctx.lineTo(x + 3.5, y - 7);
      ctx.closePath();
    }
    ctx.fillStyle = color;
    ctx.fill();
  };

  // clippedText draws text from (x, y), cut with an ellipsis to width.
  Canvas.prototype.clippedText = function (text, x, y, width) {
    const ctx = this.ctx;
    if (width <= 0) return;
    if (ctx.measureText(text).width <= width) { ctx.fillText(text, x, y); return; }
    let lo = 0, hi = text.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ctx.measureText(text.slice(0, mid) + "…").width <= width) lo = mid; else hi = mid - 1;
    }
    if (lo > 0) ctx.fillText(text.slice(0, lo) + "…", x, y);
  };

  // wrappedText draws text in at most lines lines of width, centred on y, breaking after commas and colons.
  Canvas.prototype.wrappedText = function (text, x, y, width, lines, lh) {
    const ctx = this.ctx;
    const words = text.split(/(?<=[,:]) /);
    const out = [];
    let line = "";
    for (const w of words) {
      const t = line ? line + " " + w : w;
      if (line && ctx.measureText(t).width > width) {
        out.push(line);
        line = w;
      } else {
        line = t;
      }
    }
    if (line) out.push(line);
    const shown = out.slice(0, lines);
    if (out.length > lines) shown[lines - 1] = shown[lines - 1] + " " + out.slice(lines).join(" ");
    const y0 = y - (shown.length - 1) * lh / 2;
    for (let i = 0; i < shown.length; i++) this.clippedText(shown[i], x, y0 + i * lh, width);
  };

  window.GraphView = { Canvas: Canvas, searchPattern: searchPattern, minLabelPx: minLabelPx, labelPx: labelPx };
})();
