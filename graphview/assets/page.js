// The interactive page of package graphview: pan (drag), zoom (wheel, + and -, fit), search (labels and details,
// Enter for the next hit), details of the clicked op. No network, no libraries.
(function () {
  "use strict";
  const panels = Array.from(document.querySelectorAll(".gv-panel")).map(function (el) {
    const viewport = el.querySelector(".gv-viewport");
    const svg = viewport.querySelector("svg");
    const scene = svg.querySelector(".gv-scene");
    return { el: el, viewport: viewport, svg: svg, scene: scene,
      width: +svg.dataset.width, height: +svg.dataset.height, scale: 1, x: 0, y: 0 };
  });

  function apply(p) {
    p.scene.setAttribute("transform", "translate(" + p.x + "," + p.y + ") scale(" + p.scale + ")");
  }
  // start shows a drawing whole when it fits at a readable scale, else its top at the width of the view (real
  // models are long chains: the whole of one is a thread).
  function start(p) {
    const r = p.viewport.getBoundingClientRect();
    const whole = Math.min(r.width / p.width, r.height / p.height);
    if (whole >= 0.5) { fit(p); return; }
    p.scale = Math.min(r.width / p.width, 1);
    p.x = (r.width - p.width * p.scale) / 2;
    p.y = 0;
    apply(p);
  }
  function fit(p) {
    const r = p.viewport.getBoundingClientRect();
    const s = Math.min(r.width / p.width, r.height / p.height, 1.5);
    p.scale = s > 0 ? s : 1;
    p.x = (r.width - p.width * p.scale) / 2;
    p.y = Math.max(0, (r.height - p.height * p.scale) / 2);
    apply(p);
  }
  // zoom multiplies the scale by f around the point (cx, cy) of the viewport.
  function zoom(p, f, cx, cy) {
    const s = Math.min(Math.max(p.scale * f, 0.02), 8);
    f = s / p.scale;
    p.x = cx - (cx - p.x) * f;
    p.y = cy - (cy - p.y) * f;
    p.scale = s;
    apply(p);
  }
  function center(p, node, minScale) {
    const r = p.viewport.getBoundingClientRect();
    const m = /translate\(([-\d.]+),([-\d.]+)\)/.exec(node.getAttribute("transform"));
    p.scale = Math.max(p.scale, minScale);
    p.x = r.width / 2 - (+m[1]) * p.scale;
    p.y = r.height / 2 - (+m[2]) * p.scale;
    apply(p);
  }

  panels.forEach(function (p) {
    let drag = null;
    p.viewport.addEventListener("wheel", function (e) {
      e.preventDefault();
      const r = p.viewport.getBoundingClientRect();
      zoom(p, Math.exp(-e.deltaY * 0.0015), e.clientX - r.left, e.clientY - r.top);
    }, { passive: false });
    p.viewport.addEventListener("pointerdown", function (e) {
      if (e.target.closest(".gv-node")) return;
      drag = { x: e.clientX - p.x, y: e.clientY - p.y };
      p.viewport.classList.add("dragging");
      p.viewport.setPointerCapture(e.pointerId);
    });
    p.viewport.addEventListener("pointermove", function (e) {
      if (!drag) return;
      p.x = e.clientX - drag.x;
      p.y = e.clientY - drag.y;
      apply(p);
    });
    function end() { drag = null; p.viewport.classList.remove("dragging"); }
    p.viewport.addEventListener("pointerup", end);
    p.viewport.addEventListener("pointercancel", end);
    p.svg.addEventListener("click", function (e) {
      const node = e.target.closest(".gv-node");
      if (node) select(node);
    });
    start(p);
  });

  const details = document.getElementById("gv-details");
  function select(node) {
    document.querySelectorAll(".selected").forEach(function (el) { el.classList.remove("selected"); });
    node.classList.add("selected");
    document.querySelectorAll('.gv-edge[data-from="' + node.id + '"], .gv-edge[data-to="' + node.id + '"]')
      .forEach(function (el) { el.classList.add("selected"); });
    details.textContent = node.dataset.detail;
  }

  // Search.
  const input = document.getElementById("gv-search");
  const count = document.getElementById("gv-count");
  let hits = [], current = -1;
  function search(q) {
    hits.forEach(function (n) { n.classList.remove("hit", "current"); });
    hits = [];
    current = -1;
    q = q.trim().toLowerCase();
    if (q !== "") {
      document.querySelectorAll(".gv-node").forEach(function (n) {
        if ((n.dataset.label + "\n" + n.dataset.detail).toLowerCase().indexOf(q) >= 0) {
          n.classList.add("hit");
          hits.push(n);
        }
      });
    }
    count.textContent = q === "" ? "" : hits.length + (hits.length === 1 ? " op" : " ops");
    return hits.length;
  }
  function next(step) {
    if (hits.length === 0) return null;
    if (current >= 0) hits[current].classList.remove("current");
    current = (current + step + hits.length) % hits.length;
    const node = hits[current];
    node.classList.add("current");
    const p = panels.find(function (p) { return p.svg.contains(node); });
    center(p, node, 1);
    select(node);
    count.textContent = (current + 1) + " of " + hits.length;
    return node.id;
  }
  input.addEventListener("input", function () { search(input.value); });
  input.addEventListener("keydown", function (e) {
    if (e.key === "Enter") { e.preventDefault(); next(e.shiftKey ? -1 : 1); }
  });
  function zoomAll(f) {
    panels.forEach(function (p) {
      const r = p.viewport.getBoundingClientRect();
      zoom(p, f, r.width / 2, r.height / 2);
    });
  }
  document.getElementById("gv-in").addEventListener("click", function () { zoomAll(1.25); });
  document.getElementById("gv-out").addEventListener("click", function () { zoomAll(0.8); });
  document.getElementById("gv-fit").addEventListener("click", function () { panels.forEach(fit); });
  document.getElementById("gv-next").addEventListener("click", function () { next(1); });
  document.addEventListener("keydown", function (e) {
    if (e.target === input) return;
    if (e.key === "+" || e.key === "=") zoomAll(1.25);
    if (e.key === "-") zoomAll(0.8);
    if (e.key === "/") { e.preventDefault(); input.focus(); }
  });

  // For tests and for the playground: the state of each panel, and the same actions as the controls.
  window.graphview = {
    panels: function () { return panels.map(function (p) { return { scale: p.scale, x: p.x, y: p.y }; }); },
    search: search, next: next, zoom: zoomAll,
  };
})();
