// The rule editor of drrc serve: CodeMirror 6 with DRR highlighting, and hooks through which the page (app.js)
// feeds it what the language server says (diagnostics, hover, completion) and highlights the lines of a rule.
// esbuild bundles this file into ../assets/editor.js (npm run build; see README.md); the bundle's global is
// DRREditor.
import { EditorState, StateEffect, StateField, RangeSetBuilder } from "@codemirror/state";
import {
  EditorView, Decoration, keymap, hoverTooltip, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
  drawSelection, highlightSpecialChars,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import {
  StreamLanguage, syntaxHighlighting, HighlightStyle, bracketMatching, indentOnInput,
} from "@codemirror/language";
import { tags } from "@lezer/highlight";
import { setDiagnostics, lintGutter } from "@codemirror/lint";
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from "@codemirror/autocomplete";
import { searchKeymap, highlightSelectionMatches } from "@codemirror/search";

// DRR's tokens, as drr/lexer.go knows them: keywords, %values, $holes, @labels, op names, strings, numbers,
// comments (/// doc comments too).
const keywords = new Set(["rule", "match", "where", "rewrite", "replace", "with", "erase", "later", "uses", "of",
  "benefit", "labels", "for", "in", "family", "native", "constraint", "import", "trait", "either", "true", "false",
  "null"]);
const drr = StreamLanguage.define({
  name: "drr",
  // The state counts the open braces, brackets and parentheses: a new line is indented by one unit per open one
  // (Enter indents), and a line that starts by closing one goes back a unit.
  startState() { return { depth: 0 }; },
  copyState(s) { return { depth: s.depth }; },
  indent(state, textAfter, cx) {
    const closing = /^\s*[}\])]/.test(textAfter) ? 1 : 0;
    return Math.max(0, state.depth - closing) * cx.unit;
  },
  token(stream, state) {
    if (stream.eatSpace()) return null;
    if (stream.match("//")) { stream.skipToEnd(); return "comment"; }
    if (stream.match(/^"([^"\\]|\\.)*"?/)) return "string";
    if (stream.match(/^%[A-Za-z0-9_]+/)) return "variableName";
    if (stream.match(/^\$[A-Za-z0-9_]+/)) return "special";
    if (stream.match(/^@[A-Za-z0-9_]+/)) return "labelName";
    if (stream.match(/^-?\d+(\.\d+)?([eE][-+]?\d+)?/)) return "number";
    if (stream.match(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+/)) return "typeName"; // pd_op.conv2d
    const w = stream.match(/^[A-Za-z_][A-Za-z0-9_]*/);
    if (w) return keywords.has(w[0]) ? "keyword" : "name";
    const c = stream.next();
    if (c === "{" || c === "[" || c === "(") state.depth++;
    else if ((c === "}" || c === "]" || c === ")") && state.depth > 0) state.depth--;
    return null;
  },
  languageData: { commentTokens: { line: "//" }, indentOnInput: /^\s*[}\])]$/ },
});
const drrStyle = HighlightStyle.define([
  { tag: tags.keyword, color: "#7a2fa8", fontWeight: "600" },
  { tag: tags.comment, color: "#6a737d", fontStyle: "italic" },
  { tag: tags.string, color: "#0b6e4f" },
  { tag: tags.number, color: "#b35900" },
  { tag: tags.variableName, color: "#1f5fbf" },
  { tag: tags.special(tags.string), color: "#b5178b" },
  { tag: tags.labelName, color: "#9a6700" },
  { tag: tags.typeName, color: "#0a5a66", fontWeight: "600" },
]);

// Highlighted lines (the pattern lines that bound a selected op): set with the setLines effect.
const setLines = StateEffect.define();
const boundLines = StateField.define({
  create() { return Decoration.none; },
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (e.is(setLines)) {
        const b = new RangeSetBuilder();
        const doc = tr.state.doc;
        for (const n of [...new Set(e.value)].sort(function (a, b) { return a - b; })) {
          if (n >= 1 && n <= doc.lines) b.add(doc.line(n).from, doc.line(n).from, Decoration.line({ class: "cm-bound-line" }));
        }
        deco = b.finish();
      }
    }
    return deco;
  },
  provide(f) { return EditorView.decorations.from(f); },
});

// create makes an editor in parent. hooks: change(text), cursor(line), run(), hover(offset) → Promise of
// {from, to, html} or null, complete(offset) → Promise of {from, options: [{label, detail, info, apply}]} or null.
export function create(parent, text, hooks) {
  const view = new EditorView({
    parent: parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(), highlightActiveLineGutter(), highlightSpecialChars(), history(), drawSelection(),
        indentOnInput(), bracketMatching(), closeBrackets(), highlightActiveLine(), highlightSelectionMatches(),
        drr, syntaxHighlighting(drrStyle), lintGutter(), boundLines,
        keymap.of([
          { key: "Mod-Enter", run: function () { hooks.run(); return true; } },
          ...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, ...completionKeymap, indentWithTab,
        ]),
        autocompletion({
          override: [async function (ctx) {
            const res = await hooks.complete(ctx.pos);
            if (!res || res.options.length === 0) return null;
            return { from: res.from, options: res.options, validFor: /^[\w.%$@]*$/ };
          }],
        }),
        hoverTooltip(async function (view, pos) {
          const res = await hooks.hover(pos);
          if (!res) return null;
          return {
            pos: res.from, end: res.to, above: true,
            create: function () {
              const dom = document.createElement("div");
              dom.className = "cm-drr-hover";
              dom.innerHTML = res.html;
              return { dom: dom };
            },
          };
        }),
        EditorView.updateListener.of(function (u) {
          if (u.docChanged) hooks.change(u.state.doc.toString());
          if (u.docChanged || u.selectionSet) hooks.cursor(u.state.doc.lineAt(u.state.selection.main.head).number);
        }),
      ],
    }),
  });
  return view;
}

// text returns the document.
export function text(view) { return view.state.doc.toString(); }

// setText replaces the document.
export function setText(view, s) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: s } });
}

// diagnostics shows the language server's diagnostics: [{from, to, severity: "error"|"warning"|"info", message}].
export function diagnostics(view, list) {
  view.dispatch(setDiagnostics(view.state, list));
}

// highlight marks lines (1-based) as bound to the selected op; scroll brings the first into view.
export function highlight(view, lines, scroll) {
  const effects = [setLines.of(lines)];
  if (scroll && lines.length > 0) {
    const n = Math.min(...lines);
    if (n >= 1 && n <= view.state.doc.lines) {
      effects.push(EditorView.scrollIntoView(view.state.doc.line(n).from, { y: "center" }));
    }
  }
  view.dispatch({ effects: effects });
}

// gotoLine puts the cursor at line:col (1-based) and focuses the editor.
export function gotoLine(view, line, col) {
  const doc = view.state.doc;
  if (line < 1 || line > doc.lines) return;
  const l = doc.line(line);
  const pos = Math.min(l.from + Math.max(col - 1, 0), l.to);
  view.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: "center" }) });
  view.focus();
}

// position converts an offset to the protocol's {line, character} (0-based, UTF-16 as JavaScript strings count).
export function position(view, offset) {
  const l = view.state.doc.lineAt(offset);
  return { line: l.number - 1, character: offset - l.from };
}

// offset converts the protocol's {line, character} to an offset.
export function offset(view, p) {
  const doc = view.state.doc;
  if (p.line >= doc.lines) return doc.length;
  const l = doc.line(p.line + 1);
  return Math.min(l.from + p.character, l.to);
}
