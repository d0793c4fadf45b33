// The page of drrc graph: each panel's drawing (the JSON of #gv-drawings) drawn by the canvas renderer
// (canvas.js, window.GraphView), with pan (drag), zoom (wheel, + and -, fit), search over every op (labels and
// details; the ops of collapsed blocks too; Enter for the next hit) and the details of the clicked op. No network,
// no libraries.
(function () {
  "use strict";
  const drawings = JSON.parse(document.getElementById("gv-drawings").textContent);
  const details = document.getElementById("gv-details");
  const panels = Array.from(document.querySelectorAll(".gv-panel")).map(function (el, i) {
    const view = new window.GraphView.Canvas(el.querySelector(".gv-viewport"), {
      click: function (n) { select(view, n); },
    });
    view.draw(drawings[i]);
    return view;
  });

  panels.forEach(function (p) { p.start(); });

  function select(view, n) {
    panels.forEach(function (p) { p.setMark("selected", p === view ? [n] : []); });
    details.textContent = n.data.detail;
  }

  // Search: every op whose text matches (a box of a collapsed block stands for several ops).
  const input = document.getElementById("gv-search");
  const count = document.getElementById("gv-count");
  let hits = [], current = -1;
  function search(q) {
    hits = [];
    current = -1;
    panels.forEach(function (p) {
      p.search(q);
      p.opHits(q).forEach(function (h) { hits.push({ panel: p, node: h.node, label: h.label }); });
    });
    const boxes = panels.reduce(function (n, p) { return n + p.hits.length; }, 0);
    count.textContent = String(q).trim() === "" ? "" : hits.length + (hits.length === 1 ? " op" : " ops") +
      (boxes !== hits.length ? " in " + boxes + (boxes === 1 ? " box" : " boxes") : "");
    return hits.length;
  }
  // next goes to the next (step 1) or previous (-1) op found: its box is marked current, centred and selected.
  function next(step) {
    if (hits.length === 0) return null;
    current = (current + step + hits.length) % hits.length;
    const h = hits[current];
    panels.forEach(function (p) { p.current(p === h.panel ? h.node : null); });
    select(h.panel, h.node);
    const inBlock = h.label !== h.node.data.label;
    count.textContent = (current + 1) + " of " + hits.length + (inBlock ? " (" + h.label + ", in a collapsed block)" : "");
    return h.node.data.id;
  }
  input.addEventListener("input", function () { search(input.value); });
  input.addEventListener("keydown", function (e) {
    if (e.key === "Enter") { e.preventDefault(); next(e.shiftKey ? -1 : 1); }
  });
  function zoomAll(f) { panels.forEach(function (p) { p.zoom(f); }); }
  document.getElementById("gv-in").addEventListener("click", function () { zoomAll(1.25); });
  document.getElementById("gv-out").addEventListener("click", function () { zoomAll(0.8); });
  document.getElementById("gv-fit").addEventListener("click", function () { panels.forEach(function (p) { p.fit(); }); });
  document.getElementById("gv-next").addEventListener("click", function () { next(1); });
  document.addEventListener("keydown", function (e) {
    if (e.target === input) return;
    if (e.key === "+" || e.key === "=") zoomAll(1.25);
    if (e.key === "-") zoomAll(0.8);
    if (e.key === "/") { e.preventDefault(); input.focus(); }
  });

  // For tests: the state of each panel, the renderers, and the same actions as the controls.
  window.graphview = {
    panels: function () { return panels.map(function (p) { return { scale: p.t.k, x: p.t.x, y: p.t.y }; }); },
    views: panels,
    search: search, next: next, zoom: zoomAll,
  };
})();
