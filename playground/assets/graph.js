// The page's graph: draws a graphview.Drawing (GET /api/runs/{id}/graph) into an SVG, with pan (drag), zoom
// (wheel, + and −), fit, search over the ops' labels and details, and marks: the ops a match bound, the op
// selected. Nodes are found by the op keys the server gives them (o12), so that the rest of the page can name ops.
(function () {
  "use strict";

  const SVG = "http://www.w3.org/2000/svg";

  function el(name, attrs, parent) {
    const e = document.createElementNS(SVG, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  // Graph draws into scene (a <g> of svg) inside viewport; hooks.click(node, event) is called when an op is clicked.
  function Graph(viewport, svg, scene, hooks) {
    this.viewport = viewport;
    this.svg = svg;
    this.scene = scene;
    this.hooks = hooks;
    this.drawing = null;
    this.byKey = {};   // op key → node element
    this.nodes = [];   // node elements in drawing order
    this.hits = [];
    this.hit = -1;
    this.t = { x: 0, y: 0, k: 1 };
    this.listen();
  }

  Graph.prototype.listen = function () {
    const self = this;
    let drag = null;
    this.viewport.addEventListener("pointerdown", function (e) {
      if (e.button !== 0) return;
      drag = { x: e.clientX, y: e.clientY, tx: self.t.x, ty: self.t.y, moved: false };
    });
    window.addEventListener("pointermove", function (e) {
      if (!drag) return;
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
      drag.moved = true;
      self.viewport.classList.add("dragging");
      self.t.x = drag.tx + dx;
      self.t.y = drag.ty + dy;
      self.apply();
    });
    window.addEventListener("pointerup", function (e) {
      if (!drag) return;
      const moved = drag.moved;
      drag = null;
      self.viewport.classList.remove("dragging");
      if (moved) return;
      const node = e.target.closest && e.target.closest(".gv-node");
      if (node && self.viewport.contains(node)) self.hooks.click(node, e);
    });
    this.viewport.addEventListener("wheel", function (e) {
      e.preventDefault();
      const r = self.viewport.getBoundingClientRect();
      self.zoomAt(Math.exp(-e.deltaY * 0.0015), e.clientX - r.left, e.clientY - r.top);
    }, { passive: false });
  };

  // minLabelPx is the smallest size a box's label is drawn at: below it the labels are left out (the box's tooltip
  // and the details panel still name the op) — unreadable text costs most of a frame's paint at model size.
  const labelPx = 11, minLabelPx = 6;

  Graph.prototype.apply = function () {
    this.scene.setAttribute("transform", "translate(" + this.t.x + "," + this.t.y + ") scale(" + this.t.k + ")");
    this.svg.classList.toggle("gv-small", this.t.k * labelPx < minLabelPx);
  };

  // zoomAt scales by f around the viewport point (x, y).
  Graph.prototype.zoomAt = function (f, x, y) {
    const k = Math.min(8, Math.max(0.02, this.t.k * f));
    f = k / this.t.k;
    this.t.x = x - (x - this.t.x) * f;
    this.t.y = y - (y - this.t.y) * f;
    this.t.k = k;
    this.apply();
  };

  Graph.prototype.zoom = function (f) {
    const r = this.viewport.getBoundingClientRect();
    this.zoomAt(f, r.width / 2, r.height / 2);
  };

  // fit shows the whole drawing, but no larger than life.
  Graph.prototype.fit = function () {
    if (!this.drawing) return;
    const r = this.viewport.getBoundingClientRect();
    const w = Math.max(this.drawing.width, 1), h = Math.max(this.drawing.height, 1);
    const k = Math.min(1, (r.width - 20) / w, (r.height - 20) / h);
    this.t = { k: k, x: (r.width - w * k) / 2, y: Math.max(10, (r.height - h * k) / 2) };
    this.apply();
  };

  // center brings a node to the middle of the viewport, at a readable scale.
  Graph.prototype.center = function (node) {
    const r = this.viewport.getBoundingClientRect();
    const d = node.__data;
    this.t.k = Math.max(this.t.k, 0.8);
    this.t.x = r.width / 2 - d.x * this.t.k;
    this.t.y = r.height / 2 - d.y * this.t.k;
    this.apply();
  };

  // draw replaces the drawing; message, when given instead, is shown in its place.
  Graph.prototype.draw = function (d, message) {
    this.scene.textContent = "";
    const old = this.viewport.querySelector(".empty");
    if (old) old.remove();
    this.drawing = d;
    this.byKey = {};
    this.nodes = [];
    this.hits = [];
    this.hit = -1;
    if (!d) {
      const p = document.createElement("div");
      p.className = "empty";
      p.textContent = message || "";
      this.viewport.appendChild(p);
      return;
    }
    el("path", { d: "M0,0 L8,4 L0,8 z", fill: "#8a94a3" },
      el("marker", { id: "arrow", viewBox: "0 0 8 8", refX: 8, refY: 4, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
        el("defs", {}, this.scene)));
    const groups = el("g", { class: "gv-groups" }, this.scene);
    (d.groups || []).forEach(function (g) {
      const e = el("g", { class: "gv-group" }, groups);
      el("rect", { x: g.x, y: g.y, width: g.w, height: g.h, rx: 8 }, e);
      el("text", { x: g.x + 10, y: g.y + 14 }, e).textContent = g.title;
      el("title", {}, e).textContent = g.note;
    });
    const edges = el("g", { class: "gv-edges" }, this.scene);
    (d.edges || []).forEach(function (ed) {
      const e = el("path", { class: "gv-edge", d: ed.path, "marker-end": "url(#arrow)", "data-from": ed.from, "data-to": ed.to }, edges);
      el("title", {}, e).textContent = ed.label;
    });
    const nodes = el("g", { class: "gv-nodes" }, this.scene);
    const self = this;
    (d.nodes || []).forEach(function (n) {
      const cls = ["gv-node"].concat(n.classes || []).join(" ");
      const e = el("g", { class: cls, "data-id": n.id, transform: "translate(" + n.x + "," + n.y + ")" }, nodes);
      if (n.keys && n.keys.length) e.setAttribute("data-key", n.keys[0]);
      el("rect", { x: -n.w / 2, y: -n.h / 2, width: n.w, height: n.h, rx: 5 }, e);
      el("text", {}, e).textContent = n.label;
      el("title", {}, e).textContent = n.detail;
      e.__data = n;
      self.nodes.push(e);
      (n.keys || []).forEach(function (k) { if (k) self.byKey[k] = e; });
    });
  };

  // node returns the element drawing the op with key k (a collapsed block draws several ops in one box).
  Graph.prototype.node = function (k) { return this.byKey[k] || null; };

  // mark gives the ops with the given keys the class cls (and takes it from every other node); it returns how many
  // nodes it marked.
  Graph.prototype.mark = function (keys, cls) {
    this.scene.querySelectorAll(".gv-node." + cls).forEach(function (e) { e.classList.remove(cls); });
    let n = 0;
    const self = this;
    keys.forEach(function (k) {
      const e = self.byKey[k];
      if (e && !e.classList.contains(cls)) { e.classList.add(cls); n++; }
    });
    return n;
  };

  // searchPattern turns a search into a test of a text: case-insensitive, and a query that names a value (%12,
  // %x) matches that value only, not %120 or %x2.
  function searchPattern(q) {
    q = q.trim();
    if (!q) return null;
    let src = q.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    if (/^%[\w.]+$/.test(q)) src += "(?![\\w.])";
    const re = new RegExp(src, "i");
    return function (text) { return re.test(text); };
  }

  // search marks the hits: the boxes of the ops with the given keys (the ops whose text matched, drawn or in a
  // collapsed block), and the boxes without keys (the removed ops of the result) whose label or detail matches q;
  // without keys, every box whose label or detail matches. It returns the hit boxes.
  Graph.prototype.search = function (q, keys) {
    this.nodes.forEach(function (e) { e.classList.remove("hit", "current"); });
    this.hits = [];
    this.hit = -1;
    const test = searchPattern(q);
    if (!test) return this.hits;
    const self = this;
    const seen = new Set();
    (keys || []).forEach(function (k) {
      const e = self.byKey[k];
      if (e && !seen.has(e)) { seen.add(e); e.classList.add("hit"); self.hits.push(e); }
    });
    this.nodes.forEach(function (e) {
      const d = e.__data;
      if (keys && d.keys && d.keys.length) return; // the ops' texts decided
      if (!seen.has(e) && test(d.label + "\n" + d.detail)) { seen.add(e); e.classList.add("hit"); self.hits.push(e); }
    });
    return this.hits;
  };

  // current marks one box as the current hit (and unmarks the previous one), and centres it.
  Graph.prototype.current = function (e) {
    this.nodes.forEach(function (n) { n.classList.remove("current"); });
    if (!e) return;
    e.classList.add("current");
    this.center(e);
  };

  // nextHit centres the next search hit, marks it current and returns its number (1-based), or 0.
  Graph.prototype.nextHit = function () {
    if (this.hits.length === 0) return 0;
    this.hit = (this.hit + 1) % this.hits.length;
    this.current(this.hits[this.hit]);
    return this.hit + 1;
  };

  window.PlaygroundGraph = { Graph: Graph, searchPattern: searchPattern };
})();
