// The playground's page: wires the editor (editor.js), its language server (lsp.js) and the graph (graphview.js,
// graphview's canvas renderer, the one of drrc graph's page) to
// the server's API (server.go): pick a program, run the editor's rules on it, look at the result (graph, program,
// diff, pipeline), explain an op, step through a rule's matches, verify, share.
(function () {
  "use strict";

  const $ = function (id) { return document.getElementById(id); };
  const E = window.DRREditor;
  const state = {
    info: null,
    run: null,        // the last run's result (POST /api/run)
    view: "before",   // the graph shown: the stage the rules ran on, or the result
    graphStage: 0,
    graphGen: 0, // showGraph's calls, counted: only the newest may draw
    graphDrawn: 0, // the showGraph call whose graph is drawn (graphGen when the view asked for last is on screen)
    selected: null,   // the selected op's key
    rule: null,       // the rule whose matches are stepped through
    matchIndex: -1,
    stage: 0,         // the pipeline's current stage
    uploads: {},      // upload id → name
  };
  let editor = null;
  let lsp = null;

  function status(text, kind) {
    const s = $("status");
    s.textContent = text;
    s.className = kind || "";
    s.title = text;
  }

  function esc(t) {
    return String(t).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }

  // ApiError is a request that failed: the server's refusal, or no answer. Anything else a promise of the page
  // rejects with is a bug of the page, which fail reports as one.
  function ApiError(message) {
    this.message = message;
  }
  ApiError.prototype = Object.create(Error.prototype);
  ApiError.prototype.name = "ApiError";

  // api sends a request to the server and returns its decoded answer; a failed request throws an ApiError with the
  // server's message.
  function api(method, path, body, signal) {
    const init = { method: method, headers: {}, signal: signal };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(path, init).catch(function (err) {
      if (err && err.name === "AbortError") throw err;
      throw new ApiError("the server does not answer (" + err.message + "): is drrc serve still running?");
    }).then(function (r) {
      return r.json().catch(function () {
        throw new ApiError("the server answered " + r.status + " " + r.statusText + " without JSON");
      }).then(function (b) {
        if (!r.ok) throw new ApiError((b && b.error) || r.status + " " + r.statusText);
        return b;
      });
    });
  }

  // pageError reports a bug of the page (an exception, a rejected promise) in the status line, and on the console
  // where the browser test sees it.
  function pageError(err, where) {
    const msg = (err && err.message) || String(err);
    status("internal error in the page" + (where ? " (" + where + ")" : "") + ": " + msg + " — please report it", "error");
    console.error("playground:", where || "", err);
  }

  // fail shows a failed request's message in box (the status line when box is null) and reports anything else as a
  // bug of the page.
  function fail(box, where) {
    return function (err) {
      if (err instanceof ApiError) {
        if (box) box.textContent = err.message;
        else status(err.message, "error");
        return;
      }
      if (err && err.name === "AbortError") return;
      if (box) box.textContent = "internal error in the page: " + ((err && err.message) || err);
      pageError(err, where);
    };
  }

  window.addEventListener("error", function (e) { pageError(e.error || e.message, "uncaught"); });
  window.addEventListener("unhandledrejection", function (e) { pageError(e.reason, "unhandled promise"); });

  // ---- the program and the rules

  // programRef is the program the select names, as the API wants it.
  function programRef() {
    const v = $("program").value;
    const i = v.indexOf(":");
    const kind = v.slice(0, i), name = v.slice(i + 1);
    if (kind === "sample") return { sample: name };
    if (kind === "file") return { file: name };
    if (kind === "upload") return { upload: name };
    if (kind === "text") return { text: state.sharedProgram.text, name: state.sharedProgram.name };
    return { sample: "tinyresnet" };
  }

  function addOption(select, value, label) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = label;
    select.appendChild(o);
    return o;
  }

  function fillControls(info) {
    const prog = $("program");
    const samples = document.createElement("optgroup");
    samples.label = "samples";
    prog.appendChild(samples);
    info.samples.forEach(function (s) { addOption(samples, "sample:" + s.name, s.title).title = s.doc; });
    const files = info.files.filter(function (f) { return f.kind === "program"; });
    if (files.length) {
      const g = document.createElement("optgroup");
      g.label = "files";
      prog.appendChild(g);
      files.forEach(function (f) { addOption(g, "file:" + f.name, f.name); });
    }
    const rf = $("rules-file");
    addOption(rf, "", "—");
    info.files.filter(function (f) { return f.kind === "rules"; }).forEach(function (f) { addOption(rf, f.name, f.name); });
    const dl = $("pass-names");
    addOption(dl, "rules", "the editor's rules");
    info.passes.forEach(function (p) { addOption(dl, p.name, p.doc); });
  }

  // ---- the editor and its language server

  // editorCol turns a column of drrc's positions (1-based, in bytes of UTF-8) on a line of the editor into the
  // editor's column (1-based, in UTF-16 code units, as JavaScript strings count).
  function editorCol(line, col) {
    const text = E.text(editor).split("\n")[line - 1] || "";
    let bytes = 0, i = 0;
    while (i < text.length && bytes < col - 1) {
      const cp = text.codePointAt(i);
      bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      i += cp >= 0x10000 ? 2 : 1;
    }
    return i + 1 + Math.max(col - 1 - bytes, 0);
  }

  function startEditor(text) {
    lsp = new window.PlaygroundLSP.Client("file:///playground/rules.drr", {
      diagnostics: function (list) {
        list = orderDiagnostics(list);
        E.diagnostics(editor, list.map(function (d) {
          return {
            from: E.offset(editor, d.range.start), to: E.offset(editor, d.range.end),
            severity: d.severity === 1 ? "error" : d.severity === 2 ? "warning" : "info", message: d.message,
          };
        }));
        const errors = list.filter(function (d) { return d.severity === 1; }).length;
        $("editor").dataset.errors = String(errors);
      },
      status: function (t) { status(t, "error"); },
    });
    editor = E.create($("editor"), text, {
      run: run,
      change: function (t) { lsp.change(t); remember(); },
      cursor: patternLine,
      complete: function (pos) {
        return lsp.call("textDocument/completion", { textDocument: { uri: lsp.uri }, position: E.position(editor, pos) })
          .then(function (res) {
            const items = Array.isArray(res) ? res : (res && res.items) || [];
            let from = pos;
            const line = E.text(editor).slice(0, pos).split("\n").pop();
            const m = /[\w.%$@]*$/.exec(line);
            if (m) from = pos - m[0].length;
            return {
              from: from,
              options: items.map(function (it) {
                return { label: it.label, detail: it.detail, apply: (it.textEdit && it.textEdit.newText) || it.insertText || it.label, info: docText(it.documentation) };
              }),
            };
          }).catch(function () { return null; });
      },
      hover: function (pos) {
        return lsp.call("textDocument/hover", { textDocument: { uri: lsp.uri }, position: E.position(editor, pos) })
          .then(function (res) {
            if (!res || !res.contents) return null;
            const md = typeof res.contents === "string" ? res.contents : res.contents.value || "";
            const r = res.range;
            return { from: r ? E.offset(editor, r.start) : pos, to: r ? E.offset(editor, r.end) : pos, html: window.PlaygroundLSP.markdown(md) };
          }).catch(function () { return null; });
      },
    });
    lsp.start(text);
  }

  // orderDiagnostics orders the language server's diagnostics as the server orders a run's (orderDiagnostics in
  // run.go): by line, a name that is not bound or not known first on its line, then by column.
  function orderDiagnostics(list) {
    const rank = function (d) { return / is not bound|^unknown /.test(d.message) ? 0 : 1; };
    return list.slice().sort(function (a, b) {
      return a.range.start.line - b.range.start.line || rank(a) - rank(b) || a.range.start.character - b.range.start.character;
    });
  }

  function docText(d) {
    if (!d) return undefined;
    return typeof d === "string" ? d : d.value;
  }

  // ---- running

  // running shows that a run is under way (the status line counts its seconds, Run is disabled, the result panes
  // are dimmed), or that it ended.
  let runTimer = null;
  function running(on) {
    clearInterval(runTimer);
    runTimer = null;
    $("run").disabled = on;
    document.body.classList.toggle("busy", on);
    if (!on) return;
    const t0 = Date.now();
    const budget = state.info ? state.info.limits.runSeconds : 0;
    const tick = function () {
      const s = Math.floor((Date.now() - t0) / 1000);
      status("running… " + (s ? s + " s" : "") + (budget && s ? " (the budget is " + budget + " s)" : ""), "busy");
    };
    tick();
    runTimer = setInterval(tick, 1000);
  }

  function run() {
    if (!editor) return Promise.resolve();
    remember();
    const body = { rules: E.text(editor), program: programRef(), passes: $("passes").value, target: $("target").value };
    running(true);
    return api("POST", "/api/run", body).then(function (res) {
      if (!res.stages || res.stages.length === 0) {
        // The rules do not check: nothing ran; the previous result stays, the editor goes to the first error.
        status(res.error || "nothing ran", "error");
        const d = (res.diagnostics || []).filter(function (d) { return d.severity === "error" && d.file === "rules.drr"; })[0];
        if (d) E.gotoLine(editor, d.line, editorCol(d.line, d.col));
        return;
      }
      state.run = res;
      state.rule = null;
      state.matchIndex = -1;
      state.selected = null;
      showRun(res);
    }).catch(fail(null, "run")).finally(function () { running(false); });
  }

  // changed reports whether a run's passes changed the program: rewrites, a Go pass's changes, ops created or
  // erased.
  function changed(res) {
    return res.opsIn !== res.opsOut || res.passes.some(function (p) { return p.rewrites > 0 || p.changes > 0 || p.dead_ops_erased > 0; }) ||
      res.stages.some(function (s) { return s.added > 0; });
  }

  // outcome names the state a run ended in: "stopped" (a budget), "error", "unfinished" (the driver's limit),
  // "nothing-ran" (no passes), "no-match" (the editor's rules match nothing and nothing changed), "unchanged" (the
  // passes changed nothing), or "changed".
  function outcome(res) {
    if (res.stopped) return "stopped";
    if (res.error) return "error";
    if (res.passes.some(function (p) { return p.stop_reason && p.stop_reason !== "converged"; })) return "unfinished";
    if (res.passes.length === 0) return "nothing-ran";
    if (changed(res)) return "changed";
    return res.matchStage >= 0 && res.matches.length === 0 ? "no-match" : "unchanged";
  }

  function showRun(res) {
    if (verifying) verifying.abort(); // its table would be of the previous run
    const applied = res.passes.reduce(function (n, p) { return n + p.rewrites; }, 0);
    let text = res.program + ": " + res.opsIn + " → " + res.opsOut + " ops, " + applied + " rewrites, " + res.matches.length +
      " matches in the input (" + res.ms.toFixed(1) + " ms)";
    const worth = costText(res.before, res.after);
    if (worth) text += "; " + worth;
    const unfinished = res.passes.filter(function (p) { return p.stop_reason && p.stop_reason !== "converged"; })[0];
    const how = outcome(res);
    document.body.dataset.outcome = how;
    if (how === "stopped") status("stopped: " + res.stopped + " — " + text, "error");
    else if (how === "error") status(res.error, "error");
    else if (how === "unfinished") status("the driver stopped pass " + unfinished.pass + ": " + unfinished.stop_reason + " — " + text, "warn");
    else if (how === "nothing-ran") status(res.program + " (" + res.opsIn + " ops): nothing ran — write rules in the editor or name passes", "warn");
    else if (how === "no-match") status("no match: " + (res.rules.length === 1 ? "the rule matches" : "none of the " + res.rules.length + " rules matches") +
      " " + res.program + " (" + res.opsIn + " ops), which stays as it is — click an op of the pattern's last kind to see why", "warn");
    else if (how === "unchanged") status(res.program + " (" + res.opsIn + " ops): the passes changed nothing (" + res.ms.toFixed(1) + " ms)", "warn");
    else status(text, "ok");
    showRules(res);
    $("verify-button").disabled = !!res.error && res.passes.length === 0;
    state.view = res.matchStage >= 0 ? "before" : "after";
    showGraph();
    showProgramText();
    showDiff();
    showPipeline();
    $("verify-table").textContent = "";
    $("verify-summary").className = "";
    showVerifyCost(res);
    $("verify-summary").textContent = "Verify runs the program before and after the passes in the reference interpreter, on the same random inputs and weights, and compares every output.";
  }

  // fmtTime renders seconds: "12.6 µs", "1.42 ms".
  function fmtTime(s) {
    if (s >= 1) return s.toPrecision(3) + " s";
    if (s >= 1e-3) return (s * 1e3).toPrecision(3) + " ms";
    return (s * 1e6).toPrecision(3) + " µs";
  }

  // costText says what a run or a pass did to the cost figures (the upper end of the estimated time), "" without
  // figures.
  function costText(a, b) {
    if (!a || !b) return "";
    return "runtime ops " + a.runtime_ops + " → " + b.runtime_ops + ", kernels " + a.kernels + " → " + b.kernels +
      ", est. time " + fmtTime(a.time_s.high) + " → " + fmtTime(b.time_s.high) + " per inference on " + b.device;
  }

  // showRules lists the editor's rules with their matches and what the driver did with them.
  function showRules(res) {
    const list = $("rule-list");
    list.textContent = "";
    // The pass's counts, per rule instance (a family rule's instances are listed under it).
    const stats = {};
    res.passes.forEach(function (p) {
      if (p.pass !== "rules") return;
      (p.rules || []).forEach(function (r) {
        stats[r.rule] = r;
        (r.instances || []).forEach(function (i) { stats[i.id] = Object.assign({ first_failure: r.first_failure }, i); });
      });
    });
    res.rules.forEach(function (r) {
      const li = document.createElement("li");
      li.dataset.rule = r.id;
      const st = stats[r.id];
      let counts = r.matchesInInput + " in the input";
      if (st) counts += " · pass: " + st.matched + " matched, " + st.applied + " applied" + (st.failed ? ", " + st.failed + " failed" : "");
      li.innerHTML = '<span class="name">' + esc(r.id) + '</span><span class="counts' + (r.matchesInInput || (st && st.applied) ? "" : " none") + '">' + esc(counts) + "</span>";
      li.title = "matches of the rule in the program the pass starts from; then what the driver matched and applied during the pass" +
        (st && st.first_failure ? "\nfirst failure: " + st.first_failure : "");
      li.addEventListener("click", function () { stepRule(r.id, 0); if (r.line) E.gotoLine(editor, r.line, 1); });
      list.appendChild(li);
    });
    const stop = res.passes.filter(function (p) { return p.pass === "rules"; }).map(function (p) { return p.stop_reason; })[0];
    $("rules-summary").textContent = res.rules.length ? res.matches.length + " matches in the input" + (stop ? " · driver: " + stop : "") : "";
    $("match-stepper").hidden = true;
  }

  // ---- the graph

  function graphStage() {
    const res = state.run;
    if (state.view === "stage") return Math.min(state.stage, res.stages.length - 1);
    if (state.view === "before" || state.view === "split") return res.matchStage >= 0 ? res.matchStage : 0;
    return res.stages.length - 1;
  }

  function showGraph() {
    const res = state.run;
    if (!res) return Promise.resolve();
    const k = graphStage();
    state.graphStage = k;
    $("view-before").classList.toggle("on", state.view === "before");
    $("view-after").classList.toggle("on", state.view === "after");
    $("view-split").classList.toggle("on", state.view === "split");
    const split = state.view === "split";
    document.querySelector(".graph-area").classList.toggle("split", split);
    $("viewport2").hidden = !split;
    const view = state.view === "after" ? "diff" : "pass";
    const collapse = $("collapse").checked ? "1" : "0";
    $("graph-title").textContent = state.view === "before" ? "stage " + k + " (" + res.stages[k].pass + "): matched ops in yellow" :
      split ? "left: stage " + k + " (" + res.stages[k].pass + "), matched ops in yellow; right: the result, new ops in green" :
      state.view === "stage" ? "after pass " + k + " (" + res.stages[k].pass + "): the ops it created in green" +
        (k === res.matchStage ? ", matched ops in yellow" : "") :
      "result: new ops in green, removed in red";
    remember();
    // A later showGraph (the user switched view, stage or run meanwhile) supersedes this one: its answers, if they
    // come last, must not draw over the view asked for since.
    const gen = ++state.graphGen;
    // Side by side, the right pane draws the result (the last stage), its new ops in green.
    const right = split ? api("GET", "/api/runs/" + res.id + "/graph?stage=" + (res.stages.length - 1) + "&view=pass&collapse=" + collapse).then(function (d) {
      if (gen !== state.graphGen) return;
      graph2.draw(d);
      graph2.start();
    }) : Promise.resolve();
    return state.graphShown = Promise.all([api("GET", "/api/runs/" + res.id + "/graph?stage=" + k + "&view=" + view + "&collapse=" + collapse), right]).then(function (r) {
      if (gen !== state.graphGen) return;
      const d = r[0];
      graph.draw(d);
      graph.start();
      state.graphDrawn = gen;
      showGraphCount(d);
      if (state.rule) stepRule(state.rule, state.matchIndex);
      const q = $("graph-search").value;
      if (q) return search(q);
    }).catch(function (err) {
      if (gen !== state.graphGen) return;
      graph.draw(null, err instanceof ApiError ? err.message : "internal error in the page: " + err.message);
      fail(null, "graph")(err);
    });
  }

  // showGraphCount says what the drawing holds.
  function showGraphCount(d) {
    const hidden = d.hidden ? ", " + d.hidden + " ops not drawn (" + ($("collapse").checked ? "parameters, constants and repeated blocks" : "parameters and constants") + ")" : "";
    $("graph-count").textContent = (d.nodes || []).length + " boxes" + hidden;
  }

  // stageOps returns (a promise of) the ops of a stage of the current run: their printed lines with the stable
  // value ids (what the search looks through, drawn or not) and the input op each copies (origins: "" for an op a
  // pass created), by position (key "o" + position).
  const stageOpsCache = {};
  function stageOps(k) {
    const id = state.run.id + "/" + k;
    if (!stageOpsCache[id]) {
      stageOpsCache[id] = api("GET", "/api/runs/" + state.run.id + "/stages/" + k).then(function (st) {
        return { texts: st.opTexts || [], origins: st.origins || [] };
      });
    }
    return stageOpsCache[id];
  }

  function opTexts(k) {
    return stageOps(k).then(function (ops) {
      return ops.texts.map(function (text, i) { return { key: "o" + i, text: text }; });
    });
  }

  // switchView draws another view of the run (before, after, a stage) and carries the selected op over: the same
  // op (the one copying the same op of the input) is selected and explained there; an op the view does not have
  // (removed by the passes, or created by them) is said so, instead of its old explanation staying.
  function switchView(view, stage) {
    const fromStage = state.graphStage, key = state.selected;
    state.view = view;
    if (stage !== undefined) state.stage = stage;
    const drawn = showGraph();
    if (!key || !state.run) return drawn;
    return Promise.all([stageOps(fromStage), drawn]).then(function (r) {
      const origin = r[0].origins[+key.slice(1)];
      const to = state.graphStage;
      if (to === fromStage) {
        const node = graph.node(key);
        if (node) clickOp(node);
        return;
      }
      return stageOps(to).then(function (ops) {
        const i = origin ? ops.origins.indexOf(origin) : -1;
        const node = i >= 0 ? graph.node("o" + i) : null;
        if (node) {
          clickOp(node);
          return;
        }
        state.selected = null;
        E.highlight(editor, [], false);
        $("op-detail").textContent = (r[0].texts[+key.slice(1)] || key) + "\n\n" + (origin ?
          "This op of the input is not in this view: the passes removed it." : "This op is not in this view: the passes created it.");
        $("explain").textContent = "";
        remember();
      });
    }).catch(fail(null, "view"));
  }

  // search finds the ops of the drawn stage whose printed line matches q (name, %id — exactly: %12 is not %120 —,
  // attribute), drawn or inside a collapsed block, and marks their boxes; Enter steps through them.
  const found = { ops: [], i: -1, q: "" };
  function search(q) {
    found.q = q;
    found.i = -1;
    found.ops = [];
    if (!q.trim() || !state.run) {
      graph.search("");
      if (graph.drawing) showGraphCount(graph.drawing);
      return Promise.resolve();
    }
    const test = window.GraphView.searchPattern(q);
    return opTexts(state.graphStage).then(function (ops) {
      if (found.q !== q) return;
      found.ops = ops.filter(function (o) { return test(o.text); }).map(function (o) { return o.key; });
      const boxes = graph.search(q, found.ops);
      const extra = boxes.filter(function (n) { return !n.key; }).length; // removed ops
      const n = found.ops.length + extra;
      $("graph-count").textContent = n === 0 ? "none found" : n + (n === 1 ? " op" : " ops") + " found, in " + boxes.length + (boxes.length === 1 ? " box" : " boxes");
    }).catch(fail(null, "search"));
  }

  // nextHit goes to the next (dir 1) or previous (-1) op found, marks its box as the current hit and centres it.
  function nextHit(dir) {
    const hits = found.ops.length ? found.ops : graph.hits.map(function (e, i) { return i; });
    if (hits.length === 0) {
      $("graph-count").textContent = "none found";
      return;
    }
    found.i = ((found.i + dir) % hits.length + hits.length) % hits.length;
    const box = found.ops.length ? graph.node(found.ops[found.i]) : graph.hits[found.i];
    graph.current(box);
    $("graph-count").textContent = (found.i + 1) + " of " + hits.length + (found.ops.length && box && box.data.keys.length > 1 ? " (in a collapsed block)" : "");
  }

  // clickOp selects an op: its text, what every rule makes of it, and the pattern lines that bound it.
  // clickOp selects an op (of the right pane, the result, when right): its text, what every rule makes of it, the
  // pattern lines that bound it; side by side, the same op is selected in the other pane.
  function clickOp(node, right) {
    const key = node.key;
    const stage = right ? state.run.stages.length - 1 : state.graphStage;
    graph.setMark("selected", right ? [] : [node]);
    graph2.setMark("selected", right ? [node] : []);
    if (state.view === "split" && key) {
      linkSelection(key, stage, right ? graph : graph2, right ? state.graphStage : state.run.stages.length - 1);
    }
    $("op-detail").textContent = node.data.detail || node.data.label;
    if (!key || !state.run) {
      // A removed op drawn beside the result: it is of the input, which the before view explains.
      state.selected = null;
      $("explain").textContent = "An op of the input the passes removed: switch to before to see what the rules make of it.";
      return;
    }
    state.selected = right ? null : key;
    remember();
    // The rule lines that bound the op (in the stage the rules matched).
    const lines = [];
    if (stage === state.run.matchStage) {
      state.run.matches.forEach(function (m) {
        m.ops.forEach(function (b) { if (b.key === key && b.line) lines.push(b.line); });
      });
    }
    E.highlight(editor, lines, lines.length > 0);
    const box = $("explain");
    box.textContent = "explaining…";
    api("POST", "/api/runs/" + state.run.id + "/explain", { stage: stage, op: key }).then(function (res) {
      box.textContent = "";
      const head = document.createElement("div");
      head.className = "code";
      head.textContent = res.op;
      box.appendChild(head);
      if (res.rules.length === 0) {
        box.appendChild(document.createTextNode(state.run.rules.length || state.run.passes.length ?
          "No rule's pattern ends with an op of this kind (a pattern is tried at its last op): click the op a match ends with." :
          "No rules ran on this program."));
      }
      res.rules.forEach(function (x) { box.appendChild(explanation(x)); });
    }).catch(fail(box, "explain"));
  }

  // linkSelection selects, in graph g (drawing stage to), the op that copies the same op of the input as op key of
  // stage from, and marks it; an op the other side does not have is left unmarked (the panel says which side).
  function linkSelection(key, from, g, to) {
    Promise.all([stageOps(from), stageOps(to)]).then(function (r) {
      const origin = r[0].origins[+key.slice(1)];
      const i = origin ? r[1].origins.indexOf(origin) : -1;
      const other = i >= 0 ? g.node("o" + i) : null;
      g.setMark("selected", other ? [other] : []);
      $("details").dataset.counterpart = other ? "o" + i : "";
      if (other) g.center(other);
    }).catch(fail(null, "side by side"));
  }

  function explanation(x) {
    const d = document.createElement("div");
    d.className = "rule " + (x.match ? "match" : "nomatch");
    let html = '<div><span class="verdict">' + (x.match ? "✓ matches" : "✗ no match") + "</span> " + esc(x.rule) +
      (x.set !== "rules" ? ' <small>(' + esc(x.set) + ")</small>" : "") + "</div>";
    if (x.failure) {
      html += '<div><span class="where" data-line="' + x.failure.line + '" data-col="' + x.failure.col + '" data-file="' + esc(x.failure.file) + '">' +
        esc(x.failure.file + ":" + x.failure.line + ":" + x.failure.col) + "</span> " + esc(x.failure.message) + "</div>";
    }
    if (x.bindings && x.bindings.length) {
      html += "<table>" + x.bindings.map(function (b) { return "<tr><td>" + esc(b.name) + "</td><td>" + esc(b.value) + "</td></tr>"; }).join("") + "</table>";
    }
    d.innerHTML = html;
    d.querySelectorAll(".where").forEach(function (w) {
      if (w.dataset.file !== "rules.drr") return;
      w.addEventListener("click", function () { E.gotoLine(editor, +w.dataset.line, editorCol(+w.dataset.line, +w.dataset.col)); });
    });
    if (x.match && x.bound) {
      d.addEventListener("mouseenter", function () { graph.mark(x.bound, "bound"); });
    }
    return d;
  }

  // stepRule shows match i of a rule: its ops marked in the graph, its pattern lines in the editor.
  function stepRule(id, i) {
    const res = state.run;
    if (!res) return;
    const ms = res.matches.filter(function (m) { return m.rule === id; });
    state.rule = id;
    document.querySelectorAll("#rule-list li").forEach(function (li) { li.classList.toggle("current", li.dataset.rule === id); });
    $("match-stepper").hidden = false;
    if (ms.length === 0) {
      state.matchIndex = -1;
      $("match-count").textContent = id + ": no match";
      graph.mark([], "bound");
      return;
    }
    i = ((i % ms.length) + ms.length) % ms.length;
    state.matchIndex = i;
    const m = ms[i];
    $("match-count").textContent = id + ": match " + (i + 1) + " of " + ms.length;
    if (state.graphStage !== res.matchStage) return;
    graph.mark(m.ops.map(function (b) { return b.key; }), "bound");
    const root = graph.node(m.root);
    if (root) graph.center(root);
    E.highlight(editor, m.ops.map(function (b) { return b.line; }).filter(Boolean), false);
  }

  // patternLine marks the ops bound by the pattern op on the editor's current line, in every match.
  function patternLine(line) {
    const res = state.run;
    if (!res || state.graphStage !== res.matchStage || state.rule) return;
    const keys = [];
    res.matches.forEach(function (m) { m.ops.forEach(function (b) { if (b.line === line) keys.push(b.key); }); });
    graph.mark(keys, "bound");
  }

  // ---- the program's text and the diff

  function showProgramText() {
    const res = state.run;
    const last = res.stages.length - 1;
    api("GET", "/api/runs/" + res.id + "/stages/" + last).then(function (st) {
      $("program-text").textContent = st.text + (st.truncated ? "\n… (cut)" : "");
    }).catch(fail($("program-text"), "program"));
  }

  function showDiff() {
    const res = state.run;
    const last = res.stages.length - 1;
    if (last === 0) {
      $("diff-summary").textContent = "Nothing ran (no rules in the editor, no passes named): no diff.";
      $("diff").textContent = "";
      return;
    }
    api("GET", "/api/runs/" + res.id + "/stages/" + last + "?from=0").then(function (st) {
      $("diff-summary").textContent = st.added || st.removed ? "input → result: " + st.added + " ops added, " + st.removed + " removed" :
        "input → result: nothing changed (" + (res.passes.length === 1 ? "the pass" : "the " + res.passes.length + " passes") + " left every op as it was)";
      renderDiff($("diff"), st.diff);
    }).catch(fail($("diff-summary"), "diff"));
  }

  // renderDiff draws the hunks of a diff into box; an empty diff (or none) says that nothing changed.
  function renderDiff(box, hunks) {
    box.textContent = "";
    if (!hunks || hunks.length === 0) {
      const p = document.createElement("div");
      p.className = "empty-state";
      p.textContent = "No change: the program is the same op for op.";
      box.appendChild(p);
      return;
    }
    hunks.forEach(function (h) {
      const d = document.createElement("div");
      d.className = "hunk";
      const head = document.createElement("div");
      head.className = "head";
      head.textContent = "@@ op " + (h.a + 1) + " → op " + (h.b + 1) + " @@";
      d.appendChild(head);
      h.lines.forEach(function (l) {
        const e = document.createElement("div");
        e.className = l.kind === "+" ? "add" : l.kind === "-" ? "del" : "same";
        e.textContent = l.text;
        d.appendChild(e);
      });
      box.appendChild(d);
    });
  }

  // ---- the pipeline view

  function showPipeline() {
    const res = state.run;
    const list = $("stage-list");
    list.textContent = "";
    res.stages.forEach(function (s, k) {
      const li = document.createElement("li");
      const p = k > 0 ? res.passes[k - 1] : null;
      let meta = s.ops + " ops";
      if (s.cost) meta += ", " + s.cost.runtime_ops + " runtime, est. " + fmtTime(s.cost.time_s.high);
      if (p) meta += ", " + p.rewrites + " rewrites" + (p.stop_reason ? ", " + p.stop_reason : "") + ", " + p.ms.toFixed(1) + " ms";
      li.innerHTML = esc(k === 0 ? "input" : s.pass) + '<div class="meta">' + esc(meta) + "</div>";
      li.addEventListener("click", function () { showStage(k); list.focus(); });
      list.appendChild(li);
    });
    showStage(Math.min(1, res.stages.length - 1));
  }

  function showStage(k) {
    const res = state.run;
    if (!res || k < 0 || k >= res.stages.length) return;
    state.stage = k;
    document.querySelectorAll("#stage-list li").forEach(function (li, i) { li.classList.toggle("current", i === k); });
    const p = k > 0 ? res.passes[k - 1] : null;
    $("stage-head").textContent = k === 0 ? "The input program (" + res.stages[0].ops + " ops)." :
      "Pass " + k + " of " + (res.stages.length - 1) + ": " + p.pass + " (" + (p.kind === "rules" ? "a rule set, applied by the driver" : "a pass written in Go" + (p.changes ? ", " + p.changes + " changes" : "")) + ")" + (p.stop_reason ? " — driver stopped: " + p.stop_reason : "") +
      (p.warnings && p.warnings.length ? " — " + p.warnings.join("; ") : "") +
      (costText(res.stages[k - 1].cost, res.stages[k].cost) ? " — " + costText(res.stages[k - 1].cost, res.stages[k].cost) : "") +
      ". ↑/↓ or j/k step through the passes.";
    const table = $("stage-rules");
    table.innerHTML = "";
    if (p && p.rules && p.rules.length) {
      table.innerHTML = "<tr><th>rule</th><th>tried</th><th>matched</th><th>applied</th><th>failed</th></tr>" +
        p.rules.map(function (r) {
          return "<tr" + (r.first_failure ? ' title="' + esc(r.first_failure) + '"' : "") + "><td>" + esc(r.rule) + "</td><td>" + r.tried +
            "</td><td>" + r.matched + "</td><td>" + r.applied + "</td><td>" + (r.failed || 0) + "</td></tr>";
        }).join("");
    }
    const show = document.createElement("button");
    show.id = "stage-graph";
    show.textContent = "graph of this stage";
    show.title = "draw the program after this pass, with the ops it created (g)";
    show.addEventListener("click", stageGraph);
    $("stage-head").appendChild(document.createTextNode(" "));
    $("stage-head").appendChild(show);
    $("stage-diff").textContent = "";
    api("GET", "/api/runs/" + res.id + "/stages/" + k).then(function (st) {
      if (state.stage !== k) return;
      if (k === 0) {
        $("stage-diff").textContent = st.text;
        return;
      }
      const head = document.createElement("div");
      head.textContent = st.added || st.removed ? st.added + " ops added, " + st.removed + " removed" : "This pass changed nothing.";
      $("stage-diff").appendChild(head);
      const box = document.createElement("div");
      renderDiff(box, st.diff);
      $("stage-diff").appendChild(box);
    }).catch(fail($("stage-diff"), "pipeline"));
  }

  // stageGraph draws the pipeline's current stage in the graph tab.
  function stageGraph() {
    showTab("graph");
    switchView("stage");
  }

  // ---- verify

  // verifyRequest reads the verify tab's controls, within the server's limits (GET /api/info).
  function verifyRequest() {
    const lim = state.info.limits;
    function int(id, lo, hi, def) {
      const v = parseInt($(id).value, 10);
      if (!(v >= lo)) { $(id).value = def; return def; }
      if (v > hi) { $(id).value = hi; return hi; }
      return v;
    }
    let rtol = Number($("verify-rtol").value);
    if (!(rtol > 0)) { rtol = 1e-5; $("verify-rtol").value = "1e-5"; }
    return { runs: int("verify-runs", 1, lim.verifyRuns, 3), batch: int("verify-batch", 1, lim.verifyBatch, 1),
      size: int("verify-size", 1, lim.verifySize, 32), seed: int("verify-seed", 1, Number.MAX_SAFE_INTEGER, 1), rtol: rtol, stream: true };
  }

  let verifying = null; // the AbortController of the verification under way

  // verify streams a verification of the current run (POST /api/runs/{id}/verify with stream): the progress line
  // follows the passes and the runs, the table shows the runs done so far, Cancel stops after the run under way
  // and keeps the table.
  function verify() {
    const res = state.run;
    if (!res) return run().then(function () { if (state.run) return verify(); });
    if (verifying) return Promise.resolve();
    showTab("verify");
    showVerifyCost(res);
    const req = verifyRequest();
    const ctl = new AbortController();
    verifying = ctl;
    const t0 = Date.now();
    let last = null;
    let phase = { phase: "passes", done: 0, runs: req.runs };
    const tick = function () {
      const s = ((Date.now() - t0) / 1000).toFixed(0);
      $("verify-progress").textContent = (phase.phase === "passes" ? "running the passes on a copy…" : "run " + (phase.done + 1) + " of " + phase.runs + "…") +
        " " + s + " s (the budget is " + state.info.limits.verifySeconds + " s)";
    };
    const timer = setInterval(tick, 500);
    tick();
    document.body.classList.add("verifying");
    $("verify-summary").textContent = "verifying " + res.program + ": " + req.runs + " runs, batch " + req.batch + ", size " + req.size + "…";
    $("verify-summary").className = "";
    $("verify-table").textContent = "";
    $("verify-button").disabled = true;
    $("verify-start").disabled = true;
    $("verify-cancel").hidden = false;
    status("verifying…", "busy");
    return fetch("/api/runs/" + res.id + "/verify", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(req), signal: ctl.signal,
    }).catch(function (err) {
      if (err && err.name === "AbortError") throw err;
      throw new ApiError("the server does not answer (" + err.message + "): is drrc serve still running?");
    }).then(function (r) {
      if (!r.ok) return r.json().then(function (b) { throw new ApiError(b.error || r.statusText); });
      return readLines(r, function (ev) {
        phase = ev;
        tick();
        if (ev.result) {
          last = ev.result;
          showVerifyTable(ev.result, ev.phase !== "done");
        }
      });
    }).then(function () {
      if (!last) throw new ApiError("the verification ended without a result");
      showVerifyResult(last);
    }).catch(function (err) {
      if (err && err.name === "AbortError") {
        const done = last ? last.done : 0;
        $("verify-summary").textContent = "cancelled after " + done + " of " + req.runs + " runs" + (done ? ": the table holds the runs done" : "");
        $("verify-summary").className = "bad";
        status("verify cancelled", "warn");
        return;
      }
      fail($("verify-summary"), "verify")(err);
      if (err instanceof ApiError) status("verify: " + err.message, "error");
    }).finally(function () {
      clearInterval(timer);
      verifying = null;
      document.body.classList.remove("verifying");
      $("verify-progress").textContent = "";
      $("verify-button").disabled = false;
      $("verify-start").disabled = false;
      $("verify-cancel").hidden = true;
    });
  }

  // readLines reads a response of JSON lines, calling each for every decoded line.
  function readLines(r, each) {
    const reader = r.body.getReader();
    const dec = new TextDecoder();
    let buf = "";
    function pump() {
      return reader.read().then(function (x) {
        if (x.value) buf += dec.decode(x.value, { stream: true });
        let i;
        while ((i = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, i).trim();
          buf = buf.slice(i + 1);
          if (line) each(JSON.parse(line));
        }
        if (!x.done) return pump();
        if (buf.trim()) each(JSON.parse(buf));
      });
    }
    return pump();
  }

  // num renders a number of the table (the server sends NaN and infinities as strings).
  function num(x) {
    if (x === undefined || x === null) return "—";
    return typeof x === "number" ? String(Number(x.toPrecision(6))) : String(x);
  }

  // showVerifyTable fills the verify table; partial says that more runs are to come.
  function showVerifyTable(v, partial) {
    $("verify-table").innerHTML = "<tr><th>output</th><th>shape</th><th>max abs error</th><th>max rel error</th><th></th></tr>" +
      (v.outputs || []).map(function (o) {
        let verdict = o.ok ? "ok" : o.problem || "beyond tolerance";
        if (!o.ok && o.worst) verdict += " (worst: run " + o.worst.run + ", element " + o.worst.index + ": " + num(o.worst.before) + " before, " + num(o.worst.after) + " after)";
        return "<tr><td>" + esc(o.name) + "</td><td>[" + (o.shape || []).join(", ") + "]</td><td>" + esc(num(o.maxAbs)) + "</td><td>" + esc(num(o.maxRel)) +
          '</td><td class="' + (o.ok ? "ok" : "bad") + '">' + esc(verdict) + "</td></tr>";
      }).join("") +
      (partial ? '<tr class="partial"><td colspan="5">so far: ' + v.done + " of " + v.runs + " runs</td></tr>" : "");
  }

  function showVerifyResult(v) {
    showVerifyTable(v, false);
    const verdict = v.ok ? "✓ the outputs agree" : v.partial ? "◌ " + (v.error || "stopped") + ": the table holds the runs done" :
      "✗ " + (v.error || "the outputs differ");
    $("verify-summary").textContent = verdict + " — " + v.done + " of " + v.runs + " runs, seed " + v.seed + ", rtol " + Number(v.rtol).toExponential() + ", batch " + v.batch +
      ", size " + v.size + "; passes " + v.passMs.toFixed(1) + " ms, interpreter " + v.compareMs.toFixed(0) + " ms" + (v.kernels ? " (" + v.kernels + " kernels)" : "") +
      (v.unmatched && v.unmatched.length ? "; unmatched outputs: " + v.unmatched.join(", ") : "") +
      (v.published && v.published.length ? "; not compared (no model outputs): " + v.published.length +
        " shadow output(s) publishing a parameter unchanged" : "") +
      (v.anchored ? "; " + v.anchored + " sink output(s) given a fetch" : "");
    $("verify-summary").className = v.ok ? "ok" : "bad";
    status(v.ok ? "verified: the outputs agree" : "verify: " + (v.error || "the outputs differ"), v.ok ? "ok" : v.partial ? "warn" : "error");
  }

  // showVerifyCost shows the cost model's figures of the run beside the verification (when the run has them).
  function showVerifyCost(res) {
    const t = costText(res.before, res.after);
    $("verify-cost").textContent = t ? "Cost model: " + t + "." : "";
  }

  // ---- the page's state in the URL and in localStorage (state.js), and share links

  // maxLink is the longest share link the page makes (after compression): Chromium takes URLs of 2 MB, and a link
  // is pasted into chats and issues.
  const maxLink = 256 << 10;

  // pageState is what a reload or a link brings back.
  function pageState() {
    const ref = programRef();
    const st = { rules: E.text(editor), passes: $("passes").value, target: $("target").value, program: ref, tab: currentTab(),
      view: state.view, op: state.selected || undefined, stage: state.view === "stage" ? state.stage : undefined };
    if (ref.upload) st.uploadName = state.uploads[ref.upload];
    return st;
  }

  // remember keeps the page's state (in localStorage and the URL's fragment), a moment after the last change.
  let rememberTimer = null;
  function remember() {
    if (!editor || !state.started) return;
    clearTimeout(rememberTimer);
    rememberTimer = setTimeout(function () {
      window.PlaygroundState.save(pageState()).catch(function (err) { pageError(err, "keeping the state"); });
    }, 300);
  }

  function share() {
    const st = pageState();
    const ref = st.program;
    let ready = Promise.resolve();
    if (ref.upload) {
      // An upload lives on this server only: the link carries its text.
      ready = api("POST", "/api/program", ref).then(function (p) {
        if (p.truncated) throw new ApiError("the program is too large for a link (" + p.ops + " ops): share a sample or a file");
        const name = p.name.replace(/[^\w.-]+/g, "_");
        st.program = { text: p.text, name: /\.(pir|txt)$/.test(name) ? name : name + ".pir" };
        delete st.uploadName;
      });
    }
    return ready.then(function () { return window.PlaygroundState.encode(st); }).then(function (frag) {
      const url = location.origin + location.pathname + "#" + frag;
      if (url.length > maxLink) {
        throw new ApiError("the link would take " + Math.round(url.length / 1024) + " KiB, more than " + (maxLink >> 10) + " KiB: share a sample or a file given to drrc serve");
      }
      history.replaceState(null, "", url);
      $("share-link").value = url;
      $("share-box").hidden = false;
      $("share-link").select();
    }).catch(fail(null, "share"));
  }

  // apply puts a kept state's controls in place (the program, the passes, the target); it returns the rules, or
  // null when the state holds none.
  function apply(st) {
    $("passes").value = typeof st.passes === "string" ? st.passes : "";
    $("target").value = typeof st.target === "string" ? st.target : "";
    const p = st.program || {};
    const has = function (v) { return [].some.call($("program").options, function (o) { return o.value === v; }); };
    if (p.sample && has("sample:" + p.sample)) $("program").value = "sample:" + p.sample;
    else if (p.file) {
      const v = "file:" + p.file;
      if (!has(v)) addOption($("program"), v, String(p.file));
      $("program").value = v;
    } else if (p.upload) {
      const name = String(st.uploadName || p.upload);
      state.uploads[p.upload] = name;
      addOption(uploadGroup(), "upload:" + p.upload, name);
      $("program").value = "upload:" + p.upload;
    } else if (typeof p.text === "string") {
      state.sharedProgram = { text: p.text, name: String(p.name || "shared.pir") };
      addOption($("program"), "text:", "shared: " + state.sharedProgram.name);
      $("program").value = "text:";
    }
    return typeof st.rules === "string" ? st.rules : null;
  }

  // restoreView brings back what the state showed after its run: the tab, the graph's view, the selected op.
  function restoreView(st) {
    if (!state.run) return Promise.resolve();
    let drawn = Promise.resolve();
    if (st.view === "after" || st.view === "before" || st.view === "split" || (st.view === "stage" && st.stage >= 0 && st.stage < state.run.stages.length)) {
      if (st.view !== state.view || st.view === "stage") {
        state.view = st.view;
        if (st.view === "stage") state.stage = st.stage;
        drawn = showGraph();
      } else {
        drawn = state.graphShown || drawn;
      }
    }
    if (typeof st.tab === "string" && document.getElementById("tab-" + st.tab)) showTab(st.tab);
    return drawn.then(function () {
      if (typeof st.op !== "string") return;
      const node = graph.node(st.op);
      if (node) clickOp(node);
    });
  }

  // ---- uploads and rule files

  function upload(file) {
    const form = new FormData();
    form.append("file", file);
    status("uploading " + file.name + "…");
    fetch("/api/upload", { method: "POST", body: form }).catch(function (err) {
      throw new ApiError("the server does not answer (" + err.message + "): is drrc serve still running?");
    }).then(function (r) {
      return r.json().catch(function () { throw new ApiError("the upload failed: " + r.status + " " + r.statusText); }).then(function (b) {
        if (!r.ok) throw new ApiError(b.error || r.statusText);
        return b;
      });
    }).then(function (b) {
      const g = uploadGroup();
      b.programs.forEach(function (p) {
        const label = p.name + " (" + p.ops + " ops)";
        state.uploads[p.id] = label;
        addOption(g, "upload:" + p.id, label);
      });
      $("program").value = "upload:" + b.programs[0].id;
      // An uploaded program runs at once, as a program chosen in the list does.
      return run();
    }).catch(fail(null));
  }

  // uploadGroup returns the program list's group of uploads, made when first needed.
  function uploadGroup() {
    const prog = $("program");
    let g = prog.querySelector('optgroup[label="uploads"]');
    if (!g) {
      g = document.createElement("optgroup");
      g.label = "uploads";
      prog.appendChild(g);
    }
    return g;
  }

  // loadRules puts a rule file into the editor; rules of the user's own (not a sample's, not the last file loaded)
  // are replaced only when the user agrees.
  function loadRules(name) {
    if (!name) return;
    const text = E.text(editor);
    const own = text.trim() !== "" && text !== state.loadedRules && !state.info.samples.some(function (s) { return s.rules === text; });
    if (own && !window.confirm("Replace the rules in the editor with " + name + "? Your edits are lost (a share link keeps them).")) {
      $("rules-file").value = "";
      return;
    }
    api("GET", "/api/source?name=" + encodeURIComponent(name)).then(function (b) {
      state.loadedRules = b.text;
      E.setText(editor, b.text);
      status("loaded " + name, "ok");
    }).catch(fail(null));
  }

  // ---- tabs and keys

  // currentTab returns the name of the tab shown.
  function currentTab() {
    const b = document.querySelector('#tabs button[aria-selected="true"]');
    return b ? b.dataset.tab : "graph";
  }

  function showTab(name) {
    remember();
    document.querySelectorAll("#tabs button").forEach(function (b) { b.setAttribute("aria-selected", String(b.dataset.tab === name)); });
    document.querySelectorAll(".tab").forEach(function (t) { t.hidden = t.id !== "tab-" + name; });
    if (name === "graph") graph.start();
    if (name === "pipeline") $("stage-list").focus();
  }

  function wire() {
    document.querySelectorAll("#tabs button").forEach(function (b) { b.addEventListener("click", function () { showTab(b.dataset.tab); }); });
    $("run").addEventListener("click", run);
    $("verify-button").addEventListener("click", verify);
    $("verify-start").addEventListener("click", verify);
    $("verify-cancel").addEventListener("click", function () { if (verifying) verifying.abort(); });
    $("share").addEventListener("click", share);
    $("share-close").addEventListener("click", function () { $("share-box").hidden = true; });
    $("upload").addEventListener("change", function (e) { if (e.target.files[0]) upload(e.target.files[0]); e.target.value = ""; });
    $("rules-file").addEventListener("change", function (e) { loadRules(e.target.value); });
    $("program").addEventListener("change", function () {
      const v = $("program").value;
      // A sample brings its starting rules, unless the editor holds rules of the user's.
      const s = state.info.samples.filter(function (s) { return "sample:" + s.name === v; })[0];
      const untouched = state.info.samples.some(function (x) { return x.rules === E.text(editor); });
      if (s && untouched) E.setText(editor, s.rules);
      run();
    });
    $("view-before").addEventListener("click", function () { switchView("before"); });
    $("view-after").addEventListener("click", function () { switchView("after"); });
    $("view-split").addEventListener("click", function () { switchView("split"); });
    $("collapse").addEventListener("change", showGraph);
    $("passes").addEventListener("change", remember);
    $("target").addEventListener("change", remember);
    $("zoom-in").addEventListener("click", function () { graph.zoom(1.25); });
    $("zoom-out").addEventListener("click", function () { graph.zoom(0.8); });
    $("zoom-fit").addEventListener("click", function () { graph.fit(); });
    $("graph-search").addEventListener("input", function (e) { search(e.target.value); });
    $("graph-search").addEventListener("keydown", function (e) {
      if (e.key !== "Enter") return;
      nextHit(e.shiftKey ? -1 : 1);
    });
    $("match-prev").addEventListener("click", function () { stepRule(state.rule, state.matchIndex - 1); });
    $("match-next").addEventListener("click", function () { stepRule(state.rule, state.matchIndex + 1); });
    $("stage-list").addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown" || e.key === "j") { showStage(state.stage + 1); e.preventDefault(); }
      if (e.key === "ArrowUp" || e.key === "k") { showStage(state.stage - 1); e.preventDefault(); }
      if (e.key === "g" || e.key === "Enter" && !e.ctrlKey && !e.metaKey) { stageGraph(); e.preventDefault(); }
    });
    document.addEventListener("keydown", function (e) {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        // Ctrl+Enter runs from anywhere on the page (the editor has its own binding).
        if (!(e.target.closest && e.target.closest(".cm-editor"))) { e.preventDefault(); run(); }
        return;
      }
      const t = e.target;
      if (t.closest && (t.closest(".cm-editor") || t.tagName === "INPUT" || t.tagName === "SELECT")) return;
      if (e.key === "n" && state.rule) stepRule(state.rule, state.matchIndex + 1);
      if (e.key === "p" && state.rule) stepRule(state.rule, state.matchIndex - 1);
      if (e.key === "+" || e.key === "=") graph.zoom(1.25);
      if (e.key === "-") graph.zoom(0.8);
    });
  }

  // window.playground lets the browser tests (and a curious user's console) look at the page's state.
  window.playground = {
    state: state,
    editor: function () { return editor; },
    lsp: function () { return lsp; },
    setRules: function (t) { E.setText(editor, t); },
    rules: function () { return E.text(editor); },
    graph: function () { return graph; },
    graph2: function () { return graph2; },
    search: function (q) { return search(q); },
  };

  const graph = new window.GraphView.Canvas($("viewport"), { click: function (n) { clickOp(n, false); } });
  const graph2 = new window.GraphView.Canvas($("viewport2"), { click: function (n) { clickOp(n, true); } });

  api("GET", "/api/info").then(function (info) {
    state.info = info;
    fillControls(info);
    wire();
    // A link's state wins over the one kept in localStorage; a damaged link starts afresh, and says so.
    return window.PlaygroundState.decode(location.hash).catch(function (err) {
      state.damaged = "the share link is damaged (" + err.message + "): the page starts afresh";
      return null;
    }).then(function (st) {
      if (!st && !state.damaged) st = window.PlaygroundState.load();
      let rules = st ? apply(st) : null;
      if (rules === null) {
        const s = info.samples[0];
        $("program").value = "sample:" + s.name;
        rules = s.rules;
        st = null;
      }
      startEditor(rules);
      graph.draw(null, "Run the rules (Ctrl+Enter) to see the program's graph.");
      document.body.dataset.ready = "1";
      if (state.damaged) {
        status(state.damaged, "error");
        state.started = true;
        return;
      }
      return run().then(function () {
        state.started = true;
        if (st) return restoreView(st);
      }).then(function () {
        if (st && !state.run && st.program && st.program.upload) {
          status("the uploaded program " + (st.uploadName || st.program.upload) + " is gone (drrc serve was restarted): upload it again", "error");
        }
      });
    });
  }).catch(fail(null, "start"));
})();
