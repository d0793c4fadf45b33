// The page's language-server client: the editor's document is kept open in a session of drrc's language server
// (the engine of drrc lsp), which the server reaches over HTTP: messages go out in POST batches, one batch at a
// time so that they arrive in order, and come back as server-sent events. See lspbridge.go.
(function () {
  "use strict";

  function LSPClient(uri, handlers) {
    this.uri = uri;
    this.handlers = handlers; // diagnostics(list, version), status(text)
    this.session = null;
    this.nextID = 1;
    this.pending = {};  // request id → {resolve, reject}
    this.queue = [];    // messages waiting to be sent
    this.sending = false;
    this.version = 0;
    this.ready = null;  // resolves when the document is open
  }

  // start opens a session, initializes the server and opens the document with text.
  LSPClient.prototype.start = function (text) {
    const self = this;
    this.ready = fetch("/api/lsp", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" })
      .then(function (r) { return r.json().then(function (b) { if (!r.ok) throw new Error(b.error); return b; }); })
      .then(function (b) {
        self.session = b.session;
        self.events = new EventSource("/api/lsp/" + b.session);
        self.events.onmessage = function (e) { self.receive(JSON.parse(e.data)); };
        self.events.addEventListener("closed", function () { self.handlers.status("the language server stopped"); self.events.close(); });
        return self.request("initialize", {
          processId: null, rootUri: null,
          capabilities: {
            general: { positionEncodings: ["utf-16"] },
            textDocument: {
              hover: { contentFormat: ["markdown", "plaintext"] },
              completion: { completionItem: { snippetSupport: false, documentationFormat: ["markdown", "plaintext"] } },
              publishDiagnostics: { versionSupport: true },
            },
          },
        });
      })
      .then(function () {
        self.notify("initialized", {});
        self.version = 1;
        self.notify("textDocument/didOpen", { textDocument: { uri: self.uri, languageId: "drr", version: 1, text: text } });
      });
    this.ready.catch(function (err) { self.handlers.status("no language server: " + err.message); });
    window.addEventListener("pagehide", function () {
      if (self.session) fetch("/api/lsp/" + self.session, { method: "DELETE", keepalive: true });
    });
    return this.ready;
  };

  // change sends the document's new text (the whole text: a rule file is small).
  LSPClient.prototype.change = function (text) {
    const self = this;
    this.ready.then(function () {
      self.version++;
      self.notify("textDocument/didChange", { textDocument: { uri: self.uri, version: self.version }, contentChanges: [{ text: text }] });
    });
  };

  // request sends a request and returns a promise of its result.
  LSPClient.prototype.request = function (method, params) {
    const id = this.nextID++;
    const self = this;
    return new Promise(function (resolve, reject) {
      self.pending[id] = { resolve: resolve, reject: reject };
      self.send({ jsonrpc: "2.0", id: id, method: method, params: params });
    });
  };

  // call is request once the document is open.
  LSPClient.prototype.call = function (method, params) {
    const self = this;
    return this.ready.then(function () { return self.request(method, params); });
  };

  LSPClient.prototype.notify = function (method, params) {
    this.send({ jsonrpc: "2.0", method: method, params: params });
  };

  // send queues a message; the queue goes out as one batch when the previous batch is through.
  LSPClient.prototype.send = function (msg) {
    this.queue.push(msg);
    this.flush();
  };

  LSPClient.prototype.flush = function () {
    if (this.sending || this.queue.length === 0 || !this.session) return;
    const batch = this.queue;
    this.queue = [];
    this.sending = true;
    const self = this;
    fetch("/api/lsp/" + this.session, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(batch) })
      .then(function (r) { if (!r.ok) return r.json().then(function (b) { throw new Error(b.error); }); })
      .catch(function (err) { self.handlers.status("language server: " + err.message); })
      .finally(function () { self.sending = false; self.flush(); });
  };

  // receive handles a message of the server: a response, a notification, or a request (answered with null).
  LSPClient.prototype.receive = function (msg) {
    if (msg.id !== undefined && msg.method === undefined) {
      const p = this.pending[msg.id];
      delete this.pending[msg.id];
      if (!p) return;
      if (msg.error) p.reject(new Error(msg.error.message));
      else p.resolve(msg.result);
      return;
    }
    if (msg.method === "textDocument/publishDiagnostics" && msg.params.uri === this.uri) {
      this.handlers.diagnostics(msg.params.diagnostics, msg.params.version);
    }
    if (msg.id !== undefined) {
      this.send({ jsonrpc: "2.0", id: msg.id, result: null }); // workspace/codeLens/refresh and the like
    }
  };

  // markdown renders the markdown hovers use: fenced code, `code`, **bold**, *italic*, paragraphs, lists, rules
  // (---), headings and tables (the attribute table of an op). Everything else is text: the input is escaped
  // first, so no markup of the server's reaches the page as HTML.
  function markdown(s) {
    function esc(t) { return t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"); }
    function inline(t) {
      // Code spans first: nothing inside them is markup.
      return t.split(/(`[^`]*`)/).map(function (part, i) {
        if (i % 2 === 1) return "<code>" + esc(part.slice(1, -1).replace(/\\\|/g, "|")) + "</code>";
        return esc(part.replace(/\\([|*_`\\])/g, "$1"))
          .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
          .replace(/(^|[^\w*])\*([^*\s][^*]*?)\*(?![\w*])/g, "$1<em>$2</em>")
          .replace(/(^|[^\w])_([^_\s][^_]*?)_(?!\w)/g, "$1<em>$2</em>");
      }).join("");
    }
    // cells splits a table row at the bars that are not escaped (\|) and not inside a code span.
    function cells(row) {
      const out = [];
      let cur = "", code = false;
      for (let i = 0; i < row.length; i++) {
        const c = row[i];
        if (c === "\\" && row[i + 1] === "|") { cur += "\\|"; i++; continue; }
        if (c === "`") code = !code;
        if (c === "|" && !code) { out.push(cur); cur = ""; continue; }
        cur += c;
      }
      out.push(cur);
      if (out.length && out[0].trim() === "") out.shift();
      if (out.length && out[out.length - 1].trim() === "") out.pop();
      return out.map(function (x) { return x.trim(); });
    }
    function isTable(lines) {
      return lines.length >= 2 && lines.every(function (l) { return /^\s*\|/.test(l); }) && /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(lines[1]);
    }
    const out = [];
    const parts = s.split(/```[a-z]*\n?/);
    parts.forEach(function (part, i) {
      if (i % 2 === 1) { out.push("<pre><code>" + esc(part.replace(/\n$/, "")) + "</code></pre>"); return; }
      part.split(/\n{2,}/).forEach(function (para) {
        if (para.trim() === "") return;
        const lines = para.split("\n").filter(function (l) { return l.trim() !== ""; });
        if (isTable(lines)) {
          const head = cells(lines[0]);
          out.push("<table><thead><tr>" + head.map(function (c) { return "<th>" + inline(c) + "</th>"; }).join("") + "</tr></thead><tbody>" +
            lines.slice(2).map(function (l) {
              return "<tr>" + cells(l).map(function (c) { return "<td>" + inline(c) + "</td>"; }).join("") + "</tr>";
            }).join("") + "</tbody></table>");
        } else if (lines.every(function (l) { return /^\s*[-*] /.test(l); })) {
          out.push("<ul>" + lines.map(function (l) { return "<li>" + inline(l.replace(/^\s*[-*] /, "")) + "</li>"; }).join("") + "</ul>");
        } else if (/^---+$/.test(para.trim())) {
          out.push("<hr>");
        } else if (lines.length === 1 && /^#{1,6} /.test(lines[0])) {
          out.push("<p><strong>" + inline(lines[0].replace(/^#+ /, "")) + "</strong></p>");
        } else {
          out.push("<p>" + lines.map(inline).join("<br>") + "</p>");
        }
      });
    });
    return out.join("");
  }

  window.PlaygroundLSP = { Client: LSPClient, markdown: markdown };
})();
