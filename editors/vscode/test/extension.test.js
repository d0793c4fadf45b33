// Unit test of extension.js with stand-ins for the vscode API and the language client (VS Code itself is not
// available to tests): activation starts `drrc lsp` with the configured path and flags, and the commands of the
// code lenses ask what they need and run the server's commands with the right arguments.
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const Module = require('module');

// fake records what the extension does with the vscode API and the client.
function fake(config) {
  const rec = { commands: {}, requests: [], opened: [], shown: [], output: '', errors: [], clients: [] };
  class LanguageClient {
    constructor(id, name, serverOptions, clientOptions) {
      Object.assign(this, { id, name, serverOptions, clientOptions, started: false });
      rec.clients.push(this);
    }
    async start() { this.started = true; }
    async stop() { this.started = false; }
    async sendRequest(method, params) {
      rec.requests.push({ method, params });
      if (params.command === 'drr.view') {
        return { view: params.arguments[0].view, title: 't', language: 'plaintext', text: 'tree pd_op.relu:' };
      }
      return { summary: 'model.json: 3 rewrites\n', rewrites: 3 };
    }
  }
  const vscode = {
    workspace: {
      getConfiguration: () => ({ get: (k) => config[k] }),
      openTextDocument: async (opts) => { rec.opened.push(opts); return opts; },
    },
    window: {
      activeTextEditor: undefined,
      createOutputChannel: () => ({
        clear() { rec.output = ''; }, append(s) { rec.output += s; }, show() {}, dispose() {},
      }),
      showTextDocument: async (doc) => { rec.shown.push(doc); },
      showOpenDialog: async () => [{ fsPath: '/models/resnet' }],
      showQuickPick: async (items) => items[0],
      showInputBox: async (opts) => (config.passes === undefined ? opts.value : config.passes),
      showErrorMessage: (m) => rec.errors.push(m),
      withProgress: (_opts, f) => f(),
    },
    commands: { registerCommand: (name, f) => { rec.commands[name] = f; return { dispose() {} }; } },
    Uri: { file: (p) => ({ fsPath: p }), parse: (u) => ({ fsPath: u.replace('file://', '') }) },
    ViewColumn: { Beside: -2 },
    ProgressLocation: { Notification: 15 },
  };
  return { rec, vscode, LanguageClient };
}

function loadExtension(f) {
  const orig = Module._load;
  Module._load = function (request, parent, isMain) {
    if (request === 'vscode') return f.vscode;
    if (request === 'vscode-languageclient/node') return { LanguageClient: f.LanguageClient };
    return orig.call(this, request, parent, isMain);
  };
  try {
    delete require.cache[require.resolve('../extension.js')];
    return require('../extension.js');
  } finally {
    Module._load = orig;
  }
}

test('activation starts drrc lsp with the configured binary and flags', async () => {
  const f = fake({ 'server.path': '/opt/bin/drrc', 'server.args': ['-log', '/tmp/l'] });
  const ext = loadExtension(f);
  await ext.activate({ subscriptions: [] });
  assert.deepStrictEqual(Object.keys(f.rec.commands).sort(), ['drr.applyTo', 'drr.restartServer', 'drr.showView']);
  assert.strictEqual(f.rec.clients.length, 1);
  const c = f.rec.clients[0];
  assert.deepStrictEqual(c.serverOptions, { command: '/opt/bin/drrc', args: ['lsp', '-log', '/tmp/l'] });
  assert.deepStrictEqual(c.clientOptions.documentSelector, [{ language: 'drr' }]);
  assert.ok(c.started);
  await f.rec.commands['drr.restartServer']();
  assert.strictEqual(f.rec.clients.length, 2);
  assert.ok(!c.started && f.rec.clients[1].started);
});

test('apply to… asks for a program, runs drr.apply and shows the report', async () => {
  const f = fake({});
  const ext = loadExtension(f);
  await ext.activate({ subscriptions: [] });
  assert.deepStrictEqual(f.rec.clients[0].serverOptions, { command: 'drrc', args: ['lsp'] });
  await f.rec.commands['drr.applyTo']({ uri: 'file:///rules/a.drr' });
  assert.deepStrictEqual(f.rec.requests.pop(), {
    method: 'workspace/executeCommand',
    params: { command: 'drr.apply', arguments: [{ uri: 'file:///rules/a.drr', program: '/models/resnet' }] },
  });
  assert.strictEqual(f.rec.output, 'model.json: 3 rewrites\n');
  // The lens of the last run carries the program and the passes: no question.
  await f.rec.commands['drr.applyTo']({ uri: 'file:///rules/a.drr', program: '/m.json' });
  assert.strictEqual(f.rec.requests.pop().params.arguments[0].program, '/m.json');
  await f.rec.commands['drr.applyTo']({ uri: 'file:///rules/a.drr', program: '/m.json', passes: 'inference[before reinplace: rules]' });
  assert.deepStrictEqual(f.rec.requests.pop().params.arguments[0],
    { uri: 'file:///rules/a.drr', program: '/m.json', passes: 'inference[before reinplace: rules]' });
  // Without a .drr file there is nothing to apply.
  await f.rec.commands['drr.applyTo']();
  assert.match(f.rec.errors.pop(), /Open a .drr file/);
});

test('apply to… asks for the pipeline the rules run in, and offers it again', async () => {
  const f = fake({ passes: 'gpu_inference[before reinplace: rules]' });
  const ext = loadExtension(f);
  await ext.activate({ subscriptions: [] });
  await f.rec.commands['drr.applyTo']({ uri: 'file:///rules/a.drr' });
  assert.deepStrictEqual(f.rec.requests.pop().params.arguments[0],
    { uri: 'file:///rules/a.drr', program: '/models/resnet', passes: 'gpu_inference[before reinplace: rules]' });
});

test('show view runs drr.view and opens its text beside the file', async () => {
  const f = fake({});
  const ext = loadExtension(f);
  await ext.activate({ subscriptions: [] });
  await f.rec.commands['drr.showView']({ uri: 'file:///rules/a.drr', view: 'automaton' });
  assert.deepStrictEqual(f.rec.requests.pop().params, { command: 'drr.view', arguments: [{ uri: 'file:///rules/a.drr', view: 'automaton' }] });
  assert.deepStrictEqual(f.rec.opened.pop(), { content: 'tree pd_op.relu:', language: 'plaintext' });
  // From the command palette: the active .drr editor, and a view picked from the list.
  f.vscode.window.activeTextEditor = { document: { languageId: 'drr', uri: { toString: () => 'file:///rules/b.drr' } } };
  await f.rec.commands['drr.showView']();
  assert.deepStrictEqual(f.rec.requests.pop().params.arguments[0], { uri: 'file:///rules/b.drr', view: 'automaton' });
  assert.deepStrictEqual(ext.VIEWS.map((v) => v.label), ['automaton', 'automaton-dot', 'go']);
});
